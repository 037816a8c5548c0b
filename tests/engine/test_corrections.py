"""The contract's ``corrections``: the table's 更正庄家 before a hand, replayed as the app does."""

import pytest

from scoring.engine import ScoringError, score_game

ZIMO = {"outcome": "win", "winner": 2, "win_type": "zimo"}


def test_a_correction_makes_the_named_seat_deal_that_hand():
    plain = score_game({"hands": [ZIMO, ZIMO]})
    corrected = score_game({"hands": [ZIMO, ZIMO], "corrections": [{"hand": 1, "dealer": 3, "streak": 0}]})
    assert [h["dealer"] for h in plain["hands"]] == [0, 1]  # a 闲 win passes the deal on
    assert [h["dealer"] for h in corrected["hands"]] == [0, 3]
    assert corrected["totals"] == [-14 - 10, -10 - 10, 34 + 34, -10 - 14]  # 西 wins as a 闲 twice


def test_the_backup_object_is_ignored_by_the_scoring():
    assert score_game({"hands": [ZIMO], "backup": {"anything": 1}}) == score_game({"hands": [ZIMO]})


@pytest.mark.parametrize(
    "corrections",
    [
        {"hand": 0, "dealer": 1, "streak": 0},
        [{"hand": 2, "dealer": 1, "streak": 0}],
        [{"hand": 0, "dealer": 4, "streak": 0}],
        [{"hand": 0, "dealer": 1, "streak": -1}],
        [{"hand": 0, "dealer": 1}],
        [{"hand": 1, "dealer": 1, "streak": 0}, {"hand": 1, "dealer": 2, "streak": 0}],
        [{"hand": 0, "dealer": True, "streak": 0}],
        [{"hand": 0, "dealer": 1, "streak": 0, "why": "x"}],
    ],
)
def test_a_correction_that_names_no_hand_or_no_seat_is_refused(corrections):
    with pytest.raises(ScoringError) as refused:
        score_game({"hands": [ZIMO, ZIMO], "corrections": corrections})
    assert refused.value.hand is None
    assert refused.value.field in ("corrections", "why")
