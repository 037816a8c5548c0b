"""What the benchmark scripts share: a timer and the production-like settings they run under."""

import time

from tests.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: F401  (bench/page.py takes them from here)

# DEBUG off, manifest static files, plain HTTP on 127.0.0.1: production but for TLS.
PRODUCTION_ENV = {
    "DJANGO_SETTINGS_MODULE": "yiwu_site.settings",
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "DJANGO_SECURE_SSL_REDIRECT": "0",
    "DJANGO_SECURE_COOKIES": "0",
}


def best_of(repeats: int, fn) -> float:
    """The fastest of ``repeats`` runs, in seconds: the least disturbed by the machine."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def start_gunicorn(port: int, workers: int, app: str = "yiwu_site.wsgi"):
    """gunicorn serving ``app`` on 127.0.0.1:``port`` with this process's environment, once
    /healthz answers."""
    from pathlib import Path

    gunicorn = str(Path(__file__).resolve().parents[1] / ".venv/bin/gunicorn")
    return start_server([gunicorn, app, "--bind", f"127.0.0.1:{port}", "--workers", str(workers)], port)


def start_server(command: list[str], port: int):
    """``command`` (a server on 127.0.0.1:``port``) run from the project's folder with this
    process's environment, returned once /healthz answers."""
    import http.client
    import os
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    server = subprocess.Popen(
        command, cwd=root, env=os.environ.copy(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/healthz")
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"{command[0]} did not start")


def setup_django(env: dict[str, str], database: str) -> None:
    """Django under ``env`` on 127.0.0.1, on a throwaway SQLite file named ``database`` in the
    temporary folder unless DATABASE_URL names another, migrated, with its static files collected
    where they are served collected (production, ``make run``)."""
    import os
    import tempfile

    os.environ.update(env, DJANGO_ALLOWED_HOSTS="127.0.0.1")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.gettempdir()}/{database}")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if settings.COLLECTED_STATIC:
        call_command("collectstatic", verbosity=0, interactive=False)


WEAK_4G = {  # a weak 4G link, as Chromium's DevTools would throttle it (bench/taps.py, bench/taps_analyse.py)
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1.6e6 / 8,
    "uploadThroughput": 750e3 / 8,
}


def weak_4g_phone(browser, probe: str):
    """A touch phone at 390×844 (a browser context) with ``probe`` installed before every page
    script, its page throttled to ``WEAK_4G`` by Chromium's own emulation: (context, page, its
    CDP session, with the Network domain on)."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        locale="zh-CN",
        has_touch=True,
        is_mobile=True,
        # No service worker: the requests it makes for the page escape Chromium's throttling of
        # the page (CDP), which would time a 4G phone at the speed of the loopback. Online it
        # only passes pages through (network first), so the taps are what the network costs.
        service_workers="block",
    )
    context.add_init_script(probe)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", WEAK_4G)
    return context, page, cdp


def fresh_game(hands: int):
    """The only game in the benchmark's database: ``hands`` hands seeded (tests/factories.py)."""
    from scoring.models import Game
    from tests.factories import seeded_game

    Game.objects.all().delete()
    return seeded_game(hands)
