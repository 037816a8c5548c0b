from django.apps import AppConfig


class RecordsConfig(AppConfig):
    name = "scoring.records"
    label = "scoring_records"
