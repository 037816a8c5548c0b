"""Games written before the deal followed its person (docs/contract.md "People and seats"): a
seating without ``dealer`` then left the deal at its seat. A backup of that format (2) and the rows
an upgrade finds keep what was played; the same file read by today's rule would move the deal."""

import json
from importlib import import_module

from django.apps import apps

from scoring.models import Game, Hand
from scoring.records.exports import import_game
from scoring.replay import build
from tests.helpers import game_url, messages_of

NAMES = ["老王", "小李", "阿华", "大刘"]
HANDS = [
    {"outcome": "win", "winner": 0, "win_type": "zimo"},  # 老王 (庄) 自摸: 连1
    {"outcome": "seating", "players": ["小李", "老王", "阿华", "大刘"], "dealer": 0},  # 老王 and 小李 swap
    {"outcome": "win", "winner": 2, "win_type": "zimo"},  # 阿华 自摸: the dealer pays 14, the others 10
]
PLAYED = {"老王": 42 - 10, "小李": -14 - 14, "阿华": -14 + 34, "大刘": -14 - 10}  # 小李 dealt from 东


def people(game: Game) -> dict:
    return {name: total for name, total in build(game).state.people()}


def old_file(client, game: Game, fmt: int) -> str:
    """The game's backup as the earlier version wrote it: its seating without a ``dealer``."""
    data = json.loads(client.get(game_url(game) + "export.json").content)
    for hand in data["hands"]:  # the standing hands (a backup keeps only a voided hand's entry beside them)
        if hand.get("outcome") == "seating":
            del hand["dealer"]
    data["backup"]["format"] = fmt
    return json.dumps(data, ensure_ascii=False)


def test_a_format_2_backup_scores_as_it_was_played(client, db):
    original = import_game({"players": NAMES, "hands": HANDS})
    assert people(original) == PLAYED
    response = client.post("/import", {"text": old_file(client, original, 2)}, follow=True)
    restored = Game.objects.exclude(pk=original.pk).get()
    assert people(restored) == PLAYED
    assert not [m for m in messages_of(response) if "→" in m]  # no total differs from the file's
    assert restored.hands.get(seq=2).entry["dealer"] == 0  # kept at its seat, written down


def test_the_same_file_read_by_todays_rule_moves_the_deal_and_says_the_totals_differ(client, db):
    original = import_game({"players": NAMES, "hands": HANDS})
    response = client.post("/import", {"text": old_file(client, original, 3)}, follow=True)
    restored = Game.objects.exclude(pk=original.pk).get()
    assert people(restored)["老王"] == 42 - 14  # the deal followed 老王 to 南: he paid the dealer's 14
    assert any("→" in m for m in messages_of(response))


def test_the_upgrade_writes_each_old_seatings_dealer_from_its_stored_result(db):
    game = import_game({"players": NAMES, "hands": HANDS})
    seating = game.hands.get(seq=2)
    Hand.objects.filter(pk=seating.pk).update(entry={k: v for k, v in seating.entry.items() if k != "dealer"})
    game.refresh_from_db()
    assert people(game)["老王"] == 42 - 14  # without the upgrade, today's rule moves the deal
    import_module("scoring.migrations.0015_seatings_keep_their_dealer").pin_dealers(apps, None)
    assert Hand.objects.get(pk=seating.pk).entry == HANDS[1]
    game.refresh_from_db()
    assert people(game) == PLAYED
