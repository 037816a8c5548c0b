"""Debian's Chromium in this sandbox, for the browser tests and the page benchmarks: no
sandboxing, no GPU, no calls home. ``playwright install`` is never used.

The tests drive Debian's ``chromium-headless-shell`` (the same Chromium, built as the headless
shell Playwright itself runs headless tests on) when it is installed: it costs the browser suite
half the CPU of the full ``chromium`` (docs/performance.md). Without it
they fall back to ``/usr/bin/chromium``. The benchmarks of first paint and tap-to-paint keep the
full browser, since what they measure is what a phone's browser does."""

from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
TEST_CHROMIUM = HEADLESS_SHELL if Path(HEADLESS_SHELL).exists() else CHROMIUM
APT_LINE = "apt-get install -y chromium chromium-headless-shell fonts-noto-cjk"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_or_stop(executable: str = TEST_CHROMIUM) -> str:
    """``executable`` if it is installed; otherwise the test stops (tests/required.py)."""
    import shutil

    from tests.required import unavailable

    if Path(executable).exists() or shutil.which(executable):
        return executable
    unavailable(f"Chromium not found at {executable}: {APT_LINE}")
