"""Which htmx requests may be answered with a part of a page.

htmx sends ``HX-Request`` on every request it makes, but a boosted link or form (``HX-Boosted``)
and the restore of a page missing from its history cache (``HX-History-Restore-Request``, the
back gesture) swap the whole body: they are navigations and get the whole page. Only a request
made by an element that targets a part of the page (``hx-get``/``hx-post`` with ``hx-target``)
gets that part. Every view that can answer with a part asks ``wants_part``."""

from django.http import HttpRequest


def wants_part(request: HttpRequest) -> bool:
    htmx = request.htmx
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request
