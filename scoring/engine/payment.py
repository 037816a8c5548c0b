"""What every ruleset's ``Payment`` and ``HandResult`` share. A payment is who pays whom how
much, and ``why`` (the data its explanation is made from, see each ruleset's ``explain.py``); a
ruleset's ``Payment`` subclasses ``BasePayment`` and names its ``explain`` and ``formula``. A
result is the contract's per-hand output; a ruleset's ``HandResult`` subclasses ``BaseResult``,
lists its fields (dealer, streak, its own, net, payments) and names the one it is paid on."""

from dataclasses import dataclass, fields
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


class BaseResult:
    """``to_dict`` (the contract's per-hand output, fields in their order) and ``count`` (what
    the hand is paid on: ``COUNT`` names the field, e.g. multiplier, tai or fan)."""

    __slots__ = ()
    COUNT = ""

    @property
    def count(self) -> int:
        return getattr(self, self.COUNT)

    def to_dict(self) -> dict:
        names = _FIELDS.get(type(self)) or _FIELDS.setdefault(type(self), tuple(f.name for f in fields(self)))
        out = {name: getattr(self, name) for name in names}
        out["net"] = [to_json(n) for n in out["net"]]
        out["payments"] = [p.to_dict() for p in out["payments"]]
        for name, value in out.items():
            if isinstance(value, tuple):
                out[name] = list(value)
        return out


_FIELDS: dict[type, tuple[str, ...]] = {}  # a result class's field names, in order
