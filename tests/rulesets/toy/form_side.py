"""The toy at the table: the plug-in's plain win or draw (winner → 自摸 or who discarded (放冲) →
the preview), its title and its seats' winds as they are; only its part of the rules page is
its own."""

from scoring.handform.base import FormSide
from scoring.lang import pick


class ToyFormSide(FormSide):
    RULES_TEMPLATE = "toy/rules.html"

    def rules_context(self, rules) -> dict:
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


FORM_SIDE = ToyFormSide()
