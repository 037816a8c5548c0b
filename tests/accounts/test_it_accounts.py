import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from scoring.models import SavedGame
from tests.helpers import NEW_GAME, game_url


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
    assert all(f"<bdi>{name}</bdi> <b" in html for name in ("老王", "小李", "阿华", "大刘"))
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


def test_a_weak_password_is_refused_with_the_validators_messages(client, db):
    response = client.post(
        "/accounts/signup", {"username": "laowang", "password1": "12345678", "password2": "12345678"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "这个密码太常见了。" in html
    assert "密码只包含数字。" in html
    short = client.post("/accounts/signup", {"username": "xiaoli", "password1": "mj-26", "password2": "mj-26"})
    assert "密码太短，至少要 8 个字符。" in short.content.decode()
    alike = client.post(
        "/accounts/signup", {"username": "laowang88", "password1": "laowang88", "password2": "laowang88"}
    )
    assert "太相似了" in alike.content.decode()  # too similar to the username
    assert not User.objects.exists()


def test_ten_failed_logins_lock_that_username_from_that_client_for_a_while(client, db):
    sign_up(client, "laowang")
    other = Client()
    for _ in range(9):
        assert other.post("/accounts/login", {"username": "laowang", "password": "wrong"}).status_code == 200
    assert other.post("/accounts/login", {"username": "laowang", "password": "wrong"}).status_code == 429
    locked = other.post("/accounts/login", {"username": "laowang", "password": "mahjong-2026!"})
    assert locked.status_code == 429
    html = locked.content.decode()
    assert "登录失败次数太多" in html
    assert "/static/css/app.css" in html
    # the same person from another address, and another name from this one, still get in
    assert (
        Client(REMOTE_ADDR="10.7.7.7")
        .post("/accounts/login", {"username": "laowang", "password": "mahjong-2026!"})
        .status_code
        == 302
    )
    sign_up(Client(), "xiaoli")
    assert other.post("/accounts/login", {"username": "xiaoli", "password": "mahjong-2026!"}).status_code == 302


def test_logging_in_works(client, db):
    sign_up(client)
    fresh = Client()
    assert fresh.post("/accounts/login", {"username": "laowang", "password": "mahjong-2026!"}).status_code == 302
    assert "laowang" in fresh.get("/").content.decode()


def test_a_login_from_a_client_whose_address_header_is_not_an_ip_still_works(client, db, settings):
    settings.CLIENT_IP_HEADER = "HTTP_X_REAL_IP"
    sign_up(client)
    fresh = Client(HTTP_X_REAL_IP="not-an-address")
    assert fresh.post("/accounts/login", {"username": "laowang", "password": "mahjong-2026!"}).status_code == 302


@pytest.mark.parametrize("length", [151, 256, 1000])
def test_a_username_longer_than_an_account_holds_is_refused_at_login_before_axes_stores_it(client, db, length):
    """axes stores a failed login's username in 255 characters: on PostgreSQL a longer one was a 500."""
    sign_up(client)
    response = Client().post("/accounts/login", {"username": "名" * length, "password": "wrong"})
    assert response.status_code == 200
    assert f"用户名太长：最多 150 个字符（现在是 {length} 个）。" in response.content.decode()
    assert not AccessAttempt.objects.exists()
    assert not AccessFailureLog.objects.exists()
    english = Client()
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = english.post("/accounts/login", {"username": "a" * length, "password": "wrong"})
    assert f"The username is too long: at most 150 characters (this one has {length})." in response.content.decode()
    assert not AccessAttempt.objects.exists()
    assert Client().post("/accounts/login", {"username": "laowang", "password": "wrong"}).status_code == 200
    assert AccessAttempt.objects.get().username == "laowang"  # a name within the bound is still counted


def test_a_username_longer_than_an_account_holds_is_refused_at_sign_up(client, db):
    passwords = {"password1": "mahjong-2026!", "password2": "mahjong-2026!"}
    response = client.post("/accounts/signup", {"username": "名" * 1000, **passwords})
    assert response.status_code == 200
    assert "用户名太长：最多 150 个字符（现在是 1000 个）。" in response.content.decode()
    assert not User.objects.exists()
    sign_up(client, "名" * 150)
