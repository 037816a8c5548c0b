"""``{% load nights %}``: the 牌友圈 page's and the game page's way into 今晚几桌."""

from django import template

from scoring.models import Game, Group, TableNight

register = template.Library()


@register.inclusion_tag("nights/_entry.html")
def night_entry(group: Group, can_edit: bool) -> dict:
    """开今晚 (edit link) and the latest night's board, on the group page."""
    latest = TableNight.objects.filter(group=group).order_by("-created_at", "-pk").first()
    token = None if latest is None else latest.edit_token if can_edit else latest.view_token
    return {"group": group, "can_edit": can_edit, "latest": latest, "night_token": token}


@register.inclusion_tag("nights/_back.html")
def night_link(game: Game) -> dict:
    """A table's game page links to its night's board (the view link: the board shows every table)."""
    token = TableNight.objects.filter(pk=game.night_id).values_list("view_token", flat=True).first()
    return {"night_token": token}
