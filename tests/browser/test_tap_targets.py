"""Every visible thing a thumb taps while a hand is recorded or corrected is at least 44×44 px."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from scoring.models import Game
from scoring.replay import state_json
from scoring.rulesets.wuyi2.engine import WUYI2
from scoring.rulesets.yiwu.engine import Rules
from scoring.rulesets.zhuji.engine import ZHUJI
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
        "yiwu-win-type": "record?outcome=win&winner=1",
        "yiwu-discarder": "record?outcome=win&winner=1&win_type=pinghu",
        "yiwu-preview": "record?outcome=win&winner=1&win_type=pinghu&discarder=0",
        "yiwu-edit": "hand/1/edit",
        "void": "hand/2/void",
        "settle": "settle",
    }
    for label, path in steps.items():
        phone.goto(url + path)
        problems += audit(phone, label, shot)
    phone.goto(url + "settle")
    phone.locator("label[for=rate1]").click()
    phone.get_by_role("button", name="预览").click()
    expect(phone.locator("#settle-preview")).to_contain_text("结束并结算")
    phone.get_by_role("button", name="结束并结算").click()
    expect(phone.locator(".transfers")).to_be_visible()
    problems += audit(phone, "settle-done", shot)  # 标为已付 buttons, 重新打开

    zhuji = Game.objects.create(
        ruleset="zhuji",
        players=["阿强", "阿芳", "老周", "小陈"],
        rules=ZHUJI.rules_class().to_dict(),
        state=state_json(ZHUJI.new_state(0), active=0, last_seq=0),
    )
    for label, path in {
        "zhuji-how": "record?outcome=win&winner=1",
        "zhuji-sheet": "record?outcome=win&winner=1&zimo=on",
    }.items():
        phone.goto(base + game_url(zhuji) + path)
        problems += audit(phone, label, shot)
    wuyi2 = Game.objects.create(
        ruleset="wuyi2",
        players=["老王", "阿芳"],
        rules=WUYI2.rules_class().to_dict(),
        state=state_json(WUYI2.new_state(0), active=0, last_seq=0),
    )
    for label, path in {
        "wuyi2-how": "record?outcome=win&winner=1",
        "wuyi2-chips": "record?outcome=win&winner=1&zimo=on",
    }.items():
        phone.goto(base + game_url(wuyi2) + path)
        problems += audit(phone, label, shot)
    assert problems == [], "\n".join(problems)
