"""诸暨 at the table: winner → 自摸 or the discarder (放冲) → one sheet of 台 toggles, with the
台 and every player's change updating as they are tapped (docs/rules/zhuji.md §3-§5)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine import SEATS_ZH
from scoring.forms import StrictIntegerField
from scoring.handform.base import DiscardForm, FormSide, seated_names, win_initial, win_title
from scoring.lang import pick, table_words
from scoring.rulesets.zhuji.engine import hands as tai_names
from scoring.rulesets.zhuji.engine.hands import TAI_NAMES, seat_wind, wind_tai
from scoring.rulesets.zhuji.engine.validity import first_round_refusal

# The sheet's chips, named from the engine's one table of 台 items (engine/hands.py).
DRAGONS = tuple((code, *TAI_NAMES[code]) for code in tai_names.DRAGONS)
# A wind chip says the seat wind alone (东, "East"): the 台 it is worth is shown beside it.
WINDS = tuple((code, TAI_NAMES[code][0][0], TAI_NAMES[code][1].split()[0]) for code in tai_names.WINDS)
SHAPES = tuple((code, *TAI_NAMES[code]) for code in tai_names.SHAPES)
FLAGS = tuple((code, *TAI_NAMES[code]) for code in tai_names.FLAG_NAMES)
SPECIALS = tuple((code, *TAI_NAMES[code]) for code in tai_names.SPECIALS)
MAX_EXTRA = tai_names.MAX_EXTRA


def _choices(table) -> list[tuple[str, str]]:
    return [(code, pick(zh, en)) for code, zh, en in table]


class Form(DiscardForm):
    dragons = forms.MultipleChoiceField(label=_("箭刻"), choices=_choices(DRAGONS), required=False)
    winds = forms.MultipleChoiceField(label=_("风刻"), choices=_choices(WINDS), required=False)
    shape = forms.ChoiceField(label=_("牌型"), choices=_choices(SHAPES), required=False)
    hunyise = forms.BooleanField(required=False)
    qianggang = forms.BooleanField(required=False)
    gangkai = forms.BooleanField(required=False)
    no_caishen = forms.BooleanField(required=False)
    special = forms.ChoiceField(choices=[("", "—"), *_choices(SPECIALS)], required=False)
    extra = StrictIntegerField(label=_("其他台"), min_value=0, max_value=MAX_EXTRA, required=False)

    def tai(self) -> dict:
        """The contract's TAI object, with only what was tapped."""
        data = self.cleaned_data
        tai: dict = {}
        if data.get("dragons"):
            tai["dragon_pungs"] = [code for code, _zh, _en in DRAGONS if code in data["dragons"]]
        if data.get("winds"):
            tai["wind_pungs"] = [code for code, _zh, _en in WINDS if code in data["winds"]]
        if data.get("shape") and data["shape"] != "mixed":
            tai["shape"] = data["shape"]
        tai.update({code: True for code, _zh, _en in FLAGS if data.get(code)})
        if data.get("special"):
            tai["special"] = data["special"]
        if data.get("extra"):
            tai["extra"] = data["extra"]
        return tai

    def win_fields(self) -> dict:
        return {"tai": self.tai()}


def _sheet_initial(entry: dict) -> dict:
    tai = entry.get("tai", {})
    data = {
        "dragons": list(tai.get("dragon_pungs", [])),
        "winds": list(tai.get("wind_pungs", [])),
        "shape": tai.get("shape", "mixed"),
        **{code: "on" for code, _zh, _en in FLAGS if tai.get(code)},
    }
    data.update({key: tai[key] for key in ("special", "extra") if tai.get(key)})
    return data


