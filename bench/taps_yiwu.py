"""Tap-to-paint of each step of the three commonest 义乌 hands, on weak 4G and on a 3G-like link.

Run: make bench-taps-yiwu (``--tiny``: one quick run). The hands: 自摸, 平胡 with a discarder (the
discarder's button on the win-type step) and 财神头; each step timed in the page from the finger to
the paint of what it brings (docs/performance.md, "How the tap benchmarks time a tap"): winner →
the win types, the type (or the discarder) → the sheet with its amounts, 确认 → the hand's row in the
phone's ledger, either the 待同步 row static/js/offline.js paints at once (an outbox) or the
server's own row, whichever comes first; the table says which. Goal (issue 42): every tap ≤ 100 ms
on both links. Also counted: the requests each tap sent to the server from the finger to the paint
(the preview's: one, or none when it was fetched ahead), and apart from them the pages a screen
fetched ahead once painted (static/js/steps.js, header ``HX-Preloaded: ahead``).

The pace (``--pace``, ms): the finger lands that long after the previous screen painted, as a
person reads the choices first (default 600, in the 500–700 ms people take); ``--pace 0`` taps at
once, as soon as the screen is there.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    CHROMIUM_ARGS,
    PRODUCTION_ENV,
    TINY_4G,
    TINY_HELP,
    WEAK_4G,
    browser_path,
    free_port,
    fresh_game,
    say_tiny,
    setup_django,
    start_gunicorn,
    touch_tap,
    weak_4g_phone,
)

GOAL_MS = 100  # issue 42: every tap, on both links
PACE_MS = 600  # a person reads the choices before each tap: 500–700 ms after the screen painted
LIKE_3G = {"offline": False, "latency": 300, "downloadThroughput": 750e3 / 8, "uploadThroughput": 250e3 / 8}
NETWORKS = {"weak 4G": WEAK_4G, "3G-like": LIKE_3G}
WINNER_LINK = "section.record a[href*='winner=']"
SHEET = "#preview-panel button[name=confirm]"  # the sheet with its amounts (templates/table/handform/_preview.html)
CONFIRM = "button[name=confirm]"
PENDING_ROW = "#hands .pending-row"  # static/js/offline.js's 待同步 row
FLOWS = {  # the hand's second tap, on the win-type step
    "自摸": "a[href*='win_type=zimo']",
    "平胡 (放铳)": "a[href*='win_type=pinghu'][href*='discarder=%(discarder)s']",
    "财神头": "a[href*='win_type=caishentou']",
}
STEPS = ("winner → win types", "type → sheet", "确认 → ledger row")

# Installed before every page script: the tap clock (the finger's touchstart, heard first) and a
# watcher of the first of some selectors to be attached and shown, noting which and when it painted.
PROBE = """
(() => {
  window.__tap = null;
  window.__painted = null;
  window.__which = null;
  window.addEventListener("touchstart", () => {
    if (window.__tap === null) window.__tap = performance.now();
  }, {capture: true, passive: true});
  window.__watch = (selectors) => {
    window.__tap = null;
    window.__painted = null;
    window.__which = null;
    const shown = () => selectors.find((s) => {
      const el = document.querySelector(s);
      return el && el.getClientRects().length > 0;
    });
    const observer = new MutationObserver(() => {
      if (window.__painted !== null) return;
      const which = shown();
      if (!which) return;
      observer.disconnect();
      window.__painted = -1;
      window.__which = which;
      requestAnimationFrame(() => setTimeout(() => { window.__painted = performance.now(); }, 0));
    });
    observer.observe(document.documentElement, {childList: true, subtree: true, attributes: true});
  };
})();
"""


class Phone:
    """One 390×844 touch phone on ``network``, counting the requests that reach the server."""

    def __init__(self, browser, network: dict, dwell_ms: int):
        self.context, self.page, self.cdp = weak_4g_phone(browser, PROBE, network)
        self.dwell_ms = dwell_ms
        self.sent: list[tuple[str, str, str]] = []  # (request id, method, url)
        self.ahead: set[str] = set()  # the request ids of pages fetched ahead
        self.cached: set[str] = set()
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))

    def _sent(self, event) -> None:
        self.sent.append((event["requestId"], event["request"]["method"], event["request"]["url"]))
        headers = {k.lower(): v for k, v in event["request"].get("headers", {}).items()}
        if headers.get("hx-preloaded") == "ahead":
            self.ahead.add(event["requestId"])

    def tap(self, selector: str) -> None:
        touch_tap(self.page, self.cdp, selector, self.dwell_ms)

    def step(self, selector: str, then: list[str]) -> tuple[float, str, int, int]:
        """Tap ``selector``: (ms from touchstart to the first of ``then`` painted, which, requests the
        tap sent to the server, pages fetched ahead once it painted)."""
        self.page.evaluate("(s) => window.__watch(s)", then)
        before = len(self.sent)
        self.tap(selector)
        self.page.wait_for_function("() => window.__painted > 0", timeout=60_000)
        ms, which = self.page.evaluate("() => [window.__painted - window.__tap, window.__which]")
        time.sleep(0.05)  # the step's CDP events
        sent = [
            rid
            for rid, _method, url in self.sent[before:]
            if rid not in self.cached and "/static/" not in url and "/steps" not in url and "/poll" not in url
        ]
        ahead = sum(1 for rid in sent if rid in self.ahead)
        return ms, which, len(sent) - ahead, ahead

    def close(self) -> None:
        self.context.close()


def record_hand(phone: Phone, url: str, flow: str, winner: int, pace_ms: int) -> list[tuple[float, str, int, int]]:
    """One hand by ``flow`` from the game page, the bundle of steps here first; its three steps,
    each tapped ``pace_ms`` after the previous screen painted."""
    page = phone.page
    page.goto(url, wait_until="load")
    version = page.get_attribute("section.record", "data-version")
    page.wait_for_function("(v) => document.documentElement.dataset.stepsReady === v", arg=version, timeout=60_000)
    page.wait_for_timeout(pace_ms)  # the game page read before the first tap
    steps = [phone.step(f"{WINNER_LINK}[href*='winner={winner}&']", [FLOWS["自摸"]])]
    page.wait_for_timeout(pace_ms)
    steps.append(phone.step(FLOWS[flow] % {"discarder": (winner + 1) % 4}, [SHEET]))
    seq = page.get_attribute("#hand-form input[name=next_seq]", "value")
    page.wait_for_timeout(pace_ms)
    steps.append(phone.step(CONFIRM, [PENDING_ROW, f"#hand-{seq}"]))
    page.wait_for_selector(f"#hand-{seq}", timeout=60_000)  # landed, before the next hand
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--dwell", type=int, default=0, help="ms between touchstart and touchend")
    parser.add_argument(
        "--pace", type=int, default=PACE_MS, help="ms from a screen's paint to the next tap (0: at once)"
    )
    parser.add_argument("--tiny", action="store_true", help=TINY_HELP)
    args = parser.parse_args()
    say_tiny(args.tiny)
    networks, pace_ms = NETWORKS, args.pace
    if args.tiny:
        args.runs, pace_ms, networks = 1, 0, {"4G 10× faster than weak": TINY_4G}
    port = free_port()
    # Past the game's budget of writes per minute, a confirm would measure the 429 page.
    setup_django({**PRODUCTION_ENV, "DJANGO_LIMIT_HANDS_PER_MINUTE": "1000000"}, "yiwu-bench-taps-yiwu.sqlite3")
    server = start_gunicorn(port, workers=1 if args.tiny else 2)
    results: dict[tuple[str, str], list[list[tuple[float, str, int]]]] = {}
    try:
        game = fresh_game(4 if args.tiny else 40)
        url = f"http://127.0.0.1:{port}/g/{game.edit_token}/"
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_path(args.tiny), args=CHROMIUM_ARGS)
            phones = {name: Phone(browser, network, args.dwell) for name, network in networks.items()}
            if not args.tiny:
                for phone in phones.values():
                    record_hand(phone, url, "自摸", 0, 0)  # warm-up: static files into the cache
            for run in range(args.runs):  # the networks and hands in turn, so all see the same server
                for name, phone in phones.items():
                    for flow in FLOWS:
                        results.setdefault((name, flow), []).append(record_hand(phone, url, flow, run % 4, pace_ms))
            for phone in phones.values():
                phone.close()
            browser.close()
    finally:
        server.terminate()
        server.wait()
    report(results, networks, args)


def report(results, networks: dict[str, dict], args) -> None:
    for name, network in networks.items():
        print(
            f"{name}: {network['latency']:g} ms latency, {network['downloadThroughput'] * 8 / 1e3:g} kbit/s down, "
            f"{network['uploadThroughput'] * 8 / 1e3:g} kbit/s up"
        )
    print(
        f"390×844 touch phone, {args.runs} runs each, dwell {args.dwell} ms, pace {0 if args.tiny else args.pace} ms; "
        f"goal every tap ≤ {GOAL_MS} ms; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(
        f"{'network':<24} {'hand':<10} {'step':<20} {'median':>7} {'min':>6} {'max':>6} {'×goal':>6} "
        f"{'server req':>10} {'ahead':>5}  painted"
    )
    for (name, flow), hands in results.items():
        for i, step in enumerate(STEPS):
            ms = [hand[i][0] for hand in hands]
            med = statistics.median(ms)
            requests = statistics.median(hand[i][2] for hand in hands)
            ahead = statistics.median(hand[i][3] for hand in hands)
            seen = sorted({"待同步 row" if hand[i][1] == PENDING_ROW else "server's row" for hand in hands})
            painted = ", ".join(seen) if i == 2 else ""
            print(
                f"{name:<24} {flow:<10} {step:<20} {med:7.0f} {min(ms):6.0f} {max(ms):6.0f} {med / GOAL_MS:6.2f} "
                f"{requests:10g} {ahead:5g}  {painted}"
            )


if __name__ == "__main__":
    main()
