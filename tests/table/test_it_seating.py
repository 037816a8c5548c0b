"""A game whose hands hold a seating (换人/换位, docs/contract.md "People and seats") in the app:
a backup with one imports and exports again, every page of it answers, the stored table keeps who
sits where and each person's total, and a seating ends the bets a void would carry past it. (The
seating page itself: tests/table/test_it_seating_page.py.)"""

import json

import pytest
from django.conf import settings
from django.test import Client

from scoring import services
from scoring.engine import score_game
from scoring.models import Game, Hand
from scoring.replay import build, stored_replay
from tests.factories import add_hand
from tests.helpers import game_url, record, version_of

NAMES = ["阿明", "小芳", "老王", "阿强"]
SEATING = {"outcome": "seating", "players": ["阿明", "小芳", "小李", "阿强"]}
# 义乌 under 坐庄第一局买子: 阿明 deals and wins twice (小芳 and 老王 bought 买子, 阿强 placed 下子),
# 小李 takes 老王's seat, then 小芳 自摸 and only 小李 buys (docs/contract.md "People and seats").
GAME = {
    "rules": {"maizi_buy": "tenure_start"},
    "players": NAMES,
    "hands": [
        {"outcome": "win", "winner": 0, "win_type": "zimo", "maizi": [0, 1, 1, 0]},  # 50, −18, −18, −14
        {"outcome": "win", "winner": 0, "win_type": "pinghu", "discarder": 3, "xiazi_join": [3]},  # 28, −9, −9, −10
        SEATING,
        {"outcome": "win", "winner": 1, "win_type": "zimo", "maizi": [0, 0, 1, 0]},  # −14, 38, −14, −10
    ],
}
TOTALS = [64, 11, -41, -34]
PEOPLE = [("阿明", 64), ("小芳", 11), ("老王", -27), ("阿强", -34), ("小李", -14)]


def imported(client: Client, data: dict) -> Game:
    before = set(Game.objects.values_list("pk", flat=True))
    response = client.post("/import", {"text": json.dumps(data, ensure_ascii=False)})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.exclude(pk__in=before).get()


def pages(game: Game) -> list[str]:
    """Every page of the game (the void pages of the hands that stand), and the lists that hold it."""
    url = game_url(game)
    voids = [f"{url}hand/{h.seq}/void" for h in game.hands.filter(voided_at__isnull=True)]
    return [
        url,
        url + "summary",
        url + "export.csv",
        url + "settle",
        url + "?page=1",
        url + "chart",
        url + "picture",
        url + "picture.svg",
        url + "share",
        url + "rules",
        url + "analyse",
        url + "record",
        *voids,
        "/history",
        "/stats",
    ]


def assert_seated(game: Game) -> None:
    game.refresh_from_db()
    assert game.state["table"]["seating"] == ["阿明", "小芳", "小李", "阿强"]
    assert game.state["table"]["people"] == [{"name": n, "total": t} for n, t in PEOPLE]
    assert game.state["table"]["totals"] == TOTALS
    assert stored_replay(game).state == build(game).state  # the stored table is the replay's
    assert stored_replay(game).state.people() == PEOPLE


@pytest.mark.django_db
def test_a_backup_holding_a_seating_imports_and_every_page_answers(client):
    game = imported(client, GAME)
    assert_seated(game)
    for url in pages(game):
        assert client.get(url).status_code == 200, url
    page = client.get(game_url(game)).content.decode()
    assert "换人/换位 · 阿明 小芳 小李 阿强" in page
    csv = client.get(game_url(game) + "export.csv").content.decode()
    assert "换人/换位 · 阿明 小芳 小李 阿强" in csv
    summary = client.get(game_url(game) + "summary").content.decode()
    assert "换人/换位" in summary
    english = Client()
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    for url in pages(game):
        assert english.get(url).status_code == 200, url
    assert "New seating · 阿明 小芳 小李 阿强" in english.get(game_url(game)).content.decode()
    # The full backup (the app's own record) holds the seating, and imports again the same.
    backup = json.loads(client.get(game_url(game) + "export.json").content)
    assert backup["hands"][2] == SEATING
    assert backup["players"] == NAMES  # the first seating
    assert score_game(backup)["people"] == [{"name": n, "total": t} for n, t in PEOPLE]
    copy = imported(client, backup)
    assert [h.entry for h in copy.hands.all()] == GAME["hands"]
    assert_seated(copy)
    for url in pages(copy):
        assert client.get(url).status_code == 200, url


