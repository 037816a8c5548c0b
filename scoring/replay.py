"""The replay: a game's hands replayed through the engine, the truth every page and total comes
from (``Replay``), and the same replay kept in the rows it describes (``Hand.result``,
``Game.state``: ``StoredReplay``), so that pages need no replay at all. Both satisfy one read
model (``ReplayView``, ``RowView``, ``HandView``, ``PaymentView``); docs/glossary.md names them.
Each write recomputes what it changes inside the transaction that holds the game's row lock; a
stored replay of an older version (``STORED_VERSION``) is rebuilt before it is read."""

import json
from collections.abc import Sequence
from copy import deepcopy
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Protocol, runtime_checkable

from django.db import connection, transaction

from scoring.engine import Ruleset, ScoringError, replay
from scoring.engine.errors import BilingualError
from scoring.engine.points import from_json, to_json
from scoring.engine.ruleset import State
from scoring.engine.seating import is_seating, key
from scoring.lang import say, table_words
from scoring.models import Game, Hand
from scoring.people import evening_nets
from scoring.stats import add_hand, new_tally, tally_of, who_sits

# The read model: what pages, stats and exports read of a game and its hands, whichever replay.


@runtime_checkable
class PaymentView(Protocol):
    @property
    def payer(self) -> int: ...
    @property
    def payee(self) -> int: ...
    @property
    def amount(self) -> int | Fraction: ...
    def formula(self, zh: bool = True, names: Sequence[str] | None = None) -> str:
        """The right-hand side of the explanation; ``names`` (seat order) for the winds."""
        ...


@runtime_checkable
class HandView(Protocol):
    """One counted hand's result."""

    @property
    def dealer(self) -> int: ...
    @property
    def streak(self) -> int: ...
    @property
    def net(self) -> list: ...  # per seat: ints, or 诸暨's Fraction halves
    @property
    def payments(self) -> Sequence[PaymentView]: ...
    @property
    def paid_on(self) -> int:
        """What the hand is paid on, e.g. a multiplier, 台 or 番 (the ruleset's ``count_word``)."""
        ...


@runtime_checkable
class RowView(Protocol):
    @property
    def hand(self) -> Hand: ...
    @property
    def result(self) -> HandView | None: ...  # None for a voided hand


@runtime_checkable
class ReplayView(Protocol):
    """A game's hands, in order (all of them, or the latest ones a page shows), and its table."""

    @property
    def game(self) -> Game: ...
    @property
    def rows(self) -> Sequence[RowView]: ...
    @property
    def state(self): ...  # the ruleset's table state the next hand is played in (a ``State``)
    @property
    def totals(self) -> list: ...
    def active_count(self) -> int: ...


# The replay of the hands through the engine: the truth.


class ReplayError(BilingualError):
    """A hand that the rules reject, named by its number (第N局) for the table."""

    def __init__(self, seq: int, error: ScoringError, number: int | None = None):
        """``seq`` finds the hand (links); ``number`` is the 第N局 the table sees (its seq when
        not given)."""
        number = seq if number is None else number
        super().__init__(f"第{number}局：{error.zh}", f"Hand {number}: {error.en}", error.field)
        self.seq, self.number = seq, number
        self.error = error

    def message(self) -> str:
        """In the request's language, without the rules document's § references."""
        return table_words(say(self))


@dataclass
class Row:
    """A hand and its result: the engine's result in a ``Replay``, a ``CachedResult`` in a cache
    ``StoredReplay`` (both ``HandView``s)."""

    hand: Hand
    result: HandView | None  # None for a voided hand
    # 第N局 as the table sees it: the hands that stand are numbered 1, 2, 3…; a voided one has
    # none (``Hand.seq`` stays the hand's id in addresses). Set where rows are made: ``build``
    # and the cache's ``stored_replay``.
    number: int | None = None


@dataclass
class Replay:
    """A game replayed (a ``ReplayView``): every hand and the table the next one is played at."""

    game: Game
    rows: list[Row]  # every hand in order, voided ones included
    state: State  # the state the next hand is played in: ``Seated`` (who sits where, each person's total)

    @property
    def totals(self) -> list[int]:
        return self.state.totals

    @property
    def next_seq(self) -> int:
        return self.rows[-1].hand.seq + 1 if self.rows else 1

    def active_count(self) -> int:
        """The hands that count: a seating (换人/换位) is none."""
        return sum(1 for row in self.rows if row.result is not None and not is_seating(row.hand.entry))

    def row(self, seq: int) -> Row | None:
        return next((row for row in self.rows if row.hand.seq == seq), None)


