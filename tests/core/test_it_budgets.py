"""Budgets for everyone, signed in or not: games created and imports per client and per account,
confirmed writes per game per minute, and a cap on the games one account keeps. Past a budget
the answer is the 429 page saying which budget, and nothing changes."""

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.models import Game, Hand, SavedGame
from tests.helpers import NEW_GAME, game_url, record, version_of

BACKUP = json.dumps({"players": ["甲", "乙", "丙", "丁"], "hands": [{"outcome": "draw"}]})
ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}


@pytest.fixture
def budgets(settings):
    """Small budgets, so that a test spends them in a few requests."""

    def set_to(**limits):
        settings.RATE_LIMITS = {**settings.RATE_LIMITS, **limits}

    return set_to


def signed_in(name: str = "laowang", **extra) -> tuple[Client, User]:
    user = User.objects.get_or_create(username=name)[0]
    phone = Client(**extra)
    phone.force_login(user)
    return phone, user


def new_game(phone: Client):
    return phone.post("/new", NEW_GAME)


def import_game(phone: Client):
    return phone.post("/import", {"text": BACKUP})


def test_new_games_past_the_budget_per_client_are_refused_with_a_429_page(client, db, budgets):
    budgets(games=3)
    for _ in range(3):
        assert new_game(client).status_code == 302
    response = new_game(client)
    assert response.status_code == 429
    html = response.content.decode()
    assert "新开的牌局太多" in html
    assert "Too many new games" in html
    assert Game.objects.count() == 3
    assert new_game(Client(REMOTE_ADDR="10.9.9.9")).status_code == 302  # another client has its own


def test_a_signed_in_account_has_a_new_game_budget_of_its_own_from_any_address(db, budgets):
    budgets(games=3)
    for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
        assert new_game(signed_in(REMOTE_ADDR=address)[0]).status_code == 302
    phone, user = signed_in(REMOTE_ADDR="10.0.0.4")
    assert new_game(phone).status_code == 429
    assert Game.objects.count() == 3
    assert SavedGame.objects.filter(user=user).count() == 3


def test_imports_are_new_games_and_have_their_own_smaller_budget_for_accounts_too(db, budgets):
    budgets(imports=2, games=30)
    for address in ("10.0.0.1", "10.0.0.2"):
        assert import_game(signed_in(REMOTE_ADDR=address)[0]).status_code == 302
    response = import_game(signed_in(REMOTE_ADDR="10.0.0.3")[0])
    assert response.status_code == 429
    assert "导入" in response.content.decode()
    assert Game.objects.count() == 2
    budgets(imports=30, games=3)  # and each import is one of the new games
    assert import_game(signed_in(REMOTE_ADDR="10.0.0.4")[0]).status_code == 302
    assert new_game(signed_in(REMOTE_ADDR="10.0.0.5")[0]).status_code == 429
    assert Game.objects.count() == 3


def test_the_json_doors_count_a_signed_in_account_whatever_its_address(db, budgets):
    budgets(anon=2)
    for address in ("10.0.0.1", "10.0.0.2"):
        phone = signed_in(REMOTE_ADDR=address)[0]
        assert phone.post("/api/score", '{"hands": []}', content_type="application/json").status_code == 200
    phone = signed_in(REMOTE_ADDR="10.0.0.3")[0]
    assert phone.post("/api/score", '{"hands": []}', content_type="application/json").status_code == 429
    other = signed_in("xiaoli", REMOTE_ADDR="10.0.0.3")[0]  # the address itself is not spent
    assert other.post("/api/score", '{"hands": []}', content_type="application/json").status_code == 200


def test_confirmed_writes_per_game_per_minute_are_limited_for_every_phone(client, game, budgets):
    budgets(hands=3)
    for _ in range(2):
        assert record(client, game, ZIMO).status_code == 302
    assert (
        client.post(
            game_url(game) + "hand/1/void", {"reason": "记错了", "revision": "0", "version": version_of(game)}
        ).status_code
        == 302
    )
    response = record(Client(REMOTE_ADDR="10.3.3.3"), game, ZIMO)  # another phone, the same game
    assert response.status_code == 429
    html = response.content.decode()
    assert "这一桌一分钟内记了太多局" in html
    assert "Too many hands" in html
    assert f'href="{game_url(game)}"' in html  # 返回牌局
    assert Hand.objects.filter(game=game).count() == 2
    assert Hand.objects.filter(game=game, voided_at__isnull=False).count() == 1
    other = Game.objects.create(players=game.players, rules=game.rules)
    assert record(client, other, ZIMO).status_code == 302  # every game has its own


def test_previews_are_not_counted_as_writes(client, game, budgets):
    budgets(hands=1)
    for _ in range(5):
        data = {"winner": "0", "win_type": "zimo", "outcome": "win"}
        assert client.post(game_url(game) + "record", data).status_code == 200
    assert record(client, game, ZIMO).status_code == 302


def test_an_account_at_its_cap_of_games_is_told_so_and_nothing_is_created(db, settings):
    settings.MAX_GAMES_PER_ACCOUNT = 2
    phone = signed_in()[0]
    for _ in range(2):
        assert new_game(phone).status_code == 302
    for attempt in (new_game, import_game):
        response = attempt(phone)
        assert response.status_code == 403
        html = response.content.decode()
        assert "这个账号已有 2 个牌局" in html
        assert "This account already keeps 2 games" in html
    assert Game.objects.count() == 2
    assert new_game(Client()).status_code == 302  # the cap is per account


def test_budgets_are_settings_read_from_the_environment():
    from tests.helpers import manage

    code = "from django.conf import settings; print(settings.RATE_LIMITS, settings.MAX_GAMES_PER_ACCOUNT)"
    env = {"DJANGO_DEBUG": "1", "DJANGO_LIMIT_NEW_GAMES": "7", "DJANGO_MAX_GAMES_PER_ACCOUNT": "99"}
    result = manage("shell", "-c", code, env={**env, "DJANGO_LIMIT_HANDS_PER_MINUTE": "12"})
    assert result.returncode == 0, result.stderr
    assert "'games': 7" in result.stdout
    assert "'hands': 12" in result.stdout
    assert result.stdout.split()[-1] == "99"
