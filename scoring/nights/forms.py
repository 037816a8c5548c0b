"""今晚几桌's forms: who comes, how many tables, how they draw their seats, and the night's rate."""

import re

from django import forms
from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.circle import clean_roster, last_game
from scoring.engine import DEFAULT_RULESET, all_rulesets, get_ruleset
from scoring.forms import NAME_LIMIT, SettleForm, no_control_characters
from scoring.lang import pick
from scoring.models import TableNight
from scoring.night import TableTerms

SEPARATORS = re.compile(r"[\n,，、;；]+")
DRAW_CHOICES = [
    (TableNight.WINDS, gettext_lazy("扳位：每人摸一张风牌，摸到哪桌的哪个风就坐哪")),
    (TableNight.RANDOM, gettext_lazy("随机分桌分座")),
    (TableNight.AS_SEATED, gettext_lazy("按座：按上面名单的顺序，1桌东南西北，2桌……")),
]


class NightForm(forms.Form):
    people = forms.CharField(
        label=gettext_lazy("今晚的人（每行一个名字）"),
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off"}),
        help_text=gettext_lazy("删掉今晚不来的，加上新来的（会加进牌友圈名单）。"),
        error_messages={"required": gettext_lazy("请填今晚的人。")},
    )
    tables = forms.TypedChoiceField(label=gettext_lazy("开几桌"), coerce=int, choices=[])
    how = forms.ChoiceField(
        label=gettext_lazy("怎么分桌"), choices=DRAW_CHOICES, initial=TableNight.WINDS, widget=forms.RadioSelect
    )
    ruleset = forms.ChoiceField(label=gettext_lazy("玩法"), choices=[], widget=forms.RadioSelect)

    def __init__(self, *args, group, **kwargs):
        super().__init__(*args, **kwargs)
        self.group, last = group, last_game(group)
        rulesets = [(r.code, pick(r.zh, r.en)) for r in all_rulesets()]
        self.fields["tables"].choices = [(n, _("%(n)s 桌") % {"n": n}) for n in range(1, TableNight.MAX_TABLES + 1)]
        self.fields["ruleset"].choices = rulesets
        self.fields["ruleset"].initial = last.ruleset if last is not None else DEFAULT_RULESET
        for n in range(1, TableNight.MAX_TABLES + 1):  # 每桌玩法不同: blank, the one above
            self.fields[f"table_{n}"] = forms.ChoiceField(
                label=_("%(n)s桌") % {"n": n}, choices=[("", _("同上")), *rulesets], required=False
            )
        self.initial.setdefault("people", "\n".join(group.roster[: settings.MAX_PEOPLE_PER_GAME]))
        count = len(group.roster[: settings.MAX_PEOPLE_PER_GAME])
        self.initial.setdefault("tables", max(1, min(count // 4, 4)))

    def table_fields(self) -> list:
        return [self[f"table_{n}"] for n in range(1, TableNight.MAX_TABLES + 1)]

    def differs(self) -> bool:
        """Whether a table's own ruleset was chosen (the fold opens again to show it)."""
        return self.is_bound and any(self.data.get(f"table_{n}") for n in range(1, TableNight.MAX_TABLES + 1))

    def table_terms(self) -> list[TableTerms]:
        """Each table's ruleset (its own, or the one above), with the house rules and 打几圈 of the group's
        last game of that ruleset (a game's rules are frozen with it), or the ruleset's own if none."""
        data, terms, earlier = self.cleaned_data, [], {}
        for n in range(1, data["tables"] + 1):
            ruleset = get_ruleset(data.get(f"table_{n}") or data["ruleset"])
            if ruleset.code not in earlier:  # one query for each ruleset chosen: four at most
                earlier[ruleset.code] = self.group.games.filter(ruleset=ruleset.code).order_by("-created_at", "-pk")
                earlier[ruleset.code] = earlier[ruleset.code].only("rules", "round_length").first()
            last = earlier[ruleset.code]
            rules = (dict(last.rules), last.round_length) if last is not None else (None, None)
            terms.append(TableTerms(ruleset, *rules))
        return terms

    def clean_people(self):
        names = clean_roster(SEPARATORS.split(self.cleaned_data.get("people", "")))
        for name in names:
            no_control_characters(name)
            if len(name) > NAME_LIMIT:
                raise forms.ValidationError(
                    _("名字太长（最多 %(n)d 个字）：%(name)s") % {"n": NAME_LIMIT, "name": name}
                )
        return names


class NightSettleForm(SettleForm):
    """结算今晚: the rate and 抹零 for every table still playing, and one table fee for the whole night (split
    as a game's is, among everyone who played tonight); a table's own fee is set on that table's page."""

    def __init__(self, *args, people: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fee_yuan"].label = _("今晚台费（整晚一笔，元）")
        self.fields["fee_yuan"].help_text = _("不填：不收；每桌各收的台费请在那桌单独结算。")
        self.fields["fee_payee"] = forms.ChoiceField(
            label=_("谁先垫付台费"), choices=[(name, name) for name in people], required=False
        )

    def fee_terms(self) -> dict:
        data = self.cleaned_data
        fee = self.fee_fen()
        return {"fee_fen": fee, "fee_mode": data["fee_mode"], "fee_payee": data.get("fee_payee") or ""}


class MoveForm(forms.Form):
    """换桌: who moves, and who they change places with (at another table, or sitting out)."""

    mover = forms.ChoiceField(label=gettext_lazy("谁换桌"), choices=[])
    other = forms.ChoiceField(label=gettext_lazy("和谁换"), choices=[])

    def __init__(self, *args, people: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["mover"].choices = self.fields["other"].choices = [(n, n) for n in people]
