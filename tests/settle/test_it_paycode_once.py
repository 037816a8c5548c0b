"""The payer's settle page: this phone's person (「我是」) sees their own transfers first, and each
payee's 收款码 once, under the first unpaid transfer to them (a later one says it is above), so the
page is not one 290 px code per transfer. A code added on a group game's settle page is kept for the
牌友圈 too (ticked by default), so nobody uploads it twice."""

import re

import pytest

from scoring.models import Group, PayCode, Transfer
from tests.helpers import game_url, messages_of
from tests.settle.test_it_paycodes import WECHAT, screenshot, settled_game, upload

NAMES = ["老王", "小李", "阿华", "大刘"]


@pytest.fixture
def group(db) -> Group:
    return Group.objects.create(name="周五老地方", roster=list(NAMES))


def transfers_shown(html: str) -> list[str]:
    return re.findall(r"<span><bdi>([^<]+)</bdi> → <bdi>([^<]+)</bdi>", html)


def test_each_payees_code_shows_once_and_my_transfers_come_first(client, db):
    game = settled_game()
    upload(client, game_url(game) + "paycode", screenshot(WECHAT))  # 老王's
    to_wang = [t for t in Transfer.objects.all() if NAMES[t.payee] == "老王"]
    assert len(to_wang) >= 2  # 阿华 and 大刘 both pay 老王
    html = client.get(game_url(game) + "settle").content.decode()
    assert html.count('class="paycode-image') == 1
    assert html.count("的收款码在上面。") == len(to_wang) - 1
    last_payer = transfers_shown(html)[-1][0]
    client.post(game_url(game) + f"me/{NAMES.index(last_payer)}")  # this phone is that payer
    html = client.get(game_url(game) + "settle").content.decode()
    shown = transfers_shown(html)
    assert shown[0][0] == last_payer  # their own transfer first
    first_item = html[html.index('<ul class="list-group mb-3 transfers">') :].split("</li>")[0]
    if shown[0][1] == "老王":
        assert 'class="paycode-image' in first_item  # the code right under their own


def test_a_code_added_on_a_group_games_settle_page_is_kept_for_the_group_too(client, group):
    game = settled_game(group)
    html = client.get(game_url(game) + "settle").content.decode()
    assert 'name="for_group" value="1"' in html
    assert "checked" in html.split('name="for_group"')[1][:60]
    assert "也存到牌友圈「<bdi>周五老地方</bdi>」，以后每一场都用" in html
    response = client.post(
        game_url(game) + "paycode",
        {"name": "老王", "for_group": "1", "image": _image()},
        follow=True,
    )
    assert messages_of(response) == ["已保存老王的微信收款码。", "牌友圈里也存了，以后每一场都用。"]
    assert PayCode.objects.filter(game=game, name="老王").count() == 1
    assert PayCode.objects.filter(group=group, name="老王").count() == 1
    later = settled_game(group)  # next week's evening: the code is there already
    assert 'class="paycode-image' in client.get(game_url(later) + "settle").content.decode()


def test_unticked_it_stays_with_the_game_and_one_off_the_roster_is_told(client, group):
    game = settled_game(group)
    client.post(game_url(game) + "paycode", {"name": "老王", "image": _image()})
    assert not PayCode.objects.filter(group=group).exists()
    group.roster = ["小李"]
    group.save()
    response = client.post(
        game_url(game) + "paycode", {"name": "老王", "for_group": "1", "image": _image()}, follow=True
    )
    assert "老王不在牌友圈名单上：只存在这一场。" in messages_of(response)
    assert not PayCode.objects.filter(group=group).exists()


def test_a_game_of_no_group_offers_nothing_of_the_kind(client, db):
    game = settled_game()
    assert 'name="for_group"' not in client.get(game_url(game) + "settle").content.decode()


def _image():
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("shot.png", screenshot(WECHAT))
