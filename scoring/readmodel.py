"""One read model: what pages, stats and exports read of a game and its hands.

Two things serve it, and both satisfy these protocols:
- the replay (scoring/ledger.py): a ``Ledger`` of ``Row``s holding the engine's results and
  payments (any ruleset's: ``scoring.engine.ruleset.Result``), built by every write inside the game's lock;
- the replay kept in the rows (scoring/cache.py): a ``Snapshot`` of ``Row``s holding
  ``CachedResult``s and ``CachedPayment``s, read back from ``Hand.result`` and ``Game.state``,
  which every write keeps equal to the replay. Pages read it and never replay.
A payment keeps the data its explanation is made from (its ruleset's ``why``), not the text:
``formula`` makes the text when it is read, from either side, so both say the same.
"""

from collections.abc import Sequence
from fractions import Fraction
from typing import Protocol, runtime_checkable

from scoring.models import Game, Hand


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
class GameView(Protocol):
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
