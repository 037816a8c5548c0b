"""手动记分 at the table, the same in every ruleset (scoring/engine/manual.py): ``MANUAL`` is its ``FormSide``."""

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine.manual import MAX_AMOUNT, MAX_NOTE
from scoring.forms import StrictDecimalField, no_control_characters
from scoring.handform.base import FormSide, HandForm, fix_initial, seat_field, seated_names
from scoring.lang import pick

MAX_SEATS = 4


def _amount_field() -> StrictDecimalField:
    return StrictDecimalField(max_value=MAX_AMOUNT, min_value=-MAX_AMOUNT, decimal_places=1, required=False)


class Form(HandForm):
    outcome = forms.ChoiceField(choices=[("manual", _("手动记分"))])
    n0, n1, n2, n3 = (_amount_field() for _ in range(MAX_SEATS))
    note = forms.CharField(
        label=_("说明（必填）"),
        max_length=MAX_NOTE,
        required=False,
        strip=True,
        validators=[no_control_characters],
        widget=forms.TextInput(attrs={"placeholder": _("例如：罚分、另外的赌注、手算的一局")}),
    )
    next_dealer = seat_field(_("下一局谁坐庄（不填 = 不变）"))
    SEAT_FIELDS = ("next_dealer", "dealer_fix")
    FORM_STEPS = ("manual", "preview")  # typed in, never tapped

    def amounts(self) -> list[Decimal | None]:
        return [self.cleaned_data.get(f"n{s}") for s in range(len(self.players))]

    def step(self) -> str:
        """'manual' until something is typed: a fresh form shows no error."""
        if not self.cleaned_data.get("note") and all(a is None for a in self.amounts()):
            return "manual"
        return "preview"

    def entry(self, state, rules) -> dict:
        net = []
        for amount in self.amounts():
            amount = amount or Decimal(0)
            net.append(int(amount) if amount == amount.to_integral_value() else float(amount))
        entry = {"outcome": "manual", "net": net, "note": self.cleaned_data.get("note") or ""}
        if self.cleaned_data.get("next_dealer") is not None:
            entry["dealer"] = self.cleaned_data["next_dealer"]
        return entry


def is_manual(data) -> bool:
    return bool(data) and data.get("outcome") == "manual"


class ManualFormSide(FormSide):
    Form = Form
    FIELD_OF = {"dealer": "next_dealer"}  # the field that shows a refusal of the contract's "dealer"
    TEMPLATE = "table/handform/manual.html"
    PARTIAL = "table/handform/_preview.html"
    MISSING = {"manual": _("请填写每人的得失和说明。")}

    STEP_FIELDS = ()  # one form, no questions: an edit opens it filled in

    def initial(self, entry: dict, fix) -> dict:
        data = {"outcome": "manual", "note": entry["note"]}
        data.update({f"n{s}": amount for s, amount in enumerate(entry["net"])})
        if "dealer" in entry:
            data["next_dealer"] = entry["dealer"]
        return {**data, **fix_initial(fix)}

    def context(self, game, form, state, rules) -> dict:
        step = "0.5" if game.plugin.halves else "1"
        names = seated_names(game, state)
        return {"amounts": [(s, names[s], form[f"n{s}"]) for s in range(len(names))], "amount_step": step}

    def title(self, names: list[str], entry: dict, result=None) -> str:
        """e.g. 手动 · 罚分 · 下一局老王坐庄."""
        text = pick(f"手动 · {entry['note']}", f"Manual · {entry['note']}")
        if "dealer" in entry:
            name = names[entry["dealer"]]
            text += pick(f" · 下一局{name}坐庄", f" · {name} deals next")
        return text


MANUAL = ManualFormSide()
