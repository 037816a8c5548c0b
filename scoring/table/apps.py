from django.apps import AppConfig


class TableConfig(AppConfig):
    name = "scoring.table"
    label = "scoring_table"
