"""The app on the home screen (添加到主屏幕): its manifest, its service worker (templates/pwa/sw.js), offline
page, and the phone's 大字 switch (docs/manual.md)."""

import hashlib
import json
import re

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from scoring import device
from scoring.lang import pick
from yiwu_site.staticfiles import minified

THEME = "#7a1f1f"  # the top bar (static/css/app.css .topbar) and base.html's theme-color
BACKGROUND = "#faf7f2"  # the page (static/css/app.css body)
START_URL = "/?from=app"  # the home page sends it on to this phone's game in play (views/games.py home)
ICONS = [  # (file under static/, side, purpose); drawn by scripts/icons.py
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/maskable-512.png", 512, "maskable"),
]


def _conditional(request: HttpRequest, body: str, content_type: str) -> HttpResponse:
    """``body`` with its digest as ETag, or 304: the phone asks for the worker again on every page."""
    etag = '"' + hashlib.blake2b(body.encode(), digest_size=8).hexdigest() + '"'
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(body, content_type=content_type)
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)  # asked again each time: a new release arrives at once
    return response


def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest in the linking page's language (``?lang=en``), so the app carries the name read."""
    language = "en" if request.GET.get("lang") == "en" else settings.LANGUAGE_CODE
    with translation.override(language):
        data = {
            "id": "/",
            "name": _("麻将记分"),
            "short_name": pick("麻将记分", "Mahjong"),  # under a launcher icon: 12 characters at most
            "description": _("义乌、诸暨、武义二人麻将的记分和结算：每局谁胡、怎么胡，谁给谁多少，每台手机都看得到。"),
            "lang": pick("zh-Hans", "en"),
            "dir": "ltr",
            "start_url": START_URL,
            "scope": "/",
            "display": "standalone",
            "theme_color": THEME,
            "background_color": BACKGROUND,
            "icons": [
                {"src": static(name), "sizes": f"{side}x{side}", "type": "image/png", "purpose": purpose}
                for name, side, purpose in ICONS
            ],
        }
    return _conditional(request, json.dumps(data, ensure_ascii=False, indent=1), "application/manifest+json")


STATIC_LINK = re.compile(r'(?:src|href|content)="(' + re.escape(settings.STATIC_URL) + r'[^"?#]+)"')


def shell_urls() -> list[str]:
    """What the worker stores at install: every static file the offline page (base.html's head) names,
    by the pages' names, and the smallest icon; not a page's own script nor the other icons."""
    page = render_to_string("pwa/offline.html")
    urls = dict.fromkeys(url for url in STATIC_LINK.findall(page) if "/icons/" not in url)  # not iOS's icon
    urls.update(dict.fromkeys([static(ICONS[0][0])]))
    return list(urls)


def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js`` at the root, so its scope is every page; its version is a digest of the shell and script."""
    shell = shell_urls()
    context = {
        "shell": json.dumps(shell),
        "offline_url": json.dumps(reverse("offline")),
        "static_url": json.dumps(settings.STATIC_URL),
        # Fingerprinted names never change content: stored once. Plain ones (development): network first.
        "static_first": json.dumps(isinstance(staticfiles_storage, ManifestFilesMixin)),
    }
    body = render_to_string("pwa/sw.js", {**context, "version": ""})
    context["version"] = json.dumps(hashlib.blake2b(body.encode(), digest_size=6).hexdigest())
    script = render_to_string("pwa/sw.js", context)
    if isinstance(staticfiles_storage, ManifestFilesMixin):  # collected: minified as the app's other scripts
        script = minified(script)
    response = _conditional(request, script, "text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@never_cache
def offline(request: HttpRequest) -> HttpResponse:
    """离线 · Offline: the worker's page for one it never kept, in both languages, listing the kept games."""
    return render(request, "pwa/offline.html")


@require_POST
def big_text(request: HttpRequest) -> HttpResponse:
    """大字 on (``big=1``) or off, kept by this phone; back to the page it was asked on, loaded whole
    (an htmx request is told to load it: a swap would keep ``<html>``'s old class)."""
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = reverse("home")
    response = HttpResponseRedirect(back)
    if request.headers.get("HX-Request"):
        response = HttpResponse(status=204, headers={"HX-Redirect": back})
    device.set_big_text(response, request.POST.get("big") == "1")
    return response
