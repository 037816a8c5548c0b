"""诸暨 at the table: the fast path, the 台 sheet, half points, edit/void, exports."""

import json
import re

from scoring.engine import score_game
from scoring.models import Game, Hand
from tests.factories import add_hand
from tests.helpers import game_url, record, totals_on_page, version_of

PINGHU_ZIMO = {"outcome": "win", "winner": 1, "tai": {"shape": "pinghu"}}


def test_new_game_asks_for_the_ruleset_first_then_its_own_rules(client, db):
    html = client.get("/new?ruleset=zhuji").content.decode()
    assert "诸暨麻将" in html
    assert "义乌麻将" in html
    assert "武义二人麻将" in html
    assert 'name="tai_cap"' in html
    assert 'name="draw_passes_deal"' in html
    assert 'name="maizi_points"' not in html  # 义乌's rules are not offered
    response = client.post(
        "/new",
        {
            "ruleset": "zhuji",
            "name0": "甲",
            "name1": "乙",
            "name2": "丙",
            "name3": "丁",
            "first_dealer": "0",
            "preset": "2分",
            "tai_cap": "5",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert game.ruleset == "zhuji"
    assert game.rules == {"base": 2, "tai_cap": 5, "draw_passes_deal": False}


def test_a_one_tai_pinghu_zimo_is_three_taps_and_a_confirm(client, zhuji_game):
    url = game_url(zhuji_game) + "record"
    html = client.get(url + "?winner=1").content.decode()  # tap 1: the winner
    assert "自摸，还是谁放冲？" in html
    html = client.get(url + "?winner=1&zimo=on").content.decode()  # tap 2: 自摸
    assert "至少要1台才能胡（无财、杠开除外）" in html  # nothing tapped on the sheet yet
    response = client.post(url, {"winner": "1", "zimo": "on", "shape": "pinghu", "next_seq": "1"})  # tap 3: 平胡
    assert [row[3] for row in response.context["change"]] == [-2, 6, -2, -2]  # each pays 1·2^1
    assert "阿芳 自摸 1台" in response.content.decode()
    add_hand(zhuji_game, PINGHU_ZIMO)  # 确认
    assert Hand.objects.get().entry == PINGHU_ZIMO


def test_winds_on_the_sheet_are_relative_to_the_dealer_and_mark_the_winners_own(client, zhuji_game):
    add_hand(zhuji_game, {"outcome": "win", "winner": 1, "tai": {"shape": "pinghu"}})  # deal passes to 1
    response = client.get(game_url(zhuji_game) + "record?winner=2&zimo=on")
    winds = {w["code"]: w for w in response.context["winds"]}
    assert winds["dong"]["name"] == "阿芳"  # the dealer is 东
    assert winds["nan"]["name"] == "老周"
    assert winds["nan"]["own"]
    assert winds["nan"]["worth"] == 1
    assert winds["dong"]["worth"] == 1
    assert winds["xi"]["worth"] == 0


def test_a_discard_at_zero_tai_pays_half_points_shown_and_totalled_exactly(client, zhuji_game):
    add_hand(zhuji_game, {"outcome": "win", "winner": 3, "discarder": 1, "tai": {"no_caishen": True}})
    add_hand(zhuji_game, {"outcome": "win", "winner": 3, "discarder": 1, "tai": {"no_caishen": True}})
    html = client.get(game_url(zhuji_game)).content.decode()
    assert totals_on_page(html) == ["−1", "−2", "−1", "+4"]
    add_hand(zhuji_game, {"outcome": "win", "winner": 3, "discarder": 1, "tai": {"no_caishen": True}})
    html = client.get(game_url(zhuji_game)).content.decode()
    assert totals_on_page(html) == ["−1.5", "−3", "−1.5", "+6"]
    assert "0.5" in html  # each half payment is written as it is


def test_a_refused_sheet_names_both_exceptions_and_records_nothing(client, zhuji_game):
    response = record(client, zhuji_game, {"outcome": "win", "winner": 2, "tai": {}})
    assert response.status_code == 200
    assert "无财" in response.content.decode()
    assert "杠开" in response.content.decode()
    assert not Hand.objects.exists()


def test_edit_and_void_replay_and_the_export_reproduces_the_totals(client, zhuji_game):
    add_hand(zhuji_game, PINGHU_ZIMO)
    add_hand(zhuji_game, {"outcome": "win", "winner": 1, "discarder": 0, "tai": {"dragon_pungs": ["zhong"]}})
    add_hand(zhuji_game, {"outcome": "draw"})
    edit = client.post(
        game_url(zhuji_game) + "hand/2/edit",
        {
            "outcome": "win",
            "winner": "1",
            "discarder": "0",
            "dragons": ["zhong", "fa"],
            "shape": "mixed",
            "revision": "0",
            "version": version_of(zhuji_game),
            "confirm": "1",
        },
    )
    assert edit.status_code == 302
    assert Hand.objects.get(seq=2).entry["tai"] == {"dragon_pungs": ["zhong", "fa"]}
    client.post(
        game_url(zhuji_game) + "hand/3/void", {"version": version_of(zhuji_game), "reason": "记错了", "revision": "0"}
    )
    exported = json.loads(client.get(game_url(zhuji_game) + "export.json").content)
    assert exported["ruleset"] == "zhuji"
    html = client.get(game_url(zhuji_game)).content.decode()
    expected = score_game(exported)["totals"]
    assert expected == [-6, 14, -4, -4]  # 自摸 2·3 = +6; then 2 台 on 0's discard: 0 pays 4, 2 and 3 pay 2
    assert totals_on_page(html) == ["−6", "+14", "−4", "−4"]
    assert "第3局" in html
    assert "作废" in html


def test_the_csv_counts_tai_and_the_rules_page_shows_the_tai_table(client, zhuji_game):
    add_hand(zhuji_game, PINGHU_ZIMO)
    csv = client.get(game_url(zhuji_game) + "export.csv").content.decode("utf-8-sig")
    assert csv.splitlines()[0].split(",")[5] == "台"
    html = client.get(game_url(zhuji_game) + "rules").content.decode()
    assert "诸暨麻将" in html
    assert "东风 碰或杠" in html


def test_half_points_settle_to_whole_fen_summing_to_zero_and_say_so(client, zhuji_game):
    add_hand(zhuji_game, {"outcome": "win", "winner": 3, "discarder": 1, "tai": {"no_caishen": True}})
    response = client.get(
        game_url(zhuji_game) + "settle?rate=custom&custom_yuan=0.01&fee_yuan=0&fee_mode=equal&fee_payee=0"
    )
    balances = [fen for _name, _points, _money, fen in response.context["balances"]]
    assert sum(balances) == 0
    assert balances == [0, -1, -1, 2]  # −0.5 → −1 + 1 (largest remainder, earlier seat), −1, −0.5 → −1, +2
    assert "有半分" in response.content.decode()


def test_the_game_page_shows_winds_relative_to_the_dealer(client, zhuji_game):
    add_hand(zhuji_game, PINGHU_ZIMO)  # 阿芳 (seat 1) won: she deals next
    html = client.get(game_url(zhuji_game)).content.decode()
    winds = re.findall(r'<span class="wind">(.)</span> <bdi>(.+?)</bdi>', html)
    assert winds == [("北", "阿强"), ("东", "阿芳"), ("南", "老周"), ("西", "小陈")]


def test_a_zhuji_backup_imports_as_a_zhuji_game_with_the_same_half_point_totals(client, zhuji_game):
    add_hand(zhuji_game, {"outcome": "win", "winner": 3, "discarder": 1, "tai": {"no_caishen": True}})
    add_hand(zhuji_game, PINGHU_ZIMO)
    exported = client.get(game_url(zhuji_game) + "export.json").content.decode()
    assert client.post("/import", {"text": exported}).status_code == 302
    copy = Game.objects.exclude(pk=zhuji_game.pk).get()
    assert (copy.ruleset, copy.players, copy.rules) == ("zhuji", zhuji_game.players, zhuji_game.rules)
    original = totals_on_page(client.get(game_url(zhuji_game)).content.decode())
    assert totals_on_page(client.get(game_url(copy)).content.decode()) == original == ["−2.5", "+5", "−2.5", "0"]


def test_the_sheet_opens_with_the_one_tai_requirement_said_neutrally(client, zhuji_game):
    """Nothing tapped yet is not a mistake: 「至少要1台」 is a grey note, red only once a confirm is refused."""
    url = game_url(zhuji_game) + "record"
    html = client.get(url + "?outcome=win&winner=1&zimo=on").content.decode()
    assert "alert-danger" not in html
    note = re.search(r'<div class="alert alert-secondary[^"]*requirement"[^>]*>(.*?)</div>', html)[1]
    assert note == "至少要1台才能胡（无财、杠开除外）"
    untapped = {"outcome": "win", "winner": "1", "zimo": "on", "next_seq": "1"}
    assert "alert-danger" not in client.post(url, untapped, headers={"HX-Request": "true"}).content.decode()
    refused = client.post(url, {**untapped, "confirm": "1"}).content.decode()
    assert re.search(r"alert-danger.*至少要1台才能胡", refused, re.S)
    assert not Hand.objects.exists()
