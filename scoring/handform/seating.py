"""换人/换位 in the hand list, the same in every ruleset (scoring/engine/seating.py): titled, no bets, ends those placed.

Its ``Form`` is None (``recordable``): a seating row's 修改 goes to the seating page, never a form here."""

from scoring.handform.base import FormSide
from scoring.lang import pick


class SeatingFormSide(FormSide):
    Form = None

    def title(self, names: list[str], entry: dict, result=None) -> str:
        """e.g. 换人/换位 · 阿明 小芳 小李 阿强 · 阿强坐庄 (the names in seat order from this hand on)."""
        seating = " ".join(entry["players"])
        text = pick(f"换人/换位 · {seating}", f"New seating · {seating}")
        if "dealer" in entry:
            name = entry["players"][entry["dealer"]]
            text += pick(f" · {name}坐庄", f" · {name} deals")
        return text


SEATING = SeatingFormSide()


def recordable(entry: FormSide) -> bool:
    """Whether the entry page can record or edit a hand with ``entry`` (an ``FormSide``)."""
    return entry.Form is not None
