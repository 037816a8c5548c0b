from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "义乌麻将记分"
