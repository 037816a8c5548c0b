from django.urls import path

from scoring.api import views as api

urlpatterns = [
    path("api/score", api.score, name="api-score"),
    path("api/settle", api.settle_api, name="api-settle"),
    path("api/analyse", api.analyse, name="api-analyse"),
]
