from django.apps import AppConfig


class NightsConfig(AppConfig):
    name = "scoring.nights"
    label = "scoring_nights"
