"""The ledger: a game's hands replayed through the engine, the truth. Every write builds it (or,
for a new hand, scores just that hand) inside the game's lock and stores the results in the rows
(scoring/cache.py), which pages read instead of replaying; both satisfy the read model
(scoring/readmodel.py). An edit or a void preview replays once (the hands before it, then the
rest from there), and a write is refused if any hand would stop being valid.
"""

from copy import deepcopy
from dataclasses import dataclass

from scoring.engine import ScoringError, replay
from scoring.engine.errors import BilingualError
from scoring.engine.ruleset import State
from scoring.engine.seating import is_seating
from scoring.lang import say, table_words
from scoring.models import Game, Hand
from scoring.readmodel import HandView


class LedgerError(BilingualError):
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
    """A hand and its result: the engine's result in a ``Ledger``, a ``CachedResult`` in a cache
    ``Snapshot`` (both ``HandView``s)."""

    hand: Hand
    result: HandView | None  # None for a voided hand
    # 第N局 as the table sees it: the hands that stand are numbered 1, 2, 3…; a voided one has
    # none (``Hand.seq`` stays the hand's id in addresses). Set where rows are made: ``build``
    # and the cache's ``snapshot``.
    number: int | None = None


@dataclass
class Ledger:
    """A game replayed (a ``GameView``): every hand and the table the next one is played at."""

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
) -> Ledger:
    """Replay ``game``'s hands. ``changed`` stands in for the stored hand of the same seq (an
    edit or a void); ``added`` is appended (a new hand); ``start`` is the table the first of
    ``hands`` is played at (a copy is advanced), else the game's first with its players seated
    (``game.players``, the first seating); ``first`` is the number
    of the first of ``hands`` that stands (more than 1 when ``hands`` start mid-game); a write
    passes ``max_people``, the people its seatings may bring the game to. Raises ``LedgerError``."""
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
            game.rulebook,
            game.house_rules(),
            entries,
            game.first_dealer,
            fixes,
            state=start,
            players=game.players,
            max_people=max_people,
        )
    except ScoringError as error:
        raise LedgerError(active[error.hand].seq, error, first + counted(active[: error.hand])) from None
    by_id = dict(zip((id(h) for h in active), results, strict=True))
    numbers = {id(h): n for n, h in enumerate((h for h in active if not is_seating(h.entry)), start=first)}
    return Ledger(game, [Row(h, by_id.get(id(h)), numbers.get(id(h))) for h in hands], state)


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
