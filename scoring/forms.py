"""Forms only validate and convert: the rules themselves are judged by the engine."""

import re
from decimal import Decimal

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from scoring.engine import Ruleset, ScoringError
from scoring.engine.hygiene import bad_character
from scoring.lang import pick, say, table_words
from scoring.models import DEFAULT_NAMES

DEFAULT_NAMES_EN = ("East", "South", "West", "North")  # an English page's 东家, 南家 …
ASCII_DIGITS = re.compile(r"[0-9]{1,9}", re.ASCII)
ASCII_INTEGER = re.compile(r"[-+]?[0-9]+", re.ASCII)
ASCII_DECIMAL = re.compile(r"[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)", re.ASCII)


def default_name(seat: int) -> str:
    """The name of a seat left empty on the new-game form, in the page's language."""
    return pick(DEFAULT_NAMES[seat], DEFAULT_NAMES_EN[seat])


def ascii_int(value, default: int) -> int:
    """A whole number from a request, or ``default``: only ASCII digits ("²".isdigit() is True)."""
    value = str(value)
    return int(value) if ASCII_DIGITS.fullmatch(value) else default


class StrictIntegerField(forms.IntegerField):
    """Django's, taking only ASCII digits: Python's int() also reads 「٣」 and 「３」."""

    def to_python(self, value):
        if value not in self.empty_values and not ASCII_INTEGER.fullmatch(str(value).strip()):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


class StrictDecimalField(forms.DecimalField):
    """Django's, taking only ASCII digits and a point: Decimal() also reads 「٣」 and 「1e3」."""

    def to_python(self, value):
        if value not in self.empty_values and not ASCII_DECIMAL.fullmatch(str(value).strip()):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


def control_character(text: str) -> str | None:
    """The first character no name or note may hold, as "U+202E", or None (scoring/engine/hygiene.py's one check)."""
    return bad_character(text)


def no_control_characters(value: str) -> None:
    if code := control_character(value):
        raise ValidationError(
            _("不能包含控制字符或文字方向字符等特殊字符（%(code)s）。"), code="control_character", params={"code": code}
        )


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    """Django's, with a message in Chinese (Django 5.2's own has no 简体中文 translation)."""

    def get_error_message(self) -> str:
        return _("密码太短，至少要 %(min_length)d 个字符。") % {"min_length": self.min_length}

    def get_help_text(self) -> str:
        return _("密码至少要 %(min_length)d 个字符。") % {"min_length": self.min_length}


def bound_username(form: forms.Form) -> None:
    """Refuse an overlong username before ``clean``, since a failed login's name goes to django-axes' 255-char column."""
    field = form.fields["username"]
    if not any(isinstance(v, MaxLengthValidator) for v in field.validators):  # AuthenticationForm has none
        field.validators.append(MaxLengthValidator(get_user_model()._meta.get_field("username").max_length))
    field.error_messages["max_length"] = _("用户名太长：最多 %(limit_value)d 个字符（现在是 %(show_value)d 个）。")