def build(
    game: Game,
    hands: list[Hand] | None = None,
    *,
    changed: Hand | None = None,
    added: Hand | None = None,
    start=None,
    first: int = 1,
    max_people: int | None = None,
) -> Replay:
    """Replay ``game``'s hands. ``changed`` stands in for the stored hand of the same seq (an
    edit or a void); ``added`` is appended (a new hand); ``start`` is the table the first of
    ``hands`` is played at (a copy is advanced), else the game's first with its players seated
    (``game.players``, the first seating); ``first`` is the number
    of the first of ``hands`` that stands (more than 1 when ``hands`` start mid-game); a write
    passes ``max_people``, the people its seatings may bring the game to. Raises ``ReplayError``."""
    hands = list(game.hands.all()) if hands is None else list(hands)
    if changed is not None:
        hands = [changed if h.seq == changed.seq else h for h in hands]
    if added is not None:
        hands.append(added)
    active = [h for h in hands if not h.voided]
    fixes = {i: h.fix() for i, h in enumerate(active) if h.fix() is not None}
    try:
        entries = [h.entry for h in active]
        start = None if start is None else deepcopy(start)
        results, state = replay(
            game.plugin,
            game.house_rules(),
            entries,
            game.first_dealer,
            fixes,
            state=start,
            players=game.players,
            max_people=max_people,
        )
    except ScoringError as error:
        raise ReplayError(active[error.hand].seq, error, first + counted(active[: error.hand])) from None
    by_id = dict(zip((id(h) for h in active), results, strict=True))
    numbers = {id(h): n for n, h in enumerate((h for h in active if not is_seating(h.entry)), start=first)}
    return Replay(game, [Row(h, by_id.get(id(h)), numbers.get(id(h))) for h in hands], state)


def counted(hands) -> int:
    """How many of ``hands`` count as hands (第N局): the standing ones that are no seating."""
    return sum(1 for h in hands if not h.voided and not is_seating(h.entry))


def number_in(hands, seq: int) -> int:
    """The 第N局 of hand ``seq`` among ``hands`` (the game's, in order): the hands that count
    before it, plus one."""
    return counted(h for h in hands if h.seq < seq) + 1


def numbers(hands) -> dict[int, int]:
    """Each counted hand's 第N局, by seq."""
    counted_hands = (h for h in hands if not h.voided and not is_seating(h.entry))
    return {h.seq: n for n, h in enumerate(counted_hands, start=1)}


# The stored replay: each result field for field, and each payment's ``why``, never its text
# (the text is made when read, so rewording an explanation needs no rebuild).

# 2: player names in the formulas; 3: any ruleset (extras, half points); 4: each payment's why
# instead of its text, and the count; 5: each seat's tally for the stats page (scoring/stats.py);
# 6: every field of a ruleset's own result, whatever the ruleset (``own``), and ``paid_on``; 7: the
# table is seated (scoring/engine/seating.py): ``table`` also holds ``seating`` (the names in seat
# order now) and ``people`` (each person's total, in order of first appearance); 8: the table's
# ``passes`` (rounds), each standing seating (``seatings``: [seq, names]), ``active`` counts no
# seating, and the tally is by person (scoring/stats.py)
STORED_VERSION = 8
COMMON = frozenset(("dealer", "streak", "net", "payments"))  # the fields every result has
RECENT_HANDS = 15  # the game page's list
PAGE_HANDS = 100  # a page of the whole list (?page=N, newest first)


@dataclass(slots=True)
class CachedPayment:
    """An engine ``Payment`` back from JSON (a ``PaymentView``)."""

    payer: int
    payee: int
    amount: int | Fraction
    why: list  # the ruleset's why, as JSON gives it back
    ruleset: Ruleset

    def formula(self, zh: bool = True, names=None) -> str:
        """As the engine's ``Payment.formula``: made now, from the stored why."""
        return self.ruleset.formula(self.why, zh, names)


@dataclass
class CachedResult:
    """An engine result back from JSON (a ``HandView``), whatever its ruleset."""

    dealer: int
    streak: int
    net: list
    payments: list[CachedPayment]
    paid_on: int  # what the hand is paid on (the ruleset's ``count_word``)
    own: dict  # the ruleset's own fields of its result (e.g. multiplier, tai), as JSON holds them

    def __getattr__(self, name):
        try:
            return self.__dict__["own"][name]
        except KeyError:
            raise AttributeError(name) from None


def _plain(value):
    """A field as JSON gives it back: lists, never tuples."""
    return [_plain(v) for v in value] if isinstance(value, tuple | list) else value


