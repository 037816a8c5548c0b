from django.urls import path

from scoring.analyse import views as analyse

urlpatterns = [
    path("g/<str:token>/analyse", analyse.analyse, name="analyse"),
]
