from django.urls import path

from scoring.settle.views import picture, settle

urlpatterns = [
    path("g/<str:token>/settle", settle.settle, name="settle"),
    path("g/<str:token>/picture", picture.picture, name="picture"),
    path("g/<str:token>/picture.svg", picture.picture_file, name="picture-file"),
    path("g/<str:token>/finish", settle.finish, name="finish"),
    path("g/<str:token>/reopen", settle.reopen, name="reopen"),
    path("g/<str:token>/transfer/<int:transfer_id>/paid", settle.toggle_paid, name="toggle-paid"),
]
