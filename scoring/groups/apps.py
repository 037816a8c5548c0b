from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "scoring.groups"
    label = "scoring_groups"
