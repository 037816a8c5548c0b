"""今晚几桌 outside its own pages: the 牌友圈 page's list of its nights (newest first, bounded, each with
its date, tables, rulesets and whether settled), the board as JSON for other tools (docs/contract.md
「今晚的榜」) on either link, and the game import page recognising a night's backup."""

import json
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.engine import get_ruleset
from scoring.engine.seating import key
from scoring.models import Game, Group, TableNight
from scoring.night import TableTerms
from scoring.nights.templatetags.nights import LISTED, SHOWN
from scoring.services import nights as writes
from tests.core.test_it_english_pages import leaks
from tests.factories import add_hand
from tests.nights.test_it_nights import EIGHT, PINGHU, YIWU, ZIMO

HANGZHOU = get_ruleset("hangzhou")


@pytest.fixture
def group(db) -> Group:
    return Group.objects.create(name="春节", roster=list(EIGHT))


def mixed(group) -> TableNight:
    """A night of a 义乌 table (the first four) and a 杭州 one (the next four)."""
    terms = [TableTerms(YIWU), TableTerms(HANGZHOU)]
    return writes.open_night(group, people=EIGHT, tables=terms, how=TableNight.AS_SEATED)


def test_the_group_page_lists_its_nights_newest_first_with_tables_rulesets_and_whether_settled(client, group):
    older = mixed(group)
    TableNight.objects.filter(pk=older.pk).update(created_at=timezone.now() - timedelta(days=30))
    writes.settle_tables(older, rate_fen=100, round_yuan=False)
    newer = writes.open_night(group, people=EIGHT[:6], tables=1, how=TableNight.RANDOM, ruleset=YIWU)
    page = client.get(f"/group/{group.view_token}/").content.decode()
    section = page[page.index('id="nights"') :]
    assert "几桌的晚上：2 个" in section
    first, second = section.index(f'data-night="{newer.pk}"'), section.index(f'data-night="{older.pk}"')
    assert first < second  # newest first
    assert f'href="/night/{newer.view_token}/"' in section  # the view link reads each night's view link
    assert newer.edit_token not in page
    assert "1 桌在打" in section[first:second]
    assert "1 桌 · 6 人" in section[first:second]
    assert "2 桌 · 8 人 · 义乌麻将 · 杭州麻将" in section[second:]
    assert "已结算" in section[second:]
    edit = client.get(f"/group/{group.edit_token}/").content.decode()
    assert f'href="/night/{older.edit_token}/"' in edit


def test_the_nights_list_folds_the_earlier_ones_and_stops_at_its_bound(client, group):
    now = timezone.now()
    made = [TableNight(group=group, people=EIGHT, created_at=now - timedelta(days=n)) for n in range(LISTED + 3)]
    nights = TableNight.objects.bulk_create(made[: SHOWN + 2])
    for found in nights:
        Game.objects.create(ruleset="yiwu", players=EIGHT[:4], group=group, night=found)
    client.get(f"/group/{group.edit_token}/")  # the phone's cookie
    with CaptureQueriesContext(connection) as few:
        client.get(f"/group/{group.edit_token}/")
    nights += TableNight.objects.bulk_create(made[SHOWN + 2 :])
    with CaptureQueriesContext(connection) as many:
        page = client.get(f"/group/{group.edit_token}/").content.decode()
    assert len(many) <= len(few) + 1  # the nights counted once there are more than listed
    section = page[page.index('id="nights"') :]
    folded = section[section.index("earlier-nights") :]
    assert section.count("night-line") == LISTED
    assert folded.count("night-line") == LISTED - SHOWN
    assert f"更早的 {LISTED - SHOWN} 个" in section
    assert "再早的 3 个不列出" in folded
    assert f'data-night="{nights[0].pk}"' in section[: section.index("earlier-nights")]
    assert f'data-night="{nights[-1].pk}"' not in section  # the oldest, past the bound


def test_a_group_without_nights_lists_none(client, group):
    page = client.get(f"/group/{group.edit_token}/").content.decode()
    assert 'id="nights"' not in page
    assert "今晚几桌 · 开今晚" in page


