"""The page tours the whole evening (tests/browser/test_whole_evening.py) runs where it stands, on
one of its five phones at a time: axe (tests/browser/test_accessibility.py's audit), tap targets of
44×44 px, doubled text (the phone's largest text: every page still fits at 390 and at 320 px and no
money or name is cut), 大字 under WeChat's 1.4× text (docs/manual.md «大字»: whole, 60×60 px
controls, signed amounts, nothing overlapped or squeezed, axe clean) and whole pages (a reload, a
boosted link and the back gesture each land on a page with its <head>, top bar and a way back).

``Tours`` keeps what each finds by the name of the page state, for the test to assert ``{}`` at
its end, and every name it toured, so that the test can say which states it rode through. The
script checks are page-side (JavaScript), evaluated on the page as it stands; the larger text is
an adopted style sheet laid on and taken off again (the site's CSP refuses a <style> tag), so the
evening goes on with the phone as it was."""

import functools
import os
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import AXE, covered, violations

# -- tap targets (44 px on every page; 60 px in 大字) --------------------------------------------

# Measured: links, buttons, summaries, selects, inputs and the labels of btn-check chips. The
# hidden btn-check inputs themselves are skipped: their label is what is tapped. Nothing is
# excused: there are no inline text links inside sentences on these pages.
TAP_TARGETS = """(least) => {
  const wanted = 'a[href], button, summary, select, .btn, input:not([type=hidden]):not(.btn-check), label[for]';
  const out = [];
  for (const el of document.querySelectorAll(wanted)) {
    if (el.matches('label[for]')) {
      const input = document.getElementById(el.htmlFor);
      if (!input || !input.matches('input[type=checkbox], input[type=radio]')) continue;
    }
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!r.width || !r.height || style.visibility === 'hidden' || el.closest('[hidden]')) continue;
    if (r.width < least || r.height < least) {
      out.push(`${el.tagName.toLowerCase()}.${el.className} "${(el.textContent || el.value || '').trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
  }
  return out;
}"""
SETTLED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
IDLE = "() => !document.querySelector('.htmx-request')"


def audit(page, label: str, shot=None, least: int = 44) -> list[str]:
    """The page as it stands, every fold opened; every target under ``least`` px."""
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")  # 更多, rows, 走势图
    page.evaluate(SETTLED)
    page.wait_for_function(IDLE)  # 走势图 loads on opening
    if shot:
        shot(page, f"taps-{label}")
    return [f"{label}: {problem}" for problem in page.evaluate(TAP_TARGETS, least)]


def audited(page) -> list[str]:
    """test_accessibility.py's audit of the page as it stands (axe's critical and serious findings,
    links laid under something): axe loaded into it if it has none yet, as an evaluation, which the
    page's CSP lets in."""
    if page.evaluate("typeof axe") == "undefined":
        page.evaluate(axe_source())
    return violations(page) + covered(page)


@functools.cache
def axe_source() -> str:
    return AXE.read_text()


# -- larger text ------------------------------------------------------------------------------

LARGE = "html { font-size: 200% !important; }"  # what the phone's largest text setting does to rem
# 大字's 125 % with WeChat's 关怀模式 (about 1.4×) on the root: what rem, and so the page, is sized by.
WECHAT = "html.big { font-size: calc(125% * 1.4) !important; }"
LAY = """(css) => {
  const sheet = new CSSStyleSheet();  // built in script: the page's CSP refuses a <style> tag
  sheet.replaceSync(css);
  sheet.tour = true;
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}"""
LIFT = "() => { document.adoptedStyleSheets = document.adoptedStyleSheets.filter(s => !s.tour); }"
# The page scrolls sideways: by how much, and what sticks out past the screen's edge.
SIDEWAYS = """() => {
  const width = document.documentElement.clientWidth, wide = document.documentElement.scrollWidth - width;
  if (wide <= 0) return [];
  const out = [...document.querySelectorAll('body *')].filter(el => el.getBoundingClientRect().right > width + 0.5)
    .slice(-3).map(el => `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 20)}"`);
  return [`scrolls sideways by ${wide} px: ${out.join(', ')}`];
}"""
NARROW = {"width": 320, "height": 700}  # an older player's small phone

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

