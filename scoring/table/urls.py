from django.urls import path

from scoring.table.views import checks, edit, games, hands, seating, steps, void

urlpatterns = [
    path("", games.home, name="home"),
    path("healthz", games.healthz, name="healthz"),
    path("readyz", games.readyz, name="readyz"),
    path("new", games.new_game, name="new-game"),
    path("rules/<str:ruleset>", games.rules_doc, name="rules-doc"),
    path("g/<str:token>/", games.game_page, name="game"),
    path("g/<str:token>/poll", games.poll, name="poll"),
    path("g/<str:token>/share", games.share, name="share"),
    path("g/<str:token>/chart", games.chart, name="chart"),
    path("g/<str:token>/rules", games.rules_page, name="rules"),
    path("g/<str:token>/me/<int:seat>", games.set_me, name="set-me"),
    path("g/<str:token>/me", games.set_me_by_name, name="set-me-by-name"),
    path("g/<str:token>/record", hands.record, name="record"),
    path("g/<str:token>/steps", steps.steps, name="steps"),
    path("g/<str:token>/seating", seating.seating, name="seating"),
    path("g/<str:token>/hand/<int:seq>/edit", edit.edit, name="edit-hand"),
    path("g/<str:token>/hand/<int:seq>/void", void.void, name="void-hand"),
    path("g/<str:token>/hand/<int:seq>/check", checks.check, name="check-hand"),
    path("g/<str:token>/hand/<int:seq>/check/back", checks.take_back, name="take-back-check"),
    path("g/<str:token>/checks", checks.check_up_to, name="check-up-to"),
    path("g/<str:token>/undo", void.undo, name="undo"),
    path("g/<str:token>/bet", hands.bet, name="bet"),
    path("g/<str:token>/play-on", hands.play_on, name="play-on"),
]
