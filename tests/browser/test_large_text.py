"""The phone's text size doubled on a 320 px screen (an older player's phone): every page still
fits its width, and no total, amount or name is cut to nothing — they wrap or stack instead."""

import json

import pytest

from tests.factories import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LARGE = "html { font-size: 200% !important; }"  # what the phone's largest text setting does to rem

# Everything that shows money or a name, and what clips it: an element cut with … or hidden overflow
# whose text is wider than its box, or a total broken one digit per line.
CLIPPED = """() => {
  const shows = "[data-seat], .tile .name, .nets, .change th, .change td, .stats td, .stats th, .hand-row .title, "
    + ".btn bdi, .record .btn, .key, .stile, .transfers li, .balances td, .balances th, label.btn, "
    + ".stats-name, .stats-net, .stats-figures span";
  const out = [];
  for (const el of document.querySelectorAll(shows)) {
    const style = getComputedStyle(el);
    const clips = style.overflow !== "visible" || style.textOverflow === "ellipsis";
    if (clips && el.scrollWidth > el.clientWidth + 1) out.push(el.className + ": " + el.textContent.trim().slice(0, 20));
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.3;
    if (el.matches("[data-seat]") && el.getBoundingClientRect().height > 2.5 * line) out.push("one digit a line: " + el.textContent.trim());
  }
  for (const tile of document.querySelectorAll(".stile, .key")) {
    const box = tile.getBoundingClientRect();
    for (const face of tile.querySelectorAll(".mj")) {
      const r = face.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) {
        out.push("tile face spills: " + tile.textContent.trim());
        break;
      }
    }
  }
  return out;
}"""

PAGES = [
    ("game", ""),
    ("preview", "record?winner=0&win_type=zimo"),
    ("void", "hand/6/void"),
    ("analyse", "analyse?flip=5m&tiles=1m,2m,3m,4p,5p,6p,7s,8s,9s,E,E,E,C"),
    ("settle", "settle?rate=100&custom_yuan=&fee_yuan=40&fee_mode=equal&fee_payee=0"),
    ("summary", "summary"),
]
SITE = [("stats", "/stats"), ("new-game", "/new"), ("home", "/")]


def test_doubled_text_on_a_small_phone_wraps_and_never_cuts_money_or_names(live_server, browser, shot):
    game = seeded_game(6)
    game.players = ["欧阳娜娜", "Christopher", "阿华", "大刘"]
    game.save()
    context = browser.new_context(viewport={"width": 320, "height": 700}, locale="zh-CN", bypass_csp=True)
    page = context.new_page()
    problems = {}
    base = f"{live_server.url}/g/{game.edit_token}/"
    page.goto(base)  # this phone has opened the game: 个人统计 has its players
    for name, url in [(n, base + p) for n, p in PAGES] + [(n, live_server.url + p) for n, p in SITE]:
        page.goto(url)
        page.add_style_tag(content=LARGE)
        wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        found = page.evaluate(CLIPPED) + ([f"scrolls sideways by {wide} px"] if wide > 0 else [])
        if found:
            problems[name] = found
        if name == "stats":
            assert page.locator(".stats-player").count() == 4
        shot(page, f"large-text-{name}")
    context.close()
    assert problems == {}, json.dumps(problems, ensure_ascii=False, indent=1)
