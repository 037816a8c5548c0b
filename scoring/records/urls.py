from django.urls import path

from scoring.records.views import archive, records

urlpatterns = [
    path("history", records.history, name="history"),
    path("stats", records.stats, name="stats"),
    path("import", records.import_view, name="import"),
    path("g/<str:token>/summary", records.summary, name="summary"),
    path("g/<str:token>/export.csv", records.export_csv, name="export-csv"),
    path("g/<str:token>/export.json", records.export_json, name="export-json"),
    path("g/<str:token>/archive", archive.archive, name="archive-game"),
    path("g/<str:token>/delete", archive.delete, name="delete-game"),
]
