"""Input hygiene (scoring/engine/hygiene.py): JSON read strictly, one check for names and notes."""

import sys
import unicodedata

import pytest

from scoring.engine import ScoringError, score_game
from scoring.engine.errors import BAD_CATEGORIES, shown
from scoring.engine.hygiene import bad_character, loads, validate_names


@pytest.mark.parametrize(
    "raw", [b"NaN", b"[Infinity]", b'{"a": -Infinity}', b"1e400", b'{"a": 1, "a": 1}', b'"\\udc00"']
)
def test_loads_refuses_what_json_cannot_mean(raw):
    with pytest.raises(ScoringError):
        loads(raw)


def test_loads_keeps_escaped_pairs_and_big_finite_numbers():
    assert loads(b'["\\ud83c\\udc04", 1.5e300, 12345678901234567890]') == ["\U0001f004", 1.5e300, 12345678901234567890]


def test_shown_escapes_what_a_page_cannot_show_and_cuts_long_input():
    assert shown("a\ud800\u202e\x00b") == "a\\ud800\\u202e\\x00b"
    assert shown("x" * 100) == "x" * 24 + "…"
    assert shown(["list"]) == "['list']"


@pytest.mark.parametrize(
    "names", [["甲", " 甲"], ["甲", "\u3000"], ["甲", "乙\u200d"], ["甲", "\U00100000"], ["甲", 7]]
)
def test_check_names_refuses_repeats_blanks_and_invisible_characters(names):
    with pytest.raises(ScoringError) as refused:
        validate_names(names)
    assert refused.value.field == "players"


def test_a_manual_amount_past_float_range_is_refused_in_the_engine_too():
    hand = {"outcome": "manual", "net": [float("nan"), 0, 0, 0], "note": "x"}
    with pytest.raises(ScoringError) as refused:
        score_game({"ruleset": "zhuji", "hands": [hand]})
    assert refused.value.field == "net"


def test_every_character_a_name_may_not_hold_is_unprintable_so_a_printable_name_is_passed_at_once():
    chars = (chr(c) for c in range(sys.maxunicode + 1))
    assert not [c for c in chars if unicodedata.category(c) in BAD_CATEGORIES and c.isprintable()]
    assert bad_character("老王\u3000\u202e") == "U+202E"  # an ideographic space is unprintable, and allowed
    assert bad_character("老王\u3000") is None
