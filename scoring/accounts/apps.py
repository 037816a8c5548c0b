from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "scoring.accounts"
    label = "scoring_accounts"
