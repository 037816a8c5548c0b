"""How fast recording a hand feels on a weak 4G network: tap-to-paint of each step, in Chromium.

Run: make bench-taps   (or: .venv/bin/python bench/taps.py [--runs 10] [--dwell 0])
Starts gunicorn (2 workers, production settings) on 127.0.0.1 against a throwaway SQLite file,
seeds a 40-hand 义乌 game and records hands on a 390×844 touch phone in Debian's Chromium, with
Chromium's own network emulation (CDP ``Network.emulateNetworkConditions``): 150 ms latency,
1.6 Mbit/s down, 750 kbit/s up. Two flows, each step timed:

  自摸: game page → tap a winner → win-type step → tap 自摸 → preview → tap 确认记录 → game page
  平胡: game page → tap a winner → win-type step → tap a discarder → preview → 确认记录 → game page

both with preloading as shipped (``preload`` on touchstart) and with it off, in the same run.
"Off" stops touchstart/mousedown at the window in the capture phase, so the preload extension's
listeners on the links never hear them; the click, and htmx's boosted request, are untouched.

How a step is timed, all in the page's own clock (``performance.now()``):
- start: the tap's ``touchstart``, heard by a capture listener on the window (the finger is down);
- painted: a MutationObserver on the document sees the next step's key element attached and not
  hidden (a winner link for the game page, the 自摸 link for the win-type step, the 确认 button for
  the preview); then ``requestAnimationFrame`` → ``setTimeout(0)``: the timeout runs after the
  frame that paints the element, and its ``performance.now()`` is the paint time.
The tap itself is Playwright's ``page.tap`` (touchstart and touchend back to back: no dwell), or,
with ``--dwell N``, CDP touch events N ms apart, as a finger that rests on the glass.
Each step also counts the requests the browser sent to the server (not the cache) from the tap
to the paint, and the preloads sent, from CDP Network events.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import CHROMIUM, CHROMIUM_ARGS, PRODUCTION_ENV, start_gunicorn  # noqa: E402

PORT = 8768
GOAL_MS = 250
NETWORK = {  # a weak 4G link, as Chromium's DevTools would throttle it
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1.6e6 / 8,
    "uploadThroughput": 750e3 / 8,
}
WINNER_LINK = "section.record a[href*='winner=']"
ZIMO_LINK = "a[href*='win_type=zimo']"
CONFIRM = "button[name=confirm]"

# Installed before every page script: the tap clock, the paint watcher, and the preload switch.
PROBE = """
(() => {
  window.__tap = null;
  window.__painted = null;
  const off = %(off)s;
  for (const type of ["touchstart", "mousedown"]) {
    window.addEventListener(type, (event) => {
      if (type === "touchstart" && window.__tap === null) window.__tap = performance.now();
      if (off) event.stopPropagation();  // the preload extension listens on the links themselves
    }, {capture: true, passive: true});
  }
  window.__watch = (selector) => {
    window.__tap = null;
    window.__painted = null;
    const shown = () => {
      const el = document.querySelector(selector);
      return el && el.getClientRects().length > 0;
    };
    const observer = new MutationObserver(() => {
      if (window.__painted !== null || !shown()) return;
      observer.disconnect();
      window.__painted = -1;
      requestAnimationFrame(() => setTimeout(() => { window.__painted = performance.now(); }, 0));
    });
    observer.observe(document.documentElement, {childList: true, subtree: true, attributes: true});
  };
})();
"""


def serve():
    os.environ.update(PRODUCTION_ENV, DJANGO_ALLOWED_HOSTS="127.0.0.1")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.gettempdir()}/yiwu-bench-taps.sqlite3")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    return start_gunicorn(PORT, workers=2)


class Phone:
    """One phone (browser context) with the network throttled and the probe installed."""

    def __init__(self, browser, preload: bool, dwell_ms: int):
        self.context = browser.new_context(
            viewport={"width": 390, "height": 844}, locale="zh-CN", has_touch=True, is_mobile=True
        )
        self.context.add_init_script(PROBE % {"off": "false" if preload else "true"})
        self.page = self.context.new_page()
        self.cdp = self.context.new_cdp_session(self.page)
        self.cdp.send("Network.enable")
        self.cdp.send("Network.emulateNetworkConditions", NETWORK)
        self.dwell_ms = dwell_ms
        self.sent: list[tuple[float, str, str, bool]] = []  # (time, method, url, is a preload)
        self.cached: set[str] = set()
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        self.cdp.on("Network.responseReceived", self._received)
        self.ids: list[tuple[str, str]] = []

    def _sent(self, event) -> None:
        request = event["request"]
        preload = any(k.lower() == "hx-preloaded" for k in request.get("headers", {}))
        self.sent.append((time.monotonic(), request["method"], request["url"], preload))
        self.ids.append((event["requestId"], request["url"]))

    def _received(self, event) -> None:
        response = event["response"]
        if response.get("fromDiskCache") or response.get("fromPrefetchCache"):
            self.cached.add(event["requestId"])

    def tap(self, selector: str) -> None:
        if not self.dwell_ms:
            self.page.tap(selector)
            return
        box = self.page.locator(selector).first.bounding_box()
        point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        time.sleep(self.dwell_ms / 1000)
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def step(self, selector: str, then: str) -> tuple[float, int, int]:
        """Tap ``selector``; (ms from touchstart to ``then`` painted, requests to the server,
        of them preloads)."""
        self.page.evaluate("(s) => window.__watch(s)", then)
        before, ids_before = len(self.sent), len(self.ids)
        self.tap(selector)
        self.page.wait_for_function("() => window.__painted > 0", timeout=30_000)
        ms = self.page.evaluate("() => window.__painted - window.__tap")
        time.sleep(0.05)  # let CDP events of the step arrive
        new = self.sent[before:]
        served = {rid for rid, _url in self.ids[ids_before:] if rid in self.cached}
        to_server = sum(1 for rid, url in self.ids[ids_before:] if rid not in served and "/static/" not in url)
        return ms, to_server, sum(1 for *_rest, preload in new if preload)

    def close(self) -> None:
        self.context.close()


def record_hand(phone: Phone, url: str, flow: str, winner: int) -> list[tuple[float, int, int]]:
    page = phone.page
    page.goto(url, wait_until="load")
    page.wait_for_selector(WINNER_LINK)
    page.wait_for_timeout(300)  # a player looks at the screen before tapping
    steps = [phone.step(f"{WINNER_LINK}[href*='winner={winner}']", ZIMO_LINK)]
    page.wait_for_timeout(300)
    if flow == "自摸":
        steps.append(phone.step(ZIMO_LINK, CONFIRM))
    else:
        steps.append(phone.step("a[href*='win_type=pinghu']", CONFIRM))
    page.wait_for_timeout(300)
    steps.append(phone.step(CONFIRM, WINNER_LINK))
    if not page.locator(".alert-success").count():
        raise RuntimeError(f"hand not recorded: {page.url}")
    return steps


STEPS = ("winner → win-type step", "type → preview", "确认 → game page")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--dwell", type=int, default=0, help="ms between touchstart and touchend")
    args = parser.parse_args()
    server = serve()
    try:
        from scoring.models import Game
        from tests.factories import seeded_game

        Game.objects.all().delete()
        game = seeded_game(40)
        url = f"http://127.0.0.1:{PORT}/g/{game.edit_token}/"
        from playwright.sync_api import sync_playwright

        results: dict[tuple[str, str], list[list[tuple[float, int, int]]]] = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for preload in (True, False):
                mode = "preload on" if preload else "preload off"
                phone = Phone(browser, preload, args.dwell)
                record_hand(phone, url, "自摸", 0)  # warm-up: static files into the cache
                for run in range(args.runs):
                    for flow in ("自摸", "平胡"):
                        results.setdefault((mode, flow), []).append(record_hand(phone, url, flow, run % 4))
                phone.close()
            browser.close()
    finally:
        server.terminate()
        server.wait()

    print(
        f"Tap-to-paint, 390×844 touch phone, weak 4G (150 ms latency, 1.6 Mbit/s down, 750 kbit/s up), "
        f"{args.runs} runs each, dwell {args.dwell} ms; goal {GOAL_MS} ms"
    )
    print(
        f"{'mode':<12} {'flow':<5} {'step':<24} {'median':>7} {'min':>6} {'max':>6} {'×goal':>6} {'server req':>10} {'preloads':>8}"
    )
    for (mode, flow), runs in results.items():
        for i, name in enumerate(STEPS):
            ms = [run[i][0] for run in runs]
            med = statistics.median(ms)
            reqs = statistics.median(run[i][1] for run in runs)
            pre = statistics.median(run[i][2] for run in runs)
            print(
                f"{mode:<12} {flow:<5} {name:<24} {med:7.0f} {min(ms):6.0f} {max(ms):6.0f} "
                f"{med / GOAL_MS:6.2f} {reqs:10g} {pre:8g}"
            )
        total = statistics.median(sum(step[0] for step in run) for run in runs)
        print(f"{mode:<12} {flow:<5} {'whole hand (3 taps)':<24} {total:7.0f}")


if __name__ == "__main__":
    main()
