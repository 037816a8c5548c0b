"""Forms only validate and convert: the rules themselves are judged by the engine."""

import re
import unicodedata
from decimal import Decimal

from django import forms
from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from scoring.engine import PRESETS, RULE_INFO, WIN_TYPES, Rules, TableState
from scoring.lang import pick
from scoring.models import DEFAULT_NAMES

ASCII_DIGITS = re.compile(r"[0-9]{1,9}", re.ASCII)


def ascii_int(value, default: int) -> int:
    """A whole number from a request, or ``default``: only ASCII digits ("²".isdigit() is True)."""
    value = str(value)
    return int(value) if ASCII_DIGITS.fullmatch(value) else default


def control_character(text: str) -> str | None:
    """The first control or invisible formatting character (Unicode Cc/Cf: NUL, U+202E and the
    other direction marks) in ``text``, as U+XXXX, or None. Such a character in a name can
    reorder the numbers shown beside it."""
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf"):
            return f"U+{ord(char):04X}"
    return None


def no_control_characters(value: str) -> None:
    if code := control_character(value):
        raise ValidationError(
            _("不能包含控制字符或文字方向字符（%(code)s）。"), code="control_character", params={"code": code}
        )


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    """Django's, with a message in Chinese (Django 5.2's own has no 简体中文 translation)."""

    def get_error_message(self) -> str:
        return _("密码太短，至少要 %(min_length)d 个字符。") % {"min_length": self.min_length}

    def get_help_text(self) -> str:
        return _("密码至少要 %(min_length)d 个字符。") % {"min_length": self.min_length}


SEAT_CHOICES = [(0, _("东")), (1, _("南")), (2, _("西")), (3, _("北"))]
OPTIONAL_SEAT = [("", "—"), *SEAT_CHOICES]


def _seat_field(label: str, required: bool = False) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(label=label, choices=OPTIONAL_SEAT, coerce=int, empty_value=None, required=required)


class NewGameForm(forms.Form):
    name0 = forms.CharField(label=_("东"), max_length=20, initial=DEFAULT_NAMES[0], validators=[no_control_characters])
    name1 = forms.CharField(label=_("南"), max_length=20, initial=DEFAULT_NAMES[1], validators=[no_control_characters])
    name2 = forms.CharField(label=_("西"), max_length=20, initial=DEFAULT_NAMES[2], validators=[no_control_characters])
    name3 = forms.CharField(label=_("北"), max_length=20, initial=DEFAULT_NAMES[3], validators=[no_control_characters])
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


