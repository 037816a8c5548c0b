"""What every ruleset's entry form shares: seats named after the table, the dealer/连庄
correction, and the fast path's questions (a step is answered by a tap on a plain link)."""

import copy
import functools

from crispy_forms.helper import FormHelper
from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engine import SEATS_EN, SEATS_ZH
from scoring.engine.errors import BilingualError
from scoring.forms import StrictIntegerField
from scoring.handform.widgets import ENTRY_RENDERER
from scoring.lang import pick


def seated_names(game, state) -> list[str]:
    """The names in seat order at ``state``: the seated table's (scoring/engine/seating.py), else the game's players."""
    seating = getattr(state, "seating", None)
    return list(seating) if seating else list(game.players)


def seat_choices(count: int) -> list[tuple[int, str]]:
    return [(s, pick(SEATS_ZH[s], SEATS_EN[s])) for s in range(count)]


def seat_field(label, required: bool = False) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(label=label, choices=[("", "—")], coerce=int, empty_value=None, required=required)


class HandForm(forms.Form):
    """Base of the hand forms: ``SEAT_FIELDS`` take the table's names; ``fix`` reads the 「更多」 dealer/连庄 correction."""

    default_renderer = ENTRY_RENDERER  # Django's, drawing a select in Python (widgets.py)
    SEAT_FIELDS: tuple[str, ...] = ("winner", "discarder", "dealer_fix")
    # Every field that, once set, means the form's 「更多」 section should start open.
    MORE_FIELDS: tuple[str, ...] = ("dealer_fix", "streak_fix")
    # The steps that show a form (the sheet, the preview); every other step is a question
    # answered by a tap on a plain link, which the phone may show at once (scoring/table/views/steps.py).
    FORM_STEPS: tuple[str, ...] = ("preview",)

    dealer_fix = seat_field(_("更正庄家"))
    streak_fix = StrictIntegerField(
        label=_("更正连庄数"),
        min_value=0,
        max_value=999,
        required=False,
        widget=forms.NumberInput(attrs={"class": "form-control-sm", "inputmode": "numeric"}),
    )

    def __init__(self, *args, players: list[str], streak: int | None = None, drawn: bool = True, **kwargs):
        """``streak``: the derived 连庄 count; ``drawn``: the form takes its own field copies, since crispy mutates them.

        A form only validated and read (the step bundle's) shares the table's (tests/table/test_steps.py checks it)."""
        self.base_fields = {}  # Django's deep copy of them is skipped: the table's copy is below
        super().__init__(*args, **kwargs)
        del self.base_fields
        table = table_fields(type(self), tuple(players), streak)
        self.fields = {name: own_copy(field) for name, field in table.items()} if drawn else dict(table)
        self.order_fields(self.field_order)
        self.players = players
        self.helper = sheet_helper()

    def fix(self, state) -> tuple[int, int] | None:
        """The (dealer, streak) correction, when it differs from the derived state."""
        dealer, streak = self.cleaned_data.get("dealer_fix"), self.cleaned_data.get("streak_fix")
        if dealer is None and streak is None:
            return None
        dealer = state.dealer if dealer is None else dealer
        streak = state.streak if streak is None else streak
        if (dealer, streak) == (state.dealer, state.streak):
            return None
        return dealer, streak

    def more_open(self) -> bool:
        data = self.cleaned_data if hasattr(self, "cleaned_data") else {}
        return any(data.get(k) not in (None, "", [], False) for k in self.MORE_FIELDS)


@functools.lru_cache(maxsize=256)
def table_fields(form: type[HandForm], players: tuple[str, ...], streak: int | None) -> dict[str, forms.Field]:
    """``form``'s fields at a table, deep-copied once per names and 连庄 count, since the deep copy is costly."""
    fields = copy.deepcopy(form.base_fields)
    named = [("", "—"), *[(s, players[s]) for s in range(len(players))]]
    for name in form.SEAT_FIELDS:
        fields[name].choices = named
    for field in fields.values():  # the sheets' compact selects; app.css keeps them 44 px tall
        if type(field.widget) is forms.Select:
            field.widget.attrs["class"] = "form-select-sm"
    if streak is not None:
        fields["streak_fix"].widget.attrs["placeholder"] = streak
    return fields


def own_copy(field: forms.Field) -> forms.Field:
    """A field a form may change (widget, attributes, messages, validators), sharing the choices, which nothing mutates."""
    copied = shallow_copy(field)
    copied.widget = shallow_copy(field.widget)
    copied.widget.attrs = field.widget.attrs.copy()
    copied.error_messages = field.error_messages.copy()
    copied.validators = field.validators[:]
    return copied


def shallow_copy(thing):
    """``copy.copy`` of a plain object without its generic ``__reduce_ex__`` path, which dominates its cost.

    Only for classes with no ``__slots__``, ``__copy__``, ``__reduce__`` or ``__setstate__`` of their own
    (tests/table/test_it_entry_widgets.py checks Django's fields and widgets)."""
    copied = object.__new__(type(thing))
    copied.__dict__.update(thing.__dict__)
    return copied


def sheet_helper() -> FormHelper:
    """How crispy draws a sheet's fields one by one: small label, no message (the preview says it), no margin."""
    helper = FormHelper()
    helper.form_tag = False
    helper.form_show_errors = False
    helper.label_class = "small mb-0"
    helper.wrapper_class = "sheet-field"
    return helper


def fix_initial(fix: tuple[int, int] | None) -> dict:
    return {} if fix is None else {"dealer_fix": fix[0], "streak_fix": fix[1]}


class BetRefused(BilingualError):
    """A bet the rules do not allow now; the message in Chinese and English."""


