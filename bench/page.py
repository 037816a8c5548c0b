"""Page weight and first paint of the game page, cold, in Debian's Chromium (Playwright).

Run: make bench-page   (or: .venv/bin/python bench/page.py)
Starts gunicorn with production settings (compressed, fingerprinted static files) on 127.0.0.1,
seeds a 500-hand game and loads its page in a fresh browser context, twice: unthrottled to count
the bytes transferred (compressed, all assets), and throttled to a slow-3G profile to time the
first contentful paint. Profiles: WebPageTest's "3G Slow" (400 kbit/s down, 400 ms RTT) and
Chrome DevTools' "Slow 3G" (400 kbit/s, 2,000 ms RTT).

The cold load's bytes include what a phone fetches besides the page: the service worker's script
and the app shell it stores at install (static/sw.js: whatever the page's own requests did not
already leave in the HTTP cache), and the manifest and icon a phone's browser fetches to offer
「添加到主屏幕」 (asked for here through CDP's Page.getInstallabilityErrors, as Android's Chrome
does on its own after a page with a manifest loads).

``--make-run``: the same cold load from ``manage.py runserver`` with what ``make run`` sets
(DJANGO_DEBUG=1 DJANGO_COLLECTED_STATIC=1, after collectstatic), with each file's encoding and
Cache-Control; ``DJANGO_COLLECTED_STATIC=0`` in the environment gives ``make run`` as it was
before (every file as it is in static/, uncompressed, max-age=0).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import CHROMIUM, CHROMIUM_ARGS, PRODUCTION_ENV, start_gunicorn  # noqa: E402

PORT = 8767
GOAL_KB = 100  # issue 23: a cold game page on one bar of signal
PROFILES = {"3G Slow (WebPageTest: 400 kbit/s, 400 ms RTT)": 400, "Slow 3G (DevTools: 400 kbit/s, 2000 ms RTT)": 2000}
MAKE_RUN_ENV = {"DJANGO_DEBUG": "1", "DJANGO_COLLECTED_STATIC": os.environ.get("DJANGO_COLLECTED_STATIC", "1")}


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env, DJANGO_ALLOWED_HOSTS="127.0.0.1")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.gettempdir()}/yiwu-bench-page.sqlite3")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if settings.COLLECTED_STATIC:
        call_command("collectstatic", verbosity=0, interactive=False)


def serve(port: int, make_run: bool) -> subprocess.Popen:
    if not make_run:
        setup_django(PRODUCTION_ENV)
        return start_gunicorn(port, workers=2)
    setup_django({"DJANGO_SETTINGS_MODULE": "yiwu_site.settings", **MAKE_RUN_ENV})
    import http.client

    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/healthz")
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("runserver did not start")


class Transfers:
    """Every response of one browser context, from CDP on the page and on its service worker:
    (url, bytes on the wire with headers, Content-Encoding, Cache-Control, who asked)."""

    def __init__(self):
        self.urls: dict[str, tuple[str, str, str]] = {}
        self.rows: list[tuple[str, int, str, str, str]] = []

    def listen(self, cdp, who: str) -> None:
        def received(event):
            headers = {k.lower(): v for k, v in event["response"]["headers"].items()}
            self.urls[event["requestId"]] = (
                event["response"]["url"],
                headers.get("content-encoding", "-"),
                headers.get("cache-control", "-"),
            )

        def finished(event):
            if event["requestId"] in self.urls:
                url, encoding, cache = self.urls.pop(event["requestId"])
                self.rows.append((url, int(event["encodedDataLength"]), encoding, cache, who))

        cdp.on("Network.responseReceived", received)
        cdp.on("Network.loadingFinished", finished)
        cdp.send("Network.enable")

    @property
    def total(self) -> int:
        return sum(size for _, size, *_rest in self.rows)


def load(browser, url: str, rtt_ms: int | None, install_check: bool = False) -> tuple[Transfers, float]:
    """What a cold load of ``url`` transferred, and its first contentful paint in ms. With
    ``install_check``, also the service worker's install and the manifest and icon fetched to
    offer installing."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    transfers = Transfers()
    transfers.listen(cdp, "page")
    if rtt_ms is not None:
        rate = 400 * 1000 / 8  # 400 kbit/s in bytes/s
        cdp.send(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": rtt_ms, "downloadThroughput": rate, "uploadThroughput": rate},
        )
    worker = None
    if install_check:
        # The service worker's own requests (its script is the page's; its install's are its own).
        browser_cdp = browser.new_browser_cdp_session()
        browser_cdp.send("Target.setDiscoverTargets", {"discover": True})
    page.goto(url, wait_until="load")
    if install_check:
        worker = page.evaluate("""async () => {
            if (!navigator.serviceWorker) return 'none';
            const registration = await navigator.serviceWorker.ready;
            return registration.active ? registration.active.scriptURL : 'none';
        }""")
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        print(
            f"  installability errors (CDP Page.getInstallabilityErrors): {errors or 'none'}; service worker: {worker}"
        )
        page.wait_for_timeout(500)
    else:
        page.wait_for_timeout(300)
    fcp = page.evaluate("() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || -1")
    if install_check:
        worker_bytes = page.evaluate("""() => new Promise((resolve) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = (event) => resolve(event.data);
            navigator.serviceWorker.controller
                ? navigator.serviceWorker.controller.postMessage({ask: 'installed'}, [channel.port2])
                : navigator.serviceWorker.ready.then((r) => r.active.postMessage({ask: 'installed'}, [channel.port2]));
        })""")
        for entry in worker_bytes:
            transfers.rows.append((entry["url"], entry["bytes"], entry["encoding"], entry["cache"], "service worker"))
    context.close()
    return transfers, fcp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--make-run", action="store_true", help="serve as `make run` does (runserver, debug)")
    parser.add_argument("--port", type=int, default=PORT)
    args = parser.parse_args()
    server = serve(args.port, args.make_run)
    base = f"http://127.0.0.1:{args.port}"
    try:
        from scoring.models import Game
        from tests.factories import seeded_game

        Game.objects.all().delete()
        game = seeded_game(500)
        url = f"{base}/g/{game.edit_token}/"
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            mode = (
                f"`make run` ({' '.join(f'{k}={v}' for k, v in MAKE_RUN_ENV.items())})"
                if args.make_run
                else "production"
            )
            print(f"game page (500 hands), cold load, {mode}:")
            transfers, fcp = load(browser, url, None, install_check=True)
            page_bytes = sum(size for _, size, *_rest, who in transfers.rows if who == "page" and "manifest" not in _)
            print(
                f"{transfers.total / 1024:.1f} KB transferred (compressed, headers included) against the goal of "
                f"{GOAL_KB} KB: {'within' if transfers.total <= GOAL_KB * 1024 else 'OVER'}; "
                f"first paint {fcp:.0f} ms unthrottled"
            )
            print(f"  the page and what it links: {page_bytes / 1024:.1f} KB")
            print(f"  {'KB':>7}  {'encoding':8}  {'who':14}  {'Cache-Control':40}  resource")
            for resource, size, encoding, cache, who in sorted(transfers.rows, key=lambda row: -row[1]):
                path = resource.replace(base, "")
                print(f"  {size / 1024:7.1f}  {encoding:8}  {who:14}  {cache[:40]:40}  {path[:70]}")
            if not args.make_run:
                for name, rtt in PROFILES.items():
                    runs = [load(browser, url, rtt)[1] for _ in range(3)]
                    print(
                        f"first contentful paint, {name}: median {sorted(runs)[1]:.0f} ms (runs: {', '.join(f'{r:.0f}' for r in runs)})"
                    )
            browser.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