def test_the_board_as_json_on_the_view_link(client, group):
    found = mixed(group)
    yiwu, hangzhou = found.tables.order_by("pk")
    add_hand(yiwu, ZIMO)  # 老王 自摸 at 义乌
    add_hand(hangzhou, {"outcome": "win", "winner": 1})  # 小芳 自摸 at 杭州
    response = client.get(f"/night/{found.view_token}/board.json")
    assert response["Content-Type"] == "application/json"
    data = json.loads(response.content)
    assert (data["format"], data["comparable"], data["settled"], data["hands"]) == (1, False, False, 2)
    assert [(t["number"], t["ruleset"], t["seating"], t["hands"]) for t in data["tables"]] == [
        (1, "yiwu", EIGHT[:4], 1),
        (2, "hangzhou", EIGHT[4:], 1),
    ]
    assert data["tables"][1]["url"] == f"/g/{hangzhou.view_token}/"
    assert found.edit_token not in response.content.decode()
    assert yiwu.edit_token not in response.content.decode()
    people = {p["name"]: p for p in data["people"]}
    assert set(people) == set(EIGHT)
    for game in (yiwu, hangzhou):
        game.refresh_from_db()
        number = 1 if game == yiwu else 2
        for name, points in game.plugin.state_from_dict(game.state["table"]).people():
            assert people[name]["points"] == [{"table": number, "points": points}]
            assert people[name]["at"] == number
    assert all(p["total"] is None and p["fen"] is None for p in data["people"])  # two rulesets: wait for 元
    assert data["transfers"] == []
    # unchanged: 304 on its ETag, 204 on its version; a hand later, the fresh board
    assert client.get(f"/night/{found.view_token}/board.json", HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    assert client.get(f"/night/{found.view_token}/board.json?v={data['version']}").status_code == 204
    add_hand(yiwu, PINGHU)
    assert json.loads(client.get(f"/night/{found.view_token}/board.json?v={data['version']}").content)["hands"] == 3
    assert client.get("/night/nosuchtoken/board.json").status_code == 404


def test_the_board_as_json_once_settled_holds_each_persons_fen_and_the_nights_transfers(client, group):
    found = mixed(group)
    yiwu, hangzhou = found.tables.order_by("pk")
    add_hand(yiwu, ZIMO)
    add_hand(hangzhou, {"outcome": "win", "winner": 0})
    writes.settle_all(found, rate_fen=100, round_yuan=False, fee_fen=8000, fee_mode="equal", fee_payee="老王")
    data = json.loads(client.get(f"/night/{found.edit_token}/board.json").content)
    assert data["settled"]
    assert [t["rate_fen"] for t in data["tables"]] == [100, 100]
    fen = {key(p["name"]): p["fen"] for p in data["people"]}
    for game in Game.objects.filter(night=found):
        for name, balance in zip(game.settlement.people(), game.settlement.balances_fen, strict=True):
            assert fen[key(name)] == balance  # each played one table
    assert sum(fen.values()) == 0
    assert data["fee_fen"] == 8000
    paid: dict[str, int] = {}
    for t in data["transfers"]:
        paid[t["payer"]] = paid.get(t["payer"], 0) - t["amount_fen"]
        paid[t["payee"]] = paid.get(t["payee"], 0) + t["amount_fen"]
    final = {name: fen[key(name)] - 1000 + (8000 if name == "老王" else 0) for name in EIGHT}
    assert paid == {k: v for k, v in final.items() if v}


def test_the_nights_list_and_the_per_table_rulesets_in_english(client, db):
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    group = Group.objects.create(name="Fridays", roster=names)
    terms = [TableTerms(YIWU), TableTerms(HANGZHOU)]
    writes.open_night(group, people=names, tables=terms, how=TableNight.AS_SEATED)
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(f"/group/{group.edit_token}/").content.decode()
    assert leaks(page) == []
    assert "Nights of several tables: 1" in page
    assert "2 tables · 8 people · Yiwu · Hangzhou" in page
    found = TableNight.objects.get()
    assert leaks(client.get(f"/night/{found.edit_token}/").content.decode()) == []
    form = client.get(f"/group/{group.edit_token}/night/new").content.decode()
    assert leaks(form) == []
    assert "A different ruleset at each table" in form


def test_the_game_import_page_says_where_a_nights_backup_goes(client, group):
    found = mixed(group)
    raw = client.get(f"/night/{found.view_token}/backup.json").content
    before = (Game.objects.count(), TableNight.objects.count())
    response = client.post("/import", {"file": SimpleUploadedFile("night.json", raw, "application/json")})
    assert response.status_code == 400
    page = response.content.decode()
    assert "这是「今晚几桌」的备份" in page
    assert "恢复今晚的备份" in page
    assert (Game.objects.count(), TableNight.objects.count()) == before
