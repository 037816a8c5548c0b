"""People and seats (换人, 轮空, 换位), the same in every ruleset (docs/contract.md "People and seats").

A person's total is kept as an offset from their seat's running total, so an ordinary hand costs
nothing here: only a seating moves the offsets. ``passes`` counts the hands after which another
seat deals (圈: passes // seats); a seating's or a correction's new dealer is no pass.
"""

from dataclasses import dataclass, field, replace
from fractions import Fraction

from .errors import ScoringError, shown, unknown_field
from .hygiene import validate_names
from .points import from_json, norm, to_json

OUTCOME = "seating"
FIELDS = frozenset(("outcome", "players", "dealer"))
KEYS = ("seating", "people", "passes")  # what a seated table adds to its ruleset's state's dict


def key(name: str) -> str:
    """Two names that differ only by spaces around them are the same person."""
    return name.strip()


@dataclass(frozen=True, slots=True)
class SeatingEntry:
    players: tuple[str, ...]  # one name per seat, in seat order
    dealer: int | None = None  # the seat that deals next; None = the dealing person's seat now
    outcome: str = OUTCOME


@dataclass(slots=True)
class SeatingResult:
    dealer: int
    streak: int
    seating: list
    net: list
    payments: list = field(default_factory=list)
    paid_on = None  # paid on no 倍/台/番

    def to_dict(self) -> dict:
        return {
            "seating": list(self.seating),
            "dealer": self.dealer,
            "streak": self.streak,
            "net": list(self.net),
            "payments": [],
        }


def is_seating(raw) -> bool:
    return isinstance(raw, SeatingEntry) or (hasattr(raw, "get") and raw.get("outcome") == OUTCOME)


def parse(raw: dict, seats: int) -> SeatingEntry:
    unknown = raw.keys() - FIELDS
    if unknown:
        raise unknown_field(sorted(unknown)[0])
    players = raw.get("players")
    if not isinstance(players, list) or len(players) != seats:
        raise ScoringError(
            f"换人/换位需要 {seats} 个名字，按座位顺序", f"A seating needs {seats} names, in seat order", "players"
        )
    validate_names(players)
    dealer = raw.get("dealer")
    if "dealer" in raw and (isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < seats):
        raise ScoringError(f"dealer 应为座位号 0-{seats - 1}", f"dealer must be a seat 0-{seats - 1}", "dealer")
    return SeatingEntry(tuple(players), dealer)


class Seated:
    """The ruleset's state (``table``) with its people; other reads (义乌's ``maizi``…) go to the table."""

    __slots__ = ("offsets", "passes", "seating", "spelled", "table")

    def __init__(self, table, seating, offsets: dict, passes: int = 0, spelled: dict | None = None):
        self.table = table
        self.seating = list(seating)
        # Each person (by first spelling): their total less the running total of the seat they sit in now.
        self.offsets = offsets
        self.passes = passes
        # A seating finds its people without a scan of everyone (an imported game may hold thousands).
        self.spelled = {key(name): name for name in offsets} if spelled is None else spelled

    def __getattr__(self, name):
        if name.startswith("__") or name in Seated.__slots__:  # while copying: not yet set
            raise AttributeError(name)
        return getattr(self.table, name)

    @property
    def dealer(self) -> int:
        return self.table.dealer

    @property
    def streak(self) -> int:
        return self.table.streak

    @property
    def totals(self) -> list:
        return self.table.totals

    def correct(self, dealer: int, streak: int) -> None:
        self.table.correct(dealer, streak)

    def people(self) -> list[tuple[str, int | Fraction]]:
        seat_of = {key(name): seat for seat, name in enumerate(self.seating)}
        totals = self.table.totals
        out = []
        for name, offset in self.offsets.items():
            seat = seat_of.get(key(name))
            out.append((name, offset if seat is None else norm(offset + totals[seat])))
        return out

    def to_dict(self) -> dict:
        people = [{"name": name, "total": to_json(total)} for name, total in self.people()]
        return {**self.table.to_dict(), "seating": list(self.seating), "people": people, "passes": self.passes}

    def __deepcopy__(self, memo) -> "Seated":
        from copy import deepcopy

        return Seated(deepcopy(self.table, memo), self.seating, dict(self.offsets), self.passes, dict(self.spelled))

    def __eq__(self, other) -> bool:
        if not isinstance(other, Seated):
            return NotImplemented
        return self._key() == other._key()

    def _key(self) -> tuple:
        return self.table, self.seating, self.people(), self.passes

    __hash__ = None

    def __repr__(self) -> str:
        return f"Seated({self.table!r}, seating={self.seating!r}, people={self.people()!r}, passes={self.passes})"


