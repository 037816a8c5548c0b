"""On the phone: 归档 takes a game off the home list (it waits under 已归档), 删除… asks on a
whole page first and then the game is gone."""

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from tests.factories import seeded_game
from tests.helpers import game_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_archive_then_delete_from_the_home_list(live_server, phone, shot):
    kept, gone = seeded_game(6, seed=1), seeded_game(9, seed=2)
    for game in (kept, gone):
        phone.goto(live_server.url + game_url(game))
    phone.goto(live_server.url + "/")
    shot(phone, "home-list")
    phone.locator(f'[data-game="{kept.pk}"] button.archive').click()
    expect(phone.locator(".alert-success")).to_contain_text("已归档")
    expect(phone.locator(f'[data-game="{kept.pk}"]')).to_have_count(0)
    phone.goto(live_server.url + "/history?archived=1")
    expect(phone.locator(f'[data-game="{kept.pk}"] button.unarchive')).to_be_visible()
    phone.goto(live_server.url + "/")
    phone.locator(f'[data-game="{gone.pk}"] a.delete').click()
    expect(phone.locator("h1")).to_have_text("删除这个牌局？")
    expect(phone.locator(".topbar")).to_be_visible()  # a whole page, with its way back
    shot(phone, "delete-confirm")
    phone.get_by_role("button", name="确认删除").click()
    expect(phone.locator(".alert-success")).to_contain_text("已删除牌局")
    expect(phone.locator("[data-game]")).to_have_count(0)
    assert list(Game.objects.values_list("pk", flat=True)) == [kept.pk]
