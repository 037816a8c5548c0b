"""The replay: a game's hands through the engine (``Replay``) and the same stored in its rows (``StoredReplay``).

Both satisfy one read model (docs/glossary.md); every write recomputes what it changes under the game's row lock."""

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
        """``seq`` finds the hand (links); ``number`` is the 第N局 the table sees (its seq when not given)."""
        number = seq if number is None else number
        super().__init__(f"第{number}局：{error.zh}", f"Hand {number}: {error.en}", error.field)
        self.seq, self.number = seq, number
        self.error = error

    def message(self) -> str:
        """In the request's language, without the rules document's § references."""
        return table_words(say(self))


@dataclass
class Row:
    """A hand and its result (the engine's in a ``Replay``, a ``CachedResult`` in a ``StoredReplay``)."""

    hand: Hand
    result: HandView | None  # None for a voided hand
    # 第N局 counts only standing hands (a void has none); ``Hand.seq`` stays the id in addresses.
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
    """Replay ``game``'s hands. Raises ``ReplayError``.

    ``changed`` stands in for the hand of its seq (an edit or void); ``added`` is appended; ``start``:
    the table the first of ``hands`` is played at (else the game's first seating); ``first``: the
    number of the first standing hand; ``max_people``: how many people a write's seatings may bring."""
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
    """The 第N局 of hand ``seq`` among the game's ``hands``: the standing hands before it, plus one."""
    return counted(h for h in hands if h.seq < seq) + 1


def numbers(hands) -> dict[int, int]:
    """Each counted hand's 第N局, by seq."""
    counted_hands = (h for h in hands if not h.voided and not is_seating(h.entry))
    return {h.seq: n for n, h in enumerate(counted_hands, start=1)}


# The stored replay: each result field for field, and each payment's ``why``, never its text
# (the text is made when read, so rewording an explanation needs no rebuild).

# Bumped whenever the stored shape changes: a cache of an older version is rebuilt before it is read.
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
    """A result as stored, every field of it, round-tripping equal so an unchanged result is never rewritten."""
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
    """The stored replay: the next hand's table, the counts, each person's tally and each standing seating."""
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
    """The stored replay once hand ``seq`` is recorded at the end of the cached state."""
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
    """The stored ``Seated`` table, or None when it must be rebuilt (missing, older version, players renamed)."""
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
    """The changed results in as few statements as the database allows (bulk_update's CASE chains are slow)."""
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
    """Replay and rewrite the cache under the game's row lock, so a rebuild never overwrites a hand recorded meanwhile."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        store(locked, build(locked))
        game.state = locked.state


def ensure(game: Game) -> None:
    """Rebuild the cache from the replay if it is missing or from an older engine."""
    if cached_state(game) is None:
        rebuild(game)


def table(game: Game) -> tuple[State, int]:
    """The next hand's ``Seated`` state and its number, with no query beyond the game's row."""
    ensure(game)
    return game.plugin.state_from_dict(game.state["table"]), game.state["last_seq"] + 1


def played(game: Game) -> set[str]:
    """The people (by ``key``) in at least one standing hand, from the stored tally."""
    ensure(game)
    people, tally = game.state["table"]["people"], game.state["tally"]
    return {key(person["name"]) for person, counts in zip(people, tally, strict=True) if counts["hands"]}


def who_played(game: Game) -> list[tuple[str, object]]:
    """(name, points) of the people in the evening's money, in order of first appearance (docs/manual.md, "At the table")."""
    state, _next = table(game)
    keys = played(game) or {key(name) for name in state.seating}
    return [person for person in state.people() if key(person[0]) in keys]


@dataclass
class StoredReplay:
    """A game read from the cache (a ``ReplayView``): the table now and the hands a page shows."""

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
    """Two queries whatever the game's length: ``limit`` hands, newest first from ``offset`` (all if None)."""
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
    """Set each row's 第N局, counting back from the stored count; a query only for an older page after a void."""
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
    """The evening's people and every counted hand's nets by person, for the charts: one query, no replay."""
    ensure(game)
    hands = game.hands.filter(voided_at__isnull=True).order_by("seq").values_list("entry", "result")
    if any(r is None for _entry, r in hands):
        rebuild(game)
        return all_nets(game)
    people, nets = evening_nets(game, [(entry, [from_json(n) for n in r["net"]]) for entry, r in hands])
    money = {key(name) for name, _total in who_played(game)}
    keep = [i for i, name in enumerate(people) if key(name) in money]
    return [people[i] for i in keep], [[net[i] for i in keep] for net in nets]