# An amount broken over lines (「+1 / 8」): an inline box of it in more than one piece.
NUMBERS_BROKEN = """() => {
  const out = [];
  for (const el of document.querySelectorAll(".balances td.text-end span, .nets .net b, .change td span, .preview-net .fs-4")) {
    if (!el.checkVisibility()) continue;
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (tops.size > 1) out.push(`broken over ${tops.size} lines: ${el.textContent.trim()}`);
  }
  return out;
}"""

# A button whose words go down one character a line (fewer than two a line on average): the win types.
LETTER_LINES = """() => {
  const out = [];
  for (const button of document.querySelectorAll(".btn")) {
    if (!button.checkVisibility()) continue;
    const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const chars = node.textContent.replace(/\\s/g, "").length;
      if (chars < 3) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
      if (lines > 1 && chars / lines < 2) out.push(`${node.textContent.trim()}: ${lines} lines`);
    }
  }
  return out;
}"""

# A select whose chosen option is wider than the room its arrow leaves (「诸葛大」, 「·」).
SELECTS_CUT = """() => {
  const out = [], ctx = document.createElement("canvas").getContext("2d");
  for (const s of document.querySelectorAll("select")) {
    if (!s.checkVisibility()) continue;
    const style = getComputedStyle(s);
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = (s.selectedOptions[0] || {textContent: ""}).textContent.trim();
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (ctx.measureText(text).width > room + 1) out.push(`select ${s.name} cuts ${text}`);
  }
  return out;
}"""

# The chart's legend: each entry inside the chart, clear of every other entry and every mark.
LEGEND = """() => {
  const out = [], svg = document.querySelector("svg.chart");
  if (!svg) return ["no chart"];
  const box = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll("text[font-size='11']")];
  const boxes = texts.map(t => t.getBoundingClientRect());
  const top = Math.min(...boxes.map(b => b.top)) - 4;
  const marks = [...svg.querySelectorAll("circle, rect, polygon")].map(m => m.getBoundingClientRect()).filter(r => r.top >= top);
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  boxes.forEach((b, i) => {
    const name = texts[i].textContent;
    if (b.left < box.left - 0.5 || b.right > box.right + 0.5) out.push(`outside the chart: ${name}`);
    boxes.forEach((c, j) => { if (j > i && meet(b, c)) out.push(`${name} overlaps ${texts[j].textContent}`); });
    if (marks.some(m => meet(b, m))) out.push(`${name} overlaps a mark`);
  });
  if (texts.length < PEOPLE) out.push(`${texts.length} legend entries`);
  return out;
}"""


def legend_overlaps(people: int) -> str:
    """The legend check for a chart of ``people`` lines (one legend entry each)."""
    return LEGEND.replace("PEOPLE", str(people))


LEGEND_OVERLAPS = legend_overlaps(5)  # the whole evening's five people

# 算牌's count badges: tall enough for their digit, in sight, and drawn over the next key.
BADGES_CUT = """() => {
  const out = [];
  for (const badge of document.querySelectorAll(".key-n")) {
    const r = badge.getBoundingClientRect(), size = parseFloat(getComputedStyle(badge).fontSize);
    if (r.height < size * 1.2) out.push(`badge ${r.height.toFixed(1)} px tall for ${size} px text`);
    if (r.right > document.documentElement.clientWidth || r.top < 0) out.push("badge off the screen");
    badge.scrollIntoView({block: "center", behavior: "instant"});
    const s = badge.getBoundingClientRect();
    for (const [x, y] of [[s.left + s.width / 2, s.top + s.height / 2], [s.right - 2, s.top + s.height / 2]]) {
      const hit = document.elementFromPoint(x, y);
      if (hit !== badge) out.push(`badge under ${hit ? hit.outerHTML.slice(0, 60) : "nothing"}`);
    }
  }
  window.scrollTo({top: 0, behavior: "instant"});
  return out;
}"""

# Every hand row: each of the people who played it by name, each amount whole, nothing past the edge.
ROWS = """() => [...document.querySelectorAll("details.hand-row")].map(row => {
  const nets = [...row.querySelectorAll(".net")];
  const edge = document.documentElement.clientWidth;
  return {
    id: row.id,
    names: nets.map(n => n.querySelector("bdi").textContent),
    seen: nets.every(n => n.querySelector("bdi").getBoundingClientRect().width > 0 && n.getBoundingClientRect().right <= edge),
  };
})"""

# -- 大字 under 1.4× ----------------------------------------------------------------------------