def result_json(result, ruleset: Ruleset) -> dict:
    """A ruleset's result as stored: every field of it (a dataclass: its own fields too, whatever
    they are), and what JSON gives back equals it, so an unchanged result is never rewritten."""
    why_json = ruleset.why_to_json
    payments = [[p.payer, p.payee, to_json(p.amount), why_json(p.why)] for p in result.payments]
    data = {
        "dealer": result.dealer,
        "streak": result.streak,
        "net": [to_json(n) for n in result.net],
        "payments": payments,
        "paid_on": result.paid_on,
        "own": {f.name: _plain(getattr(result, f.name)) for f in fields(result) if f.name not in COMMON},
    }
    return data


def result_from_json(data: dict, ruleset: Ruleset) -> CachedResult:
    payments = [CachedPayment(p[0], p[1], from_json(p[2]), p[3], ruleset) for p in data["payments"]]
    net = [from_json(n) for n in data["net"]]
    return CachedResult(data["dealer"], data["streak"], net, payments, data["paid_on"], data["own"])


def state_json(
    state: State, *, active: int, last_seq: int, tally: list | None = None, seatings: list | None = None
) -> dict:
    """The game's stored replay: the table the next hand is played at, the number of hands that
    count (a seating is not one), the last hand's number, each person's tally (none yet when
    ``tally`` is None) and each seating that stands, as [seq, names] (scoring/people.py)."""
    if tally is None:  # a seated table's people (a bare ruleset's table: its seats; it is rebuilt seated)
        tally = new_tally(len(state.people()) if hasattr(state, "people") else len(state.totals))
    return {
        "v": STORED_VERSION,
        "table": state.to_dict(),
        "active": active,
        "last_seq": last_seq,
        "tally": tally,
        "seatings": seatings or [],
    }


def after_hand(game: Game, state: State, *, entry: dict, result, seq: int) -> dict:
    """The stored replay once hand ``seq`` (``entry``, scored as ``result``) is recorded at the
    end of the game's cached state: ``state`` is the table after it."""
    tally, seatings, active = deepcopy(game.state["tally"]), list(game.state["seatings"]), game.state["active"]
    people = [name for name, _total in state.people()]
    if is_seating(entry):
        seatings.append([seq, list(entry["players"])])
        tally += new_tally(len(people) - len(tally))  # the newcomers
    else:
        add_hand(tally, entry, result.net, who_sits(people, state.seating))
        active += 1
    return state_json(state, active=active, last_seq=seq, tally=tally, seatings=seatings)


def cached_state(game: Game) -> State | None:
    """The stored table (a ``Seated`` one), or None when it must be rebuilt first: missing, from
    an older version, or seating other players first than the game's (its players renamed)."""
    if not game.state or game.state.get("v") != STORED_VERSION or "seating" not in game.state["table"]:
        return None
    first = [person["name"] for person in game.state["table"]["people"][: len(game.players)]]
    if first != list(game.players):
        return None
    return game.plugin.state_from_dict(game.state["table"])


@transaction.atomic
def store(game: Game, ledger: Replay) -> None:
    """Write a full replay into the cache: the results that changed, and the game's state."""
    changed = []
    for row in ledger.rows:
        new = result_json(row.result, game.plugin) if row.result is not None else None
        if row.hand.pk is not None and row.hand.result != new:
            row.hand.result = new
            changed.append(row.hand)
    _write_results(changed)
    last_seq = ledger.rows[-1].hand.seq if ledger.rows else 0
    tally = tally_of(ledger.rows, game.players)
    seatings = [[r.hand.seq, r.hand.entry["players"]] for r in ledger.rows if r.result and is_seating(r.hand.entry)]
    state = state_json(ledger.state, active=ledger.active_count(), last_seq=last_seq, tally=tally, seatings=seatings)
    game.state = state
    Game.objects.filter(pk=game.pk).update(state=game.state)


def _write_results(hands: list[Hand]) -> None:
    """The changed results in as few statements as the database allows (bulk_update's CASE
    chains are several times slower): one UPDATE … FROM VALUES per 10,000 rows on PostgreSQL, one
    prepared UPDATE run for every row on SQLite."""
    rows = [(h.pk, None if h.result is None else json.dumps(h.result, ensure_ascii=False)) for h in hands]
    table = Hand._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            cursor.executemany(f"UPDATE {table} SET result = %s WHERE id = %s", [(r, pk) for pk, r in rows])
            return
        for start in range(0, len(rows), 10_000):
            batch = rows[start : start + 10_000]
            values = ", ".join(["(%s, %s::jsonb)"] * len(batch))
            sql = f"UPDATE {table} AS h SET result = v.result FROM (VALUES {values}) AS v(id, result) WHERE h.id = v.id"
            cursor.execute(sql, [item for row in batch for item in row])


