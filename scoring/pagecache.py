"""Whole pages cached rendered in Django's cache for the pages phones open again and again: the game
page and its poll's fresh ledger.

A page is stored under a digest of everything it is rendered from, so a stored page is served only
where rendering again gives the same bytes: the release (``build``), the game's row (``game_stamp``)
and the request's inputs as the view passes them, never the raw query string (``?n=1``, ``?n=2``…
would each force a build). A flash message is never stored, nor the CSRF token (``CSRF_MARK``).
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

from scoring import device
from scoring.models import Game

# Where the request's CSRF token goes: never escaped, so no name or note (escaped, no raw "<") can fake it.
CSRF_MARK = mark_safe("<csrf-token-of-this-request>")
PAGE_SECONDS = 60 * 60  # a page nobody opened for an hour is dropped (a write makes it unreachable anyway)
# What a deployment renders with: its files (templates, code, translations) and packages.
BUILD_FILES = (("templates", "*.html"), ("scoring", "*.py"), ("yiwu_site", "*.py"), ("locale", "*.mo"))
BUILD_PACKAGES = ("django", "django-crispy-forms", "crispy-bootstrap5", "django-template-partials", "django-htmx")


def digest(value) -> str:
    """A digest of plain values through their ``repr``: the same in every process, cheaper than json.dumps."""
    return hashlib.blake2b(repr(value).encode(), digest_size=16).hexdigest()


@functools.cache
def build() -> str:
    """This release, once per process: templates, modules, catalogues, static manifest, rendering packages."""
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
    """The game's row as this request read it, every field, so a replay cache rebuilt in place shows too."""
    return digest([getattr(game, field.attname) for field in Game._meta.concrete_fields])


def page_key(request: HttpRequest, template: str, inputs) -> str:
    user = getattr(request, "user", None)
    account = [user.pk, user.get_username()] if user is not None and user.is_authenticated else None
    parts = [template, request.path, translation.get_language(), account, device.big_text(request), inputs]
    return f"page:{build()}:{digest(parts)}"


def render_page(request: HttpRequest, template: str, inputs, context: Callable[[], dict]) -> HttpResponse:
    """``template`` rendered with ``context()``, or the page cached for the same request and ``inputs``."""
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
