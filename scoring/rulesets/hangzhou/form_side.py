"""杭州 at the table: only self-drawn wins (docs/rules/hangzhou.md §1), so the winner's tap opens the
sheet and its preview at once: a 平和 is one tap and 确认. The sheet's chips come in the groups of
§3 (爆头 · 财飘 ×1/×2/×3 · 杠开 · 七对子 / 豪华七对 · 十风 / 十风带白 · 无财神); a chip that cannot
join those chosen is greyed with the engine's reason (§4). 「承包」 offers the winner's 上家 and 下家
by name with what each would pay (§5). The dealer's 老庄 is said wherever another ruleset says 连庄."""

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine import ScoringError
from scoring.handform.base import FormSide, WinOrDrawForm, fix_initial, seated_names, win_title
from scoring.lang import pick, table_words
from scoring.rulesets.hangzhou.engine import (
    BY_CODE,
    GROUPS,
    LEVELS,
    LEVELS_EN,
    LISTABLE,
    PATTERNS,
    chengbao_problem,
    chips_of,
    conflicts,
    level,
    parse_hand,
    score_hand,
)
from scoring.rulesets.hangzhou.engine.patterns import CAIPIAO, MAX_CAIPIAO, NO_CHOWS

SEATS = 4
FLOATS = tuple(range(1, MAX_CAIPIAO + 1))  # 财飘 ×1, ×2, ×3
SIDES = ("upper", "lower")  # 承包: the winner chowed three times from their 上家; their 下家 from them


def liable_seats(winner: int, sides) -> list[int]:
    """The contract's ``chengbao`` for the sheet's choice: the winner when they chowed three times
    from their 上家, the 下家 when the 下家 chowed three times from them."""
    seats = [winner] if "upper" in sides else []
    return sorted([*seats, (winner + 1) % SEATS] if "lower" in sides else seats)


class Form(WinOrDrawForm):
    SEAT_FIELDS = ("winner", "dealer_fix")  # nobody discards a winning tile (§1)

    patterns = forms.MultipleChoiceField(choices=[(c, BY_CODE[c].zh) for c in LISTABLE], required=False)
    caipiao = forms.TypedChoiceField(
        choices=[(str(n), str(n)) for n in range(MAX_CAIPIAO + 1)], coerce=int, empty_value=0, required=False
    )
    chengbao = forms.MultipleChoiceField(choices=[(side, side) for side in SIDES], required=False)

    def step(self) -> str:
        """The winner, then the sheet: there is no 「how」 to ask."""
        return "winner" if self.outcome_value() is None else "preview"

    def codes(self) -> list[str]:
        chosen = set(self.cleaned_data.get("patterns") or [])
        return [c for c in LISTABLE if c in chosen]  # in the table's order (§3)

    def win_fields(self) -> dict:
        """What the sheet adds to a win: only what was tapped (a 平和 adds nothing)."""
        data, fields = self.cleaned_data, {}
        if codes := self.codes():
            fields["patterns"] = codes
        if data.get("caipiao"):
            fields["caipiao"] = data["caipiao"]
        if data.get("chengbao"):
            fields["chengbao"] = liable_seats(data["winner"], data["chengbao"])
        return fields

    def entry(self, state, rules) -> dict:
        if self.outcome_value() != "win":
            return {"outcome": "draw"}
        return {"outcome": "win", "winner": self.cleaned_data.get("winner"), **self.win_fields()}


def _chip(code: str, chosen: bool, reason, fan: int, name: str = "patterns", value: str = "") -> dict:
    """A chip: its name and its 番 at this table; a refused one points at the note saying why."""
    pattern = BY_CODE[code]
    return {
        "code": code,
        "id": f"pt-{code}{value}",
        "name": name,
        "value": value or code,
        "label": pick(pattern.zh, pattern.en),
        "fan": fan,
        "checked": chosen,
        "disabled": reason is not None and not chosen,
        "reason": table_words(pick(*reason)) if reason else "",
        "note": f"why-{code}",
    }


def _notes(chips: list[dict], label: str | None = None) -> list[tuple[str, str]]:
    """(id, text) of the notes under a group: one per refused chip, or one for the whole group
    (``label``: 财飘's three counts are refused together)."""
    off, colon = [c for c in chips if c["disabled"]], pick("：", ": ")
    if label is not None:
        return [(off[0]["note"], f"{label}{colon}{off[0]['reason']}")] if off else []
    return [(c["note"], f"{c['label']}{colon}{c['reason']}") for c in off]


def _whole(entry: dict, state, rules) -> int | None:
    """What the three would pay together for ``entry`` (承包's T, §5), or None when it is refused."""
    try:
        result = score_hand(rules, state, parse_hand(entry))
    except ScoringError:
        return None
    return sum(p.amount for p in result.payments)


