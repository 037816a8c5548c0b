"""People and seats (换人, 轮空, 换位): who sits where, the same in every ruleset (docs/contract.md
"People and seats").

Seats carry the rules; people carry the money. A seating entry between hands,
``{"outcome": "seating", "players": [names in seat order], "dealer": D}``, says who sits where
from the next hand on. It moves no points; every bet ends (the ruleset's ``after_seating``: 义乌's
买子 and 下子). The deal and its streak (连庄, 老庄) are the dealing person's: with no ``dealer``
the person who dealt keeps the deal wherever they now sit (if they left, the dealing seat's new
person deals); the streak carries on only while the same person deals.

A game that names its players is played at a ``Seated`` table: the ruleset's own state (the
seats: dealer, 连庄, each seat's total, its bets) and the people at it. A person's total is the
sum of the nets of the seats they sat in; it is kept as an offset from the seat's running total,
so an ordinary hand costs nothing here: only a seating moves the offsets. The table also counts
the deal passing (``passes``): each hand after which another seat deals. A round (圈) ends when
the deal has passed around all seats; a seating's or a correction's new dealer is not a pass.
``register`` wraps every
ruleset with ``with_seating`` (after the manual hand), so its parse/score/advance take a seating
entry and hand the ruleset its own state for every other hand.
"""

from dataclasses import dataclass, field, replace
from fractions import Fraction

from .errors import ScoringError, shown, unknown_field
from .hygiene import check_names
from .points import from_json, norm, to_json

OUTCOME = "seating"
FIELDS = frozenset(("outcome", "players", "dealer"))
KEYS = ("seating", "people", "passes")  # what a seated table adds to its ruleset's state's dict


def key(name: str) -> str:
    """A person is a name; two names that differ only by spaces around them are the same."""
    return name.strip()


@dataclass(frozen=True, slots=True)
class SeatingEntry:
    players: tuple[str, ...]  # one name per seat, in seat order
    dealer: int | None = None  # the seat that deals next; None = the dealing person's seat now
    outcome: str = OUTCOME


@dataclass(slots=True)
class SeatingResult:
    """A seating's output: the table after the change; no points, no payments."""

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
    """A seating entry: a parsed one, or a contract HAND object (or a form's answers) saying so."""
    return isinstance(raw, SeatingEntry) or (hasattr(raw, "get") and raw.get("outcome") == OUTCOME)


def parse(raw: dict, seats: int) -> SeatingEntry:
    """A ``SeatingEntry`` from the contract's HAND object; ``ScoringError`` (hand=None) if bad."""
    unknown = raw.keys() - FIELDS
    if unknown:
        raise unknown_field(sorted(unknown)[0])
    players = raw.get("players")
    if not isinstance(players, list) or len(players) != seats:
        raise ScoringError(
            f"换人/换位需要 {seats} 个名字，按座位顺序", f"A seating needs {seats} names, in seat order", "players"
        )
    check_names(players)  # 1-40 characters each, no special characters, all different
    dealer = raw.get("dealer")
    if "dealer" in raw and (isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < seats):
        raise ScoringError(f"dealer 应为座位号 0-{seats - 1}", f"dealer must be a seat 0-{seats - 1}", "dealer")
    return SeatingEntry(tuple(players), dealer)


class Seated:
    """The ruleset's table state (``table``) with the people sitting at it: ``seating``, the names
    in seat order now, and each person's total (``people()``). Reads of anything else (义乌's
    ``maizi``, ``may_buy_maizi``…) go to the ruleset's state, so the app asks it as before."""

    __slots__ = ("offsets", "passes", "seating", "spelled", "table")

    def __init__(self, table, seating, offsets: dict, passes: int = 0, spelled: dict | None = None):
        self.table = table
        self.seating = list(seating)
        # Each person (by the name they first sat down under, in order of first appearance): their
        # total, less the running total of the seat they sit in now (if they sit).
        self.offsets = offsets
        # How many hands passed the deal to another seat (rounds: passes // seats).
        self.passes = passes
        # Each person's name in ``offsets`` by ``key``: a seating finds its people without a scan of
        # everyone (an imported game may hold thousands).
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
        """Each seat's running total (the people's are ``people()``)."""
        return self.table.totals

    def correct(self, dealer: int, streak: int) -> None:
        self.table.correct(dealer, streak)

    def people(self) -> list[tuple[str, int | Fraction]]:
        """(name, total) for every person who has sat at the table, in order of first appearance."""
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
    """``state`` (a ruleset's table) with ``players`` sitting at it in seat order: the first seating."""
    return Seated(state, players, {name: norm(-state.totals[s]) for s, name in enumerate(players)})


def from_dict(data: dict, table_from_dict) -> "Seated":
    """A seated table back from ``Seated.to_dict``; ``table_from_dict`` reads the ruleset's part."""
    table = table_from_dict({k: v for k, v in data.items() if k not in KEYS})
    seat_of = {key(name): s for s, name in enumerate(data["seating"])}
    offsets = {}
    for person in data["people"]:
        seat_ = seat_of.get(key(person["name"]))
        total = from_json(person["total"])
        offsets[person["name"]] = total if seat_ is None else norm(total - table.totals[seat_])
    return Seated(table, data["seating"], offsets, data.get("passes", 0))


def score(state, hand: SeatingEntry) -> SeatingResult:
    """The seating judged at ``state`` (unchanged): the table it leaves, no points."""
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
    """Who deals after ``hand`` and their streak: the deal follows the person who dealt (their
    seat now, or the dealing seat if they left, or the seat the table chose); the streak is kept
    only when that same person deals on."""
    dealing = key(state.seating[state.dealer])
    now = [key(name) for name in hand.players]
    if hand.dealer is not None:
        dealer = hand.dealer
    else:
        dealer = now.index(dealing) if dealing in now else state.dealer
    return dealer, state.streak if now[dealer] == dealing else 0


def check_room(state, hand: SeatingEntry, limit: int) -> None:
    """A seating may bring a game to at most ``limit`` people, everyone who ever sat in it; one
    that brings nobody new is never refused, so a game over a limit lowered since plays on."""
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
    """The people move; every bet ends (``after_seating``, the ruleset's, on its own state); the
    deal follows its person (``next_deal``)."""
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
    """``ruleset`` whose parse/score/advance also take a seating entry, and whose own functions
    get the ruleset's state out of a ``Seated`` table; its states read back seated when written so."""
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
