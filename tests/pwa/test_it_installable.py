"""添加到主屏幕: the manifest and its icons, the service worker's script and headers, the offline
page it keeps, where the installed app opens, and `make run` serving static files as production
does (scoring/pwa/views.py, templates/pwa/sw.js, yiwu_site/settings.py ``static_files``)."""

import json
import re
import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.utils import timezone

from scoring.models import Game
from tests.helpers import game_url
from yiwu_site.settings import BASE_DIR, static_files
from yiwu_site.staticfiles import minified

STATIC_LINK = re.compile(r'(?:src|href)="(/static/[^"]+)"')


def png_size(path: str) -> tuple[int, int]:
    """A PNG's width and height, from its header (the IHDR chunk right after the signature)."""
    head = Path(path).read_bytes()[:24]
    assert (head[:8], head[12:16]) == (b"\x89PNG\r\n\x1a\n", b"IHDR"), path
    return struct.unpack(">II", head[16:24])


def static_file(url: str) -> str:
    return finders.find(url.removeprefix("/static/"))


def test_the_manifest_names_the_app_where_it_opens_and_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    assert response["Cache-Control"] == "no-cache"
    assert response["ETag"]
    manifest = json.loads(response.content)
    assert manifest["name"] == manifest["short_name"] == "麻将记分"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/?from=app", "/", "standalone")
    assert (manifest["theme_color"], manifest["background_color"]) == ("#7a1f1f", "#faf7f2")  # the top bar, the page
    css = (BASE_DIR / "static/css/app.css").read_text()
    assert ".topbar { background: #7a1f1f; }" in css
    assert "background: #faf7f2;" in css
    sizes = {}
    for icon in manifest["icons"]:
        width, height = png_size(static_file(icon["src"]))
        assert icon["sizes"] == f"{width}x{height}"
        assert icon["type"] == "image/png"
        sizes.setdefault(icon["purpose"], set()).add(width)
    assert sizes == {"any": {192, 512}, "maskable": {512}}


def test_the_full_square_icons_have_no_transparency_and_the_others_do():
    """A maskable icon is cut to whatever shape the launcher uses, and iOS fills transparency
    with black: both are opaque squares. The PNG's colour type (byte 25) is 2, RGB without
    alpha; the favicon-like icons are 6, with alpha (scripts/icons.py)."""
    icons = BASE_DIR / "static/icons"
    assert {path.name: path.read_bytes()[25] for path in icons.glob("*.png")} == {
        "maskable-512.png": 2,
        "apple-touch-icon.png": 2,
        "icon-192.png": 6,
        "icon-512.png": 6,
    }
    assert png_size(icons / "apple-touch-icon.png") == (180, 180)


def test_an_english_page_links_the_english_manifest(client):
    assert 'rel="manifest" href="/manifest.webmanifest"' in client.get("/").content.decode()
    client.cookies["django_language"] = "en"
    html = client.get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest?lang=en"' in html
    assert '<meta name="apple-mobile-web-app-title" content="Mahjong scores">' in html
    manifest = json.loads(client.get("/manifest.webmanifest?lang=en").content)
    assert (manifest["name"], manifest["short_name"], manifest["lang"]) == ("Mahjong scores", "Mahjong", "en")


def test_every_page_head_carries_the_manifest_and_ios_words(client, game):
    for path in ("/", game_url(game), game_url(game) + "settle", "/history", "/offline"):
        html = client.get(path).content.decode()
        head = html.split("</head>")[0]
        assert '<link rel="manifest"' in head, path
        assert '<meta name="apple-mobile-web-app-capable" content="yes">' in head, path
        assert '<meta name="apple-mobile-web-app-status-bar-style" content="black">' in head, path
        assert '<meta name="apple-mobile-web-app-title" content="麻将记分">' in head, path
        touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', head)[1]
        assert png_size(static_file(touch)) == (180, 180)
        assert "/static/js/pwa.js" in html, path  # registers the service worker


