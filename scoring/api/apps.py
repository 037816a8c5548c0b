from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "scoring.api"
    label = "scoring_api"
