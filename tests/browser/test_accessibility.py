"""Deque's axe-core (vendored in tests/browser/vendor/, MPL-2.0) on every page state the browser
tests pass through, in Chinese and in English: no critical or serious violation (contrast, names,
roles, labels), and no link or button laid under something else where it shows (``COVERED``).
Each of the 34 states is a real address (every step of the entry is a plain link), so the audit
reaches the same screens a tap does. In Chinese, the states an evening passes through are audited
there (``ON_THE_EVENINGS``, tests/browser/test_evenings.py, with 杭州's own states; and
``ON_THE_WHOLE_EVENING``, tests/browser/test_whole_evening.py): here, in Chinese, only the pages
no 义乌 evening at a table comes to (import, login, signup, a wrong address) and 诸暨's game page
and 杭州's 算牌."""

import json
from pathlib import Path

import pytest

from scoring.records.exports import import_game
from scoring.services import finish_game
from tests.examples import HERE
from tests.factories import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "vendor" / "axe-core-4.14.1" / "axe.min.js"
SERIOUS = ("critical", "serious")

# Page states: (name, which game, path under the game or the site).
STATES = [
    ("home", None, "/"),
    ("new-game", None, "/new"),
    ("history", None, "/history"),
    ("stats", None, "/stats"),
    ("import", None, "/import"),
    ("login", None, "/accounts/login"),
    ("signup", None, "/accounts/signup"),
    ("rules-doc", None, "/rules/zhuji"),
    ("not-found", None, "/g/no-such-game/"),
    ("game", "yiwu", ""),
    ("game-view-link", "yiwu-view", ""),
    ("winner-step", "yiwu", "record"),
    ("how-step", "yiwu", "record?winner=0"),
    ("piao-step", "yiwu", "record?winner=0&piao_player=0&piao_level=1"),
    ("preview", "yiwu", "record?winner=0&win_type=zimo"),
    ("manual", "yiwu", "record?outcome=manual"),
    ("edit", "yiwu", "hand/12/edit"),
    ("void", "yiwu", "hand/12/void"),
    ("settle", "yiwu", "settle"),
    ("settle-preview", "yiwu", "settle?rate=100&custom_yuan=&fee_yuan=40&fee_mode=equal&fee_payee=0"),
    ("summary", "yiwu", "summary"),
    ("share", "yiwu", "share"),
    ("rules", "yiwu", "rules"),
    ("analyse", "yiwu", "analyse?winner=0&flip=5m&tiles=1m,2m,3m,4p,5p,6p,7s,8s,9s,E,E,E,C"),
    ("zhuji-game", "zhuji", ""),
    ("zhuji-sheet", "zhuji", "record?winner=3&zimo=on"),
    ("wuyi2-sheet", "wuyi2", "record?winner=0&zimo=on"),
    # no flip; the chips of what tiles cannot show, 财飘 greyed with its note, 承包 chosen by name
    ("hangzhou-analyse", "hangzhou", "analyse?winner=2&chengbao=down&tiles=1m,2m,3m,4p,5p,6p,7s,8s,9s,E,E,E,5m,5m"),
    ("settled", "settled", "settle"),
    ("picture", "settled", "picture"),
    ("delete", "yiwu", "delete"),
    ("seating-menu", "yiwu", "seating"),
    ("seating-preview", "yiwu", "seating?how=sub&seat=2&name=小周"),
    ("history-archived", None, "/history?archived=1"),
]
# Audited in Chinese where an evening stands on them (tests/browser/evenings/, the names its looks give).
ON_THE_EVENINGS = {
    "new-game": "yiwu",
    "how-step": "yiwu",
    "piao-step": "yiwu",
    "preview": "yiwu",
    "edit": "yiwu",
    "zhuji-sheet": "zhuji",
    "wuyi2-sheet": "wuyi2",
    "settle": "hangzhou",
    "settled": "hangzhou",
    "picture": "hangzhou",
    "seating-menu": "hangzhou",
    "seating-preview": "hangzhou",
}

# Audited in Chinese where the whole evening stands on them (tests/browser/tours.py ``axe``, or
# ``big``, which runs the same audit in 大字).
ON_THE_WHOLE_EVENING = {
    "home",
    "history",
    "stats",
    "rules-doc",
    "game",
    "game-view-link",
    "winner-step",
    "manual",
    "void",
    "settle-preview",
    "summary",
    "share",
    "rules",
    "analyse",
    "delete",
    "history-archived",
}


@pytest.fixture
def games(db):
    zhuji = json.loads((HERE / "zhuji" / "04-no-caishen-zero-tai-half-points.json").read_text())["game"]
    settled = seeded_game(6, seed=3)
    finish_game(game=settled, rate_fen=100, fee_fen=0, fee_mode="equal", fee_payee=0)
    yiwu = seeded_game(30)  # long enough for a 连庄 that locks 买子 (its note is text to read)
    return {
        "yiwu": f"/g/{yiwu.edit_token}/",
        "yiwu-view": f"/g/{yiwu.view_token}/",
        "zhuji": f"/g/{import_game(zhuji).edit_token}/",
        "wuyi2": f"/g/{import_game({'ruleset': 'wuyi2', 'hands': [{'outcome': 'draw'}]}).edit_token}/",
        "hangzhou": f"/g/{import_game({'ruleset': 'hangzhou', 'hands': [{'outcome': 'draw'}]}).edit_token}/",
        "settled": f"/g/{settled.edit_token}/",
    }


