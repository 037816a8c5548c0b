"""The entry sheets draw their selects in Python (scoring/handform/widgets.py): every field of every entry
form, answered or not, valid or refused, reads exactly as Django's own templates draw it."""

import datetime

import pytest
from crispy_forms.templatetags.crispy_forms_filters import as_crispy_field
from django import forms
from django.forms.renderers import DjangoTemplates
from django.http import QueryDict
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from scoring.engine import all_rulesets
from scoring.handform import manual
from scoring.handform.widgets import ENTRY_RENDERER, SELECT
from scoring.rulesets.yiwu import form_side as yiwu

NAMES = ["老王", "小李", "<b>阿华</b>", "大刘 & 子"]
ANSWERS = [
    "",
    "winner=1",
    "outcome=win&winner=1&win_type=pinghu&discarder=0&maizi=2&maizi=3&caishen=2&dealer_fix=3&streak_fix=2",
    "outcome=draw&piao_player=2&piao_level=2&feeder1=0&feeder2=1",
    "winner=9&win_type=nope&caishen=x&streak_fix=-1&maizi=7",  # refused: every field marked
    "outcome=win&winner=0&zimo=on&hun=on&fan=3&n0=5&n1=-5&note=x",
]
DJANGOS_OWN = DjangoTemplates()


KINDS = [(r.code, r.form_side, r.seats) for r in all_rulesets()] + [("manual", manual, 4)]


@pytest.mark.parametrize(("kind", "seats"), [(k, n) for _, k, n in KINDS], ids=[code for code, _, _ in KINDS])
@pytest.mark.parametrize("answers", ANSWERS)
def test_every_entry_field_reads_as_djangos_own_templates_draw_it(kind, seats, answers):
    players = NAMES[:seats]
    drawn = []
    for renderer in (ENTRY_RENDERER, DJANGOS_OWN):
        form = kind.Form(QueryDict(answers), players=players, streak=1, renderer=renderer)
        form.is_valid()
        drawn.append([(str(form[name]), as_crispy_field(form[name])) for name in form.fields])
    assert drawn[0] == drawn[1]
    assert "<select" in str(drawn[0])


def test_the_forms_of_the_entry_sheets_draw_with_it():
    assert yiwu.Form(players=NAMES).renderer is ENTRY_RENDERER


class Attributed(forms.Select):
    """Options with attributes of their own: true, false, numbers, text to escape, safe text."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        option["attrs"].update({"data-n": index, "hidden": index == 1, "data-off": False, "title": '<"&>'})
        option["attrs"]["data-safe"] = mark_safe("<b>")
        return option


class Radios(forms.RadioSelect):
    template_name = SELECT  # options of another template: the select is left to the templates


class Grouped(forms.Form):
    """What no entry sheet has yet: option groups, several values, values that are not text."""

    pick = forms.ChoiceField(choices=[("", "—"), ("东", [("1", "一"), ("2", "<二>")]), ("南 & 西", [("3", "三")])])
    many = forms.MultipleChoiceField(choices=[(1, "一"), (2, "二"), (3, "三")], required=False)
    plain = forms.TypedChoiceField(
        choices=[
            (0, 0),
            (1.5, 1.5),
            (True, "是"),
            (None, "无"),
            ("s", mark_safe("<i>s</i>")),
            ("l", gettext_lazy("流局")),
        ],
        coerce=str,
        required=False,
    )
    dated = forms.ChoiceField(choices=[("d", datetime.date(2026, 1, 2)), ("n", 1234567)], required=False)
    marked = forms.ChoiceField(
        choices=[("a", "甲"), ("b", "乙")], widget=Attributed(attrs={"required": True, "x": False})
    )
    radios = forms.ChoiceField(choices=[("a", "甲")], widget=Radios, required=False)


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("answers", ["", "pick=2&many=1&many=3&plain=1.5&marked=b", "pick=9&many=8&plain=True"])
def test_option_groups_several_values_and_values_not_text_read_the_same_too(answers, language):
    with translation.override(language):
        drawn = [
            [str(field) for field in Grouped(QueryDict(answers), renderer=renderer)]
            for renderer in (ENTRY_RENDERER, DJANGOS_OWN)
        ]
    assert drawn[0] == drawn[1]
    assert "<optgroup" in drawn[0][0]


def test_each_form_has_fields_of_its_own_however_many_share_a_table():
    """The forms of one table share what nothing changes (scoring/handform/base.py ``table_fields``):
    a refused form's red field, its values and another table's names stay its own."""
    refused = yiwu.Form(QueryDict("winner=9&caishen=x"), players=NAMES, streak=1)
    assert not refused.is_valid()
    assert "is-invalid" in as_crispy_field(refused["winner"])
    fine = yiwu.Form(QueryDict("winner=2"), players=NAMES, streak=1)
    assert fine.is_valid()
    drawn = as_crispy_field(fine["winner"])
    assert "is-invalid" not in drawn
    assert drawn.count("form-select") == 2  # form-select-sm form-select, once
    assert '<option value="2" selected>&lt;b&gt;阿华&lt;/b&gt;</option>' in drawn
    assert as_crispy_field(fine["winner"]) == drawn  # drawn again: the same
    other = yiwu.Form(QueryDict("winner=1"), players=["甲", "乙", "丙", "丁"], streak=4)
    assert '<option value="1" selected>乙</option>' in str(other["winner"])
    assert 'placeholder="4"' in str(other["streak_fix"])
    assert 'placeholder="1"' in str(fine["streak_fix"])
    assert "甲" not in str(yiwu.Form(players=NAMES)["winner"])


@pytest.mark.parametrize(("kind", "seats"), [(k, n) for _, k, n in KINDS], ids=[code for code, _, _ in KINDS])
def test_a_forms_own_copy_of_each_field_and_widget_is_what_copy_copy_makes(kind, seats):
    """scoring/handform/base.py ``shallow_copy`` stands in for ``copy.copy``: for every field and
    widget of every entry form, the same class and the same attribute values, and nothing in the
    class (slots, its own copy or pickling hooks) that would make copy.copy do more."""
    import copy

    from scoring.handform.base import shallow_copy, table_fields

    fields = table_fields(kind.Form, tuple(NAMES[:seats]), 1)
    for thing in [*fields.values(), *(field.widget for field in fields.values())]:
        ours, theirs = shallow_copy(thing), copy.copy(thing)
        assert type(ours) is type(theirs)
        assert ours is not thing
        assert vars(ours) == vars(theirs)
        assert all(vars(ours)[k] is v for k, v in vars(thing).items())
        for cls in type(thing).__mro__[:-1]:  # all but object
            own = set(vars(cls)) & {
                "__slots__",
                "__copy__",
                "__reduce__",
                "__reduce_ex__",
                "__setstate__",
                "__getstate__",
            }
            assert not own, f"{cls.__name__} defines {own}: copy.copy would use them"
    form = kind.Form(players=NAMES[:seats], streak=1)
    for name, field in fields.items():  # each form has its own widget, attributes, messages, validators
        mine = form.fields[name]
        assert mine is not field
        assert mine.widget is not field.widget
        assert mine.widget.attrs is not field.widget.attrs
        assert mine.widget.attrs == field.widget.attrs
        assert mine.error_messages is not field.error_messages
        assert mine.validators is not field.validators