class HangzhouFormSide(FormSide):
    """杭州 offers its own sheet, title, 老庄 words and rules page; seats keep their wind, no bets."""

    Form = Form
    TEMPLATE = "hangzhou/handform.html"
    RULES_TEMPLATE = "hangzhou/rules.html"
    PARTIAL = "hangzhou/handform.html#sheet"  # what a preview refresh swaps: the preview and the chips
    MISSING = {"winner": _("请选择谁胡了。")}
    ANALYSE_WORDS = {"any_tile": _("摸任何一张都能胡（爆头）")}  # 算牌's 可爆头 hand (scoring/analyse/sheet.py WORDS)

    def initial(self, entry: dict, fix) -> dict:
        """Form data for a stored hand."""
        data: dict = {"outcome": entry["outcome"], **fix_initial(fix)}
        if entry["outcome"] == "win":
            winner, liable = entry["winner"], entry.get("chengbao", [])
            data["winner"] = winner
            data["patterns"] = list(entry.get("patterns", []))
            data["caipiao"] = entry.get("caipiao", 0)
            sides = [side for side, seat in zip(SIDES, (winner, (winner + 1) % SEATS), strict=True) if seat in liable]
            data["chengbao"] = sides
        return data

    def context(self, game, form, state, rules) -> dict:
        """The chips by group, each refused one with the reason scoring would give, and 承包's two
        sides by name with what each would pay."""
        data = form.cleaned_data if hasattr(form, "cleaned_data") else {}
        names, winner = seated_names(game, state), data.get("winner")
        codes = form.codes() if data else []
        caipiao = data.get("caipiao") or 0
        sides = data.get("chengbao") or []
        chips = chips_of(codes, caipiao)
        refused = conflicts(chips)
        if "upper" in sides:  # a winner liable for three chows holds a hand with chows
            for code in sorted(NO_CHOWS):
                refused.setdefault(code, chengbao_problem((code,)))
        table = rules.fan_table
        groups = []
        for group, (zh, en) in GROUPS.items():
            if group == CAIPIAO:
                per = table[CAIPIAO]
                off = refused.get(CAIPIAO) if not caipiao else None
                members = [
                    _chip(CAIPIAO, caipiao == n, off, per * (n if rules.caipiao_stack else 1), "caipiao", str(n))
                    for n in FLOATS
                ]
                for chip, n in zip(members, FLOATS, strict=True):
                    chip["label"] = f"{chip['label']} ×{n}"
                notes = _notes(members, pick(zh, en))
                groups.append(
                    {"label": pick(zh, en), "radio": True, "none": not caipiao, "chips": members, "notes": notes}
                )
                continue
            members = [
                _chip(p.code, p.code in codes, refused.get(p.code), table[p.code]) for p in PATTERNS if p.group == group
            ]
            groups.append({"label": pick(zh, en), "radio": False, "chips": members, "notes": _notes(members)})
        return {
            "groups": groups,
            "liable": self._liable(names, winner, codes, caipiao, sides, state, rules) if winner is not None else [],
            "level_text": self.streak_text(state.streak),
            "factor": rules.factor(state.streak),
            "colon": pick("：", ": "),
            "swap_id": "sheet",
        }

    def _liable(self, names, winner, codes, caipiao, sides, state, rules) -> list[dict]:
        """承包's two sides: the 上家 (the winner chowed three times from them: pays the whole
        hand) and the 下家 (chowed three times from the winner: pays it twice)."""
        plain = {"outcome": "win", "winner": winner, "patterns": codes, "caipiao": caipiao}
        whole = _whole(plain, state, rules)
        upper, lower = (winner - 1) % SEATS, (winner + 1) % SEATS
        problem = chengbao_problem(chips_of(codes, caipiao))
        out = []
        for side, seat, times in (("upper", upper, 1), ("lower", lower, 2)):
            reason = problem if side == "upper" else None
            if side == "upper":
                how = pick(f"{names[winner]}吃了他三次", f"{names[winner]} chowed three times from them")
            else:
                how = pick(f"他吃了{names[winner]}三次", f"chowed three times from {names[winner]}")
            cost = None if whole is None else whole * times
            out.append(
                {
                    "side": side,
                    "name": names[seat],
                    "how": how,
                    "cost": cost,
                    "checked": side in sides,
                    "disabled": reason is not None and side not in sides,
                    "reason": table_words(pick(*reason)) if reason else "",
                }
            )
        return out

    def title(self, names: list[str], entry: dict, result=None) -> str:
        """e.g. 老王 自摸 2番, 阿明 自摸 1番 · 老王承包, 流局."""
        count = "" if result is None else pick(f" {result.fan}番", f" {result.fan} fan")
        title = win_title(names, entry, count, "")
        if entry.get("outcome") != "win" or not entry.get("chengbao"):
            return title
        winner, liable = entry["winner"], entry["chengbao"]
        who = [names[(winner - 1) % SEATS]] if winner in liable else []
        if (winner + 1) % SEATS in liable:
            who.append(names[(winner + 1) % SEATS])
        if not who:
            return title
        return title + pick(f" · {'、'.join(who)}承包", f" · {', '.join(who)} liable")

    def streak_text(self, streak: int) -> str:
        """The dealer's 老庄 (§2): 一老庄 for a new dealer, up to 三老庄."""
        n = level(streak)
        return pick(LEVELS[n - 1], LEVELS_EN[n - 1])

    def rules_context(self, rules) -> dict:
        """The rules page: every 番 at this game's table, and the dealer's factor at each 老庄."""
        patterns = [{"label": pick(p.zh, p.en), "fan": rules.fan_table[p.code], "code": p.code} for p in PATTERNS]
        levels = [{"label": pick(LEVELS[n], LEVELS_EN[n]), "factor": d} for n, d in enumerate(rules.laozhuang)]
        return {"patterns": patterns, "levels": levels}


FORM_SIDE = HangzhouFormSide()
