"""核对 as pages and the write path read it: who said 对 or 有误 and who is still to say (writes: ``services.check_hand``)."""

from dataclasses import dataclass, field

from scoring.engine.seating import is_seating, key
from scoring.models import Game, HandCheck
from scoring.people import Seatings


@dataclass
class HandChecks:
    """One hand's checks: ``ok`` and ``wrong`` rows in the order said, and ``waiting``, the players yet to say."""

    seq: int
    number: int | None
    ok: list = field(default_factory=list)
    wrong: list = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    revision: int = 0  # the hand's, as 「到第N局都对」 posts what it showed

    @property
    def done(self) -> bool:
        return not self.wrong and not self.waiting

    def of(self, name: str) -> HandCheck | None:
        """What ``name`` said, if anything."""
        return next((c for c in [*self.ok, *self.wrong] if key(c.person) == key(name)), None)


def sort_checks(players: list[str], checks) -> tuple[list, list, list[str]]:
    """(ok, wrong, waiting) of a hand played by ``players``; a check by someone not at the hand counts for nobody."""
    said = {key(c.person): c for c in checks}
    at_hand = [said[key(n)] for n in players if key(n) in said]
    ok = [c for c in at_hand if c.verdict == HandCheck.OK]
    wrong = [c for c in at_hand if c.verdict == HandCheck.WRONG]
    return ok, wrong, [n for n in players if key(n) not in said]


def checks_of(hands) -> dict[int, list[HandCheck]]:
    """The checks of ``hands`` (a page's rows: bounded), by hand pk: one query."""
    found: dict[int, list[HandCheck]] = {}
    for check in HandCheck.objects.filter(hand_id__in=[h.pk for h in hands]).order_by("at", "pk"):
        found.setdefault(check.hand_id, []).append(check)
    return found


def not_checked(game: Game) -> list[HandChecks]:
    """Every standing hand not 对 by all its players, or 有误 by someone, oldest first: one query, no replay."""
    rows = (
        game.hands.filter(voided_at__isnull=True)
        .order_by("seq", "checks__at")
        .values_list("seq", "entry__outcome", "checks__person", "checks__verdict", "checks__note", "revision")
    )
    seatings, by_seq, outcomes, revisions = Seatings.of_game(game), {}, {}, {}
    for seq, outcome, person, verdict, note, revision in rows:
        outcomes[seq], revisions[seq] = outcome, revision
        said = by_seq.setdefault(seq, [])
        if person is not None:
            said.append(HandCheck(person=person, verdict=verdict, note=note))
    out, number = [], 0
    for seq, checks in by_seq.items():
        if is_seating({"outcome": outcomes[seq]}):
            continue
        number += 1
        ok, wrong, waiting = sort_checks(seatings.at(seq), checks)
        if wrong or waiting:
            out.append(HandChecks(seq, number, ok, wrong, waiting, revisions[seq]))
    return out


def left_for(rows: list[HandChecks], person: str | None) -> list[HandChecks]:
    """Of ``not_checked``'s rows, the hands ``person`` played and has not said 对 or 有误 to: 「到第N局都对」's."""
    if person is None:
        return []
    return [row for row in rows if any(key(name) == key(person) for name in row.waiting)]
