"""The app's own scripts as collectstatic stores them for production and ``make run``, minified
(yiwu_site/staticfiles.py), and the service worker as it is served there: each still parses in
Chromium. The browser tests run the readable sources; this is the check that minifying them
broke none."""

import pytest
from django.template.loader import render_to_string

from yiwu_site.settings import BASE_DIR
from yiwu_site.staticfiles import minified

pytestmark = pytest.mark.browser
SCRIPTS = sorted((BASE_DIR / "static" / "js").glob("*.js"))
PARSES = "(source) => { try { new Function(source); return 'ok'; } catch (error) { return String(error); } }"


def worker_source() -> str:
    context = {"shell": "[]", "offline_url": '"/offline"', "static_url": '"/static/"', "static_first": "true"}
    return render_to_string("pwa/sw.js", {**context, "version": '"x"'})


def test_every_own_script_and_the_worker_still_parse_once_minified(browser):
    page = browser.new_page()
    assert page.evaluate(PARSES, "if (x) { y(") != "ok"  # the check can fail
    sources = {path.name: path.read_text() for path in SCRIPTS} | {"pwa/sw.js": worker_source()}
    assert {"app.js", "steps.js", "offline.js", "pwa.js", "analyse.js", "pwa/sw.js"} <= set(sources)
    for name, source in sources.items():
        assert page.evaluate(PARSES, source) == "ok", name  # the source itself parses
        small = minified(source)
        assert len(small) < len(source), name
        assert page.evaluate(PARSES, small) == "ok", name
    page.close()
