"""The table state of a ruleset carrying nothing over but the deal and the money (诸暨, 武义二人)."""

from dataclasses import dataclass, field

from .points import from_json, to_json


@dataclass(slots=True)
class PlainState:
    dealer: int = 0
    streak: int = 0  # dealer wins so far in this tenure (shown, never paid on)
    totals: list = field(default_factory=lambda: [0, 0, 0, 0])  # ints, or Fraction halves (诸暨)

    def to_dict(self) -> dict:
        return {"dealer": self.dealer, "streak": self.streak, "totals": [to_json(t) for t in self.totals]}

    @classmethod
    def from_dict(cls, data: dict) -> "PlainState":
        return cls(dealer=data["dealer"], streak=data["streak"], totals=[from_json(t) for t in data["totals"]])

    def correct(self, dealer: int, streak: int) -> None:
        """A correction from the table (a game joined mid-way, a forgotten hand)."""
        self.dealer = dealer
        self.streak = streak
