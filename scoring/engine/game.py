"""Replaying a game under any ruleset, with the contract's bound on amounts (Input hygiene)."""

from .errors import ScoringError
from .ruleset import Ruleset
from .seating import SeatingEntry, check_room, seat

LIMIT = 10**12  # no amount or running total may reach this in size


def _too_big(totals: list, result) -> bool:
    """Whether a payment or a running total would reach ``LIMIT``.

    Settled with plain ints in the common case: int() of a half is off by under 1, so only a
    value within 2 of the limit is compared exactly (诸暨's Fractions are slow to add)."""
    for p in result.payments:
        if int(p.amount) + 1 >= LIMIT and p.amount >= LIMIT:
            return True
    for t, n in zip(totals, result.net, strict=True):
        if abs(int(t)) + abs(int(n)) + 2 >= LIMIT and abs(t + n) >= LIMIT:
            return True
    return False


def score(ruleset: Ruleset, rules, state, hand, max_people: int | None = None):
    """Score one hand in ``state`` and advance ``state``; ``state`` is untouched on an error.
    ``max_people``: a seating may bring the game to at most that many people (seating.py)."""
    if max_people is not None and type(hand) is SeatingEntry:
        check_room(state, hand, max_people)
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
    """Score every hand in order. ``hands`` holds contract HAND objects or parsed hands.

    ``fixes`` maps a hand index to a (dealer, streak) correction applied before that hand.
    ``state``, when given, is the table the first of ``hands`` is played at (it is advanced in
    place): the rest of a game replayed from the middle. ``players`` (names in seat order), for a
    fresh table: who sits down first; the table is then ``Seated`` (seating.py) and keeps each
    person's total across seatings; ``max_people`` bounds the people its seatings bring (``score``).
    Returns the results and the state the next hand would be played in. Raises ``ScoringError`` with the index of the first bad hand.
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
