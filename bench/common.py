"""What the benchmark scripts share: a timer, the production-like settings they run under, their
tiny runs (--tiny), free ports and throwaway SQLite files."""

import os
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from tests.chromium import CHROMIUM, CHROMIUM_ARGS, TEST_CHROMIUM  # noqa: F401  (bench/page.py takes them from here)

ROOT = Path(__file__).resolve().parents[1]

# Every script takes --tiny: the whole run in seconds, for tests/test_benchmarks.py, which looks for this line.
TINY_HELP = "a run of seconds that goes end to end; its numbers are not judged"
TINY_NOTE = "tiny run (--tiny): every part once at a few seconds' size; these numbers mean nothing"


def say_tiny(tiny: bool) -> None:
    if tiny:
        print(TINY_NOTE)


def browser_path(tiny: bool) -> str:
    """The full Chromium a phone's browser is, or for a tiny run the headless shell (the tests' own, less CPU)."""
    return TEST_CHROMIUM if tiny else CHROMIUM


def free_port() -> int:
    """A port free on 127.0.0.1 now: another benchmark, or another checkout's, may be serving on the machine."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def sqlite_url(path: Path | str) -> str:
    """DATABASE_URL of the SQLite file ``path``; a new file starts as a copy of BENCH_SQLITE_TEMPLATE
    (a migrated database) when that names one."""
    import shutil

    path = Path(tempfile.gettempdir(), path)
    template = os.environ.get("BENCH_SQLITE_TEMPLATE")
    if template and not path.exists():
        shutil.copyfile(template, path)
    return f"sqlite:///{path}"


@contextmanager
def static_files_lock(tree: Path = ROOT):
    """Held around collectstatic: two benchmarks started together would both rewrite its manifest."""
    import fcntl

    folder = tree / "staticfiles"
    folder.mkdir(exist_ok=True)
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def collect_static() -> None:
    """collectstatic, unless BENCH_STATIC_COLLECTED says it was just run (tests/test_benchmarks.py)."""
    from django.core.management import call_command

    if os.environ.get("BENCH_STATIC_COLLECTED"):
        return
    with static_files_lock():
        call_command("collectstatic", verbosity=0, interactive=False)


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
    """gunicorn serving ``app`` on 127.0.0.1:``port``, once /healthz answers."""
    gunicorn = str(ROOT / ".venv/bin/gunicorn")
    return start_server([gunicorn, app, "--bind", f"127.0.0.1:{port}", "--workers", str(workers)], port)


def start_server(command: list[str], port: int):
    """``command`` serving on 127.0.0.1:``port`` from the project's folder, once /healthz answers."""
    import http.client
    import subprocess

    server = subprocess.Popen(
        command, cwd=ROOT, env=os.environ.copy(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
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
    """Django under ``env`` on a throwaway SQLite file (unless DATABASE_URL), migrated, static files collected."""
    os.environ.update(env, DJANGO_ALLOWED_HOSTS="127.0.0.1")
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = sqlite_url(database)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if settings.COLLECTED_STATIC:
        collect_static()


WEAK_4G = {  # a weak 4G link, as Chromium's DevTools would throttle it (bench/taps.py, bench/taps_analyse.py)
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1.6e6 / 8,
    "uploadThroughput": 750e3 / 8,
}
TINY_4G = {
    **WEAK_4G,
    "latency": 15,
    "downloadThroughput": 16e6 / 8,
    "uploadThroughput": 7.5e6 / 8,
}  # --tiny: a faster link


def weak_4g_phone(browser, probe: str, network: dict = WEAK_4G):
    """A 390×844 touch phone with ``probe`` installed and its page throttled: (context, page, CDP session)."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        locale="zh-CN",
        has_touch=True,
        is_mobile=True,
        # No service worker: its requests escape CDP's throttling of the page and would time the loopback.
        service_workers="block",
    )
    context.add_init_script(probe)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", network)
    return context, page, cdp


def fresh_game(hands: int):
    """The only game in the benchmark's database: ``hands`` hands seeded (tests/factories.py)."""
    from scoring.models import Game
    from tests.factories import seeded_game

    Game.objects.all().delete()
    return seeded_game(hands)


def touch_tap(page, cdp, selector: str, dwell_ms: int) -> None:
    """A finger's tap on ``selector``: Playwright's (touchstart and touchend back to back), or with
    ``dwell_ms`` CDP touch events that far apart (docs/performance.md)."""
    if not dwell_ms:
        page.tap(selector)
        return
    box = page.locator(selector).first.bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    time.sleep(dwell_ms / 1000)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