@pytest.mark.django_db
def test_a_backup_with_a_voided_seating_and_a_hand_after_it_restores(client):
    game = imported(client, GAME)
    seating = Hand.objects.get(game=game, seq=3)
    assert client.get(game_url(game) + "hand/3/void").status_code == 200
    # Voided, the seating is gone: 小芳's and 老王's 买子 stand again, so the last hand (which drops
    # 小芳's) stops being valid and the void is refused, naming it.
    response = client.post(
        game_url(game) + "hand/3/void", {"reason": "记错了", "revision": seating.revision, "version": version_of(game)}
    )
    assert response.status_code == 200
    assert "第3局" in response.content.decode()  # the hand after it (a seating is no hand: no 第N局)
    hand4 = Hand.objects.get(game=game, seq=4)
    client.post(
        game_url(game) + "hand/4/void", {"reason": "记错了", "revision": hand4.revision, "version": version_of(game)}
    )
    client.post(
        game_url(game) + "hand/3/void", {"reason": "记错了", "revision": seating.revision, "version": version_of(game)}
    )
    assert [h.voided for h in Hand.objects.filter(game=game)] == [False, False, True, True]
    game.refresh_from_db()
    assert game.state["table"]["seating"] == NAMES
    assert "小李" not in [p["name"] for p in game.state["table"]["people"]]
    backup = json.loads(client.get(game_url(game) + "export.json").content)
    copy = imported(client, backup)
    assert [(h.voided, h.entry) for h in copy.hands.all()] == [(h.voided, h.entry) for h in game.hands.all()]
    for url in pages(copy):
        assert client.get(url).status_code == 200, url
    assert "换人/换位 · 阿明 小芳 小李 阿强" in client.get(game_url(copy)).content.decode()  # shown, voided


@pytest.mark.django_db
def test_a_seating_recorded_as_a_hand_clears_the_bets_placed_and_keeps_the_cache_the_replay(client, game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    client.post(game_url(game) + "bet", {"bet": "xiazi", "seat": "1", "on": "1"})
    game.refresh_from_db()
    assert game.pending["xiazi"] == {"1": 2}
    seating = {"outcome": "seating", "players": ["老王", "小李", "阿华", "小周"], "dealer": 1}
    services.record_hand(game=game, entry=seating, fix=None, next_seq=2, form_token="", entered_by="")
    game.refresh_from_db()
    assert game.pending == {}  # a change of people ends every bet, placed or held
    assert game.state["table"]["seating"] == ["老王", "小李", "阿华", "小周"]
    assert (game.state["table"]["dealer"], game.state["table"]["streak"]) == (1, 0)
    assert Hand.objects.get(game=game, seq=2).result["own"] == {"seating": seating["players"]}
    assert stored_replay(game, limit=None).state == build(game).state
    # The next hand: 小李 deals; 小周 (seat 3) 自摸 ×2: 庄7 × 2 from 小李, 闲5 × 2 from the others.
    assert record(client, game, {"outcome": "win", "winner": 3, "win_type": "zimo"}).status_code == 302
    game.refresh_from_db()
    people = {p["name"]: p["total"] for p in game.state["table"]["people"]}
    assert people == {"老王": 42 - 10, "小李": -14 - 14, "阿华": -14 - 10, "大刘": -14, "小周": 34}
    assert stored_replay(game, limit=None).state == build(game).state


@pytest.mark.django_db
def test_the_entry_page_sends_a_seating_to_the_seating_page(client):
    game = imported(client, GAME)
    response = client.get(game_url(game) + "record?outcome=seating")
    assert response.status_code == 302
    assert response["Location"] == game_url(game) + "seating"
    html = client.get(game_url(game) + "hand/3/edit").content.decode()
    assert "修改换人/换位" in html
    assert "确认修改" in html


@pytest.mark.django_db
def test_a_void_carries_no_bets_past_a_seating(client, game):
    bought = {"outcome": "draw", "maizi": [1, 0, 0, 0]}  # 老王 bought 买子 before a draw
    for entry in (bought, {"outcome": "seating", "players": ["老王", "小李", "阿华", "小周"]}, {"outcome": "draw"}):
        services.record_hand(
            game=game, entry=entry, fix=None, next_seq=game.hands.count() + 1, form_token="", entered_by=""
        )
    html = client.get(game_url(game) + "hand/1/void").content.decode()
    assert "保留第1局前下的注" not in html  # the seating after it ended that 买子 anyway
    hand = Hand.objects.get(game=game, seq=1)
    client.post(
        game_url(game) + "hand/1/void", {"reason": "记错了", "revision": hand.revision, "version": version_of(game)}
    )
    assert Hand.objects.get(game=game, seq=3).entry == {"outcome": "draw"}
    game.refresh_from_db()
    assert game.pending == {}
