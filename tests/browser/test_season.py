"""赛季 at 390×844: a season made by taps on the 牌友圈 page, its standings (the ranked with 元 per hand,
the unranked apart) and its picture drawn as a 1080 px PNG by the phone; every tap target 44 px."""

import base64
import struct

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import Group, Season
from tests.browser.conftest import SCREENSHOTS
from tests.browser.tours import audit
from tests.factories import random_game
from tests.groups.test_it_seasons import local, table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FRIDAY = ["老王", "小李", "阿华", "大刘"]
OTHER = ["小陈", "老王", "小周", "小吴"]


def test_a_season_is_made_by_taps_and_its_standings_and_picture_show(live_server, phone, shot):
    group = Group.objects.create(name="周五老地方", roster=[*FRIDAY, "小陈", "小周", "小吴"])
    today = timezone.localdate()
    table(group, FRIDAY, random_game(20, seed=11)["hands"], local(today, 0, 1))
    table(group, OTHER, random_game(12, seed=12)["hands"], local(today, 0, 2), rate=50)  # a second table
    seating = {"outcome": "seating", "players": ["小陈", "小李", "阿华", "大刘"]}
    table(group, FRIDAY, [*random_game(6, seed=13)["hands"], seating, {"outcome": "draw"}], local(today, 0, 3))
    page = phone
    page.goto(f"{live_server.url}/group/{group.edit_token}/")
    page.get_by_text("新建赛季").click()
    page.get_by_label("赛季名字").fill("冬季赛")
    page.get_by_label("开始日期").fill(f"{today.replace(day=1):%Y-%m-%d}")
    page.get_by_label("结束日期（这天也算）").fill(f"{today:%Y-%m-%d}")
    page.get_by_label("至少打几局才排名").fill("16")
    page.get_by_role("button", name="建赛季").click()
    expect(page.get_by_text("赛季已建好。")).to_be_visible()
    made = Season.objects.get()
    assert (made.name, made.start, made.end, made.min_hands) == ("冬季赛", today.replace(day=1), today, 16)
    box = page.locator(".season-box")
    expect(box).to_contain_text(f"{today.replace(day=1):%Y-%m-%d} – {today:%Y-%m-%d}")
    expect(page.locator(".season-tabs [aria-current]")).to_have_text("冬季赛")
    expect(page.locator(".unranked-title")).to_have_text("未满16局，不排名")
    ranked = page.locator("ol.standings .stats-player")
    expect(ranked).to_have_count(4)  # 老王 (20 + 12 + 6 hands), 小李, 阿华 and 大刘 (20 + 7)
    expect(page.locator("ul.unranked .stats-player")).to_have_count(3)  # 小陈 (12 + 1), 小周 and 小吴 (12)
    expect(ranked.first.locator(".per-hand")).to_contain_text("每局")
    shot(page, "season-standings")
    assert audit(page, "season", shot) == []  # every fold opened: the season's changes, 新建赛季, its backup
    page.get_by_role("link", name="赛季晒图").click()
    picture = page.locator("img[data-picture]")
    expect(picture).to_have_attribute("data-png", "1")
    png = base64.b64decode(picture.get_attribute("src").split(",", 1)[1])
    assert struct.unpack(">II", png[16:24])[0] == 1080
    shot(page, "season-picture-page")
    assert audit(page, "season-picture") == []
    if SCREENSHOTS.exists():
        (SCREENSHOTS / "season-picture.png").write_bytes(png)
