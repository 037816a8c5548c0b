"""Phones whose kept hands come back at the same moment, and phones answering the same held
question at once (scoring/table/kept.py): each hand and each answer applied exactly once, under the
game's row lock, on SQLite and PostgreSQL."""

import re

import pytest
from django.test import Client

from scoring.models import Game, Hand
from tests.concurrency.test_concurrent_phones import PHONES, at_once
from tests.helpers import form_fields, game_url, record

pytestmark = pytest.mark.django_db(transaction=True)
AHUA_ZIMO = {"outcome": "win", "winner": 2, "win_type": "zimo"}


@pytest.fixture(autouse=True)
def _writes_enough(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "hands": 1000}  # every phone's answer is a write


def kept_preview(client: Client, game: Game, entry: dict) -> dict:
    """What offline.js keeps of a preview confirmed without network (its hidden fields with it)."""
    query = form_fields(entry, game)
    html = client.get(game_url(game) + "record", query).content.decode()
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', html))
    return {**query, **{k: hidden[k] for k in ("kept", "next_seq", "version", "form_token")}, "confirm": "1"}


def send(client: Client, game: Game, fields: dict, **extra):
    return client.post(game_url(game) + "record", {**fields, "queued": "1", **extra})


def test_the_same_hand_kept_on_every_phone_and_sent_at_once_is_recorded_once_and_asked_on_the_others(make_game):
    game = make_game()
    phones = [Client() for _ in range(PHONES)]
    kept = [kept_preview(client, game, AHUA_ZIMO) for client in phones]
    answers = at_once(lambda i: send(phones[i], game, kept[i]))
    assert sorted(getattr(r, "status_code", r) for r in answers) == [200] + [409] * (PHONES - 1), answers
    assert Hand.objects.filter(game=game).count() == 1
    held = [r.json() for r in answers if r.status_code == 409]
    assert all(h["held"] == "same" and "第1局：阿华 自摸 ×2。是同一局吗？" in h["card"] for h in held)


def test_every_phone_answering_not_the_same_at_once_records_one_and_asks_the_rest_about_it(make_game):
    game = make_game()
    phones = [Client() for _ in range(PHONES)]
    for seat, client in enumerate(phones):
        client.post(game_url(game) + f"me/{seat % 4}")  # 我是: 老王, 小李, 阿华, 大刘, …
    kept = [kept_preview(client, game, AHUA_ZIMO) for client in phones]
    record(Client(), game, AHUA_ZIMO)  # meanwhile 第1局, from a phone online
    held = [send(phones[i], game, kept[i]).json() for i in range(PHONES)]
    assert all(h["held"] == "same" for h in held)
    version = Game.objects.get(pk=game.pk).version

    answers = at_once(lambda i: send(phones[i], game, kept[i], answer="again", agreed=held[i]["agreed"]))
    statuses = [getattr(r, "status_code", r) for r in answers]
    assert sorted(statuses) == [200] + [409] * (PHONES - 1), answers
    assert Hand.objects.filter(game=game).count() == 2
    assert Game.objects.get(pk=game.pk).version == version + 1  # one hand, one bump
    winner = statuses.index(200)
    name = ["老王", "小李", "阿华", "大刘"][winner % 4]
    asked = [r.json() for r in answers if r.status_code == 409]
    assert all(f"{name}已经记了第2局：阿华 自摸 ×2。是同一局吗？" in a["card"] for a in asked), asked[0]


def test_every_phone_dropping_at_once_records_nothing(make_game):
    game = make_game()
    phones = [Client() for _ in range(PHONES)]
    kept = [kept_preview(client, game, AHUA_ZIMO) for client in phones]
    record(Client(), game, AHUA_ZIMO)
    held = [send(phones[i], game, kept[i]).json() for i in range(PHONES)]
    answers = at_once(lambda i: send(phones[i], game, kept[i], answer="drop", agreed=held[i]["agreed"]))
    assert all(r.status_code == 200 and r.json()["dropped"] for r in answers), answers
    assert Hand.objects.filter(game=game).count() == 1


def test_one_kept_hand_answered_from_every_tab_at_once_is_recorded_once(make_game):
    game = make_game()
    client = Client()
    kept = kept_preview(client, game, AHUA_ZIMO)
    record(Client(), game, AHUA_ZIMO)
    held = send(client, game, kept).json()
    answers = at_once(lambda i: send(Client(), game, kept, answer="again", agreed=held["agreed"]))
    assert all(r.status_code == 200 for r in answers), answers
    assert sum(not r.json()["already"] for r in answers) == 1
    assert Hand.objects.filter(game=game).count() == 2
