from django.urls import path

from scoring.nights import views as nights

urlpatterns = [
    path("group/<str:token>/night/new", nights.new_night, name="night-new"),
    path("group/<str:token>/night/restore", nights.restore, name="night-restore"),
    path("night/<str:token>/backup.json", nights.backup, name="night-backup"),
    path("night/<str:token>/", nights.board, name="night"),
    path("night/<str:token>/board.json", nights.board_json, name="night-board-json"),
    path("night/<str:token>/poll", nights.poll, name="night-poll"),
    path("night/<str:token>/move", nights.move, name="night-move"),
    path("night/<str:token>/settle", nights.settle, name="night-settle"),
    path("night/<str:token>/settle/tables", nights.settle_tables, name="night-settle-tables"),
    path("night/<str:token>/paid/<int:transfer_id>", nights.paid, name="night-paid"),
    path("night/<str:token>/paycode/<int:paycode_id>.png", nights.paycode_png, name="night-paycode-png"),
]