def test_the_service_worker_is_served_at_the_root_never_kept_stale(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"  # a new release's worker arrives on the next page
    assert response["Service-Worker-Allowed"] == "/"  # its scope is every page
    assert "Set-Cookie" not in response
    assert "Cookie" not in response.get("Vary", "")
    again = client.get("/sw.js", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    assert again.content == b""


def test_the_service_worker_stores_every_file_a_page_links_and_the_offline_page(client, game):
    script = client.get("/sw.js").content.decode()
    shell = json.loads(re.search(r"^var SHELL = (.*);$", script, re.M)[1])
    page = client.get(game_url(game)).content.decode()
    linked = {url for url in STATIC_LINK.findall(page) if "apple-touch-icon" not in url}  # iOS's, at 添加到主屏幕 only
    assert linked <= set(shell)  # the app shell, as the pages name it
    # the instant steps' script (named in a meta tag, loaded once the page is up) answers taps offline
    assert {"/static/js/app.js", "/static/js/pwa.js", "/static/js/steps.js", "/static/icons/icon-192.png"} <= set(shell)
    assert "/static/js/analyse.js" not in shell  # 算牌's needs the network for its answers: stored when first used
    assert not [url for url in shell if "512" in url or "apple" in url]  # the browser fetches its icons itself
    assert script.startswith('"use strict";')  # its long comment stays on the server
    assert 'var OFFLINE_URL = "/offline";' in script
    assert "var PAGES = [/^\\/$/, /^\\/g\\/[^/]+\\//];" in script  # the home page and the game pages
    assert "var KEPT = [/^\\/g\\/[^/]+\\/steps/];" in script  # one line to extend
    assert "var STATIC_FIRST = false;" in script  # not fingerprinted here: the network first
    version = re.search(r'^var VERSION = "(\w+)";$', script, re.M)[1]
    assert len(version) == 12


def test_the_offline_page_says_offline_in_both_languages_with_room_for_the_kept_pages(client):
    html = client.get("/offline").content.decode()
    assert "<title>离线 · Offline</title>" in html
    assert "离线" in html
    assert "This page needs the network" in html
    # What templates/pwa/sw.js fills in: the list of kept game pages, and the line it hides then.
    assert '<ul class="list-unstyled" data-kept></ul>' in html
    assert "<p data-none" in html
    assert "set_language" not in html  # no language switch: it could not be posted offline


def test_the_installed_app_reopens_the_game_in_play(client, make_game):
    home = client.get("/?from=app")
    assert home.status_code == 200  # a phone with no game: the home page
    played, latest = make_game(), make_game()
    client.get(game_url(played))
    client.get(game_url(latest, view=True))  # the last one opened, by its view link
    assert client.get("/?from=app").url == game_url(latest, view=True)
    assert client.get("/").status_code == 200  # the home page stays where it was
    Game.objects.filter(pk=latest.pk).update(status=Game.FINISHED)
    assert client.get("/?from=app").status_code == 200  # settled: the home page, not the game
    Game.objects.filter(pk=latest.pk).update(status=Game.PLAYING, archived_at=timezone.now())
    assert client.get("/?from=app").status_code == 200
    client.get(game_url(played))
    assert client.get("/?from=app").url == game_url(played)
    assert client.get("/?from=elsewhere").status_code == 200


def test_make_run_serves_static_files_as_production_does(client, settings, tmp_path):
    """`make run` starts the table server (debug off), which collects the files first; with those
    settings a page links the fingerprinted names, gzipped, kept a year."""
    makefile = (BASE_DIR / "Makefile").read_text()
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "$(BIN)/python -m yiwu_site.table_server" in run
    assert 'manage(env, "collectstatic"' in (BASE_DIR / "yiwu_site/table_server.py").read_text()
    for name, value in static_files(collected=True).items():
        setattr(settings, name, value)
    settings.DEBUG, settings.STATIC_ROOT = False, tmp_path
    call_command("collectstatic", interactive=False, verbosity=0)

    html = client.get("/").content.decode()
    css = next(url for url in STATIC_LINK.findall(html) if "/css/app." in url)
    assert re.fullmatch(r"/static/css/app\.[0-9a-f]{12}\.css", css)
    response = client.get(css, HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    assert response["Cache-Control"] == "max-age=315360000, public, immutable"
    body = b"".join(response.streaming_content)
    assert len(body) < (BASE_DIR / "static/css/app.css").stat().st_size / 2
    worker = client.get("/sw.js").content.decode()
    assert "var STATIC_FIRST=true;" in worker  # minified, as the app's own scripts
    assert css in worker
    assert "network's answer" not in worker  # a comment of templates/pwa/sw.js, left out
    script = next(url for url in STATIC_LINK.findall(html) if "/js/app." in url)
    served = b"".join(client.get(script).streaming_content).decode()
    source = (BASE_DIR / "static/js/app.js").read_text()
    assert served == minified(source) != source
    assert not re.search(r"^\s*//", served, re.M)
    assert len(served) < len(source) * 0.75


@pytest.mark.parametrize("path", ["/manifest.webmanifest?lang=xx", "/sw.js?x=<b>", "/offline?next=//evil"])
def test_odd_queries_change_nothing(client, path):
    assert client.get(path).status_code == 200
