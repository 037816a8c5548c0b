"""Changes confirmed together: an edit that breaks a later hand carries the changes so far, signed, to the page that fixes or voids it."""

from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from scoring import services
from scoring.lang import pick
from scoring.models import Hand
from scoring.replay import number_in

TOGETHER = "with"  # the field of the changes confirmed together with this page's
SALT = "scoring.edit.together"


def sealed(token: str, changes: list[services.Change]) -> str:
    rows = [[c.seq, c.revision, c.entry, list(c.fix) if c.fix else None, c.reason, c.keep_bets] for c in changes]
    return signing.dumps(rows, salt=f"{SALT}:{token}", compress=True)


def opened(token: str, data) -> list[services.Change] | None:
    """The changes ``data`` carries to confirm together ([] for none), or None when they are broken."""
    raw = data.get(TOGETHER, "")
    if not raw:
        return []
    try:
        rows = signing.loads(raw, salt=f"{SALT}:{token}")
        if len(rows) >= services.MAX_TOGETHER:
            return None
        return [services.Change(s, r, e, tuple(f) if f else None, reason, keep) for s, r, e, f, reason, keep in rows]
    except (signing.BadSignature, TypeError, ValueError):
        return None


def numbers(hands: list[Hand], changes: list[services.Change]) -> str:
    """「1、3」: the 第N局 of ``changes``, as the confirm says them."""
    return pick("、", ", ").join(str(number_in(hands, c.seq)) for c in changes)


def broken(request: HttpRequest, token: str, seq: int, view: str = "edit-hand") -> HttpResponse:
    messages.warning(request, _("一起修改的链接已损坏或过期，什么都没有改。请重新打开这一局。"))
    return redirect(view, token=token, seq=seq)
