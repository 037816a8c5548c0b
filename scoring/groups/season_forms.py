"""赛季's form: a name, the first and last dates (both counted) and the hands to be ranked, with clear
refusals (docs/manual.md "赛季")."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.forms import no_control_characters
from scoring.models import Season

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class SeasonForm(forms.Form):
    """A season: its name, first and last dates (both counted) and the hands a person plays to be ranked."""

    name = forms.CharField(
        label=gettext_lazy("赛季名字"),
        max_length=Season.NAME_LIMIT,
        strip=True,
        validators=[no_control_characters],
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("例如：冬季赛"), "autocomplete": "off"}),
        error_messages={
            "required": gettext_lazy("请给赛季起个名字。"),
            "max_length": gettext_lazy("赛季名字最多 %(limit_value)d 个字。"),
        },
    )
    start = forms.DateField(
        label=gettext_lazy("开始日期"),
        widget=DATE,
        error_messages={"required": gettext_lazy("请选开始日期。"), "invalid": gettext_lazy("开始日期看不懂。")},
    )
    end = forms.DateField(
        label=gettext_lazy("结束日期（这天也算）"),
        widget=DATE,
        error_messages={"required": gettext_lazy("请选结束日期。"), "invalid": gettext_lazy("结束日期看不懂。")},
    )
    min_hands = forms.IntegerField(
        label=gettext_lazy("至少打几局才排名"),
        min_value=0,
        max_value=Season.MAX_MIN_HANDS,
        initial=Season.MIN_HANDS,
        error_messages={
            "required": gettext_lazy("请填至少打几局才排名。"),
            "invalid": gettext_lazy("局数要填整数。"),
            "min_value": gettext_lazy("局数不能是负数。"),
            "max_value": gettext_lazy("局数最多 %(limit_value)s。"),
        },
    )

    def clean(self):
        data = super().clean()
        if data.get("start") and data.get("end") and data["end"] < data["start"]:
            raise forms.ValidationError(_("结束日期不能早于开始日期。"))
        return data


def new_form() -> SeasonForm:
    """The blank form: this month, 16 hands."""
    today = timezone.localdate()
    return SeasonForm(initial={"start": today.replace(day=1), "end": today, "min_hands": Season.MIN_HANDS})


def edit_form(season: Season) -> SeasonForm:
    fields = ("name", "start", "end", "min_hands")
    return SeasonForm(initial={f: getattr(season, f) for f in fields}, auto_id=f"season{season.pk}_%s")
