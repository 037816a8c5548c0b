"""Every visible thing a thumb taps while a hand is recorded or corrected is at least 44×44 px.
The other steps (the win types, an edit, a void, settle before and after, 诸暨's and 武义二人's
questions and sheets) are measured where the evenings stand on them: tests/browser/test_evenings.py."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from scoring.models import Game
from scoring.rulesets.yiwu.engine import Rules
from tests.helpers import game_url, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
MIN = 44

# Measured: links, buttons, summaries, selects, inputs and the labels of btn-check chips. The
# hidden btn-check inputs themselves are skipped: their label is what is tapped. Nothing is
# excused: there are no inline text links inside sentences on these pages.
AUDIT = """(least) => {
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


def audit(page, label: str, shot=None, least: int = MIN) -> list[str]:
    """The page as loaded (``goto`` waits for its stylesheets), every fold opened; every target under ``least`` px."""
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")  # 更多, rows, 走势图
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")  # 走势图 loads on opening
    if shot:
        shot(page, f"taps-{label}")
    return [f"{label}: {problem}" for problem in page.evaluate(AUDIT, least)]


def test_every_tap_target_on_the_way_to_recording_a_hand_is_44_px(live_server, phone, shot):
    base = live_server.url
    game = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules().to_dict())
    client = Client()
    record(client, game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    record(client, game, {"outcome": "draw"})
    url = base + game_url(game)
    phone.goto(url)
    phone.locator("form[action$='/me/0'] button").click()  # 我是 老王: the buttons stay
    expect(phone.locator("form[action$='/me/0'] button.btn-dark")).to_be_visible()
    problems = audit(phone, "game", shot)
    steps = {
        "yiwu-winner": "record",
        "yiwu-discarder": "record?outcome=win&winner=1&win_type=pinghu",
        "yiwu-preview": "record?outcome=win&winner=1&win_type=pinghu&discarder=0",
    }
    for label, path in steps.items():
        phone.goto(url + path)
        problems += audit(phone, label, shot)
    assert problems == [], "\n".join(problems)