def win_title(names: list[str], entry: dict, count: str, discard_zh: str) -> str:
    """A win's title counting one number (台, 番): 「老王 自摸 4台」, 「小李 1台 · 老王放冲」 or 「流局」."""
    if entry["outcome"] != "win":
        return pick("流局", "Draw")
    winner = names[entry["winner"]]
    if "discarder" not in entry:
        return f"{winner} {pick('自摸', 'self-drawn')}{count}"
    discarder = names[entry["discarder"]]
    return f"{winner}{count}" + pick(f" · {discarder}{discard_zh}", f" · {discarder} discarded")


class WinOrDrawForm(HandForm):
    """A win (自摸 or on a discard) or a draw (诸暨, 武义二人); ``win_fields()`` is what the sheet adds to a win."""

    outcome = forms.ChoiceField(choices=[("win", _("胡牌")), ("draw", _("流局"))], required=False)
    winner = seat_field(_("谁胡了"))
    zimo = forms.BooleanField(label=_("自摸"), required=False)

    def outcome_value(self) -> str | None:
        data = self.cleaned_data
        return data.get("outcome") or ("win" if data.get("winner") is not None else None)

    def step(self) -> str:
        data, outcome = self.cleaned_data, self.outcome_value()
        if outcome is None:
            return "winner"
        if outcome == "win" and not data.get("zimo") and data.get("discarder") is None:
            return "how"
        return "preview"

    def win_fields(self) -> dict:
        """What the ruleset's sheet adds to a win's entry (the 台 object, the patterns)."""
        return {}

    def entry(self, state, rules) -> dict:
        data, outcome = self.cleaned_data, self.outcome_value()
        if outcome != "win":
            return {"outcome": "draw"}
        entry = {"outcome": "win", "winner": data.get("winner"), **self.win_fields()}
        if not data.get("zimo") and data.get("discarder") is not None:
            entry["discarder"] = data["discarder"]
        return entry


def win_initial(entry: dict, fix, sheet) -> dict:
    """Form data for a stored win or draw, with what ``sheet(entry)`` reads back of the ruleset's sheet."""
    data: dict = {"outcome": entry["outcome"], **fix_initial(fix)}
    if entry["outcome"] == "win":
        data["winner"] = entry["winner"]
        if "discarder" in entry:
            data["discarder"] = entry["discarder"]
        else:
            data["zimo"] = "on"
        data.update(sheet(entry))
    return data


class DiscardForm(WinOrDrawForm):
    """The plain win or draw: winner → 自摸 or who discarded (放冲) → the preview; no sheet."""

    discarder = seat_field(_("谁放冲"))


class FormSide:
    """The table's side of a ruleset (scoring/handform/__init__.py); the defaults are a plain win or draw with no bets."""

    Form: type[HandForm] | None = DiscardForm  # None: the entry page records no such hand
    MISSING: dict = {"winner": _("请选择谁胡了。"), "how": _("请选择自摸，或谁放冲。")}
    REQUIREMENTS: tuple[str, ...] = ()
    FIELD_OF: dict[str, str] = {}
    TEMPLATE = "table/handform/win_or_draw.html"
    PARTIAL = "table/handform/win_or_draw.html#sheet"
    RULES_TEMPLATE = "table/handform/_no_rules.html"  # nothing of its own on the rules page
    PRESET_LABEL = ("底分", "Base")
    ANALYSE_WORDS: dict = {}

    # The answers the questions before the sheet set: an edit asks each again (scoring/table/views/edit.py).
    STEP_FIELDS: tuple[str, ...] = ("outcome", "winner", "zimo", "discarder")

    def initial(self, entry: dict, fix) -> dict:
        return win_initial(entry, fix, lambda _entry: {})

    def edit_start(self, answers: dict) -> dict:
        """The answers an edit's first question starts from: the stored hand's less those the questions ask (marked 原来)."""
        return {key: value for key, value in answers.items() if key not in self.STEP_FIELDS}

    def context(self, game, form, state, rules) -> dict:
        data = form.cleaned_data if hasattr(form, "cleaned_data") else {}
        names, winner = seated_names(game, state), data.get("winner")
        return {
            "others": [(s, names[s]) for s in range(len(names)) if s != winner],
            "zimo_now": bool(data.get("zimo")),
            "swap_id": "sheet",
        }

    def title(self, names: list[str], entry: dict, result=None) -> str:
        """e.g. 老王 自摸 ×2, 小李 ×3 · 老王放冲, 流局."""
        count = "" if result is None else f" ×{result.paid_on}"
        return win_title(names, entry, count, "放冲")

    def wind(self, state, seat: int) -> str:
        """The seat's wind on its tile: seats keep their wind all evening."""
        return SEATS_ZH[seat]

    def marks(self, state, seat: int, pending: dict | None = None) -> list[tuple[str, str]]:
        return []

    def streak_text(self, streak: int) -> str:
        """The dealer's streak as the table says it beside 庄: 「连2」, nothing at 0."""
        return gettext("连%(n)s") % {"n": streak} if streak else ""

    def bets(self, game, state, rules) -> dict | None:
        return None

    def prefill(self, data, pending, state, rules):
        return data

    def change_bet(self, pending, state, rules, *, bet: str, seat: int, amount: int | None, on: bool) -> dict:
        raise BetRefused("这个规则没有下注。", "This ruleset has no bets.")

    def placed_bets(self, entry, state, rules) -> dict:
        return {}

    def move_bets(self, entry, bets, state, rules) -> dict | None:
        """None: this hand cannot take bets placed before another (a void looks further on)."""
        return None

    def merge_pending(self, pending, bets) -> dict:
        return pending

    def rules_context(self, rules) -> dict:
        return {}

    def other_outcomes(self, game) -> list[tuple[str, str]]:
        return []

    def analyse_text(self, answer: dict, breakdown) -> str:
        return breakdown()
