"""One read model: the replay (Replay) and the replay kept in the rows (StoredReplay) read alike."""

import json

import pytest

from scoring.engine import ScoringError, score_game
from scoring.records.exports import import_game
from scoring.replay import HandView, PaymentView, ReplayView, RowView, build, result_json, stored_replay
from tests.examples import game_examples, load

GAMES = game_examples()  # every registered ruleset's worked examples


def _valid(path) -> bool:
    try:
        score_game(load(path)["game"])
    except ScoringError:
        return False
    return True


@pytest.mark.parametrize("path", [p for p in GAMES if _valid(p)], ids=lambda p: f"{p.parent.name}-{p.stem}")
@pytest.mark.django_db
def test_the_cache_reads_exactly_as_the_replay(path):
    game = import_game(load(path)["game"])
    replayed, cached = build(game), stored_replay(game, limit=None)
    assert isinstance(replayed, ReplayView)
    assert isinstance(cached, ReplayView)
    assert replayed.totals == cached.totals
    assert replayed.active_count() == cached.active_count()
    names = game.players
    for a, b in zip(replayed.rows, cached.rows, strict=True):
        assert isinstance(a, RowView)
        assert isinstance(b, RowView)
        if a.result is None:
            assert b.result is None
            continue
        assert isinstance(a.result, HandView)
        assert isinstance(b.result, HandView)
        assert (a.result.dealer, a.result.streak, a.result.net, a.result.paid_on) == (
            b.result.dealer,
            b.result.streak,
            b.result.net,
            b.result.paid_on,
        )
        for p, q in zip(a.result.payments, b.result.payments, strict=True):
            assert isinstance(p, PaymentView)
            assert isinstance(q, PaymentView)
            assert (p.payer, p.payee, p.amount) == (q.payer, q.payee, q.amount)
            for zh in (True, False):
                for seat_names in (None, names):
                    assert p.formula(zh, seat_names) == q.formula(zh, seat_names)


@pytest.mark.parametrize("path", [p for p in GAMES if _valid(p)][::4], ids=lambda p: f"{p.parent.name}-{p.stem}")
@pytest.mark.django_db
def test_a_stored_result_holds_data_not_text(path):
    """The cache keeps each payment's why, JSON as it comes back, and no explanation text."""
    game = import_game(load(path)["game"])
    for row in build(game).rows:
        if row.result is None:
            continue
        stored = result_json(row.result, game.plugin)
        assert json.loads(json.dumps(stored)) == stored
        for payment in row.result.payments:
            text = payment.formula(True, game.players)
            assert text not in json.dumps(stored, ensure_ascii=False)
