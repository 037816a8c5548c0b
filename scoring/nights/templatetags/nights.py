"""``{% load nights %}``: the 牌友圈 page's and the game page's way into 今晚几桌."""

from django import template

from scoring.engine import get_ruleset
from scoring.lang import pick
from scoring.models import Game, Group, TableNight
from scoring.night import nights_of

register = template.Library()

SHOWN = 5  # the newest nights listed on the group page; the next ones folded under 「更早的N个」
LISTED = 50  # the most a group page lists at all: older ones stay in the backups


@register.inclusion_tag("nights/_entry.html")
def night_entry(group: Group, can_edit: bool) -> dict:
    """开今晚 (edit link), the latest night's board and the group's nights, newest first, on the group page."""
    lines, total = nights_of(group, LISTED)
    for line in lines:
        line.token = line.night.edit_token if can_edit else line.night.view_token
        line.names = " · ".join(pick(r.zh, r.en) for r in map(get_ruleset, dict.fromkeys(line.rulesets)))
    latest = lines[0] if lines else None
    return {
        "group": group,
        "can_edit": can_edit,
        "latest": latest,
        "shown": lines[:SHOWN],
        "earlier": lines[SHOWN:],
        "unlisted": total - len(lines),
        "total": total,
    }


@register.inclusion_tag("nights/_back.html")
def night_link(game: Game) -> dict:
    """A table's game page links to its night's board (the view link: the board shows every table)."""
    token = TableNight.objects.filter(pk=game.night_id).values_list("view_token", flat=True).first()
    return {"night_token": token}
