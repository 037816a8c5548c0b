from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "义乌麻将记分"

    def ready(self) -> None:
        from scoring import settings_warnings  # noqa: F401  (registers the warnings manage.py check gives)
