"""What every ruleset's ``Payment`` and ``HandResult`` share: ``class Payment(BasePayment,
explain=explain, formula=formula)`` and a ``HandResult(BaseResult)`` naming what it is paid on."""

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
        """No @dataclass needed (``__slots__ = ()``); no super() call: slots=True breaks its zero-argument form."""
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
    """``to_dict`` (the contract's per-hand output) and ``paid_on`` (the field ``PAID_ON`` names).

    A subclass's own fields come between streak and net, which are keyword-only.
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
    every = fields(result)
    return tuple(f.name for f in every if not f.kw_only) + tuple(f.name for f in every if f.kw_only)
