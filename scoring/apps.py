from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "义乌麻将记分"

    def ready(self) -> None:
        from scoring import checks  # noqa: F401  (registers the start-up checks)
