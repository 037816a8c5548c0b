"""People at the table (换人, 轮空, 换位; docs/contract.md "People and seats"), as the app shows them.

Plain values, no rules: the engine's ``Seated`` table (scoring/engine/seating.py) is the truth.
"""

import secrets
from dataclasses import dataclass, field

from scoring.engine.seating import is_seating, key
from scoring.lang import pick


class Seatings:
    """Who sat where at each hand, by the ``seq`` of each standing seating."""

    def __init__(self, first: list[str], changes: list[tuple[int, list[str]]]):
        self.first = list(first)
        self.changes = [(seq, list(names)) for seq, names in changes]

    @classmethod
    def of_game(cls, game) -> "Seatings":
        return cls(game.players, [tuple(change) for change in (game.state or {}).get("seatings", [])])

    @classmethod
    def of_hands(cls, first: list[str], hands) -> "Seatings":
        return cls(first, [(h.seq, h.entry["players"]) for h in hands if not h.voided and is_seating(h.entry)])

    def at(self, seq: int) -> list[str]:
        names = self.first
        for change_seq, change in self.changes:
            if change_seq >= seq:
                break
            names = change
        return names


def people_in_order(first: list[str], seatings: list[list[str]]) -> list[str]:
    """Every person in order of first appearance (the engine's order), spelled as they first sat down."""
    seen: dict[str, str] = {}
    for names in (first, *seatings):
        for name in names:
            seen.setdefault(key(name), name)
    return list(seen.values())


def person_nets(people: list[str], names: list[str], net: list) -> list:
    index = {key(name): i for i, name in enumerate(people)}
    out = [None] * len(people)
    for name, n in zip(names, net, strict=True):
        out[index[key(name)]] = n
    return out


@dataclass
class HandLine:
    """One row of the evening; ``nets`` by person, None when voided or a seating."""

    row: object  # a ``RowView``
    names: list[str]
    nets: list | None


@dataclass
class ByPerson:
    people: list[str]
    lines: list[HandLine] = field(default_factory=list)

    @property
    def played(self) -> list[HandLine]:
        return [line for line in self.lines if line.nets is not None]

    def nets(self) -> list[list]:
        """Each counted hand's nets by person, 0 for one sitting out (the charts' series)."""
        return [[0 if n is None else n for n in line.nets] for line in self.played]


def by_person(game, rows) -> ByPerson:
    seatings = Seatings.of_hands(game.players, [row.hand for row in rows])
    people = people_in_order(game.players, [names for _seq, names in seatings.changes])
    lines = []
    for row in rows:
        names = seatings.at(row.hand.seq)
        played = row.result is not None and not is_seating(row.hand.entry)
        lines.append(HandLine(row, names, person_nets(people, names, row.result.net) if played else None))
    return only_played(ByPerson(people, lines), seatings.at(rows[-1].hand.seq + 1) if rows else game.players)


def only_played(seen: ByPerson, seated_now: list[str]) -> ByPerson:
    """Without anyone in no counted hand (docs/manual.md "At the table"); with none counted, those seated now."""
    counted = seen.played
    if counted:
        keep = [i for i in range(len(seen.people)) if any(line.nets[i] is not None for line in counted)]
    else:
        now = {key(name) for name in seated_now}
        keep = [i for i, name in enumerate(seen.people) if key(name) in now]
    if len(keep) == len(seen.people):
        return seen
    for line in seen.lines:
        line.nets = None if line.nets is None else [line.nets[i] for i in keep]
    return ByPerson([seen.people[i] for i in keep], seen.lines)


def evening_nets(game, entries_and_nets) -> tuple[list[str], list[list]]:
    """(people, each counted hand's nets by person) from the standing hands' (entry, net), without rows."""
    names, seatings, played = list(game.players), [], []
    for entry, net in entries_and_nets:
        if is_seating(entry):
            names = list(entry["players"])
            seatings.append(names)
        else:
            played.append((names, net))
    people = people_in_order(game.players, seatings)
    return people, [[0 if n is None else n for n in person_nets(people, names, net)] for names, net in played]


def names_to_offer(game, state) -> list[str]:
    """Everyone of this evening not sitting now, then the rest of the 牌友圈 roster, in order."""
    roster = game.group.roster if game.group_id is not None else []
    taken = {key(name) for name in state.seating}
    out = []
    for name in [*(name for name, _total in state.people()), *roster]:
        if key(name) not in taken:
            taken.add(key(name))
            out.append(name)
    return out


def draw(names: list[str], sitting: list[str]) -> list[str]:
    """扳位: ``names`` in a random order other than ``sitting``, since a seating must change a seat."""
    now, shuffle = [key(n) for n in sitting], secrets.SystemRandom().sample
    if len({key(n) for n in names}) < 2:
        return list(names)
    drawn = shuffle(list(names), len(names))
    while [key(n) for n in drawn] == now:
        drawn = shuffle(list(names), len(names))
    return drawn


ROUND_NAMES = (("东风圈", "East round"), ("南风圈", "South round"), ("西风圈", "West round"), ("北风圈", "North round"))


@dataclass
class Round:
    """Where the evening is in rounds (圈); ``length`` None: open-ended."""

    passes: int
    seats: int
    length: int | None = None
    ended: bool = False

    @property
    def number(self) -> int:
        return self.passes // self.seats + 1

    @property
    def deal(self) -> int:
        """The next hand's 局 in its round, 1-based."""
        return self.passes % self.seats + 1

    @property
    def done(self) -> int:
        return self.passes // self.seats

    @property
    def finished(self) -> bool:
        return self.length is not None and self.done >= self.length

    @staticmethod
    def name(number: int) -> str:
        if number <= len(ROUND_NAMES):
            return pick(*ROUND_NAMES[number - 1])
        return pick(f"第{number}圈", f"Round {number}")

    @property
    def label(self) -> str:
        """「东风圈（3/4）」; not 「第3局」, which is a hand's number on the same page."""
        return pick(
            f"{self.name(self.number)}（{self.deal}/{self.seats}）",
            f"{self.name(self.number)} (deal {self.deal} of {self.seats})",
        )

    @property
    def ended_text(self) -> str:
        if self.finished:
            return pick(f"{self.length} 圈打完了", f"{self.length} round{'s' if self.length != 1 else ''} played")
        return pick(f"{self.name(self.done)}打完了", f"{self.name(self.done)} is over")


def round_of(game, state, last_row) -> Round:
    """The rounds at ``state``; a round just ended when ``last_row`` passed the deal round (no seating since)."""
    passes, seats = getattr(state, "passes", 0), len(state.totals)
    ended = (
        last_row is not None
        and last_row.result is not None
        and not is_seating(last_row.hand.entry)
        and passes > 0
        and passes % seats == 0
        and last_row.result.dealer != state.dealer
    )
    return Round(passes, seats, game.round_length, ended)
