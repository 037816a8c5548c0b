"""Anonymous work on the server is rate-limited per client, counted in the database (every
worker sees one count): the JSON doors and import, and sign-ups."""

import json

import pytest
from django.contrib.auth.models import User

from scoring.access import LIMITS
from scoring.models import AccessMiss

DRAW_GAME = json.dumps({"hands": [{"outcome": "draw"}]})
SETTLE = json.dumps({"balances": {"甲": 1, "乙": -1}, "rate_fen": 100})


def post(client, door: str, **extra):
    if door == "/import":
        return client.post(door, {"text": DRAW_GAME}, **extra)
    body = DRAW_GAME if door == "/api/score" else SETTLE
    return client.post(door, body, content_type="application/json", **extra)


def test_the_json_doors_and_import_share_one_anonymous_budget_per_client(client, db, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "imports": 100, "games": 100}  # imports' own budgets apart
    doors = ["/api/score", "/api/settle", "/import"]
    for i in range(LIMITS["anon"]):
        assert post(client, doors[i % 3]).status_code in (200, 302)
    for door in doors:
        response = post(client, door)
        assert response.status_code == 429
    assert post(client, "/api/score", REMOTE_ADDR="10.1.2.3").status_code == 200  # another client
    counts = AccessMiss.objects.filter(kind="anon", client="127.0.0.1").values_list("count", flat=True)
    assert list(counts) == [LIMITS["anon"]]


def test_the_json_doors_answer_429_as_json_with_both_languages(client, db):
    AccessMiss.objects.create(kind="anon", client="127.0.0.1", window=current_window(), count=LIMITS["anon"])
    response = post(client, "/api/settle")
    assert response.status_code == 429
    error = response.json()["error"]
    assert "请求太多" in error["message"]
    assert "Too many" in error["message_en"]


def test_import_over_the_limit_is_the_apps_429_page(client, db):
    AccessMiss.objects.create(kind="anon", client="127.0.0.1", window=current_window(), count=LIMITS["anon"])
    response = post(client, "/import")
    assert response.status_code == 429
    assert "请求太多" in response.content.decode()


def test_signed_in_people_are_counted_per_account_not_on_the_address_budget(client, db):
    user = User.objects.create_user("laowang", password="a-long-enough-password-9")
    client.force_login(user)
    AccessMiss.objects.create(kind="anon", client="127.0.0.1", window=current_window(), count=LIMITS["anon"])
    assert post(client, "/api/score").status_code == 200


def test_reading_the_import_page_is_not_counted(client, db):
    for _ in range(LIMITS["anon"] + 1):
        assert client.get("/import").status_code == 200


def test_wrong_tokens_and_anonymous_posts_are_counted_apart(client, db):
    for i in range(5):
        client.get(f"/g/guess-{i}/")
    post(client, "/api/score")
    assert AccessMiss.objects.get(kind="miss").count == 5
    assert AccessMiss.objects.get(kind="anon").count == 1


@pytest.mark.parametrize("limit_kind", ["signup"])
def test_sign_up_attempts_are_limited_per_client(client, db, limit_kind):
    for i in range(LIMITS[limit_kind]):
        response = client.post("/accounts/signup", {"username": f"u{i}", "password1": "x", "password2": "y"})
        assert response.status_code == 200
    response = client.post("/accounts/signup", {"username": "late", "password1": "x", "password2": "y"})
    assert response.status_code == 429


def current_window() -> int:
    from scoring.access import _window

    return _window()


def test_failed_sign_ups_for_a_name_from_many_addresses_never_block_that_name(db):
    from django.test import Client

    for i in range(LIMITS["signup"] + 5):
        other = Client(REMOTE_ADDR=f"10.0.0.{i + 1}")  # a new client each time
        response = other.post("/accounts/signup", {"username": "LaoWang", "password1": "x", "password2": "y"})
        assert response.status_code == 200
    owner = Client(REMOTE_ADDR="10.0.1.1")
    password = "mahjong-2026!"
    response = owner.post("/accounts/signup", {"username": "laowang", "password1": password, "password2": password})
    assert response.status_code == 302
    assert User.objects.filter(username="laowang").exists()


@pytest.mark.parametrize("name", ["lao\x00wang", "\x00", "laowang\x00" + "x" * 200])
def test_a_nul_in_the_sign_up_username_is_a_form_error_never_a_throttle_key(client, db, name):
    response = client.post("/accounts/signup", {"username": name, "password1": "x", "password2": "y"})
    assert response.status_code == 200
    assert "Null characters are not allowed" in response.content.decode() or "空字符" in response.content.decode()
    assert not User.objects.exists()
    assert all("\x00" not in key for key in AccessMiss.objects.values_list("client", flat=True))