STILL = """() => {
  const still = new CSSStyleSheet();  // built in script: the page's CSP refuses a <style> tag
  still.replaceSync('*, *::before, *::after { transition: none !important; }');
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, still];
}"""


# axe's default rules less those whose every finding is minor or moderate: a rule with an impact
# gives it to each of its findings (axe's aggregation), so those could never fail this audit.
AUDIT = """() => {
  const audited = axe._audit.rules.filter(r => r.enabled !== false && !r.tags.includes('experimental')
    && !['minor', 'moderate'].includes(r.impact)).map(r => r.id);
  return axe.run(document, {runOnly: {type: 'rule', values: audited}, resultTypes: ['violations']})
    .then(r => r.violations);
}"""


def violations(page) -> list[str]:
    """axe's critical and serious findings on the page as it stands, one line each (axe is loaded
    by the context's init script). Transitions are ended first: a button the last tap left under the
    pointer is read at its hover colours, not halfway there."""
    page.evaluate(STILL)
    found = page.evaluate(AUDIT)
    return [
        f"{v['impact']} {v['id']}: {len(v['nodes'])}× e.g. {v['nodes'][0]['target']}"
        for v in found
        if v["impact"] in SERIOUS
    ]


# Every link and button a person can see is free to tap where it shows: scrolled to the middle of
# the screen, the point at its centre is itself or inside it, not something laid over it (a
# longer English word pushing a neighbour over it, a bar, a toast). The whole-page walk's taps
# proved this as a side effect in each language until the English walk became a Django-client
# walk (tests/core/test_it_whole_pages.py); this proves it for every state, in both languages.
COVERED = """() => {
  const covered = [];
  for (const el of document.querySelectorAll('main a[href], main button, nav a[href]')) {
    if (!el.checkVisibility() || el.disabled) continue;
    el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    const box = el.getClientRects()[0];  // a link that wraps: its first line
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!hit || !(el === hit || el.contains(hit))) {
      covered.push(`${el.tagName} "${el.textContent.trim().slice(0, 30)}" under ${hit ? hit.outerHTML.slice(0, 80) : 'nothing'}`);
    }
  }
  window.scrollTo({top: 0, left: 0, behavior: 'instant'});
  return covered;
}"""


def covered(page) -> list[str]:
    return [f"covered: {what}" for what in page.evaluate(COVERED)]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_no_page_has_a_critical_or_serious_accessibility_violation(live_server, browser, games, language):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    # axe is in every page before the page's own scripts: Playwright hands it to Chromium once, and
    # the site's CSP applies as it does on a phone (an injected <script> tag needed bypass_csp and
    # sent the 650 kB again for every state, a third of the audit's time).
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    page.goto(live_server.url + games["yiwu"])  # this phone opened the game: home and history list it
    found = {}
    for name, which, path in STATES:
        if language == "zh-hans" and (name in ON_THE_EVENINGS or name in ON_THE_WHOLE_EVENING):
            continue
        url = live_server.url + (games[which] + path if which else path)
        page.goto(url)
        if problems := violations(page) + covered(page):
            found[name] = problems
    context.close()
    assert found == {}, json.dumps(found, ensure_ascii=False, indent=1)


def test_the_hangzhou_pages_in_english_have_no_critical_or_serious_accessibility_violation(live_server, browser):
    """The audit on 杭州's own states: the sheet with greyed chips and 承包 chosen, a draw's preview,
    the game page at 三老庄 and its rules page (in Chinese, the 杭州 evening audits them as it
    passes: tests/browser/evenings/hangzhou.py)."""
    from tests.browser.evenings.hangzhou import NAMES, fits

    game = import_game({"ruleset": "hangzhou", "players": NAMES, "hands": [{"outcome": "win", "winner": 0}] * 3})
    base = f"{live_server.url}/g/{game.edit_token}/"
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    found = {}
    for name, path in (
        ("game", ""),
        ("sheet", "record?outcome=win&winner=2&patterns=shifeng&chengbao=lower"),
        ("sheet-caipiao", "record?outcome=win&winner=1&caipiao=2&chengbao=upper"),
        ("draw", "record?outcome=draw"),
        ("rules", "rules"),
    ):
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        fits(page)
        if bad := violations(page) + covered(page):
            found[name] = bad
    context.close()
    assert found == {}


UNFIT = """<!doctype html><html lang="en"><head><title>unfit</title></head><body><main>
<p style="color:#ddd;background:#fff">grey on white</p><button></button>
<a href="#a"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></a></main></body></html>"""


def test_the_audit_finds_what_axes_full_run_finds_at_serious_and_critical(browser):
    """The audit skips only the rules that can find nothing but minor or moderate problems: on a
    page that breaks rules of every impact, it reports exactly what axe's full default run
    reports at serious and critical."""
    context = browser.new_context()
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    page.set_content(UNFIT)
    full = page.evaluate("axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)")
    everything = sorted(f"{v['impact']} {v['id']}" for v in full)
    expected = sorted(line for line in everything if line.split()[0] in SERIOUS)
    assert sorted(line.split(":")[0] for line in violations(page)) == expected
    assert {"serious color-contrast", "critical button-name", "critical image-alt"} <= set(expected)
    assert len(everything) > len(expected)  # the page breaks minor or moderate rules too
    context.close()
