"""The replay cache always equals the replay: random records, edits and voids through services."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import services
from scoring.models import Game, Hand
from scoring.replay import STORED_VERSION, ReplayError, build, result_json, stored_replay
from tests.rulesets.yiwu.strategies import valid_hand
from tests.speed import examples

OPS = st.lists(
    st.tuples(st.sampled_from(["record", "record", "record", "edit", "void"]), st.integers(0, 10**6)), max_size=14
)


def assert_cache_is_the_replay(game: Game) -> None:
    game.refresh_from_db()
    ledger = build(game)
    assert game.state["v"] == STORED_VERSION
    assert game.plugin.state_from_dict(game.state["table"]) == ledger.state  # seated: people too
    assert game.state["active"] == ledger.active_count()
    stored = {h.seq: h.result for h in Hand.objects.filter(game=game)}
    assert stored == {
        row.hand.seq: (result_json(row.result, game.plugin) if row.result else None) for row in ledger.rows
    }


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data(), ops=OPS)
@pytest.mark.django_db
def test_the_cache_equals_a_fresh_replay_after_any_writes(data, ops):
    game = Game.objects.create(
        players=["甲", "乙", "丙", "丁"], rules={**Game().house_rules().to_dict(), "abandon_enabled": True}
    )
    rules = game.house_rules()
    for op, pick in ops:
        hands = list(Hand.objects.filter(game=game, voided_at__isnull=True))
        try:
            if op == "record" or not hands:
                state, next_seq = stored_replay(game).state, stored_replay(game).next_seq
                entry = data.draw(valid_hand(rules, state))
                services.record_hand(game=game, entry=entry, fix=None, next_seq=next_seq, form_token="", entered_by="")
            elif op == "edit":
                target = random.Random(pick).choice(hands)
                services.edit_hand(
                    game=game,
                    seq=target.seq,
                    revision=target.revision,
                    entry={"outcome": "draw"},
                    fix=None,
                    edited_by="",
                )
            else:
                target = random.Random(pick).choice(hands)
                services.void_hand(game=game, seq=target.seq, revision=target.revision, reason="", voided_by="")
        except ReplayError:
            pass  # an edit or void that would break a later hand is refused and changes nothing
        assert_cache_is_the_replay(game)


def test_a_missing_or_outdated_cache_is_rebuilt_from_the_replay(client, game):
    from tests.helpers import game_url, record

    record(client, game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    Hand.objects.update(result=None)
    Game.objects.update(state={"v": STORED_VERSION - 1})
    html = client.get(game_url(game)).content.decode()
    assert ">+42<" in html
    assert_cache_is_the_replay(game)


def test_verify_ledgers_reports_and_repairs_a_wrong_cache(game, client):
    from io import StringIO

    from django.core.management import call_command

    from tests.helpers import record

    record(client, game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    hand = Hand.objects.get()
    hand.result = {**hand.result, "net": [0, 0, 0, 0]}
    hand.save()
    out = StringIO()
    with pytest.raises(SystemExit):
        call_command("verify_ledgers", stdout=out)
    assert f"game {game.pk}" in out.getvalue()
    call_command("verify_ledgers", "--repair", stdout=StringIO())
    assert_cache_is_the_replay(game)


@pytest.mark.parametrize("state", [None, {"v": STORED_VERSION - 1, "table": {}}])
def test_verify_ledgers_right_after_an_upgrade_finds_nothing_wrong_and_repair_fills_the_cache(client, game, state):
    """After the upgrade's migrate no game's cache has been filled (or it is an older version's):
    every page rebuilds it on first read, so it differs from nothing."""
    from io import StringIO

    from django.core.management import call_command

    from tests.helpers import record_settle_hands

    record_settle_hands(client, game)
    Hand.objects.update(result=None)
    Game.objects.filter(pk=game.pk).update(state=state)
    out = StringIO()
    call_command("verify_ledgers", stdout=out)  # exit 0: no SystemExit
    assert "0 game(s) differed" in out.getvalue()
    assert "1 game(s) not cached yet" in out.getvalue()
    call_command("verify_ledgers", "--repair", stdout=StringIO())
    assert_cache_is_the_replay(game)
    out = StringIO()
    call_command("verify_ledgers", stdout=out)
    assert "not cached yet" not in out.getvalue()
