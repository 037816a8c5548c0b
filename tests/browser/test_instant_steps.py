"""The record flow's questions at a tap (static/js/steps.js): once the bundle is here, a tap on a
winner and on a win type that asks who discarded shows the next question with no request; the
back gesture and a refresh of a step's address show the same page; a hand recorded elsewhere
brings a new bundle; and without JavaScript every step is the plain link it always was."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.helpers import confirm, form_ready
from tests.factories import seeded_game
from tests.helpers import game_url, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
READY = "(v) => document.documentElement.dataset.stepsReady === v"


def main_html(page) -> str:
    """The page's own part, as the server wrote it (app.js only adds tabindex to the question it focuses)."""
    return page.inner_html("main").replace(' tabindex="-1"', "")


def test_a_tap_shows_the_next_question_with_no_request_and_back_and_refresh_agree(live_server, phone):
    game = seeded_game(2)
    phone.goto(live_server.url + game_url(game))
    phone.wait_for_function(READY, arg=str(game.version))
    sent = []  # the requests a tap sent; the sheets a question screen fetches ahead are not a tap's
    phone.on("request", lambda request: request.headers.get("hx-preloaded") or sent.append(request.url))

    phone.locator("section.record a[href*='winner=0&']").click()
    expect(phone.locator(".question")).to_contain_text("老王 胡了 — 怎么胡？")
    expect(phone.locator(".question")).to_be_focused()
    win_type = main_html(phone)
    phone.locator("a[href$='win_type=qidui']").click()
    expect(phone.locator(".question")).to_contain_text("谁放铳？")
    assert re.search(r"record\?v=\d+&winner=0&outcome=win&win_type=qidui$", phone.url)
    assert sent == []

    phone.go_back()
    expect(phone.locator(".question")).to_contain_text("怎么胡？")
    assert main_html(phone) == win_type
    phone.go_forward()
    expect(phone.locator(".question")).to_contain_text("谁放铳？")
    discarder = main_html(phone)
    assert sent == []
    phone.reload()  # the server's whole page, the same
    expect(phone.locator("nav.topbar")).to_have_count(1)
    assert main_html(phone) == discarder

    phone.get_by_role("link", name="小李").click()  # the preview: the server's
    form_ready(phone)
    confirm(phone)
    game.refresh_from_db()
    phone.wait_for_function(READY, arg=str(game.version))  # the next hand's questions, fetched at once

    record(phone_client(), game, {"outcome": "win", "winner": 1, "win_type": "zimo"})  # another phone
    game.refresh_from_db()
    phone.locator("#poller").dispatch_event("poll-now")
    phone.wait_for_function(READY, arg=str(game.version))
    sent.clear()
    phone.locator("section.record a[href*='winner=2&']").click()
    expect(phone.locator(".question")).to_contain_text("阿华 胡了")
    assert sent == []


def phone_client():
    from django.test import Client

    return Client()


def test_without_javascript_every_step_is_a_plain_link(live_server, browser):
    game = seeded_game(2)
    context = browser.new_context(viewport=PHONE, locale="zh-CN", java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + game_url(game))
    page.locator("section.record a[href*='winner=3&']").click()
    expect(page.locator(".question")).to_contain_text("大刘 胡了 — 怎么胡？")
    page.locator("a[href$='win_type=qidui']").click()
    expect(page.locator(".question")).to_contain_text("谁放铳？")
    page.go_back()
    expect(page.locator(".question")).to_contain_text("怎么胡？")
    page.get_by_role("link", name=re.compile("^自摸")).click()
    page.get_by_role("button", name="确认记录").click()
    expect(page.locator(".alert-success")).to_contain_text("已记录第3局")
    context.close()
