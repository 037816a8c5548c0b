from django.apps import AppConfig


class PwaConfig(AppConfig):
    name = "scoring.pwa"
    label = "scoring_pwa"