# Anything that shows wider than the screen (inside a box that scrolls sideways on purpose, it may).
WIDE = """() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  for (const el of document.querySelectorAll('body *')) {
    if (!el.checkVisibility() || el.closest('.visually-hidden, .table-responsive, [hidden]')) continue;
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < -1 || r.right > width + 1)) out.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 20)}" ${Math.round(r.left)}–${Math.round(r.right)}`);
  }
  const scroll = document.documentElement.scrollWidth - width;
  if (scroll > 0) out.push(`scrolls sideways by ${scroll} px`);
  return out;
}"""

# A gain or a loss is said by its sign (or by 应收/要付, is owed/owes), never by its colour alone.
UNSIGNED = """() => {
  const out = [];
  for (const el of document.querySelectorAll('.gain, .loss')) {
    if (!el.checkVisibility()) continue;
    const text = el.textContent.trim();
    const sign = el.matches('.gain') ? /^\\+|应收|is owed/ : /^[\u2212-]|要付|owes/;
    if (!sign.test(text)) out.push(`${el.className}: ${text}`);
  }
  return out;
}"""

# Two controls laid over each other (a word pushed onto its neighbour).
OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll('main a[href], main button, main .btn, main input:not([type=hidden]):not(.btn-check), main select, main summary, nav a[href], nav button')]
    .filter(el => el.checkVisibility() && !el.closest('[hidden]'))
    .map(el => [el, el.getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, p] = boxes[i], [b, q] = boxes[j];
    if (a.contains(b) || b.contains(a)) continue;
    const w = Math.min(p.right, q.right) - Math.max(p.left, q.left), h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (w > 1 && h > 1) out.push(`"${a.textContent.trim().slice(0, 15)}" over "${b.textContent.trim().slice(0, 15)}"`);
  }
  return out;
}"""

# A short label's word (「7/5」, 「13/11」, 「大字」) broken over lines: squeezed, not wrapped between words.
BROKEN = """() => {
  const out = [];
  for (const el of document.querySelectorAll('.btn, .chip, a[href], summary')) {
    const text = el.textContent.trim();
    if (!el.checkVisibility() || !text || text.length > 5) continue;
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {  // each word on its own (a name over 「放铳」 is two lines by design)
      const range = document.createRange();
      range.selectNodeContents(walk.currentNode);
      const lines = new Set([...range.getClientRects()].filter(r => r.width).map(r => Math.round(r.top)));
      if (lines.size > 1) out.push(`broken over ${lines.size} lines: ${text}`);
    }
  }
  return out;
}"""

# -- whole pages --------------------------------------------------------------------------------

# The page a tap, a reload or the back gesture left: one <head> with its title and stylesheet, the
# top bar with its way home, the foot, and on a page of the game other than the game page, a link
# back to the game page.
WHOLE = """(game) => [
  !!document.head && !!document.querySelector('head > title') && !!document.querySelector('head > link[rel=stylesheet]'),
  document.querySelectorAll('nav.topbar .navbar-brand').length === 1 && !!document.querySelector('footer'),
  !game || location.pathname === game || !location.pathname.startsWith(game) || !!document.querySelector(`main a[href="${game}"]`),
]"""


# The page being left is marked; the next is in when the mark has gone with it and nothing is asked.
LEAVING = "() => { document.querySelector('#main').dataset.left = 1; }"
LEFT = "() => !document.querySelector('#main[data-left]') && !document.querySelector('.htmx-request')"


class Tours:
    """``tours.axe(page, name)``, ``.taps``, ``.large``, ``.big`` and ``.whole`` tour the page as
    it stands; ``found`` keeps what they found by state, ``toured`` each (check, state) done."""

    def __init__(self, game_path: str = ""):
        self.game_path, self.found, self.toured = game_path, {}, []

    def note(self, check: str, name: str, problems: list[str]) -> None:
        self.toured.append((check, name))
        if problems:
            self.found.setdefault(f"{check} {name}", []).extend(problems)

    def axe(self, page, name: str) -> None:
        page.wait_for_function(IDLE)
        self.note("axe", name, audited(page))

    def taps(self, page, name: str) -> None:
        """Every tap target at least 44×44 px, every fold opened (and left open: a phone that has
        read its rows)."""
        self.note("taps", name, audit(page, name))

    def large(self, page, name: str, *checks: str, letters: bool = True) -> list[dict]:
        """At the phone's own text size and with doubled text at 390 px: nothing sideways, no
        amount or name cut, no amount broken over lines, no button one character a line (unless
        not ``letters``: pages test_large_text_places.py never measured so), and ``checks``; with
        doubled text on a 320 px phone, nothing sideways and no amount or name cut. Returns the
        hand rows as ROWS reads them at 390 px with doubled text."""
        page.wait_for_function(IDLE)
        problems = []
        for size in ("normal", "doubled"):
            if size == "doubled":
                page.evaluate(LAY, LARGE)
                page.evaluate(SETTLED)
            found = page.evaluate(CLIPPED) + page.evaluate(NUMBERS_BROKEN)
            found += page.evaluate(LETTER_LINES) if letters else []
            for check in checks:
                found += page.evaluate(check)
            found += page.evaluate(SIDEWAYS)
            problems += [f"390 px {size}: {problem}" for problem in found]
        rows = page.evaluate(ROWS)
        page.set_viewport_size(NARROW)
        page.evaluate(SETTLED)
        problems += [f"320 px doubled: {problem}" for problem in page.evaluate(CLIPPED) + page.evaluate(SIDEWAYS)]
        page.set_viewport_size(PHONE)
        page.evaluate(LIFT)
        self.note("large", name, problems)
        return rows

    def big(self, page, name: str, *, keep: bool = False) -> None:
        """The page in 大字 under WeChat's 1.4×: whole at 390 px (nothing wider, nothing cut, no
        word squeezed, no two controls over each other), every control 60×60 px, every coloured
        amount signed, axe clean. ``keep``: its screenshot under 1.4× (``snap``)."""
        assert page.locator("html.big").count() == 1, name
        page.wait_for_function(IDLE)
        page.evaluate(LAY, WECHAT)
        problems = audit(page, name, least=60)  # opens every fold first
        problems += page.evaluate(WIDE) + page.evaluate(CLIPPED) + page.evaluate(UNSIGNED)
        problems += page.evaluate(OVERLAPS) + page.evaluate(BROKEN)
        problems += audited(page)
        if keep:
            snap(page, f"big-{name}")
        page.evaluate(LIFT)
        self.note("big", name, problems)

    def whole(self, page, name: str, link=None) -> None:
        """A reload of the page is whole; if ``link`` (a locator on it), a boosted tap on it lands
        on a whole page, and the back gesture, with htmx's own copy gone (after a while, or in
        another tab: it asks the server), brings a whole page back at the first address."""
        page.wait_for_function(IDLE)
        here = page.url
        page.reload()
        problems = [] if page.evaluate(WHOLE, self.game_path) == [True] * 3 else [f"reload of {here}"]
        if link is not None:
            href = link.first.get_attribute("href")
            page.evaluate(LEAVING)
            with page.expect_request(lambda r: href in r.url and r.headers.get("hx-boosted") == "true"):
                link.first.click()
            page.wait_for_function(LEFT)
            if page.evaluate(WHOLE, self.game_path) != [True] * 3:
                problems.append(f"boosted tap to {href}")
            page.evaluate(LEAVING)
            page.evaluate("() => { sessionStorage.removeItem('htmx-history-cache'); }")
            with page.expect_request(lambda r: r.headers.get("hx-history-restore-request") == "true"):
                page.go_back()
            page.wait_for_function(LEFT)
            if page.url != here or page.evaluate(WHOLE, self.game_path) != [True] * 3:
                problems.append(f"back to {here}")
        self.note("whole", name, problems)


def big_text_on(page) -> None:
    """The phone turns 大字 on with its switch (a tap in the top bar): a whole load, already large."""
    page.locator(".big-switch").click()
    expect(page.locator("html.big")).to_have_count(1)
    expect(page.locator(".big-switch")).to_have_attribute("aria-pressed", "true")


def shots_dir() -> Path | None:
    """Where the evening's screenshots for a person go (``SHOTS_DIR``), if anywhere."""
    return Path(os.environ["SHOTS_DIR"]) if os.environ.get("SHOTS_DIR") else None


def snap(page, name: str) -> None:
    """The screen as a phone shows it (390×844, not the whole page) into ``SHOTS_DIR``, if set."""
    if folder := shots_dir():
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}.png"), animations="disabled")
