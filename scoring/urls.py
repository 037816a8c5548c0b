"""Every address: each feature app owns its own (URL names and addresses never change)."""

from django.urls import include, path

urlpatterns = [
    path("", include("scoring.table.urls")),
    path("", include("scoring.pwa.urls")),
    path("", include("scoring.records.urls")),
    path("", include("scoring.settle.urls")),
    path("", include("scoring.groups.urls")),
    path("", include("scoring.analyse.urls")),
    path("", include("scoring.accounts.urls")),
    path("", include("scoring.api.urls")),
    path("", include("scoring.nights.urls")),
]
