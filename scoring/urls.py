from django.urls import path

from scoring.views import api, pages

urlpatterns = [
    path("", pages.home, name="home"),
    path("api/score", api.score, name="api-score"),
]
