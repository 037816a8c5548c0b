"""A kept hand held as it arrives (docs/offline.md "Held"): its card in JSON, and the answers needing no entry form."""

from urllib.parse import urlencode

from django.http import JsonResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring import services
from scoring.engine.seating import key
from scoring.handform import hand_title
from scoring.models import Game
from scoring.people import Seatings
from scoring.replay import result_from_json
from scoring.table import kept
from scoring.table.pages import ONE_TIME


def held_json(
    request, game: Game, token: str, entry: dict, at: kept.Kept, held: services.Held, hold, form_side
) -> JsonResponse:
    """A kept hand held (scoring/table/kept.py): the card the phone shows, and the stamp of its question."""
    dismissed = hold.agreed.dismissed if hold.agreed else set()
    card = render_to_string(
        "table/_held_hand.html", held_context(game, token, request.POST, entry, at, held, form_side), request
    )
    reason = _("可能和别的手机记的是同一局，等你回答") if held.kind == "same" else _("金额和记下时不一样，等你确认")
    body = {"ok": False, "held": held.kind, "card": card, "reason": reason, "badge": _("等你确认")}
    body.update(sending=_("正在发送你的回答…"), later=_("你的回答已存在这台手机上，联网后发送。"))
    body["agreed"] = kept.agreed_stamp(game, request.POST.get("form_token", ""), held, dismissed)
    return JsonResponse(body, status=409)


def held_context(game: Game, token: str, post, entry: dict, at: kept.Kept, held: services.Held, form_side) -> dict:
    """What the held card says: the question or the change, each person's amount before → after."""
    names_now = list(held.state.seating)
    result = held.result
    title = hand_title(game, entry, result, at.names, form_side)
    before = kept.by_person(at.names, at.before) if at.before is not None else {}
    after = kept.by_person(names_now, result.net) if result is not None else {}
    spelled = {key(n): n for n in [*at.names, *names_now]}
    people = [spelled[k] for k in dict.fromkeys([*map(key, at.names), *map(key, names_now)])]
    rows = [(name, before.get(key(name)), after.get(key(name))) for name in people]
    changed = bool(before) and bool(after) and before != after
    context = {
        "kind": held.kind,
        "title": title,
        "rows": rows,
        "changed": changed,
        "number": held.number,
        "edit_url": reverse("record", args=[token]) + "?" + urlencode(edit_answers(post)),
    }
    if held.other is not None:
        other = held.other
        other_names = Seatings.of_game(game).at(other.seq)
        other_result = result_from_json(other.result, game.plugin) if other.result else None
        context["other_number"] = game.number_of(other.seq)
        context["other_title"] = hand_title(game, other.entry, other_result, other_names)
        context["other_by"] = other.entered_by
    if changed:
        context["summary"] = held_summary(entry, at, names_now, before, after, held)
    return context


def held_summary(entry: dict, at: kept.Kept, names_now: list[str], before: dict, after: dict, held) -> dict:
    """「记下时按老王坐庄：+42；排在第11局后：+34」 for the winner if their amount changes, else whoever's changes most."""
    winner = entry.get("winner")
    who = key(at.names[winner]) if isinstance(winner, int) and 0 <= winner < len(at.names) else None
    if who is None or before.get(who) == after.get(who):
        who = max(before, key=lambda k: abs((after.get(k) or 0) - (before.get(k) or 0)))
    dealer_now = names_now[held.state.dealer]
    return {
        "name": next(n for n in [*at.names, *names_now] if key(n) == who),
        "dealer": at.dealer if key(at.dealer) != key(dealer_now) else "",
        "before": before.get(who, 0),
        "after": after.get(who, 0),
        "placed": held.number - 1 if held.number > 1 else 0,
    }


def edit_answers(post) -> list[tuple[str, str]]:
    """A kept hand's answers as the entry's address takes them (修改 on its card)."""
    one_time = {*ONE_TIME, "queued", "kept", "mine", "answer", "agreed", "from_link"}
    return [(k, v) for k in post for v in post.getlist(k) if k not in one_time and v != ""]


def drop_queued(game: Game, form_token: str, agreed: kept.Agreed | None) -> JsonResponse:
    """「丢掉」 a kept hand, nothing recorded, unless its token was spent meanwhile: then the answer names that hand."""
    try:
        services.drop_kept_hand(game=game, form_token=form_token)
    except services.AlreadyRecorded as done:
        number = game.number_of(done.hand.seq)
        message = _("这一局已经记成第%(seq)s局了，没有丢掉；要去掉它，请作废第%(seq)s局。") % {"seq": number}
        return JsonResponse({"ok": True, "already": True, "seq": done.hand.seq, "number": number, "message": message})
    body = {"ok": True, "dropped": True, "seq": None, "message": _("丢掉了你离线记的这一局。")}
    if agreed is not None and agreed.kind == "same" and agreed.asked:
        body["seq"] = agreed.asked  # this phone's hand is that one: the ones kept after it follow it
        number = game.number_of(agreed.asked)
        body["message"] = _("丢掉了你离线记的这一局，第%(seq)s局照旧。") % {"seq": number}
    return JsonResponse(body)


def answer_refused() -> JsonResponse:
    """An answer that is none to the held card: nothing changes, and the phone asks again with a fresh card."""
    message = _("这个回答对不上这一局（可能是旧的页面），什么都没有改。请再看一下再回答。")
    return JsonResponse({"ok": False, "answer_refused": True, "reason": message}, status=409)
