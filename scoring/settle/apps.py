from django.apps import AppConfig


class SettleConfig(AppConfig):
    name = "scoring.settle"
    label = "scoring_settle"