class LoginForm(AuthenticationForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        bound_username(self)


class SignupForm(UserCreationForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        bound_username(self)


SEAT_CHOICES = [(0, _("东")), (1, _("南")), (2, _("西")), (3, _("北"))]
NAME_LIMIT = 20  # a name typed at the table: what a tile shows (imports may bring up to MAX_NAME)
ROUND_LENGTHS = (1, 2, 4, 8, 16)  # 打几圈: the lengths the new-game form offers


def checks_required_field() -> forms.BooleanField:
    """全部核对后才能结算: a table's setting (a game's, and a 牌友圈's for its new games), no rule."""
    return forms.BooleanField(
        label=_("全部核对后才能结算"),
        required=False,
        help_text=_("每一局都要打的人点过「对」，才能结束并结算；不勾时，结算页只提醒哪些局没核对。"),
    )


def preset_label(name: str) -> str:
    """A preset as the page's language says it: 7/5 stays, 「2分」 is "2 pt" in English."""
    return pick(name, f"{name[:-1]} pt") if name.endswith("分") else name


class NewGameForm(forms.Form):
    """开新牌局 for one ruleset: names, first dealer, a preset and the rules it leaves; the engine checks them again."""

    ruleset = forms.CharField(widget=forms.HiddenInput, required=False)  # chosen by the view

    def __init__(self, *args, ruleset: Ruleset, **kwargs):
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        self.fields["ruleset"].initial = ruleset.code
        seats = SEAT_CHOICES[: ruleset.seats]
        for s, wind in seats:
            # Empty to start with: the seat's default name is a placeholder, not text to delete.
            self.fields[f"name{s}"] = forms.CharField(
                label=wind,
                max_length=NAME_LIMIT,
                required=False,
                strip=True,
                validators=[no_control_characters],
                widget=forms.TextInput(
                    attrs={"placeholder": default_name(s), "autocomplete": "off", "class": "form-control-lg"}
                ),
            )
        self.fields["first_dealer"] = forms.TypedChoiceField(label=_("首局庄家"), choices=seats, coerce=int, initial=0)
        # 打几圈: the table's own setting (the app offers 换位 or 结算 when it is played), no rule.
        self.fields["round_length"] = forms.TypedChoiceField(
            label=_("打几圈"),
            choices=[("", _("不限")), *((str(n), _("%(n)s 圈") % {"n": n}) for n in ROUND_LENGTHS)],
            coerce=int,
            empty_value=None,
            required=False,
            initial="",
            widget=forms.RadioSelect,
        )
        self.fields["checks_required"] = checks_required_field()
        self.fields["preset"] = forms.ChoiceField(
            label=pick(*ruleset.form_side.PRESET_LABEL),
            choices=[(p, preset_label(p)) for p in ruleset.presets] + [(CUSTOM, _("自定"))],
            initial=ruleset.default_preset,
            widget=forms.RadioSelect,
        )
        defaults = ruleset.rules_class()
        set_by_presets = {name for preset in ruleset.presets.values() for name in preset}
        # 自定: the rules the presets set (义乌 庄/闲 bases, the others' base), typed in.
        self.base_names = [name for name in ruleset.rule_info if name in set_by_presets]
        for name in self.base_names:
            self.fields[name] = _rule_field(ruleset.rule_info[name], getattr(defaults, name))
            self.fields[name].required = False
            self.fields[name].widget.attrs.update({"data-picks": "preset-custom", "inputmode": "numeric"})
        self.rule_names = [name for name in ruleset.rule_info if name not in set_by_presets]
        for name in self.rule_names:
            info = ruleset.rule_info[name]
            if info.kind in TABLE_KINDS:  # a table (武义 番数表, 杭州 老庄倍数): one number per entry
                for i, (key, zh, en, standard) in enumerate(info.entries):
                    initial = standard if info.kind == "map" else getattr(defaults, name)[i]
                    self.fields[table_field(name, key)] = _number_field(info, pick(zh, en), initial)
            else:
                self.fields[name] = _rule_field(info, getattr(defaults, name))

    def clean(self):
        data = super().clean()
        for s in range(self.ruleset.seats):  # an empty name is the seat's default (东家, 南家 …)
            if f"name{s}" in data:
                data[f"name{s}"] = data[f"name{s}"].strip() or default_name(s)
        names = [data.get(f"name{s}", "") for s in range(self.ruleset.seats)]
        if all(names) and len(set(names)) < len(names):
            raise forms.ValidationError(_("玩家的名字不能重复。"))
        if data.get("preset") == CUSTOM:
            for name in self.base_names:
                if data.get(name) is None and name not in self.errors:
                    self.add_error(name, _("选了自定，请填底分。"))
        if not self.errors:
            try:
                data["house_rules"] = self.ruleset.parse_rules(self._raw_rules(data))
            except ScoringError as error:
                field = (error.field or "").replace(".", "__")  # fan.qingyise: the field fan__qingyise
                self.add_error(field if field in self.fields else None, table_words(say(error)))
        return data

    def _raw_rules(self, data) -> dict:
        raw = {name: data[name] for name in self.rule_names if name in data}
        for info in self._tables():
            if info.kind == "list":  # every entry, an empty one at its standard value
                raw[info.name] = [
                    standard if data.get(table_field(info.name, key)) is None else data[table_field(info.name, key)]
                    for key, _zh, _en, standard in info.entries
                ]
                continue
            raw[info.name] = {
                key: data[table_field(info.name, key)]
                for key, _zh, _en, standard in info.entries
                if data.get(table_field(info.name, key)) not in (None, standard)
            }  # only what differs from the standard: the rule's stored shape
        if data["preset"] == CUSTOM:
            return {**raw, **{name: data[name] for name in self.base_names}}
        return {**raw, **self.ruleset.presets[data["preset"]]}

    def custom_base_fields(self):
        return [self[name] for name in self.base_names]

    def name_fields(self):
        return [self[f"name{s}"] for s in range(self.ruleset.seats)]

    def rule_fields(self):
        return [self[name] for name in self.rule_names if name in self.fields]

    def _tables(self):
        return [self.ruleset.rule_info[n] for n in self.rule_names if self.ruleset.rule_info[n].kind in TABLE_KINDS]

    def rule_tables(self) -> list[dict]:
        """Each table rule (武义 番数表, 杭州 老庄倍数) as a group of number fields under the rule's name."""
        return [
            {
                "label": pick(info.zh, info.en),
                "help": pick(info.zh_help, info.en_help),
                "fields": [self[table_field(info.name, key)] for key, *_ in info.entries],
            }
            for info in self._tables()
        ]

    def names(self) -> list[str]:
        return [self.cleaned_data[f"name{s}"] for s in range(self.ruleset.seats)]

    def rules(self):
        return self.cleaned_data["house_rules"]


CUSTOM = "custom"  # the preset choice that takes the bases typed in
TABLE_KINDS = ("map", "list")  # rules the form asks as one number per entry (houserules.RuleInfo)


def answers_for(ruleset: Ruleset, rules: dict, round_length: int | None = None) -> dict:
    """The new-game answers that make a game's stored ``rules`` again; rules the ruleset no longer reads give none."""
    try:
        rules = ruleset.rules_from_dict(rules).to_dict()
    except (TypeError, ValueError, ScoringError):
        return {}
    set_by_presets = {name for preset in ruleset.presets.values() for name in preset}
    preset = next((p for p, values in ruleset.presets.items() if all(rules[n] == v for n, v in values.items())), None)
    out = {"preset": preset or CUSTOM, "round_length": "" if round_length is None else str(round_length)}
    for name, info in ruleset.rule_info.items():
        if info.kind == "map":
            for key, _zh, _en, standard in info.entries:
                out[table_field(name, key)] = (rules.get(name) or {}).get(key, standard)
        elif info.kind == "list":
            for (key, *_rest), value in zip(info.entries, rules[name], strict=True):
                out[table_field(name, key)] = value
        elif name not in set_by_presets or preset is None:
            out[name] = rules[name]
    return out


def table_field(rule: str, key: str) -> str:
    """The form field of one entry of a table rule: ``fan__qingyise``."""
    return f"{rule}__{key}"


def _number_field(info, label, initial) -> forms.IntegerField:
    widget = forms.NumberInput(attrs={"inputmode": "numeric"})
    return forms.IntegerField(
        label=label, initial=initial, min_value=info.minimum, max_value=info.maximum, required=False, widget=widget
    )


def _rule_field(info, default) -> forms.Field:
    common = {"label": pick(info.zh, info.en), "help_text": pick(info.zh_help, info.en_help), "initial": default}
    if info.kind == "bool":
        return forms.BooleanField(required=False, **common)
    if info.kind == "choice":
        return forms.ChoiceField(choices=[(v, pick(zh, en)) for v, zh, en in info.choices], **common)
    if info.kind == "cap":
        return StrictIntegerField(required=False, min_value=info.minimum, max_value=info.maximum, **common)
    return StrictIntegerField(min_value=info.minimum, max_value=info.maximum, **common)


def refusal(form: forms.Form) -> str:
    """A form's errors as one message for the top of the page."""
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


class BetForm(forms.Form):
    """下注: place (``on`` 1) or withdraw (0) one seat's 买子 or 下子; the engine's ``change_bet`` decides."""

    bet = forms.ChoiceField(choices=[("maizi", _("买子")), ("xiazi", _("下子"))])
    seat = forms.TypedChoiceField(coerce=int, error_messages={"invalid_choice": _("没有这个座位")})
    on = forms.TypedChoiceField(choices=[("0", "0"), ("1", "1")], coerce=lambda value: value == "1")
    amount = StrictIntegerField(
        min_value=1,
        required=False,
        widget=forms.Select(attrs={"class": "form-select form-select-sm w-auto", "aria-label": _("下子数额")}),
    )

    def __init__(self, *args, seats: int, amounts: range = range(0), **kwargs):
        super().__init__(*args, auto_id=False, **kwargs)
        self.fields["seat"].choices = [(str(s), str(s)) for s in range(seats)]
        self.fields["amount"].widget.choices = [(n, n) for n in amounts]


class CheckForm(forms.Form):
    """核对 from the game page: 对, or 有误 with an optional note, on the hand as shown (its revision)."""

    verdict = forms.ChoiceField(
        choices=[("ok", _("对")), ("wrong", _("有误"))], error_messages={"invalid_choice": _("请选「对」或「有误」。")}
    )
    note = forms.CharField(max_length=200, required=False, strip=True, validators=[no_control_characters])
    revision = StrictIntegerField(
        min_value=0, error_messages={"required": _("这个表单缺少版本信息（可能是旧的页面），什么都没有改。")}
    )


VOID_REASON_LIMIT = 200  # a void reason, shown in the hand list and the CSV


class VoidForm(forms.Form):
    reason = forms.CharField(
        label=_("作废原因"),
        max_length=VOID_REASON_LIMIT,
        required=False,
        initial=_("记错了"),
        validators=[no_control_characters],
    )


class ImportForm(forms.Form):
    """恢复备份: a JSON file or its text (scoring/records/views/records.py reads and size-checks them)."""

    file = forms.FileField(
        label=_("备份文件"), required=False, widget=forms.ClearableFileInput(attrs={"accept": "application/json,.json"})
    )
    text = forms.CharField(
        label=_("或者贴上内容"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": '{"players": [...], "hands": [...]}'}),
    )


RATE_CHOICES = [
    ("100", _("每点 1 元")),
    ("50", _("每点 0.5 元")),
    ("10", _("每点 0.1 元")),
    ("custom", _("自定")),
]


MAX_RATE_YUAN, MAX_FEE_YUAN = 10_000, 100_000  # with points below 10^12, every 分 fits 64 bits


class SettleForm(forms.Form):
    """结算: the money rate and the table fee, both in 元; stored as whole fen (0.01 元)."""

    rate = forms.ChoiceField(label=_("每点多少元"), choices=RATE_CHOICES, initial="100", widget=forms.RadioSelect)
    custom_yuan = StrictDecimalField(
        label=_("自定：每点几元"),
        required=False,
        min_value=Decimal("0.01"),
        max_value=MAX_RATE_YUAN,
        decimal_places=2,
        error_messages={
            "max_value": _("每点最多 %(limit_value)s 元。"),
            "min_value": _("每点至少 %(limit_value)s 元。"),
        },
        widget=forms.NumberInput(attrs={"inputmode": "decimal"}),
    )
    fee_yuan = StrictDecimalField(
        label=_("台费（元）"),
        required=False,
        min_value=0,
        max_value=MAX_FEE_YUAN,
        decimal_places=2,
        error_messages={"max_value": _("台费最多 %(limit_value)s 元。"), "min_value": _("台费不能是负数。")},
        widget=forms.NumberInput(attrs={"inputmode": "decimal"}),
    )
    fee_mode = forms.ChoiceField(
        label=_("台费怎么分"),
        choices=[("equal", _("每人平摊")), ("winners", _("赢家按赢的比例出"))],
        initial="equal",
        widget=forms.RadioSelect,
    )
    fee_payee = forms.TypedChoiceField(label=_("谁先垫付台费"), choices=SEAT_CHOICES, coerce=int, initial=0)
    round_yuan = forms.BooleanField(label=_("抹零（取整到元）"), required=False)

    def __init__(self, *args, players: list[str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if players:
            self.fields["fee_payee"].choices = list(enumerate(players))

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
