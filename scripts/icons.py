"""The app's icons (static/icons/*.png), drawn once from static/favicon.svg by Debian's Chromium.

Run: .venv/bin/python scripts/icons.py   (then commit static/icons/; nothing runs it at build time)
- ``icon-192.png``, ``icon-512.png`` (manifest, purpose "any"): the favicon's tile, on transparency;
- ``maskable-512.png`` (purpose "maskable"): the tile on the top bar's red filling the square, the
  tile inside the middle 80 % circle a launcher may cut the icon to (the safe zone: its corners
  are 0.37 of the side from the centre, under 0.40);
- ``apple-touch-icon.png`` (180 px): the same full square, since iOS fills transparency with black
  and rounds the corners itself.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

SVG = (ROOT / "static" / "favicon.svg").read_text(encoding="utf-8")
TOP_BAR = "#7a1f1f"  # static/css/app.css .topbar, the manifest's theme_color
# The tile (24 × 28 of the favicon's 32) drawn at this share of the side: its corner is
# √(12² + 14²)/32 × 0.64 = 0.37 of the side from the centre.
FULL_SCALE = 0.64
ICONS = {  # name: (side, full square)
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "maskable-512.png": (512, True),
    "apple-touch-icon.png": (180, True),
}


def html(side: int, full: bool) -> str:
    drawn = round(side * FULL_SCALE) if full else side
    background = TOP_BAR if full else "transparent"
    svg = SVG.replace("<svg ", f'<svg width="{drawn}" height="{drawn}" ', 1)
    return (
        "<!doctype html><html><body style='margin:0'>"
        f"<div style='width:{side}px;height:{side}px;background:{background};display:flex;"
        f"align-items:center;justify-content:center'>{svg}</div></body></html>"
    )


def main() -> None:
    from playwright.sync_api import sync_playwright

    out = ROOT / "static" / "icons"
    out.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, (side, full) in ICONS.items():
            page = browser.new_page(viewport={"width": side, "height": side}, locale="zh-CN")
            page.set_content(html(side, full))
            page.screenshot(path=str(out / name), omit_background=not full)
            page.close()
            print(f"{name}: {side}×{side}, {(out / name).stat().st_size} bytes")
        browser.close()


if __name__ == "__main__":
    main()
