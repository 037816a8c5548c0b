"""Forms only validate and convert: the rules themselves are judged by the engine."""

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine import PRESETS, RULE_INFO, Rules
from scoring.lang import pick
from scoring.models import DEFAULT_NAMES

SEAT_CHOICES = [(0, _("东")), (1, _("南")), (2, _("西")), (3, _("北"))]
OPTIONAL_SEAT = [("", "—"), *SEAT_CHOICES]


def _seat_field(label: str, required: bool = False) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(label=label, choices=OPTIONAL_SEAT, coerce=int, empty_value=None, required=required)


class NewGameForm(forms.Form):
    name0 = forms.CharField(label=_("东"), max_length=20, initial=DEFAULT_NAMES[0])
    name1 = forms.CharField(label=_("南"), max_length=20, initial=DEFAULT_NAMES[1])
    name2 = forms.CharField(label=_("西"), max_length=20, initial=DEFAULT_NAMES[2])
    name3 = forms.CharField(label=_("北"), max_length=20, initial=DEFAULT_NAMES[3])
    first_dealer = forms.TypedChoiceField(label=_("首局庄家"), choices=SEAT_CHOICES, coerce=int, initial=0)
    preset = forms.ChoiceField(
        label=_("底分（庄/闲）"), choices=[(p, f"{p}") for p in PRESETS], initial="7/5", widget=forms.RadioSelect
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        defaults = Rules()
        for name, info in RULE_INFO.items():
            if name in ("base_dealer", "base_other"):
                continue  # the preset sets them
            self.fields[name] = _rule_field(info, getattr(defaults, name))

    def clean(self):
        data = super().clean()
        names = [data.get(f"name{i}", "").strip() for i in range(4)]
        if all(names) and len(set(names)) < 4:
            raise forms.ValidationError(_("四个玩家的名字不能重复。"))
        return data

    def name_fields(self):
        return [self[f"name{i}"] for i in range(4)]

    def rule_fields(self):
        return [self[name] for name in RULE_INFO if name in self.fields]

    def names(self) -> list[str]:
        return [self.cleaned_data[f"name{i}"].strip() for i in range(4)]

    def rules(self) -> Rules:
        bases = PRESETS[self.cleaned_data["preset"]]
        options = {name: self.cleaned_data[name] for name in RULE_INFO if name in self.cleaned_data}
        return Rules(**{**options, **bases})


def _rule_field(info, default) -> forms.Field:
    common = {"label": pick(info.zh, info.en), "help_text": pick(info.zh_help, info.en_help), "initial": default}
    if info.kind == "bool":
        return forms.BooleanField(required=False, **common)
    if info.kind == "choice":
        return forms.ChoiceField(choices=[(v, pick(zh, en)) for v, zh, en in info.choices], **common)
    if info.kind == "cap":
        return forms.IntegerField(required=False, min_value=1, max_value=1_000_000, **common)
    return forms.IntegerField(min_value=info.minimum, max_value=1_000_000, **common)


class VoidForm(forms.Form):
    reason = forms.CharField(label=_("作废原因"), max_length=200, required=False, initial=_("记错了"))


RATE_CHOICES = [
    ("100", _("1 点 = 1 元")),
    ("50", _("1 点 = 0.5 元")),
    ("10", _("1 点 = 0.1 元")),
    ("custom", _("自定")),
]


class SettleForm(forms.Form):
    """结算: the money rate and the table fee. Money is whole 分 (fen)."""

    rate = forms.ChoiceField(label=_("每点多少钱"), choices=RATE_CHOICES, initial="100", widget=forms.RadioSelect)
    custom_yuan = forms.DecimalField(
        label=_("自定：1 点 = ? 元"), required=False, min_value=Decimal("0.01"), max_value=10000, decimal_places=2
    )
    fee_yuan = forms.DecimalField(
        label=_("台费（元）"), required=False, min_value=0, max_value=100000, decimal_places=2
    )
    fee_mode = forms.ChoiceField(
        label=_("台费谁出"),
        choices=[("equal", _("四人平摊")), ("winners", _("赢家按赢的比例出"))],
        initial="equal",
        widget=forms.RadioSelect,
    )
    fee_payee = forms.TypedChoiceField(label=_("谁去付台费"), choices=SEAT_CHOICES, coerce=int, initial=0)

    def __init__(self, *args, players: list[str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if players:
            self.fields["fee_payee"].choices = [(s, players[s]) for s in range(4)]

    def clean(self):
        data = super().clean()
        if data.get("rate") == "custom" and data.get("custom_yuan") is None:
            self.add_error("custom_yuan", _("请填每点多少元。"))
        return data

    def rate_fen(self) -> int:
        data = self.cleaned_data
        if data["rate"] == "custom":
            return int(data["custom_yuan"] * 100)
        return int(data["rate"])

    def fee_fen(self) -> int:
        return int((self.cleaned_data.get("fee_yuan") or 0) * 100)
