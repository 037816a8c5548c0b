"""收款码 on the settle and group pages: the codes a page shows, an upload read and kept, a code
taken off, its picture served. Reading and drawing a code is scoring/paycodes.py; keeping one,
scoring/services/paycodes.py."""

import hashlib

from django.contrib import messages
from django.db.models import Q
from django.http import HttpResponse, HttpResponseNotModified

from scoring import services
from scoring.access import spend_change, throttle
from scoring.engine.seating import key
from scoring.lang import pick, say
from scoring.models import PayCode
from scoring.paycodes import APP_NAMES, MAX_BYTES, WECHAT, PayCodeRefused, paycode_png, read_paycode, too_large


def codes_by_person(*, game=None, group=None) -> dict[str, list]:
    """Each person's codes by ``key``, WeChat first: ``game``'s, else its group's of that kind; or ``group``'s. One query."""
    if game is not None:
        where = Q(game=game) | Q(group_id=game.group_id) if game.group_id is not None else Q(game=game)
    else:
        where = Q(group=group)
    chosen: dict[tuple[str, str], object] = {}
    for code in PayCode.objects.filter(where):
        mine = chosen.get((code.person, code.kind))
        if mine is None or (mine.game_id is None and code.game_id is not None):
            chosen[code.person, code.kind] = code
    out: dict[str, list] = {}
    for (person, _kind), code in sorted(chosen.items(), key=lambda item: (item[0][0], item[0][1] != WECHAT)):
        out.setdefault(person, []).append(code)
    return out


def listed(codes: dict, people: list[str]) -> list:
    """Every code of ``codes`` (``codes_by_person``), in the order of ``people``."""
    order = {key(name): n for n, name in enumerate(people)}
    return [code for person in sorted(codes, key=lambda p: (order.get(p, len(order)), p)) for code in codes[person]]


def served_png(request, paycode) -> HttpResponse:
    """The code's picture, cached a day since its id never shows another code; 304 on its tag."""
    tag = '"' + hashlib.blake2b(paycode.address.encode(), digest_size=12).hexdigest() + '"'
    if request.headers.get("If-None-Match") == tag:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(paycode_png(paycode.address), content_type="image/png")
        if request.GET.get("download") == "1":
            response["Content-Disposition"] = f'attachment; filename="paycode-{paycode.pk}.png"'
    response["ETag"] = tag
    response["Cache-Control"] = "private, max-age=86400"
    return response


def upload(request, **owner) -> None:
    """Read the posted screenshot and keep it as ``owner``'s (``game=`` or ``group=``), saying as a message what happened or why not."""
    throttle(request, "paycodes")  # each upload is decoded: counted before, refused or not
    spend_change(**owner)
    image, name = request.FILES.get("image"), request.POST.get("name", "")
    try:
        if image is None:
            raise PayCodeRefused("请选一张收款码的截图。", "Choose a screenshot of the payment code.", "image")
        if image.size > MAX_BYTES:
            raise too_large()  # refused unread
        kind, address = read_paycode(image.read())
        for_group = "game" in owner and request.POST.get("for_group") == "1"  # 也存到牌友圈
        code = services.add_paycode(**owner, name=name, kind=kind, address=address, for_group=for_group)
    except (PayCodeRefused, services.Conflict) as refusal:
        messages.warning(request, say(refusal))
        return
    app = APP_NAMES[kind]
    messages.success(request, pick(f"已保存{code.name}的{app[0]}收款码。", f"{code.name}'s {app[1]} code is saved."))
    if getattr(code, "group_too", False):
        messages.success(
            request, pick("牌友圈里也存了，以后每一场都用。", "Kept for the group too, for every evening.")
        )
    elif for_group:
        messages.info(
            request,
            pick(
                f"{code.name}不在牌友圈名单上：只存在这一场。",
                f"{code.name} is not on the group's roster: kept for this game only.",
            ),
        )


def remove(request, paycode_id: int, **owner) -> None:
    """Remove ``owner``'s code ``paycode_id``, saying why not as a message."""
    spend_change(**owner)
    try:
        services.remove_paycode(**owner, paycode_id=paycode_id)
    except services.Conflict as conflict:
        messages.warning(request, say(conflict))
