from django.apps import AppConfig


class AnalyseConfig(AppConfig):
    name = "scoring.analyse"
    label = "scoring_analyse"
