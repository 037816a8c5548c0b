"""The toy at the table: winner → 自摸 or who discarded (放冲) → the preview; no sheet."""

from django.utils.translation import gettext_lazy as _

from scoring.engine import SEATS_ZH
from scoring.entry.base import (
    NO_BETS,
    NO_CARRIED_BETS,
    WinOrDrawForm,
    seat_field,
    seated_names,
    win_initial,
    win_title,
)
from scoring.lang import pick

TEMPLATE = "toy/entry.html"
RULES_TEMPLATE = "toy/rules.html"
PARTIAL = "toy/entry.html#sheet"
REQUIREMENTS = ()
MISSING = {"winner": _("请选择谁胡了。"), "how": _("请选择自摸，或谁放冲。")}


class Form(WinOrDrawForm):
    discarder = seat_field(_("谁放冲"))


def initial(entry: dict, fix) -> dict:
    return win_initial(entry, fix, lambda _entry: {})


def context(game, form, state, rules) -> dict:
    data = form.cleaned_data if hasattr(form, "cleaned_data") else {}
    names, winner = seated_names(game, state), data.get("winner")
    return {
        "others": [(s, names[s]) for s in range(4) if s != winner],
        "zimo_now": bool(data.get("zimo")),
        "swap_id": "sheet",
    }


def title(names: list[str], entry: dict, result=None) -> str:
    """e.g. 老王 自摸 ×2, 小李 ×3 · 老王放冲, 流局."""
    count = "" if result is None else f" ×{result.shares}"
    return win_title(names, entry, count, "放冲")


def wind(state, seat: int) -> str:
    return SEATS_ZH[seat]


def rules_context(rules) -> dict:
    """The rules page's two lines, in the page's language."""
    base = rules.base
    return {
        "toy_lines": [
            pick(f"自摸：三家各付 {base} × 2。", f"Self-drawn: each loser pays {base} × 2."),
            pick(f"放冲：放冲的人一家付 {base} × 3。", f"On a discard: the discarder alone pays {base} × 3."),
            pick(
                "流局不付。庄家胡了连庄，否则下家做庄。",
                "A draw pays nothing. The dealer stays on a win of their own; otherwise the next seat deals.",
            ),
        ]
    }


bets, prefill, change_bet, marks = NO_BETS
placed_bets, carry_bets, merge_pending = NO_CARRIED_BETS
