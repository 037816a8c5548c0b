"""Real threads, real transactions: phones tapping at the same moment (SQLite and PostgreSQL)."""

import threading

import pytest
from django.db import connection
from django.test import Client

from scoring.models import Game, Hand
from tests.helpers import game_url, version_of

pytestmark = pytest.mark.django_db(transaction=True)
PHONES = 8


def at_once(work) -> list:
    """Run ``work(i)`` on PHONES threads released together; return what each returned."""
    barrier = threading.Barrier(PHONES)
    results: list = [None] * PHONES

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as error:  # reported by the assertions, never swallowed
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(PHONES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def post_hand(game: Game, i: int, next_seq: int, **fields):
    data = {"outcome": "win", "winner": str(i % 4), "win_type": "zimo", "confirm": "1", "next_seq": str(next_seq)}
    data["version"] = str(next_seq - 1)  # each hand recorded so far bumped it once
    data.update(form_token=f"phone-{i}-{next_seq}", **fields)
    return Client().post(game_url(game) + "record", data)


def test_eight_phones_submitting_the_same_next_hand_record_exactly_one(make_game):
    game = make_game()
    responses = at_once(lambda i: post_hand(game, i, next_seq=1))
    assert all(getattr(r, "status_code", None) == 302 for r in responses), responses
    assert Hand.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).version == 1


def test_a_double_tap_from_one_phone_is_one_hand(make_game):
    game = make_game()
    data = {"outcome": "draw", "confirm": "1", "next_seq": "1", "form_token": "same-form", "version": "0"}
    responses = at_once(lambda i: Client().post(game_url(game) + "record", data))
    assert all(getattr(r, "status_code", None) == 302 for r in responses), responses
    assert Hand.objects.filter(game=game).count() == 1


def test_eight_simultaneous_edits_from_one_version_apply_once(make_game):
    game = make_game()
    Client().post(
        game_url(game) + "record", {"version": version_of(game), "outcome": "draw", "confirm": "1", "next_seq": "1"}
    )

    def edit(i: int):
        data = {"outcome": "win", "winner": str(i % 4), "win_type": "zimo", "revision": "0", "confirm": "1"}
        data["version"] = "1"  # all eight previewed after the first hand
        return Client().post(game_url(game) + "hand/1/edit", data, follow=True)

    responses = at_once(edit)
    texts = [r.content.decode() for r in responses]
    assert sum("已修改第1局" in t for t in texts) == 1
    assert sum("刚被别人改过" in t for t in texts) == PHONES - 1
    hand = Hand.objects.get(game=game)
    assert hand.revision == 1
    assert hand.entry["outcome"] == "win"


def test_no_hand_is_lost_when_every_phone_records_its_own(make_game, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "hands": 1000}  # races lost and retried are writes too
    game = make_game()

    def record_until_done(i: int) -> int:
        for _ in range(50):  # each phone refreshes and retries after losing a race
            next_seq = Hand.objects.filter(game=game).count() + 1
            post_hand(game, i, next_seq, outcome="draw", winner="", win_type="")
            if Hand.objects.filter(game=game, form_token=f"phone-{i}-{next_seq}").exists():
                return next_seq
        raise AssertionError(f"phone {i} never got its hand in")

    seqs = at_once(record_until_done)
    assert sorted(seqs) == list(range(1, PHONES + 1)), seqs
    assert list(Hand.objects.filter(game=game).values_list("seq", flat=True)) == list(range(1, PHONES + 1))


def test_phones_placing_bets_at_once_keep_every_bet(make_game):
    game = make_game()

    def buy(i: int) -> int:
        return Client().post(game_url(game) + "bet", {"bet": "maizi", "seat": str(i % 4), "on": "1"}).status_code

    assert at_once(buy) == [302] * PHONES
    game.refresh_from_db()
    assert game.pending["maizi"] == [0, 1, 2, 3]
    assert game.version == PHONES  # each placement bumped it once
