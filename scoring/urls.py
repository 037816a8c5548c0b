from django.contrib.auth import views as auth_views
from django.urls import path

from scoring.views import accounts, analyse, api, games, hands, records, settle

urlpatterns = [
    path("", games.home, name="home"),
    path("healthz", games.healthz, name="healthz"),
    path("new", games.new_game, name="new-game"),
    path("history", records.history, name="history"),
    path("stats", records.stats, name="stats"),
    path("import", records.import_view, name="import"),
    path("rules/<str:ruleset>", games.rules_doc, name="rules-doc"),
    path("g/<str:token>/", games.game_page, name="game"),
    path("g/<str:token>/poll", games.poll, name="poll"),
    path("g/<str:token>/share", games.share, name="share"),
    path("g/<str:token>/chart", games.chart, name="chart"),
    path("g/<str:token>/rules", games.rules_page, name="rules"),
    path("g/<str:token>/me/<int:seat>", games.set_me, name="set-me"),
    path("g/<str:token>/record", hands.record, name="record"),
    path("g/<str:token>/analyse", analyse.analyse, name="analyse"),
    path("g/<str:token>/hand/<int:seq>/edit", hands.edit, name="edit-hand"),
    path("g/<str:token>/hand/<int:seq>/void", hands.void, name="void-hand"),
    path("g/<str:token>/undo", hands.undo, name="undo"),
    path("g/<str:token>/bet", hands.bet, name="bet"),
    path("g/<str:token>/settle", settle.settle, name="settle"),
    path("g/<str:token>/summary", records.summary, name="summary"),
    path("g/<str:token>/export.csv", records.export_csv, name="export-csv"),
    path("g/<str:token>/export.json", records.export_json, name="export-json"),
    path("g/<str:token>/finish", settle.finish, name="finish"),
    path("g/<str:token>/reopen", settle.reopen, name="reopen"),
    path("g/<str:token>/transfer/<int:transfer_id>/paid", settle.toggle_paid, name="toggle-paid"),
    path("accounts/signup", accounts.signup, name="signup"),
    path("accounts/login", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout", auth_views.LogoutView.as_view(), name="logout"),
    path("api/score", api.score, name="api-score"),
    path("api/settle", api.settle_api, name="api-settle"),
    path("api/analyse", api.analyse, name="api-analyse"),
]
