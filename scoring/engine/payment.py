"""What every ruleset's ``Payment`` and ``HandResult`` share. A payment is who pays whom how
much, and ``why`` (the data its explanation is made from, see each ruleset's ``explain.py``); a
ruleset's ``Payment`` subclasses ``BasePayment`` and names its ``explain`` and ``formula``:
``class Payment(BasePayment, explain=explain, formula=formula)``. A result is the contract's
per-hand output; a ruleset's ``HandResult`` subclasses ``BaseResult`` (dealer, streak, net,
payments), adds its own fields and names the one it is paid on."""

from dataclasses import dataclass, field, fields
from fractions import Fraction

from .points import to_json


@dataclass(slots=True)
class BasePayment:
    payer: int
    payee: int
    amount: int | Fraction
    why: tuple  # how the amount was computed; see the ruleset's explain.py

    # explain(payer, payee, amount, why, zh, names) -> str and formula(why, zh, names) -> str
    _explain = None
    _formula = None

    def __init_subclass__(cls, explain=None, formula=None):
        """A subclass adds no fields, so it needs no @dataclass of its own (``__slots__ = ()``
        keeps it slotted); it only names its ruleset's explanation. (No super() call: slots=True
        rebuilds this class, which breaks the zero-argument form, and object's does nothing.)"""
        if explain is not None:
            cls._explain = staticmethod(explain)
        if formula is not None:
            cls._formula = staticmethod(formula)

    @property
    def zh(self) -> str:
        """e.g. 西→南 6 = (闲5 + 放铳1) × 1 平胡"""
        return self._explain(self.payer, self.payee, self.amount, self.why, True)

    @property
    def en(self) -> str:
        return self._explain(self.payer, self.payee, self.amount, self.why, False)

    def explain(self, zh: bool = True, names=None) -> str:
        """The whole line, with the table's names (seat order) in place of the seats."""
        return self._explain(self.payer, self.payee, self.amount, self.why, zh, names)

    def formula(self, zh: bool = True, names=None) -> str:
        """Only the right-hand side, e.g. (闲5 + 放铳1) × 1 平胡."""
        return self._formula(self.why, zh, names)

    def to_dict(self) -> dict:
        return {
            "from": self.payer,
            "to": self.payee,
            "amount": to_json(self.amount),
            "explain": self.zh,
            "explain_en": self.en,
        }


@dataclass(slots=True)
class BaseResult:
    """``to_dict`` (the contract's per-hand output, fields in their order) and ``paid_on`` (what
    the hand is paid on: ``PAID_ON`` names the field, e.g. multiplier, tai or fan).

    A subclass's own fields come between streak and net in ``__init__`` and in the output:
    net and payments are keyword-only, e.g. ``HandResult(dealer, streak, tai, net=…, payments=…)``.
    """

    PAID_ON = ""

    dealer: int
    streak: int  # the 连庄 the hand was played at
    net: list = field(kw_only=True)  # per seat, sums to 0: ints, or Fraction halves (诸暨)
    payments: list = field(kw_only=True)  # the ruleset's Payments, sorted by (payer, payee)

    @property
    def paid_on(self) -> int:
        return getattr(self, self.PAID_ON)

    def to_dict(self) -> dict:
        names = _FIELDS.get(type(self)) or _FIELDS.setdefault(type(self), _field_order(self))
        out = {name: getattr(self, name) for name in names}
        out["net"] = [to_json(n) for n in out["net"]]
        out["payments"] = [p.to_dict() for p in out["payments"]]
        for name, value in out.items():
            if isinstance(value, tuple):
                out[name] = list(value)
        return out


_FIELDS: dict[type, tuple[str, ...]] = {}  # a result class's field names, in order


def _field_order(result) -> tuple[str, ...]:
    """The fields in ``__init__``'s order: dealer, streak, the ruleset's own, then net, payments."""
    every = fields(result)
    return tuple(f.name for f in every if not f.kw_only) + tuple(f.name for f in every if f.kw_only)