def rebuild(game: Game) -> None:
    """Replay the game and rewrite its cache, holding the game's row lock like every write, so
    that a page rebuilding a stale cache can never overwrite a hand recorded meanwhile."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        store(locked, build(locked))
        game.state = locked.state


def ensure(game: Game) -> None:
    """Rebuild the cache from the replay if it is missing or from an older engine."""
    if cached_state(game) is None:
        rebuild(game)


def table(game: Game) -> tuple[State, int]:
    """The state the next hand is played in, and its number: no query beyond the game's row. The
    state is ``Seated``: ``seating`` (who sits where now) and ``people()`` (each person's total)."""
    ensure(game)
    return game.plugin.state_from_dict(game.state["table"]), game.state["last_seq"] + 1


def played(game: Game) -> set[str]:
    """The people (by ``key``) who sat in at least one hand that stands, from the stored tally (a
    seating is none; a void that leaves someone with none takes them off again)."""
    ensure(game)
    people, tally = game.state["table"]["people"], game.state["tally"]
    return {key(person["name"]) for person, counts in zip(people, tally, strict=True) if counts["hands"]}


def who_played(game: Game) -> list[tuple[str, object]]:
    """(name, points) of the people in the evening's money, in order of first appearance: those
    who ``played``; before any hand stands, the people seated now (README.md, "At the table", 结算)."""
    state, _next = table(game)
    keys = played(game) or {key(name) for name in state.seating}
    return [person for person in state.people() if key(person[0]) in keys]


@dataclass
class StoredReplay:
    """A game read from the cache (a ``ReplayView``): the table now and its hands, all of them or
    the latest ones a page shows."""

    game: Game
    rows: list[Row]  # the latest hands, oldest first (the page lists them newest first)
    state: State
    active: int
    last_seq: int

    @property
    def totals(self) -> list[int]:
        return self.state.totals

    @property
    def next_seq(self) -> int:
        return self.last_seq + 1

    def active_count(self) -> int:
        return self.active

    @property
    def earlier(self) -> int:
        """Hands older than the ones shown (all of them count, voided or not)."""
        return self.rows[0].hand.seq - 1 if self.rows else 0

    @property
    def pages(self) -> int:
        """How many pages of ``PAGE_HANDS`` the whole list takes."""
        return max(1, -(-self.last_seq // PAGE_HANDS))


def stored_replay(game: Game, limit: int | None = RECENT_HANDS, offset: int = 0) -> StoredReplay:
    """Two queries whatever the game's length: ``limit`` hands, newest first from ``offset``
    (all if None)."""
    ensure(game)
    hands = game.hands.order_by("-seq")
    hands = list(hands[offset : offset + limit] if limit else hands)
    if any(h.result is None and not h.voided for h in hands):  # written before the cache existed
        rebuild(game)
        return stored_replay(game, limit, offset)
    ruleset = game.plugin
    rows = [
        Row(h, result_from_json(h.result, ruleset) if h.result is not None and not h.voided else None)
        for h in reversed(hands)
    ]
    state = game.state
    number_rows(game, rows, newest=offset == 0)
    return StoredReplay(game, rows, game.plugin.state_from_dict(state["table"]), state["active"], state["last_seq"])


def number_rows(game: Game, rows: list[Row], *, newest: bool) -> None:
    """Each counted row's 第N局 (``Row.number``): the hands that stand before it, plus one (a
    seating is no hand: it has none). The latest rows (``newest``) count back from the stored
    count; no query unless an older page follows a void or a seating."""
    counted = [row for row in rows if not row.hand.voided and not is_seating(row.hand.entry)]
    if newest:
        first = game.state["active"] - len(counted) + 1
    elif game.state["active"] == game.state["last_seq"]:  # no void, no seating: the number is the seq
        first = rows[0].hand.seq if rows else 1
    else:
        first = game.number_of(rows[0].hand.seq)
    for row in counted:
        row.number, first = first, first + 1


def all_nets(game: Game) -> tuple[list[str], list[list]]:
    """The people of the evening (``who_played``) and every counted hand's nets by person (0 for
    one sitting out), in order, for the charts: one query, no replay."""
    ensure(game)
    hands = game.hands.filter(voided_at__isnull=True).order_by("seq").values_list("entry", "result")
    if any(r is None for _entry, r in hands):
        rebuild(game)
        return all_nets(game)
    people, nets = evening_nets(game, [(entry, [from_json(n) for n in r["net"]]) for entry, r in hands])
    money = {key(name) for name, _total in who_played(game)}
    keep = [i for i, name in enumerate(people) if key(name) in money]
    return [people[i] for i in keep], [[net[i] for i in keep] for net in nets]
