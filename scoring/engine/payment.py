"""What every ruleset's ``Payment`` shares: who pays whom how much, and ``why`` (the data its
explanation is made from, see each ruleset's ``explain.py``). A ruleset's ``Payment`` subclasses
``BasePayment`` and names its ``explain`` and ``formula`` functions."""

from dataclasses import dataclass
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
