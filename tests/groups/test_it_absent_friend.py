"""Someone who played no hand pays nothing: a person is part of an evening's money (the fee split,
the transfers, the share text, the picture, the group's standings and 个人统计) only if they sat in
at least one hand that stands; a void that leaves someone with none takes them off again."""

import pytest

from scoring import services
from scoring.models import Game, Group, Settlement
from scoring.replay import stored_replay, who_played
from scoring.settle.picture import facts_of
from scoring.share import share_text
from tests.groups.test_it_groups import group_url, played
from tests.helpers import FINISH, game_url

LAST_WEEK = ["老王", "小李", "阿华", "小陈"]  # 再来一局 seats last week's four
ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}  # 老王 (庄) 自摸: +42, −14 each
SWAP_IN = {"outcome": "seating", "players": ["老王", "小李", "阿华", "大刘"]}  # 小陈 is replaced before hand 1
FEE = {**FINISH, "fee_yuan": "40", "fee_mode": "equal", "fee_payee": "1"}  # 40 元 split equally, 小李 fronts it


@pytest.fixture
def group(db) -> Group:
    return Group.objects.create(name="周五老地方", roster=[*LAST_WEEK, "大刘"])


def tonight(group: Group, hands=(SWAP_IN, ZIMO)) -> Game:
    game = Game.objects.create(players=list(LAST_WEEK), rules={}, group=group)
    return played(game, list(hands))


def test_the_friend_replaced_before_the_first_hand_is_in_no_part_of_the_money(client, group):
    game = tonight(group)
    assert "轮空（不在桌上）" not in client.get(game_url(game)).content.decode()  # he sits out nothing he played
    settle = client.get(game_url(game) + "settle", FEE)
    assert [name for name, *_rest in settle.context["balances"]] == ["老王", "小李", "阿华", "大刘"]
    assert "小陈" not in settle.content.decode()
    assert client.post(game_url(game) + "finish", FEE).status_code == 302
    settlement = Settlement.objects.get(game=game)
    assert settlement.people() == ["老王", "小李", "阿华", "大刘"]
    # 1 元 a point, 10 元 of the fee each: 老王 +42 − 10, the others −14 − 10, 小李 gets his 40 back.
    assert settlement.balances_fen == [3200, -2400 + 4000, -2400, -2400]
    assert sum(settlement.balances_fen) == 0
    names = settlement.people()
    assert all("小陈" not in (names[t.payer], names[t.payee]) for t in settlement.transfers.all())
    assert "小陈" not in share_text(stored_replay(game, limit=1), settlement)
    facts = facts_of(game, settlement)
    assert [p.name for p in facts.people] == ["老王", "小李", "阿华", "大刘"]
    assert "小李垫付" in facts.rate


def test_he_is_not_counted_in_the_groups_standings_nor_in_the_stats(client, group):
    game = tonight(group)
    client.post(game_url(game) + "finish", FINISH)
    assert {s.name for s in client.get(group_url(group)).context["standings"]} == {"老王", "小李", "阿华", "大刘"}
    assert client.get(game_url(game)).status_code == 200  # this phone remembers the game
    stats = {s.name: s for s in client.get("/stats").context["stats"]}
    assert set(stats) == {"老王", "小李", "阿华", "大刘"}
    assert stats["大刘"].games == 1
    assert "自摸率 <b>—</b>" in client.get("/stats").content.decode()  # 小李 won nothing: no rate, not 0%


def test_a_void_that_leaves_someone_with_no_hand_takes_them_off_again(client, group):
    game = tonight(group, hands=[ZIMO, SWAP_IN, ZIMO])  # 小陈 played hand 1, then left
    assert [name for name, _t in who_played(game)] == ["老王", "小李", "阿华", "小陈", "大刘"]
    first = game.hands.get(seq=1)
    services.void_hand(game=game, seq=1, revision=first.revision, reason="记错了", voided_by="")
    game.refresh_from_db()
    assert [name for name, _t in who_played(game)] == ["老王", "小李", "阿华", "大刘"]
    settle = client.get(game_url(game) + "settle", FEE)
    assert [name for name, *_rest in settle.context["balances"]] == ["老王", "小李", "阿华", "大刘"]


def test_before_any_hand_the_people_seated_are_the_settle_pages_people(client, group):
    game = tonight(group, hands=[SWAP_IN])
    settle = client.get(game_url(game) + "settle", FEE)
    assert [name for name, *_rest in settle.context["balances"]] == ["老王", "小李", "阿华", "大刘"]


def test_seat_0_who_played_stays_and_a_draw_counts_as_a_hand(client, group):
    game = tonight(
        group, hands=[{"outcome": "draw"}, {"outcome": "seating", "players": ["大刘", "小李", "阿华", "小陈"]}]
    )
    assert [name for name, _t in who_played(game)] == ["老王", "小李", "阿华", "小陈"]  # 大刘 sits, has played nothing
