"""核对 from several phones at the same moment, each tapping twice: one check per person."""

import pytest
from django.test import Client

from scoring.models import Game, HandCheck
from tests.concurrency.test_concurrent_phones import PHONES, at_once
from tests.helpers import game_url, record

pytestmark = pytest.mark.django_db(transaction=True)


def test_four_phones_each_tapping_twice_record_each_check_once(make_game):
    game = make_game()
    record(Client(), game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    phones = []
    for seat in range(PHONES):  # two tabs of each person's phone
        phone = Client()
        phone.post(game_url(game) + f"me/{seat % 4}")
        phones.append(phone)
    version = Game.objects.get(pk=game.pk).version

    def tap(i: int):
        return phones[i].post(game_url(game) + "hand/1/check", {"verdict": "ok", "revision": "0"})

    responses = at_once(tap)
    assert all(getattr(r, "status_code", None) == 302 for r in responses), responses
    assert sorted(HandCheck.objects.values_list("person", flat=True)) == sorted(game.players)
    assert Game.objects.get(pk=game.pk).version == version + 4  # once per check, not per tap


def test_four_people_on_two_phones_each_tapping_all_right_up_to_n_at_once_check_each_hand_once(make_game):
    game = make_game()
    for _ in range(3):
        record(Client(), game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    phones = []
    for seat in range(PHONES):  # two phones of each person, both showing 「到第3局都对」
        phone = Client()
        phone.post(game_url(game) + f"me/{seat % 4}")
        phones.append(phone)
    version = Game.objects.get(pk=game.pk).version

    def tap(i: int):
        return phones[i].post(game_url(game) + "checks", {"upto": "3", "seen": "1.0,2.0,3.0"})

    responses = at_once(tap)
    assert all(getattr(r, "status_code", None) == 302 for r in responses), responses
    assert HandCheck.objects.count() == 3 * 4
    assert sorted(set(HandCheck.objects.values_list("person", flat=True))) == sorted(game.players)
    assert Game.objects.get(pk=game.pk).version == version + 4  # once per person, not per tap nor per hand
