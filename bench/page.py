"""Page weight and first paint of the game page, cold, in Debian's Chromium (Playwright).

Run: make bench-page   (or: .venv/bin/python bench/page.py)
Starts gunicorn with production settings (compressed, fingerprinted static files) on 127.0.0.1,
seeds a 500-hand game and loads its page in a fresh browser context, twice: unthrottled to count
the bytes transferred (compressed, all assets), and throttled to a slow-3G profile to time the
first contentful paint. Profiles: WebPageTest's "3G Slow" (400 kbit/s down, 400 ms RTT) and
Chrome DevTools' "Slow 3G" (400 kbit/s, 2,000 ms RTT).
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import CHROMIUM, CHROMIUM_ARGS, PRODUCTION_ENV, start_gunicorn  # noqa: E402

PORT = 8767
PROFILES = {"3G Slow (WebPageTest: 400 kbit/s, 400 ms RTT)": 400, "Slow 3G (DevTools: 400 kbit/s, 2000 ms RTT)": 2000}


def serve() -> subprocess.Popen:
    os.environ.update(PRODUCTION_ENV, DJANGO_ALLOWED_HOSTS="127.0.0.1")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.gettempdir()}/yiwu-bench-page.sqlite3")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    server = start_gunicorn(PORT, workers=2)
    return server


def load(browser, url: str, rtt_ms: int | None) -> tuple[int, float, list[tuple[str, int]]]:
    """(bytes on the wire, first contentful paint in ms, [(resource, bytes)]) of a cold load."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if rtt_ms is not None:
        rate = 400 * 1000 / 8  # 400 kbit/s in bytes/s
        cdp.send(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": rtt_ms, "downloadThroughput": rate, "uploadThroughput": rate},
        )
    urls: dict[str, str] = {}
    sizes: list[tuple[str, int]] = []
    cdp.on("Network.responseReceived", lambda e: urls.__setitem__(e["requestId"], e["response"]["url"]))
    cdp.on(
        "Network.loadingFinished", lambda e: sizes.append((urls.get(e["requestId"], "?"), int(e["encodedDataLength"])))
    )
    page.goto(url, wait_until="load")
    page.wait_for_timeout(300)
    fcp = page.evaluate("() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || -1")
    context.close()
    return sum(size for _, size in sizes), fcp, sizes


def main() -> None:
    server = serve()
    try:
        from scoring.models import Game
        from tests.factories import seeded_game

        Game.objects.all().delete()
        game = seeded_game(500)
        url = f"http://127.0.0.1:{PORT}/g/{game.edit_token}/"
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            total, fcp, sizes = load(browser, url, None)
            print(
                f"game page (500 hands), cold load: {total / 1024:.1f} KB transferred (compressed), first paint {fcp:.0f} ms unthrottled"
            )
            for resource, size in sorted(sizes, key=lambda item: -item[1]):
                print(f"  {size / 1024:7.1f} KB  {resource.replace(f'http://127.0.0.1:{PORT}', '')[:90]}")
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
