"""Replaying a game under any ruleset, with the contract's bound on amounts (Input hygiene)."""

from .errors import ScoringError
from .ruleset import Ruleset

LIMIT = 10**12  # no amount or running total may reach this in size


def score(ruleset: Ruleset, rules, state, hand):
    """Score one hand in ``state`` and advance ``state``; ``state`` is untouched on an error."""
    result = ruleset.score_hand(rules, state, hand)
    if any(abs(p.amount) >= LIMIT for p in result.payments) or any(
        abs(t + n) >= LIMIT for t, n in zip(state.totals, result.net, strict=True)
    ):
        raise ScoringError(
            None, "金额超出上限（10^12），请检查输入", "An amount or total would reach 10^12: check the entry", "hand"
        )
    ruleset.advance(rules, state, hand, result)
    return result


def replay(ruleset: Ruleset, rules, hands, first_dealer: int = 0, fixes: dict | None = None):
    """Score every hand in order. ``hands`` holds contract HAND objects or parsed hands.

    ``fixes`` maps a hand index to a (dealer, streak) correction applied before that hand.
    Returns the results and the state the next hand would be played in. Raises
    ``ScoringError`` with the index of the first bad hand.
    """
    state = ruleset.new_state(first_dealer)
    results = []
    for index, raw in enumerate(hands):
        if fixes and index in fixes:
            state.correct(*fixes[index])
        try:
            hand = ruleset.parse_hand(raw) if isinstance(raw, dict) or not hasattr(raw, "outcome") else raw
            results.append(score(ruleset, rules, state, hand))
        except ScoringError as error:
            raise error.at(index) from None
    return results, state
