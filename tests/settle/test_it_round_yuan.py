"""抹零: a settle rounded to whole 元 pays whole 元 that clear everyone, says what it moved, is
kept with the settlement (a reopen settles again as chosen), in the standings and in backups.

SETTLE_HANDS at 0.5 元 a point: 老王 +34 → 17 元, 小李 +4 → 2 元, 阿华 and 大刘 −19 → −9.50 元.
Rounded: the 元 still missing goes to one of the two equal 零头 (both owe: the earlier, 阿华)."""

import json

from django.conf import settings

from scoring.models import Game, Group, Settlement
from tests.factories import add_hand
from tests.helpers import FINISH, game_url, record_settle_hands

HALF = {**FINISH, "rate": "50"}
ROUND = {**HALF, "round_yuan": "on"}


def cleared(settlement: Settlement) -> list[int]:
    """Each person's net of the stored transfers."""
    net = [0] * len(settlement.people())
    for t in settlement.transfers.all():
        net[t.payer] -= t.amount_fen
        net[t.payee] += t.amount_fen
    return net


def test_a_rounded_settle_pays_whole_yuan_that_sum_to_zero_and_says_what_it_moved(client, game):
    record_settle_hands(game)
    preview = client.get(game_url(game) + "settle", ROUND).content.decode()
    assert "抹零：<bdi>阿华</bdi> +0.50，<bdi>大刘</bdi> \u22120.50" in preview
    assert 'name="round_yuan" value="True"' in preview  # 结束并结算 carries the choice
    assert client.post(game_url(game) + "finish", ROUND).status_code == 302
    settlement = Settlement.objects.get()
    assert settlement.round_yuan
    assert settlement.balances_fen == [1700, 200, -900, -1000]
    assert cleared(settlement) == settlement.balances_fen
    assert all(t.amount_fen % 100 == 0 for t in settlement.transfers.all())
    response = client.get(game_url(game) + "settle")
    html = response.content.decode()
    assert "抹零：<bdi>阿华</bdi> +0.50，<bdi>大刘</bdi> \u22120.50" in html
    assert "\u22129.50" not in html  # no balance keeps its 零头
    share = response.context["share"]
    assert "抹零：阿华 +0.50，大刘 \u22120.50" in share
    assert "阿华（西）−19 · 输 9 元\n大刘（北）−19 · 输 10 元\n抹零：阿华 +0.50，大刘 −0.50" in share
    assert share.endswith("转账：\n阿华 → 老王 7 元\n阿华 → 小李 2 元\n大刘 → 老王 10 元")
    svg = client.get(game_url(game) + "picture.svg").content.decode()
    assert "抹零：阿华 +0.50，大刘 \u22120.50" in svg
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(game_url(game) + "settle").content.decode()
    assert "Rounded to whole yuan: <bdi>阿华</bdi> +0.50, <bdi>大刘</bdi> \u22120.50" in english


def test_off_by_default_the_settle_is_exact_to_the_fen_and_says_nothing_of_it(client, game):
    record_settle_hands(game)
    page = client.get(game_url(game) + "settle").content.decode()
    assert 'id="round-yuan"' in page
    assert 'id="round-yuan" value="on" checked' not in page
    client.post(game_url(game) + "finish", HALF)
    settlement = Settlement.objects.get()
    assert not settlement.round_yuan
    assert settlement.balances_fen == [1700, 200, -950, -950]
    assert "抹零：" not in client.get(game_url(game) + "settle").content.decode()


def test_balances_already_whole_are_left_as_they_are_and_it_says_so(client, game):
    record_settle_hands(game)
    client.post(game_url(game) + "finish", {**FINISH, "round_yuan": "on"})
    assert Settlement.objects.get().balances_fen == [3400, 400, -1900, -1900]
    assert "抹零：都是整元，没有零头。" in client.get(game_url(game) + "settle").content.decode()


def test_a_reopened_game_settles_again_rounded_or_not_as_then_chosen(client, game):
    record_settle_hands(game)
    client.post(game_url(game) + "finish", ROUND)
    assert client.post(game_url(game) + "reopen").status_code == 302
    assert not Settlement.objects.exists()
    client.post(game_url(game) + "finish", HALF)
    assert Settlement.objects.get().balances_fen == [1700, 200, -950, -950]
    client.post(game_url(game) + "reopen")
    client.post(game_url(game) + "finish", ROUND)
    settlement = Settlement.objects.get()
    assert settlement.round_yuan
    assert settlement.balances_fen == [1700, 200, -900, -1000]


def test_zhuji_halves_stay_exact_up_to_the_one_rounding(client, zhuji_game):
    """诸暨's half points at an odd rate make half a 分 (points_to_fen), then 抹零 rounds the 元."""
    add_hand(zhuji_game, {"outcome": "win", "winner": 3, "discarder": 1, "tai": {"no_caishen": True}})
    terms = {**FINISH, "rate": "custom", "custom_yuan": "1.33", "round_yuan": "on"}
    client.post(game_url(zhuji_game) + "finish", terms)
    settlement = Settlement.objects.get()
    assert settlement.points == [-0.5, -1, -0.5, 2]
    # −66.5, −133, −66.5, +266 分: the half 分 to the earlier seat (−66, −133, −67, +266), then to 元
    assert settlement.balances_fen == [-100, -100, -100, 300]
    assert cleared(settlement) == settlement.balances_fen
    assert settlement.rounded_away() == [-34, 33, -33, 34]


def test_a_backup_keeps_the_rounding_and_one_without_it_restores_exact(client, game):
    record_settle_hands(game)
    client.post(game_url(game) + "finish", ROUND)
    backup = json.loads(client.get(game_url(game) + "export.json").content)
    assert backup["backup"]["settlement"]["round_yuan"] is True
    assert client.post("/import", {"text": json.dumps(backup, ensure_ascii=False)}).status_code == 302
    copy = Game.objects.exclude(pk=game.pk).get()
    assert copy.settlement.round_yuan
    assert copy.settlement.balances_fen == [1700, 200, -900, -1000]
    assert "抹零：<bdi>阿华</bdi> +0.50" in client.get(game_url(copy) + "settle").content.decode()
    del backup["backup"]["settlement"]["round_yuan"]  # as every file before 抹零 was written
    backup["backup"]["settlement"]["transfers"] = []
    assert client.post("/import", {"text": json.dumps(backup, ensure_ascii=False)}).status_code == 302
    older = Game.objects.latest("pk")
    assert not older.settlement.round_yuan
    assert older.settlement.balances_fen == [1700, 200, -950, -950]
    backup["backup"]["settlement"]["round_yuan"] = "yes"
    assert client.post("/import", {"text": json.dumps(backup, ensure_ascii=False)}).status_code == 400
    assert Game.objects.count() == 3


def test_the_standings_sum_the_rounded_money(client, game):
    group = Group.objects.create(name="周五老地方", roster=list(game.players))
    Game.objects.filter(pk=game.pk).update(group=group)
    record_settle_hands(game)
    client.post(game_url(game) + "finish", ROUND)
    standings = client.get(f"/group/{group.edit_token}/?period=all").context["standings"]
    assert {s.name: s.fen for s in standings} == {"老王": 1700, "小李": 200, "阿华": -900, "大刘": -1000}
