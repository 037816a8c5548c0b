"""Page weight and first paint of the game page, cold, in Debian's Chromium (Playwright).

Run: make bench-page (``--tiny``: a small game, a faster network). Counts the bytes of a cold load,
the service worker's install and the manifest's icon included, then times the first contentful
paint on two slow-3G profiles. ``--make-run``: the same load from what ``make run`` serves.
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    CHROMIUM_ARGS,
    PRODUCTION_ENV,
    TINY_HELP,
    browser_path,
    free_port,
    fresh_game,
    say_tiny,
    setup_django,
    start_gunicorn,
)

GOAL_KB = 100  # issue 23: a cold game page on one bar of signal
PROFILES = {"3G Slow (WebPageTest: 400 kbit/s, 400 ms RTT)": 400, "Slow 3G (DevTools: 400 kbit/s, 2000 ms RTT)": 2000}
MAKE_RUN_ENV = {**PRODUCTION_ENV, "DJANGO_LAN_SERVER": "1"}  # yiwu_site/table_server.py: gunicorn, debug off


def serve(port: int, make_run: bool, workers: int = 2) -> subprocess.Popen:
    if not make_run:
        setup_django(PRODUCTION_ENV, "yiwu-bench-page.sqlite3")
        return start_gunicorn(port, workers=workers)
    setup_django(MAKE_RUN_ENV, "yiwu-bench-page.sqlite3")
    return start_gunicorn(port, workers=workers)


def cold_load(playwright, url: str, tiny: bool) -> tuple[list[tuple[str, int, str, str, str]], list, float]:
    """Everything a cold load of ``url`` transfers in a fresh persistent profile (an incognito one
    offers no install), until the worker controls the page; the installability errors; the first paint."""

    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=browser_path(tiny),
            args=CHROMIUM_ARGS,
            viewport={"width": 390, "height": 844},
            locale="zh-CN",
        )
        finished = []
        context.on("requestfinished", lambda request: finished.append(request))
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(url, wait_until="load")
        page.evaluate(CONTROLLED)
        errors = context.new_cdp_session(page).send("Page.getInstallabilityErrors")["installabilityErrors"]
        page.wait_for_timeout(300 if tiny else 1000)  # the manifest's icon, the page kept by the worker
        fcp = page.evaluate("() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || -1")
        rows = []
        for request in finished:
            sizes, response = request.sizes(), request.response()
            if sizes["responseBodySize"] < 0:
                continue  # from the HTTP cache (the worker storing what the page just loaded): nothing sent
            body = sizes["responseBodySize"]
            if body == 0 and request.url.endswith("/sw.js") and response.status == 200:
                body = worker_script_bytes(request.url)  # Chromium reports no body for a worker's script
            who = (
                "service worker"
                if request.service_worker
                else "browser"
                if "manifest" in request.url or "/icons/" in request.url
                else "page"
            )
            rows.append(
                (
                    request.url,
                    sizes["responseHeadersSize"] + body,
                    response.headers.get("content-encoding", "-"),
                    response.headers.get("cache-control", "-"),
                    who,
                )
            )
        context.close()
    return rows, errors, fcp


CONTROLLED = """async () => {
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, {once: true}));
  }
}"""


def worker_script_bytes(url: str) -> int:
    import gzip
    import urllib.request

    with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})) as answer:
        body = answer.read()
        return len(body if answer.headers.get("Content-Encoding") == "gzip" else gzip.compress(body))


def first_paint(browser, url: str, rtt_ms: int, faster: int = 1) -> float:
    """The first contentful paint of a cold load of ``url`` in ms, at 400 kbit/s and ``rtt_ms`` (``faster``× better)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    rate = 400 * 1000 / 8 * faster  # 400 kbit/s in bytes/s
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": rtt_ms / faster, "downloadThroughput": rate, "uploadThroughput": rate},
    )
    page.goto(url, wait_until="load")
    page.wait_for_timeout(300 if faster == 1 else 100)  # --tiny (faster): the paint comes sooner
    fcp = page.evaluate("() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || -1")
    context.close()
    return fcp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--make-run", action="store_true", help="serve as `make run` does (the table server's settings)"
    )
    parser.add_argument("--port", type=int, help="default: a free one")
    parser.add_argument("--tiny", action="store_true", help=TINY_HELP)
    args = parser.parse_args()
    say_tiny(args.tiny)
    port = args.port or free_port()
    hands, runs, faster = (4, 1, 20) if args.tiny else (500, 3, 1)
    server = serve(port, args.make_run, workers=1 if args.tiny else 2)
    base = f"http://127.0.0.1:{port}"
    try:
        game = fresh_game(hands)
        url = f"{base}/g/{game.edit_token}/"
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            mode = "`make run` (gunicorn, DJANGO_LAN_SERVER=1)" if args.make_run else "production"
            rows, errors, fcp = cold_load(playwright, url, args.tiny)
            total = sum(size for _url, size, *_rest in rows)
            of_page = sum(size for _url, size, _e, _c, who in rows if who == "page")
            print(f"game page ({hands} hands), cold load, {mode}:")
            print(
                f"{total / 1024:.1f} KB transferred (compressed, headers included), goal {GOAL_KB} KB: "
                f"{'within' if total <= GOAL_KB * 1024 else 'OVER'}; the page and what it links {of_page / 1024:.1f} KB, "
                f"first paint {fcp:.0f} ms unthrottled"
            )
            print(f"installability errors (CDP Page.getInstallabilityErrors): {errors or 'none'}")
            print(f"  {'KB':>6}  {'encoding':8}  {'asked by':14}  {'Cache-Control':38}  resource")
            for resource, size, encoding, cache, who in sorted(rows, key=lambda row: -row[1]):
                print(
                    f"  {size / 1024:6.1f}  {encoding:8}  {who:14}  {cache[:38]:38}  {resource.replace(base, '')[:60]}"
                )
            if not args.make_run:
                browser = playwright.chromium.launch(executable_path=browser_path(args.tiny), args=CHROMIUM_ARGS)
                for name, rtt in PROFILES.items():
                    times = [first_paint(browser, url, rtt, faster) for _ in range(runs)]
                    label = f"{name}, {faster}× faster" if faster > 1 else name
                    print(
                        f"first contentful paint, {label}: median {sorted(times)[len(times) // 2]:.0f} ms (runs: {', '.join(f'{r:.0f}' for r in times)})"
                    )
                browser.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
