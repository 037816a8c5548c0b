"""Debian's Chromium in this sandbox, for the browser tests and the page benchmark: no
sandboxing, no GPU, no calls home. ``playwright install`` is never used."""

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
