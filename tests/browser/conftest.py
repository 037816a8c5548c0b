"""Playwright driving Debian's Chromium (never a downloaded browser) against a live server."""

import os
from pathlib import Path

import pytest

from tests.chromium import CHROMIUM_ARGS, TEST_CHROMIUM, chromium_or_stop

CHROMIUM = os.environ.get("YIWU_CHROMIUM", TEST_CHROMIUM)
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).parent / "screenshots"

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# between page actions are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def _static_files_kept_by_the_browser() -> None:
    """The live server (pytest-django's, Django's StaticFilesHandler) sends static files with no
    Cache-Control, so Chromium asked for each of them again on every page load (1,423 requests
    over the browser tests, ~1,000 of them again). Production sends them with a year's cache
    (whitenoise, fingerprinted names); here an hour, since the names carry no fingerprint."""
    from django.contrib.staticfiles.handlers import StaticFilesHandlerMixin

    serve = StaticFilesHandlerMixin.serve

    def serve_kept(self, request):
        response = serve(self, request)
        response.headers.setdefault("Cache-Control", "max-age=3600")
        return response

    StaticFilesHandlerMixin.serve = serve_kept


_static_files_kept_by_the_browser()


@pytest.fixture(scope="session")
def browser(playwright):
    """One Chromium per xdist worker: the browser tests share the cores. An expectation waits up to
    10 s (Playwright's default is 5): on a loaded 2-core machine a poll or a page after a write can
    take longer, which says nothing of the app (the waits are for what a phone shows, never less)."""
    from playwright.sync_api import expect

    expect.set_options(timeout=10_000)
    executable = chromium_or_stop(CHROMIUM)
    browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
    _contexts_kept_track_of(browser)
    yield browser
    browser.close()


def _contexts_kept_track_of(browser) -> None:
    """Every context a test opens is noted in ``OPENED``, and runs without the service worker
    (static/js/pwa.js registers it on every page) unless it asks for one with
    ``service_workers="allow"``, as tests/browser/test_installed_app.py does: its install fetches
    the first page again as it takes control (templates/pwa/sw.js ``keepOpenPages``), which can
    reorder this phone's remembered games in the middle of a test about them."""
    new_context = browser.new_context

    def tracked(**options):
        options.setdefault("service_workers", "block")
        context = new_context(**options)
        OPENED.append(context)
        return context

    browser.new_context = tracked


OPENED = []  # every context a test opened (the wrapper above)


@pytest.fixture(autouse=True)
def _contexts_closed():
    """A test that fails before closing its phones leaves none polling the live server into the
    tests after it (a request that finds no database there fails in the server's thread)."""
    yield
    while OPENED:
        context = OPENED.pop()
        try:
            context.close()
        except Exception:  # closed already, by the test or with its browser
            pass


@pytest.fixture
def phone(browser):
    """A fresh phone: its own cookies, 390×844, Chinese."""
    context = browser.new_context(viewport=PHONE, locale="zh-CN")
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def shot():
    """``shot(page, name)`` saves the whole page as ``screenshots/NAME.png`` under ``make screenshots``
    (YIWU_SCREENSHOTS=1), for a person to look at; ``make test`` skips the encoding (~5 CPU-s)."""
    wanted = os.environ.get("YIWU_SCREENSHOTS") == "1"
    if wanted:
        SCREENSHOTS.mkdir(exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        if wanted:
            page.screenshot(path=str(path), full_page=True, animations="disabled")  # transitions at their end
        return path

    return take
