"""One write of the phone's outbox sent again from every tab at the same moment (a resend after a
timeout while the first is still running): done once, every send answered with the first's words."""

import pytest
from django.test import Client

from scoring.models import Game, Hand, WriteReceipt
from tests.concurrency.test_concurrent_phones import PHONES, at_once
from tests.factories import add_hand
from tests.helpers import game_url

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_void_sent_from_every_tab_at_once_voids_once_and_all_answer_alike(make_game):
    game = make_game()
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    add_hand(game, {"outcome": "draw"})
    version = Game.objects.get(pk=game.pk).version
    fields = {"reason": "记错了", "revision": "0", "version": str(version), "queued": "1", "form_token": "one-void"}

    def send(i: int):
        return Client().post(game_url(game) + "hand/1/void", fields)

    responses = at_once(send)
    assert all(getattr(r, "status_code", None) == 200 for r in responses), responses
    answers = [r.json() for r in responses]
    assert sorted(a["already"] for a in answers) == [False] + [True] * (PHONES - 1)
    assert {a["message"] for a in answers} == {"第1局已作废，之后的每一局都已重算。"}
    hand = Hand.objects.get(game=game, seq=1)
    assert hand.voided
    assert hand.revision == 1
    assert Game.objects.get(pk=game.pk).version == version + 1
    assert WriteReceipt.objects.filter(game=game).count() == 1


def test_one_bet_sent_from_every_tab_at_once_is_placed_once(make_game):
    game = make_game()
    fields = {"bet": "maizi", "seat": "2", "on": "1", "queued": "1", "form_token": "one-bet"}
    responses = at_once(lambda i: Client().post(game_url(game) + "bet", fields))
    assert sorted(r.json()["already"] for r in responses) == [False] + [True] * (PHONES - 1)
    game.refresh_from_db()
    assert game.pending["maizi"] == [2]
    assert game.version == 1  # a second placement would have bumped it again
