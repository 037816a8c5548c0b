"""武义二人 at the table: winner → 自摸 or 放铳 → pattern chips by group, with the 番 and the
amount updating as they are tapped; a chip that cannot join the ones chosen is greyed with the
engine's reason (docs/rules/wuyi2.md §2, §4)."""

from dataclasses import replace

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.handform.base import FormSide, WinOrDrawForm, seat_field, seated_names, win_initial, win_title
from scoring.lang import pick, table_words
from scoring.rulesets.wuyi2.engine import BY_CODE, GROUPS, LISTABLE, PATTERNS, conflicts

SHAPES = [p.code for p in PATTERNS if p.group == "shape"]
EXTRAS = [code for code in LISTABLE if BY_CODE[code].group != "shape"]


class Form(WinOrDrawForm):
    discarder = seat_field(_("谁放铳"))
    shape = forms.ChoiceField(choices=[(c, BY_CODE[c].zh) for c in SHAPES], required=False)
    patterns = forms.MultipleChoiceField(choices=[(c, BY_CODE[c].zh) for c in EXTRAS], required=False)

    def codes(self) -> list[str]:
        """The shape, then the other chips in the table's order (§2)."""
        data = self.cleaned_data
        chosen = set(data.get("patterns") or [])
        return [data.get("shape") or "pinghu", *(c for c in EXTRAS if c in chosen)]

    def win_fields(self) -> dict:
        return {"patterns": self.codes()}


def _sheet_initial(entry: dict) -> dict:
    codes = entry.get("patterns", [])
    return {
        "shape": next((c for c in codes if c in SHAPES), "pinghu"),
        "patterns": [c for c in codes if c not in SHAPES],
    }


def _chip(code: str, chosen: bool, refused: dict, fan_table: dict) -> dict:
    """A pattern chip: its name and its 番 at this table (the game's 番数表 applied)."""
    reason = refused.get(code)
    pattern = BY_CODE[code]
    return {
        "code": code,
        "label": pick(pattern.zh, pattern.en),
        "fan": fan_table[code],
        "checked": chosen,
        "disabled": reason is not None and not chosen,
        "reason": table_words(pick(*reason)) if reason else "",
    }


class Wuyi2FormSide(FormSide):
    """武义二人 offers its own chips, title and 番 table; seats keep their wind and no bets are placed."""

    Form = Form
    TEMPLATE = "wuyi2/handform.html"
    RULES_TEMPLATE = "wuyi2/rules.html"
    PARTIAL = "wuyi2/handform.html#sheet"  # what a preview refresh swaps: the preview and the chips
    MISSING = {"winner": _("请选择谁胡了。"), "how": _("请选择自摸还是放铳。")}

    def initial(self, entry: dict, fix) -> dict:
        """Form data for a stored hand."""
        return win_initial(entry, fix, _sheet_initial)

    def context(self, game, form, state, rules) -> dict:
        """The chips by group; each refused chip carries the reason scoring would give."""
        data = form.cleaned_data if hasattr(form, "cleaned_data") else {}
        names, winner = seated_names(game, state), data.get("winner")
        self_drawn = bool(data.get("zimo"))
        codes = form.codes() if data else ["pinghu"]
        shape, others = codes[0], codes[1:]
        refused_shape = conflicts(others, winner, state.dealer, self_drawn)
        refused = conflicts(codes, winner, state.dealer, self_drawn)
        groups = [
            {
                "code": "shape",
                "label": pick(*GROUPS["shape"]),
                "radio": True,
                "chips": [_chip(c, c == shape, refused_shape, rules.fan_table) for c in SHAPES],
            }
        ]
        for group, (zh, en) in GROUPS.items():
            members = [c for c in EXTRAS if BY_CODE[c].group == group]
            if members:
                chips = [_chip(c, c in others, refused, rules.fan_table) for c in members]
                groups.append({"code": group, "label": pick(zh, en), "radio": False, "chips": chips})
        other = 1 - winner if winner is not None else None
        return {
            "others": [(other, names[other])] if other is not None else [],
            "groups": groups,
            "zimo_now": self_drawn,
            "zimo_fan": rules.fan_table["zimo"],
            "swap_id": "sheet",
        }

    def title(self, names: list[str], entry: dict, result=None) -> str:
        """e.g. 老王 自摸 3番, 小李 2番 · 老王放铳, 流局."""
        count = "" if result is None else pick(f" {result.fan}番", f" {result.fan} fan")
        return win_title(names, entry, count, "放铳")

    def rules_context(self, rules) -> dict:
        """The rules page's 番 table: every pattern (自摸 last) at this game's 番 (its 番数表 applied)."""
        return {"patterns": [replace(p, fan=rules.fan_table[p.code]) for p in PATTERNS], "groups": GROUPS}


FORM_SIDE = Wuyi2FormSide()
