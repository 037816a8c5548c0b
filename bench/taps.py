"""How fast recording a hand feels on a weak 4G network: tap-to-paint of each step, in Chromium.

Run: make bench-taps (``--tiny``: one quick run). Two flows (自摸, and 平胡 on a discard), each step
timed with the instant steps (static/js/steps.js) on, off, and tapped before their bundle arrives;
how a tap is timed and the goals: docs/performance.md.
"""

import argparse
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

LOOK_MS = 300  # a player looks at the screen before each tap (--tiny: 0)
NETWORK = WEAK_4G
GOALS_MS = (100, 250, 250)  # a choice; to the preview; 确认 → game page
WINNER_LINK = "section.record a[href*='winner=']"
ZIMO_LINK = "a[href*='win_type=zimo']"
CONFIRM = "button[name=confirm]"

# Installed before every page script: the tap clock, the paint watcher, the instant switch, and
# when the bundle of steps arrived (<html data-steps-ready>).
PROBE = """
(() => {
  if (%(off)s) localStorage.setItem("instant-steps", "off"); else localStorage.removeItem("instant-steps");
  window.__tap = null;
  window.__painted = null;
  window.__ready = null;
  window.addEventListener("touchstart", () => {
    if (window.__tap === null) window.__tap = performance.now();
  }, {capture: true, passive: true});
  new MutationObserver(() => { window.__ready = performance.now(); })
    .observe(document, {attributes: true, attributeFilter: ["data-steps-ready"], subtree: true});
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
READY = "(v) => document.documentElement.dataset.stepsReady === v"


def serve(port: int, workers: int):
    # Past the game's budget of writes per minute, a confirm would measure the 429 page.
    setup_django({**PRODUCTION_ENV, "DJANGO_LIMIT_HANDS_PER_MINUTE": "1000000"}, "yiwu-bench-taps.sqlite3")
    return start_gunicorn(port, workers=workers)


class Phone:
    """One phone (browser context) with the network throttled and the probe installed."""

    def __init__(self, browser, instant: bool, dwell_ms: int):
        probe = PROBE % {"off": "false" if instant else "true"}
        self.context, self.page, self.cdp = weak_4g_phone(browser, probe, NETWORK)
        self.instant = instant
        self.dwell_ms = dwell_ms
        self.sent: list[tuple[float, str, str, bool]] = []  # (time, method, url, is a preload)
        self.cached: set[str] = set()
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        self.cdp.on("Network.responseReceived", self._received)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.ids: list[tuple[str, str]] = []
        self.bundle_bytes: list[int] = []  # each bundle of steps, as it crossed the network (gzipped)

    def _sent(self, event) -> None:
        request = event["request"]
        preload = any(k.lower() == "hx-preloaded" for k in request.get("headers", {}))
        self.sent.append((time.monotonic(), request["method"], request["url"], preload))
        self.ids.append((event["requestId"], request["url"]))

    def _finished(self, event) -> None:
        url = next((u for rid, u in reversed(self.ids) if rid == event["requestId"]), "")
        if url.endswith("/steps"):
            self.bundle_bytes.append(int(event["encodedDataLength"]))

    def _received(self, event) -> None:
        response = event["response"]
        if response.get("fromDiskCache") or response.get("fromPrefetchCache"):
            self.cached.add(event["requestId"])

    def tap(self, selector: str) -> None:
        touch_tap(self.page, self.cdp, selector, self.dwell_ms)

    def step(self, selector: str, then: str) -> tuple[float, int, int]:
        """Tap ``selector``: (ms from touchstart to ``then`` painted, requests to the server, of them preloads)."""
        self.page.evaluate("(s) => window.__watch(s)", then)
        before, ids_before = len(self.sent), len(self.ids)
        self.tap(selector)
        self.page.wait_for_function("() => window.__painted > 0", timeout=30_000)
        ms = self.page.evaluate("() => window.__painted - window.__tap")
        time.sleep(0.05)  # let CDP events of the step arrive
        new = self.sent[before:]
        served = {rid for rid, _url in self.ids[ids_before:] if rid in self.cached}
        to_server = sum(  # the bundle of steps is fetched after the paint, off the tap's path
            1
            for rid, url in self.ids[ids_before:]
            if rid not in served and "/static/" not in url and "/steps" not in url
        )
        return ms, to_server, sum(1 for *_rest, preload in new if preload)

    def close(self) -> None:
        self.context.close()


class Hand:
    def __init__(self):
        self.steps: list[tuple[float, int, int]] = []
        self.bundle_ms: float | None = None  # the bundle's arrival after the game page's load event
        self.next_bundle_ms: float | None = None  # after 确认's game page was painted


def record_hand(phone: Phone, url: str, flow: str, winner: int, wait: bool = True) -> Hand:
    """One hand by ``flow``; with ``wait`` the phone waits for the bundle, then looks before each tap."""
    page = phone.page
    page.goto(url, wait_until="load")
    page.wait_for_selector(WINNER_LINK)
    version = page.get_attribute("section.record", "data-version")
    hand = Hand()
    if wait and phone.instant:
        page.wait_for_function(READY, arg=version, timeout=30_000)
        hand.bundle_ms = page.evaluate(
            "() => window.__ready - performance.getEntriesByType('navigation')[0].loadEventEnd"
        )
    if wait:
        page.wait_for_timeout(LOOK_MS)
    hand.steps.append(phone.step(f"{WINNER_LINK}[href*='winner={winner}&']", ZIMO_LINK))
    page.wait_for_timeout(LOOK_MS)
    if flow == "自摸":
        hand.steps.append(phone.step(ZIMO_LINK, CONFIRM))
    else:
        hand.steps.append(phone.step("a[href*='win_type=pinghu']", CONFIRM))
    page.wait_for_timeout(LOOK_MS)
    hand.steps.append(phone.step(CONFIRM, WINNER_LINK))
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # with the browser, as main() imports it

    try:  # the outbox paints the hand at once and says 已记录 once the server has it (docs/offline.md)
        page.wait_for_selector(".alert-success", timeout=30_000)
    except PlaywrightTimeout as error:
        raise RuntimeError(f"hand not recorded: {page.url}") from error
    if phone.instant:  # the next hand's steps, fetched as the game page comes back
        page.wait_for_function(READY, arg=str(int(version) + 1), timeout=30_000)
        hand.next_bundle_ms = page.evaluate("() => window.__ready - window.__painted")
    return hand


STEPS = ("winner → win-type step", "type → preview", "确认 → game page")
MODES = ("instant", "today")
AT_ONCE = "instant, tapped at once"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--dwell", type=int, default=0, help="ms between touchstart and touchend")
    parser.add_argument("--tiny", action="store_true", help=TINY_HELP)
    args = parser.parse_args()
    say_tiny(args.tiny)
    flows = {mode: ("自摸", "平胡") for mode in MODES}
    if args.tiny:
        global LOOK_MS, NETWORK
        args.runs, LOOK_MS, NETWORK = 1, 0, TINY_4G
        flows = {"instant": ("自摸",), "today": ("平胡",)}
    port = free_port()
    server = serve(port, workers=1 if args.tiny else 2)
    try:
        game = fresh_game(4 if args.tiny else 40)
        url = f"http://127.0.0.1:{port}/g/{game.edit_token}/"
        from playwright.sync_api import sync_playwright

        results: dict[tuple[str, str], list[Hand]] = {}
        bundle_bytes: list[int] = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_path(args.tiny), args=CHROMIUM_ARGS)
            phones = {mode: Phone(browser, mode == "instant", args.dwell) for mode in MODES}
            for phone in phones.values() if not args.tiny else ():
                record_hand(phone, url, "自摸", 0)  # warm-up: static files into the cache
            for run in range(args.runs):  # the two modes in turn, so both see the same server
                for mode, phone in phones.items():
                    for flow in flows[mode]:
                        results.setdefault((mode, flow), []).append(record_hand(phone, url, flow, run % 4))
                hand = record_hand(phones["instant"], url, "自摸", run % 4, wait=False)
                results.setdefault((AT_ONCE, "自摸"), []).append(hand)
            bundle_bytes = phones["instant"].bundle_bytes
            for phone in phones.values():
                phone.close()
            browser.close()
    finally:
        server.terminate()
        server.wait()
    report(results, bundle_bytes, args)


def report(results: dict[tuple[str, str], list[Hand]], bundle_bytes: list[int], args) -> None:
    network = "weak 4G" if NETWORK is WEAK_4G else "4G 10× faster than weak"
    print(
        f"Tap-to-paint, 390×844 touch phone, {network} ({NETWORK['latency']:g} ms latency, "
        f"{NETWORK['downloadThroughput'] * 8 / 1e6:g} Mbit/s down, {NETWORK['uploadThroughput'] * 8 / 1e3:g} kbit/s up), "
        f"{args.runs} runs each, dwell {args.dwell} ms; goals {'/'.join(map(str, GOALS_MS))} ms"
    )
    print(
        f"{'mode':<24} {'flow':<5} {'step':<24} {'median':>7} {'min':>6} {'max':>6} {'goal':>5} {'×goal':>6} "
        f"{'server req':>10} {'preloads':>8}"
    )
    for (mode, flow), hands in results.items():
        for i, name in enumerate(STEPS):
            ms = [hand.steps[i][0] for hand in hands]
            med = statistics.median(ms)
            reqs = statistics.median(hand.steps[i][1] for hand in hands)
            pre = statistics.median(hand.steps[i][2] for hand in hands)
            print(
                f"{mode:<24} {flow:<5} {name:<24} {med:7.0f} {min(ms):6.0f} {max(ms):6.0f} {GOALS_MS[i]:5d} "
                f"{med / GOALS_MS[i]:6.2f} {reqs:10g} {pre:8g}"
            )
        total = statistics.median(sum(step[0] for step in hand.steps) for hand in hands)
        print(f"{mode:<24} {flow:<5} {'whole hand (3 taps)':<24} {total:7.0f}")
    waited = [hand for (mode, _flow), hands in results.items() if mode == "instant" for hand in hands]
    loaded = [hand.bundle_ms for hand in waited if hand.bundle_ms is not None]
    after = [hand.next_bundle_ms for hand in waited if hand.next_bundle_ms is not None]
    if loaded:
        print(
            f"bundle of steps: here {statistics.median(loaded):.0f} ms (median; {min(loaded):.0f}–{max(loaded):.0f}) "
            f"after the game page's load event, {statistics.median(after):.0f} ms after 确认's game page painted; "
            f"{statistics.median(bundle_bytes) / 1024:.1f} KB on the wire (gzipped)"
        )


if __name__ == "__main__":
    main()