def seat(state, players) -> Seated:
    return Seated(state, players, {name: norm(-state.totals[s]) for s, name in enumerate(players)})


def from_dict(data: dict, table_from_dict) -> "Seated":
    table = table_from_dict({k: v for k, v in data.items() if k not in KEYS})
    seat_of = {key(name): s for s, name in enumerate(data["seating"])}
    offsets = {}
    for person in data["people"]:
        seat_ = seat_of.get(key(person["name"]))
        total = from_json(person["total"])
        offsets[person["name"]] = total if seat_ is None else norm(total - table.totals[seat_])
    return Seated(table, data["seating"], offsets, data.get("passes", 0))


def score(state, hand: SeatingEntry) -> SeatingResult:
    if not isinstance(state, Seated):
        raise ScoringError(
            "换人/换位需要牌局开头写明玩家名字（players）",
            "A seating needs the game's players named at the top level",
            "players",
        )
    if [key(n) for n in hand.players] == [key(n) for n in state.seating]:
        raise ScoringError(
            "换人/换位至少要有一个座位换了人", "A seating must change who sits in at least one seat", "players"
        )
    dealer, streak = next_deal(state, hand)
    return SeatingResult(dealer, streak, list(hand.players), [0] * len(state.totals))


def next_deal(state: Seated, hand: SeatingEntry) -> tuple[int, int]:
    """Who deals after ``hand`` and their streak: the deal follows its person; the streak only if they deal on."""
    dealing = key(state.seating[state.dealer])
    now = [key(name) for name in hand.players]
    if hand.dealer is not None:
        dealer = hand.dealer
    else:
        dealer = now.index(dealing) if dealing in now else state.dealer
    return dealer, state.streak if now[dealer] == dealing else 0


def validate_room(state, hand: SeatingEntry, limit: int) -> None:
    """At most ``limit`` people ever; a seating bringing nobody new is never refused (a lowered limit plays on)."""
    if not isinstance(state, Seated):
        return
    known = {key(name) for name in state.offsets}
    new = [name for name in hand.players if key(name) not in known]
    if new and len(known) + len(new) > limit:
        name = shown(new[0])
        raise ScoringError(
            f"一场最多 {limit} 人（连同轮空的和走了的）：{name} 坐不进来了。请结算这一场，再开新的一场。",
            f"A game holds at most {limit} people (counting everyone sitting out or gone): no room for {name}. "
            "Settle this game and start a new one.",
            "players",
        )


def advance(state: Seated, hand: SeatingEntry, after_seating) -> None:
    dealer, streak = next_deal(state, hand)
    totals, offsets, spelled = state.table.totals, state.offsets, state.spelled
    for seat_, name in enumerate(state.seating):  # who stands up takes their seat's running total along
        person = spelled[key(name)]
        offsets[person] = norm(offsets[person] + totals[seat_])
    for seat_, name in enumerate(hand.players):  # who sits down counts from their new seat's total
        person = spelled.setdefault(key(name), name)
        offsets[person] = norm(offsets.get(person, 0) - totals[seat_])
    state.seating = list(hand.players)
    if after_seating is not None:
        after_seating(state.table)
    if (dealer, streak) != (state.dealer, state.streak):
        state.table.correct(dealer, streak)


def with_seating(ruleset):
    """``ruleset`` whose parse/score/advance also take a seating entry and a ``Seated`` state."""
    parse_hand, score_hand, advance_ = ruleset.parse_hand, ruleset.score_hand, ruleset.advance
    state_from_dict, seats, after = ruleset.state_from_dict, ruleset.seats, ruleset.after_seating

    def parse_any(raw):
        return parse(raw, seats) if isinstance(raw, dict) and raw.get("outcome") == OUTCOME else parse_hand(raw)

    def score_any(rules, state, hand):
        if type(hand) is SeatingEntry:
            return score(state, hand)
        return score_hand(rules, state.table if type(state) is Seated else state, hand)

    def advance_any(rules, state, hand, result):
        if type(hand) is SeatingEntry:
            advance(state, hand, after)
        elif type(state) is Seated:
            dealer = state.table.dealer
            advance_(rules, state.table, hand, result)
            if state.table.dealer != dealer:  # the deal passed (rounds: scoring/people.py)
                state.passes += 1
        else:
            advance_(rules, state, hand, result)

    def from_dict_any(data: dict):
        return from_dict(data, state_from_dict) if "seating" in data else state_from_dict(data)

    return replace(
        ruleset, parse_hand=parse_any, score_hand=score_any, advance=advance_any, state_from_dict=from_dict_any
    )