def _special(code: str, label: str, data: dict, dealer: int) -> dict:
    """A 天胡 / 地胡 / 全字 chip; one this winner cannot claim (a 闲 's 天胡, the dealer's 地胡, either
    on the wrong discard) is greyed with the reason scoring would give, unless already chosen."""
    winner, discarder = data.get("winner"), data.get("discarder")
    refused = first_round_refusal(code, winner, discarder, dealer) if winner is not None else None
    chosen = data.get("special") == code
    return {
        "code": code,
        "label": label,
        "disabled": refused is not None and not chosen,
        "reason": table_words(pick(refused.zh, refused.en)) if refused else "",
    }


class ZhujiFormSide(FormSide):
    """诸暨 offers its own sheet, title, winds and 算牌 words; no bets are placed before a hand."""

    Form = Form
    TEMPLATE = "zhuji/handform.html"
    RULES_TEMPLATE = "zhuji/rules.html"
    PARTIAL = "zhuji/handform.html#head"  # what a preview refresh swaps: the preview and who won how
    REQUIREMENTS = ("tai",)  # 「至少要1台」: on the sheet before any 台 is tapped, a note (not a refusal)
    # 算牌 in 诸暨's words (scoring/analyse/sheet.py WORDS): 放冲, and two kinds wild.
    ANALYSE_WORDS = {
        "use_with": _("用这个记分（%(name)s放冲）"),
        "discarded": _("%(name)s放冲"),
        "anyone": _("谁放冲都是 %(winner)s%(net)s"),
        "who": _("用这个记分 — 谁放冲？"),
        "wilds": _("诸暨：翻的这种和下一种都是财神。"),
    }

    def analyse_text(self, answer: dict, breakdown) -> str:
        """A hand of 0 台 with a 财神 may not be won (docs/rules/zhuji.md §4): 算牌 says so after its 台."""
        if answer.get("can_win"):
            return breakdown()
        return _("%(breakdown)s — 0 台且手里有财神，不能胡") % {"breakdown": breakdown()}

    def initial(self, entry: dict, fix) -> dict:
        """Form data for a stored hand."""
        return win_initial(entry, fix, _sheet_initial)

    def context(self, game, form, state, rules) -> dict:
        """The sheet: winds labelled relative to the dealer (§1), the winner's own wind marked."""
        data = form.cleaned_data if hasattr(form, "cleaned_data") else {}
        names, winner = seated_names(game, state), data.get("winner")
        own_wind = seat_wind(winner, state.dealer) if winner is not None else None
        winds = []
        for i, (code, zh, en) in enumerate(WINDS):
            seat = (state.dealer + i) % 4
            own, worth = seat == winner, wind_tai(i, own_wind)
            winds.append({"code": code, "label": pick(zh, en), "name": names[seat], "own": own, "worth": worth})
        chosen = set(data.get("winds") or []) | set(data.get("dragons") or [])
        return {
            "others": [(s, names[s]) for s in range(4) if s != winner],
            "dragons": [{"code": c, "label": pick(zh, en)} for c, zh, en in DRAGONS],
            "winds": winds,
            "shapes": [{"code": c, "label": pick(zh, en)} for c, zh, en in SHAPES],
            "flags": [{"code": c, "label": pick(zh, en), "checked": bool(data.get(c))} for c, zh, en in FLAGS],
            "specials": [_special(c, pick(zh, en), data, state.dealer) for c, zh, en in SPECIALS],
            "chosen": chosen,
            "shape_now": data.get("shape") or "mixed",
            "zimo_now": bool(data.get("zimo")),
            "swap_id": "zhuji-head",
        }

    def title(self, names: list[str], entry: dict, result=None) -> str:
        """e.g. 老王 自摸 4台, 小李 1台 · 老王放冲, 流局."""
        count = "" if result is None else pick(f" {result.tai}台", f" {result.tai} tai")
        return win_title(names, entry, count, "放冲")

    def wind(self, state, seat: int) -> str:
        """Winds are relative to the dealer (§1): the dealer is 东, the next seat 南, and so on."""
        return SEATS_ZH[seat_wind(seat, state.dealer)]


FORM_SIDE = ZhujiFormSide()
