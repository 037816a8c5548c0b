"""Replaying a game under any ruleset, with the contract's bound on amounts (Input hygiene)."""

from .errors import ScoringError
from .ruleset import Ruleset
from .seating import SeatingEntry, seat, validate_room

LIMIT = 10**12  # no amount or running total may reach this in size


def _too_big(totals: list, result) -> bool:
    """Whether a payment or a running total would reach ``LIMIT``; exact only near it (Fractions are slow)."""
    for p in result.payments:
        if int(p.amount) + 1 >= LIMIT and p.amount >= LIMIT:
            return True
    for t, n in zip(totals, result.net, strict=True):
        if abs(int(t)) + abs(int(n)) + 2 >= LIMIT and abs(t + n) >= LIMIT:
            return True
    return False


def score(ruleset: Ruleset, rules, state, hand, max_people: int | None = None):
    """Score one hand in ``state`` and advance ``state``, which is untouched on an error."""
    if max_people is not None and type(hand) is SeatingEntry:
        validate_room(state, hand, max_people)
    result = ruleset.score_hand(rules, state, hand)
    if _too_big(state.totals, result):
        raise ScoringError(
            "金额超出上限（10^12），请检查输入", "An amount or total would reach 10^12: check the entry", "hand"
        )
    ruleset.advance(rules, state, hand, result)
    return result


def replay(
    ruleset: Ruleset,
    rules,
    hands,
    first_dealer: int = 0,
    fixes: dict | None = None,
    state=None,
    players=None,
    max_people: int | None = None,
):
    """Score every hand in order: (the results, the state the next hand is played in).

    ``fixes``: a hand index → its (dealer, streak) correction; ``state``: the table to go on from;
    ``players``: a fresh ``Seated`` table. ``ScoringError`` carries the first bad hand's index.
    """
    if state is None:
        state = ruleset.new_state(first_dealer)
        if players is not None:
            state = seat(state, players)
    results = []
    for index, raw in enumerate(hands):
        if fixes and index in fixes:
            state.correct(*fixes[index])
        try:
            hand = ruleset.parse_hand(raw) if isinstance(raw, dict) or not hasattr(raw, "outcome") else raw
            results.append(score(ruleset, rules, state, hand, max_people))
        except ScoringError as error:
            raise error.at(index) from None
    return results, state
