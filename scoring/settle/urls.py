from django.urls import path

from scoring.settle.views import paycodes, picture, settle

urlpatterns = [
    path("g/<str:token>/settle", settle.settle, name="settle"),
    path("g/<str:token>/picture", picture.picture, name="picture"),
    path("g/<str:token>/picture.svg", picture.picture_file, name="picture-file"),
    path("g/<str:token>/finish", settle.finish, name="finish"),
    path("g/<str:token>/reopen", settle.reopen, name="reopen"),
    path("g/<str:token>/transfer/<int:transfer_id>/paid", settle.toggle_paid, name="toggle-paid"),
    path("g/<str:token>/paycode", paycodes.add, name="paycode-add"),
    path("g/<str:token>/paycode/<int:paycode_id>/remove", paycodes.remove, name="paycode-remove"),
    path("g/<str:token>/paycode/<int:paycode_id>.png", paycodes.png, name="paycode-png"),
]
