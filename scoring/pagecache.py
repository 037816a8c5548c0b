"""Whole pages kept rendered in Django's cache (the default cache: each process's memory, or the
shared Redis when one is configured), for the pages phones open again and again while nothing
changes: the game page and its poll's fresh ledger.

A page is stored under a key made of everything it is rendered from, so that a stored page is
only ever served where rendering it again would give the same bytes:
- this deployment (``build``: the templates, the code, the translations, the static files'
  names), so that a deploy never serves the old release's pages from a shared cache;
- the game's row as read by this request (``game_stamp``: its version, bumped by every write,
  and the fields the page shows, so that a rebuilt replay cache shows too);
- the request's own inputs: its path (the link's token), the language, the signed-in account,
  and what the view passes (this phone's 「我是」 seat, the list's page, what the language switch
  returns to). Never the raw query string: anyone could add ``?n=1``, ``?n=2``… and force a
  fresh build and another stored copy for each (the view reads what it needs from the query,
  bounded, and passes that).
The key is a digest of these (no token in it), the same on every server that runs the same
release. Two things are never stored: a page with a message for this request (a flash is its
own, and is shown once), and the CSRF token, which differs per phone and per response: the
page is rendered with ``CSRF_MARK`` in its place and each response gets its own token.
"""

import functools
import hashlib
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from scoring.models import Game

# Where the request's CSRF token goes. Safe text, never escaped, so it cannot come from a
# player's name or a note: those are escaped and never hold a raw "<".
CSRF_MARK = mark_safe("<csrf-token-of-this-request>")
PAGE_SECONDS = 60 * 60  # a page nobody opened for an hour is dropped (a write makes it unreachable anyway)
# What a deployment renders with: its files (templates, code, translations) and packages.
BUILD_FILES = (("templates", "*.html"), ("scoring", "*.py"), ("yiwu_site", "*.py"), ("locale", "*.mo"))
BUILD_PACKAGES = ("django", "django-crispy-forms", "crispy-bootstrap5", "django-template-partials", "django-htmx")


def digest(value) -> str:
    """Of plain values (JSON's, datetimes): their ``repr``, the same in every process (a dict
    read back from the same stored JSON keeps its order), in two thirds of json.dumps's time."""
    return hashlib.blake2b(repr(value).encode(), digest_size=16).hexdigest()


@functools.cache
def build() -> str:
    """This release, read once per process: every template, module and compiled catalogue, the
    static files' manifest (their hashed names), the versions of the packages that render and
    the settings that change what a page links to."""
    h = hashlib.blake2b(digest_size=8)
    base = Path(settings.BASE_DIR)
    for folder, pattern in BUILD_FILES:
        for path in sorted((base / folder).rglob(pattern)):
            h.update(str(path.relative_to(base)).encode())
            h.update(path.read_bytes())
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if manifest.exists():
        h.update(manifest.read_bytes())
    for package in BUILD_PACKAGES:
        try:
            h.update(f"{package}={package_version(package)}".encode())
        except PackageNotFoundError:
            pass
    h.update(f"debug={settings.DEBUG} static={settings.STATIC_URL}".encode())  # what pages link to
    return h.hexdigest()


def game_stamp(game: Game) -> str:
    """The game's row as this request read it, every field: each write bumps ``version``, and
    the rest covers a replay cache rebuilt in place (scoring/replay.py ``store``) and any field a
    page shows, this one or one added later."""
    return digest([getattr(game, field.attname) for field in Game._meta.concrete_fields])


def page_key(request: HttpRequest, template: str, inputs) -> str:
    user = getattr(request, "user", None)
    account = [user.pk, user.get_username()] if user is not None and user.is_authenticated else None
    parts = [template, request.path, translation.get_language(), account, inputs]
    return f"page:{build()}:{digest(parts)}"


def render_page(request: HttpRequest, template: str, inputs, context: Callable[[], dict]) -> HttpResponse:
    """``template`` rendered with ``context()``, or the same page from the cache when the
    request and ``inputs`` (what else the page depends on: ``game_stamp`` and the like) match
    one rendered before. The view keeps its own headers and cookies."""
    messages = get_messages(request)
    if len(messages):  # this request's flash: shown once, in this response alone
        response = render(request, template, context())
        if CSRF_MARK.encode() in response.content:  # parts rendered apart carry the mark too
            response.content = response.content.replace(CSRF_MARK.encode(), get_token(request).encode())
        return response
    key = page_key(request, template, inputs)
    html = cache.get(key)
    if html is None:
        html = render_to_string(template, {**context(), "csrf_token": CSRF_MARK}, request)
        cache.set(key, html, PAGE_SECONDS)
    else:
        for _message in messages:  # as the page's flash loop would: none, but read
            pass
    if CSRF_MARK in html:
        html = html.replace(CSRF_MARK, get_token(request))
    return HttpResponse(html)
