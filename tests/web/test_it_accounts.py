from django.test import Client

from scoring.models import SavedGame
from tests.web.helpers import NEW_GAME, game_url


def sign_up(client: Client, name: str = "laowang") -> None:
    response = client.post(
        "/accounts/signup", {"username": name, "password1": "mahjong-2026!", "password2": "mahjong-2026!"}
    )
    assert response.status_code == 302


def test_nobody_needs_an_account(client, game):
    assert client.get(game_url(game)).status_code == 200


def test_a_signed_in_person_who_opens_a_link_keeps_the_game_on_every_device(game):
    phone = Client()
    sign_up(phone)
    phone.get(game_url(game, view=True))
    laptop = Client()
    assert laptop.post("/accounts/login", {"username": "laowang", "password": "mahjong-2026!"}).status_code == 302
    html = laptop.get("/").content.decode()
    assert "老王 · 小李 · 阿华 · 大刘" in html
    assert game_url(game, view=True) in html
    assert game.edit_token not in html  # the view link stays a view link


def test_opening_the_edit_link_later_upgrades_the_saved_game(client, game):
    sign_up(client)
    client.get(game_url(game, view=True))
    client.get(game_url(game))
    assert SavedGame.objects.get().token == game.edit_token
    client.get(game_url(game, view=True))
    assert SavedGame.objects.get().token == game.edit_token


def test_a_game_created_while_signed_in_is_saved(client, db):
    sign_up(client)
    client.post("/new", NEW_GAME)
    assert SavedGame.objects.count() == 1


def test_a_bad_password_is_refused_with_a_message(client, db):
    sign_up(client)
    Client().post("/accounts/logout")
    response = Client().post("/accounts/login", {"username": "laowang", "password": "wrong"})
    assert response.status_code == 200
    assert response.context["form"].errors


def test_logout_is_a_post(client, db):
    sign_up(client)
    assert client.post("/accounts/logout").status_code == 302
    assert "登录" in client.get("/").content.decode()