class HandForm(forms.Form):
    """One hand as entered at the table, converted to the scoring contract's HAND object."""

    outcome = forms.ChoiceField(
        label=_("结果"), choices=[("win", _("胡牌")), ("draw", _("流局")), ("abandon", _("逃跑"))], required=False
    )
    winner = _seat_field(_("谁胡了"))
    win_type = forms.ChoiceField(
        label=_("胡牌型"), choices=[("", "—")] + [(c, t.zh) for c, t in WIN_TYPES.items()], required=False
    )
    discarder = _seat_field(_("谁放铳"))
    leaver = _seat_field(_("谁逃跑"))
    maizi = forms.TypedMultipleChoiceField(label=_("买子"), choices=SEAT_CHOICES, coerce=int, required=False)
    xz0 = forms.IntegerField(min_value=0, max_value=1_000_000, required=False)
    xz1 = forms.IntegerField(min_value=0, max_value=1_000_000, required=False)
    xz2 = forms.IntegerField(min_value=0, max_value=1_000_000, required=False)
    xz3 = forms.IntegerField(min_value=0, max_value=1_000_000, required=False)
    piao_player = _seat_field(_("谁飘了"))
    piao_level = forms.TypedChoiceField(
        label=_("飘"), choices=[(1, _("单飘")), (2, _("双飘"))], coerce=int, required=False, empty_value=1
    )
    feeder1 = _seat_field(_("喂家一"))
    feeder2 = _seat_field(_("喂家二"))
    feeder3 = _seat_field(_("喂家三"))
    caishen = forms.TypedChoiceField(
        label=_("胡牌者手里几个财神"),
        choices=[("", _("不填")), *[(n, str(n)) for n in range(4)]],
        coerce=int,
        empty_value=None,
        required=False,
    )
    dealer_fix = _seat_field(_("更正庄家"))
    streak_fix = forms.IntegerField(label=_("更正连庄数"), min_value=0, max_value=999, required=False)

    def __init__(self, *args, players: list[str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["win_type"].choices = [("", "—")] + [(c, pick(t.zh, t.en)) for c, t in WIN_TYPES.items()]
        if players:  # show the table's names instead of bare winds
            named = [("", "—"), *[(s, f"{players[s]} ({SEAT_CHOICES[s][1]})") for s in range(4)]]
            for name in ("winner", "discarder", "leaver", "piao_player", "feeder1", "feeder2", "feeder3", "dealer_fix"):
                self.fields[name].choices = named

    def outcome_value(self) -> str | None:
        data = self.cleaned_data
        if data.get("outcome"):
            return data["outcome"]
        return "win" if data.get("winner") is not None else None

    def step(self) -> str:
        """Which question the fast path asks next, or 'preview' when the hand is complete."""
        data, outcome = self.cleaned_data, self.outcome_value()
        if outcome is None:
            return "winner"
        if outcome == "win" and not data.get("win_type"):
            return "win_type"
        if outcome == "win" and WIN_TYPES[data["win_type"]].discard and data.get("discarder") is None:
            return "discarder"
        if outcome == "abandon" and data.get("leaver") is None:
            return "leaver"
        return "preview"

    def fix(self, state: TableState) -> tuple[int, int] | None:
        """The (dealer, streak) correction, when it differs from the derived state."""
        dealer, streak = self.cleaned_data.get("dealer_fix"), self.cleaned_data.get("streak_fix")
        if dealer is None and streak is None:
            return None
        dealer = state.dealer if dealer is None else dealer
        streak = state.streak if streak is None else streak
        if (dealer, streak) == (state.dealer, state.streak):
            return None
        return dealer, streak

    def entry(self, state: TableState, rules: Rules) -> dict:
        """The contract HAND object. ``state`` is the table before this hand (after any fix)."""
        data, outcome = self.cleaned_data, self.outcome_value()
        entry: dict = {"outcome": outcome}
        if outcome == "win":
            entry["winner"] = data.get("winner")
            entry["win_type"] = data.get("win_type")
            win_type = WIN_TYPES.get(data.get("win_type") or "")
            if win_type and win_type.piao_level and data.get("piao_player") is None:
                # Picking a 飘 type marks the winner as the one who floated.
                data["piao_player"], data["piao_level"] = data.get("winner"), win_type.piao_level
            if win_type and win_type.discard:
                entry["discarder"] = data.get("discarder")
            if data.get("caishen") is not None:
                entry["caishen"] = data["caishen"]
        elif outcome == "abandon":
            entry["leaver"] = data.get("leaver")
        maizi = [1 if (state.maizi[s] or s in data.get("maizi", [])) else 0 for s in range(4)]
        if tuple(maizi) != tuple(state.maizi):
            entry["maizi"] = maizi
        joins = {s: data.get(f"xz{s}") for s in range(4) if data.get(f"xz{s}")}
        if joins:
            if rules.xiazi_amount == "fixed":
                entry["xiazi_join"] = sorted(joins)
            else:
                entry["xiazi_join"] = {str(s): amount for s, amount in sorted(joins.items())}
        if data.get("piao_player") is not None:
            entry["piao"] = {"player": data["piao_player"], "level": data.get("piao_level") or 1}
            feeders = [data.get(f"feeder{i}") for i in (1, 2, 3)]
            feeders = [f for f in feeders if f is not None]
            if feeders:
                entry["feeders"] = feeders
        return {k: v for k, v in entry.items() if v is not None}


def hand_form_initial(entry: dict, fix: tuple[int, int] | None) -> dict:
    """Form data (as a GET query would carry it) for an entry stored earlier."""
    data: dict = {"outcome": entry["outcome"]}
    for name in ("winner", "win_type", "discarder", "leaver", "caishen"):
        if name in entry:
            data[name] = entry[name]
    if "maizi" in entry:
        data["maizi"] = [s for s in range(4) if entry["maizi"][s]]
    joins = entry.get("xiazi_join") or []
    for seat in joins:
        data[f"xz{int(seat)}"] = joins[seat] if isinstance(joins, dict) else 1
    if "piao" in entry:
        data["piao_player"], data["piao_level"] = entry["piao"]["player"], entry["piao"]["level"]
        for i, feeder in enumerate(entry.get("feeders", []), start=1):
            data[f"feeder{i}"] = feeder
    if fix is not None:
        data["dealer_fix"], data["streak_fix"] = fix
    return data


class VoidForm(forms.Form):
    reason = forms.CharField(
        label=_("作废原因"), max_length=200, required=False, initial=_("记错了"), validators=[no_control_characters]
    )


RATE_CHOICES = [
    ("100", _("1 点 = 1 元")),
    ("50", _("1 点 = 0.5 元")),
    ("10", _("1 点 = 0.1 元")),
    ("custom", _("自定")),
]


MAX_RATE_YUAN, MAX_FEE_YUAN = 10_000, 100_000  # with points below 10^12, every 分 fits 64 bits


class SettleForm(forms.Form):
    """结算: the money rate and the table fee. Money is whole 分 (fen)."""

    rate = forms.ChoiceField(label=_("每点多少钱"), choices=RATE_CHOICES, initial="100", widget=forms.RadioSelect)
    custom_yuan = forms.DecimalField(
        label=_("自定：1 点 = ? 元"),
        required=False,
        min_value=Decimal("0.01"),
        max_value=MAX_RATE_YUAN,
        decimal_places=2,
        error_messages={"max_value": _("每点最多 10000 元。"), "min_value": _("每点至少 0.01 元。")},
    )
    fee_yuan = forms.DecimalField(
        label=_("台费（元）"),
        required=False,
        min_value=0,
        max_value=MAX_FEE_YUAN,
        decimal_places=2,
        error_messages={"max_value": _("台费最多 100000 元。"), "min_value": _("台费不能是负数。")},
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
