"""算牌 on a weak 4G network: 14 tiles tapped fast, with static/js/analyse.js and without it.

Run: make bench-taps-analyse (``--tiny``: one quick run). Per phone: a burst of 14 keys ``--gap`` ms
apart (tiles kept, requests, ms to the answer) and the keys one by one (tap to strip painted); how
a tap is timed: docs/performance.md.
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
    weak_4g_phone,
)

TINY = False  # --tiny: a faster network, a faster burst, its missed taps given up sooner, no settling pauses
TINY_GAP_MS = 40  # --tiny's burst, unless --gap says
HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1s", "1s", "1s", "E", "E"]
WON = "胡了"  # the answer's first line for this hand, won on a discard (winner=1: 小李)

PROBE = """
(() => {
  window.__taps = [];
  window.__paints = [];
  window.addEventListener("touchstart", () => window.__taps.push(performance.now()), {capture: true, passive: true});
  let pending = false;
  const note = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => setTimeout(() => {
      pending = false;
      const answer = document.getElementById("answer");
      window.__paints.push({
        t: performance.now(),
        n: document.querySelectorAll(".strip .stile").length,
        a: answer ? answer.innerText.trim().split("\\n")[0] : "",
      });
    }, 0));
  };
  new MutationObserver(note).observe(document, {childList: true, subtree: true, attributes: true, characterData: true});
})();
"""


def serve(port: int):
    setup_django(PRODUCTION_ENV, "yiwu-bench-taps-analyse.sqlite3")
    return start_gunicorn(port, workers=1 if TINY else 2)


class Phone:
    """One phone (browser context), throttled, with the probe; ``script`` False refuses analyse.js."""

    def __init__(self, browser, script: bool):
        self.script = script
        self.context, self.page, _cdp = weak_4g_phone(browser, PROBE, TINY_4G if TINY else WEAK_4G)
        if not script:  # before any page loads: a context's routes apply to its open page too
            self.context.route("**/static/js/analyse*.js", lambda route: route.abort())
        self.sent: list[str] = []
        self.page.on("request", lambda request: self.sent.append(request.url))

    def open(self, url: str) -> None:
        self.page.goto(url, wait_until="load")
        if self.script:
            self.page.wait_for_selector("#sanpai[hx-history='false']", state="attached")  # analyse.js started
        if not TINY:
            self.page.wait_for_timeout(300)  # a player looks at the screen before tapping
            self.page.wait_for_load_state("networkidle")

    def key(self, code: str) -> str:
        return f".keyboard a[data-key='{code}']"

    def to_server(self, since: int) -> int:
        return sum(1 for url in self.sent[since:] if "/static/" not in url)

    def quiet(self) -> None:
        """Until no request is in flight and nothing was painted for 1 s (at most 15 s; --tiny: 0.1 s)."""
        end = time.monotonic() + 15
        last = -1
        while time.monotonic() < end:
            self.page.wait_for_load_state("networkidle")
            count = self.page.evaluate("window.__paints.length")
            if count == last:
                return
            last = count
            self.page.wait_for_timeout(100 if TINY else 1000)

    def burst(self, url: str, gap_ms: int) -> dict:
        self.open(url)
        since = len(self.sent)
        start = time.monotonic()
        for i, code in enumerate(HAND):
            wait = start + i * gap_ms / 1000 - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            try:
                self.page.tap(self.key(code), timeout=300 if TINY else 2000, no_wait_after=True)
            except Exception:  # no such key now (a tile was lost, so a key may be full): the tap missed
                pass
        self.quiet()
        taps = self.page.evaluate("window.__taps")
        paints = self.page.evaluate("window.__paints")
        kept = self.page.locator(".strip .stile").count()
        after = [p for p in paints if taps and p["t"] >= taps[-1] and p["n"] == 14 and p["a"].startswith(WON)]
        shown = self.page.locator("#answer").inner_text()
        fresh = self.context.new_page()
        fresh.goto(self.page.url, wait_until="load")
        right = fresh.locator("#answer").inner_text() == shown
        fresh.close()
        return {
            "kept": kept,
            "taps": len(taps),
            "requests": self.to_server(since),
            "answer_ms": after[0]["t"] - taps[-1] if after and len(taps) == len(HAND) else None,
            "right": right and kept == len(HAND),
        }

    def one_by_one(self, url: str) -> list[float]:
        self.open(url)
        out = []
        for i, code in enumerate(HAND[:2] if TINY else HAND):
            self.page.evaluate("window.__taps = []; window.__paints = []")
            self.page.tap(self.key(code), timeout=5000)
            self.page.wait_for_function(f"() => window.__paints.some(p => p.n === {i + 1})", timeout=15_000)
            tap = self.page.evaluate("window.__taps[0]")
            painted = self.page.evaluate(f"window.__paints.find(p => p.n === {i + 1}).t")
            out.append(painted - tap)
            if not TINY:
                self.page.wait_for_load_state("networkidle")
                self.page.wait_for_timeout(150)
        return out

    def close(self) -> None:
        self.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--gap", type=int, help="ms between the taps of the burst (default 125)")
    parser.add_argument("--tiny", action="store_true", help=TINY_HELP)
    args = parser.parse_args()
    say_tiny(args.tiny)
    if args.tiny:
        global TINY
        TINY, args.runs = True, 1
    if args.gap is None:
        args.gap = TINY_GAP_MS if TINY else 125
    port = free_port()
    server = serve(port)
    try:
        game = fresh_game(3)
        url = f"http://127.0.0.1:{port}/g/{game.edit_token}/analyse?flip=5p&winner=1"
        from playwright.sync_api import sync_playwright

        results = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_path(TINY), args=CHROMIUM_ARGS)
            for script in (False, True):
                phone = Phone(browser, script)
                if not TINY:  # each burst opens the page too
                    phone.open(url)  # warm-up: static files into the cache
                bursts = [phone.burst(url, args.gap) for _ in range(args.runs)]
                singles = [phone.one_by_one(url) for _ in range(args.runs)]
                results["script on" if script else "script off"] = (bursts, singles)
                phone.close()
            browser.close()
    finally:
        server.terminate()
        server.wait()

    network = (
        "4G 10× faster than weak (15 ms latency)"
        if TINY
        else "weak 4G (150 ms latency, 1.6 Mbit/s down, 750 kbit/s up)"
    )
    print(f"算牌, 390×844 touch phone, {network}, {args.runs} runs each; burst: 14 keys {args.gap} ms apart")
    print(
        f"{'phone':<11} {'kept/14 med':>11} {'min':>4} {'requests med':>12} {'14th tap→answer ms med':>22} "
        f"{'answers right':>13} {'tap→strip ms med':>16} {'max':>6}"
    )
    for mode, (bursts, singles) in results.items():
        kept = [b["kept"] for b in bursts]
        answered = [b["answer_ms"] for b in bursts if b["answer_ms"] is not None]
        answer = f"{statistics.median(answered):.0f} ({len(answered)}/{len(bursts)})" if answered else "never"
        strip = [statistics.median(s) for s in singles]
        print(
            f"{mode:<11} {statistics.median(kept):>11g} {min(kept):>4} "
            f"{statistics.median(b['requests'] for b in bursts):>12g} {answer:>22} "
            f"{sum(b['right'] for b in bursts):>9}/{len(bursts):<3} {statistics.median(strip):>16.0f} "
            f"{max(max(s) for s in singles):>6.0f}"
        )


if __name__ == "__main__":
    main()
