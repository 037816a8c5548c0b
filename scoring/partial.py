"""Which htmx requests may be answered with a part of a page: a boosted link or form and a history
restore are navigations and get the whole page; only an element's own ``hx-target`` request gets a part."""

from django.http import HttpRequest


def wants_part(request: HttpRequest) -> bool:
    htmx = request.htmx
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request
