"""牌友圈 on the pages that are not its own (``{% load groups %}``): the home page's list of
groups, the game page's group box, the settle page's carry-over; and 元 from whole 分.

Each asks the database only for a game in a group, or a phone that holds a group: a game page
or settle page of a game in none costs no query more."""

from django import template

from scoring import circle
from scoring.groups import evenings, seasons
from scoring.lang import chinese
from scoring.yuan import MINUS, money, yuan_amount

register = template.Library()


@register.filter
def fen_signed(fen: int) -> str:
    """元 won or lost, from whole 分: 「+34 元」「−19 元」「+12.50 元」, or "+¥34", "−¥19"."""
    sign = "+" if fen > 0 else MINUS if fen < 0 else ""
    return f"{sign}{yuan_amount(abs(fen))} 元" if chinese() else f"{sign}¥{yuan_amount(abs(fen))}"


@register.filter
def fen_money(fen: int) -> str:
    """An amount owed, 「47 元」 or "¥47" (its sign is said in words)."""
    return money(abs(fen), chinese())


@register.inclusion_tag("groups/_group_home.html", takes_context=True)
def my_groups_box(context) -> dict:
    """The home page's 牌友圈: the groups this phone or account holds, and 新建."""
    return {"groups": evenings.my_groups(context["request"])}


@register.inclusion_tag("groups/_group_box.html", takes_context=True)
def group_box(context) -> dict:
    """The game page's 牌友圈: the group the game is in (a link), or for an edit link, the groups
    this phone may put it in."""
    game, request, can_edit = context["game"], context["request"], context["can_edit"]
    out = {"game": game, "token": context["token"], "can_edit": can_edit, "csrf_token": context.get("csrf_token")}
    if game.group_id is not None:
        group = game.group
        out.update(group=group, group_token=evenings.group_token_for(request, group))
    elif can_edit:
        out["choices"] = [(g, t) for g, t in evenings.my_groups(request) if t == g.edit_token]
    return out


@register.inclusion_tag("groups/_group_carry.html", takes_context=True)
def group_carry(context) -> dict:
    """The settle page of a game in a group: its settle-ups with other evenings (已付 ticks), or
    once settled the offer to settle together with the earlier unpaid transfers between its
    people; while playing, a word that there are some."""
    game = context["game"]
    if game.group_id is None:
        return {}
    group = game.group
    out = {
        "game": game,
        "token": context["token"],
        "can_edit": context["can_edit"],
        "group": group,
        "group_token": evenings.group_token_for(context["request"], group),
        "csrf_token": context.get("csrf_token"),
        "paycodes": context.get("paycodes"),  # the payees' 收款码 under its settle-ups' transfers
    }
    if game.status != game.FINISHED:
        people = {evenings.key(name) for name in circle.names_at(game)}
        earlier = [
            o
            for o in circle.free_transfers(group)
            if o.game.pk != game.pk and evenings.key(o.payer) in people and evenings.key(o.payee) in people
        ]
        out.update(earlier=earlier, earlier_fen=sum(o.amount_fen for o in earlier))
        return out
    out["ups"] = evenings.open_settle_ups(group, game)
    if not out["ups"]:
        try:
            out["plan"] = evenings.carry_plan(group, game)
        except circle.GroupConflict as conflict:
            out["refused"] = conflict.text(chinese())
    return out


@register.filter
def per_hand(standing) -> str:
    """元 per hand to one decimal (scoring/groups/seasons.py): 「+1.2 元」 or "+¥1.2", 「—」 without a hand."""
    text = seasons.per_hand_text(standing)
    if text == "—":
        return text
    if chinese():
        return f"{text} 元"
    sign = text[0] if text[0] in "+−" else ""
    return f"{sign}¥{text.removeprefix(sign)}"
