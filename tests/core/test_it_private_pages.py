"""Pages whose URL holds a game token are never cached; the device cookies follow HTTPS."""

import pytest
from django.test import override_settings

from scoring.device import GAMES_COOKIE, ME_COOKIE
from tests.factories import add_hand
from tests.helpers import game_url

TOKEN_PAGES = [
    "",
    "record?winner=0&win_type=zimo",
    "hand/1/edit",
    "hand/1/void",
    "settle",
    "share",
    "summary",
    "rules",
    "chart",
    "export.csv",
    "export.json",
    "poll?v=0",
]


@pytest.mark.parametrize("path", TOKEN_PAGES)
def test_token_bearing_pages_are_private_and_not_stored(client, game, path):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    response = client.get(game_url(game) + path)
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"


def test_the_view_link_is_private_too(client, game):
    assert client.get(game_url(game, view=True))["Cache-Control"] == "private, no-store"


def test_device_cookies_are_secure_when_session_cookies_are(client, game):
    with override_settings(SESSION_COOKIE_SECURE=True):
        opened = client.get(game_url(game))
        me = client.post(game_url(game) + "me/1")
    assert opened.cookies[GAMES_COOKIE]["secure"] is True
    assert me.cookies[ME_COOKIE]["secure"] is True
    assert opened.cookies[GAMES_COOKIE]["httponly"] is True


def test_device_cookies_work_over_plain_http_in_development(client, game):
    assert not client.get(game_url(game)).cookies[GAMES_COOKIE]["secure"]
