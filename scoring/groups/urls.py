from django.urls import path

from scoring.groups import season_views as season
from scoring.groups import views as groups

urlpatterns = [
    path("g/<str:token>/group", groups.game_group, name="game-group"),
    path("g/<str:token>/carry", groups.carry, name="carry"),
    path("g/<str:token>/carry/<int:transfer_id>/paid", groups.carry_paid, name="carry-paid"),
    path("g/<str:token>/carry/<int:settle_up_id>/undo", groups.carry_undo, name="carry-undo"),
    path("group/new", groups.new_group, name="new-group"),
    path("group/<str:token>/", groups.group_page, name="group"),
    path("group/<str:token>/share", groups.share, name="group-share"),
    path("group/<str:token>/person", groups.person, name="group-person"),
    path("group/<str:token>/again", groups.again, name="group-again"),
    path("group/<str:token>/roster", groups.edit_roster, name="group-roster"),
    path("group/<str:token>/settle-up", groups.settle_up, name="group-settle-up"),
    path("group/<str:token>/paid/<int:transfer_id>", groups.paid, name="group-paid"),
    path("group/<str:token>/settle-up/<int:settle_up_id>/undo", groups.undo, name="group-undo"),
    path("group/<str:token>/paycode", groups.add_paycode, name="group-paycode-add"),
    path("group/<str:token>/paycode/<int:paycode_id>/remove", groups.remove_paycode, name="group-paycode-remove"),
    path("group/<str:token>/paycode/<int:paycode_id>.png", groups.paycode_png, name="group-paycode-png"),
    path("group/<str:token>/season/new", season.season_new, name="season-new"),
    path("group/<str:token>/season/<int:season_id>/edit", season.season_edit, name="season-edit"),
    path("group/<str:token>/season/<int:season_id>/close", season.season_close, name="season-close"),
    path("group/<str:token>/season/<int:season_id>/delete", season.season_delete, name="season-delete"),
    path("group/<str:token>/season/<int:season_id>/picture", season.season_picture, name="season-picture"),
    path(
        "group/<str:token>/season/<int:season_id>/picture.svg", season.season_picture_file, name="season-picture-file"
    ),
    path("group/<str:token>/seasons.json", season.seasons_file, name="seasons-file"),
    path("group/<str:token>/seasons/restore", season.seasons_restore, name="seasons-restore"),
    path("group/<str:token>/standings.csv", season.standings_csv, name="standings-csv"),
]
