from django.urls import path

from scoring.views import api, games, hands

urlpatterns = [
    path("", games.home, name="home"),
    path("new", games.new_game, name="new-game"),
    path("g/<str:token>/", games.game_page, name="game"),
    path("g/<str:token>/rules", games.rules_page, name="rules"),
    path("g/<str:token>/me/<int:seat>", games.set_me, name="set-me"),
    path("g/<str:token>/record", hands.record, name="record"),
    path("g/<str:token>/hand/<int:seq>/edit", hands.edit, name="edit-hand"),
    path("g/<str:token>/hand/<int:seq>/void", hands.void, name="void-hand"),
    path("g/<str:token>/undo", hands.undo, name="undo"),
    path("api/score", api.score, name="api-score"),
]
