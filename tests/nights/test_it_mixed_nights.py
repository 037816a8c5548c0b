"""今晚几桌 with each table its own ruleset (docs/manual.md 「今晚几桌」): the new-night form's per-table
rulesets (each table seating its ruleset's seats, with the house rules of the group's last game of that
ruleset), a 义乌 table beside a 杭州 table played, a person moved between them, settled at once: each
person's 元 the sum of their tables' points × the rate, zero-sum, the night netted into the fewest; and
the same over random mixes of the four rulesets, each table at its own rate (hypothesis)."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import night
from scoring.engine import get_ruleset
from scoring.engine.seating import key
from scoring.models import Game, Group, TableNight
from scoring.night import TableTerms
from scoring.services import nights as writes
from scoring.services.games import create_game, finish_game
from tests.factories import add_hand
from tests.helpers import messages_of
from tests.nights.test_it_nights import EIGHT, fewest_by_brute_force, tonights_transfers
from tests.speed import examples

YIWU_ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}
YIWU_PINGHU = {"outcome": "win", "winner": 2, "win_type": "pinghu", "discarder": 1}
HANGZHOU_ZIMO = {"outcome": "win", "winner": 1}


@pytest.fixture
def group(db) -> Group:
    """A 牌友圈 whose last 义乌 game raised the base, and whose last game of all is a 诸暨 one."""
    made = Group.objects.create(name="春节", roster=list(EIGHT))
    house = {**get_ruleset("yiwu").rules_from_dict({}).to_dict(), "base_dealer": 9, "base_other": 6}
    create_game(ruleset=get_ruleset("yiwu"), players=EIGHT[:4], first_dealer=0, rules=house, group=made)
    zhuji = get_ruleset("zhuji")
    create_game(ruleset=zhuji, players=EIGHT[4:], first_dealer=0, rules=zhuji.rules_from_dict({}).to_dict(), group=made)
    return made


def night_form(**extra) -> dict:
    return {"people": "\n".join(EIGHT), "tables": "2", "how": "seated", "ruleset": "yiwu", **extra}


def test_each_table_opens_under_its_own_ruleset_and_that_rulesets_last_house_rules(client, group):
    response = client.post(f"/group/{group.edit_token}/night/new", night_form(table_2="hangzhou"))
    found = TableNight.objects.get()
    assert response["Location"] == f"/night/{found.edit_token}/"
    yiwu, hangzhou = found.tables.order_by("pk")
    assert (yiwu.ruleset, hangzhou.ruleset) == ("yiwu", "hangzhou")
    assert (yiwu.rules["base_dealer"], yiwu.rules["base_other"]) == (9, 6)  # the group's last 义乌 game's
    assert hangzhou.rules == get_ruleset("hangzhou").rules_from_dict({}).to_dict()  # none yet: the defaults
    assert (yiwu.players, hangzhou.players) == (EIGHT[:4], EIGHT[4:])
    page = client.get(f"/g/{yiwu.view_token}/rules").content.decode()  # each table's own rules page
    assert '庄家底分: <span class="fw-normal">9</span>' in page
    assert "杭州麻将" in client.get(f"/g/{hangzhou.view_token}/rules").content.decode()
    assert "今晚的榜" in client.get(f"/g/{hangzhou.edit_token}/").content.decode()
    board = client.get(f"/night/{found.view_token}/").content.decode()
    assert "各桌玩法不同，点数不能相加" in board


def test_a_two_seat_table_beside_a_four_seat_one(client, group):
    seven = EIGHT[:7]
    form = night_form(people="\n".join(seven), table_2="wuyi2")
    client.post(f"/group/{group.edit_token}/night/new", form)
    found = TableNight.objects.get()
    four, two = found.tables.order_by("pk")
    assert (four.ruleset, len(four.players), two.ruleset, len(two.players)) == ("yiwu", 4, "wuyi2", 2)
    assert [d for d in found.drawn if d[1] < 0] == [[EIGHT[6], -1, 0]]  # the seventh sits out


@pytest.mark.parametrize(
    ("people", "extra", "words"),
    [
        (EIGHT[:5], {"table_2": "wuyi2"}, "5 个人坐不满这 2 桌（要 6 人）"),
        (EIGHT[:6], {"ruleset": "wuyi2", "tables": "4"}, "6 个人最多开 3 桌（每桌 2 人）"),
    ],
)
def test_tables_the_people_cannot_fill_are_refused_and_nothing_is_saved(client, group, people, extra, words):
    response = client.post(f"/group/{group.edit_token}/night/new", night_form(people="\n".join(people), **extra))
    assert response.status_code == 200
    page = response.content.decode()
    assert words in page
    assert 'class="mb-3 per-table" open' in page or "table_2" not in extra  # the fold shows what was chosen
    assert not TableNight.objects.exists()
    assert Game.objects.count() == 2  # the group's two earlier games only


def test_a_yiwu_table_and_a_hangzhou_table_settle_into_the_fewest_exact_transfers(client, group):
    client.post(f"/group/{group.edit_token}/night/new", night_form(table_2="hangzhou"))
    found = TableNight.objects.get()
    yiwu, hangzhou = found.tables.order_by("pk")
    add_hand(yiwu, YIWU_ZIMO)
    add_hand(hangzhou, HANGZHOU_ZIMO)
    writes.change_tables(found, "大刘", "阿明")  # 大刘 to 杭州, 阿明 to 义乌
    add_hand(yiwu, YIWU_PINGHU)
    add_hand(hangzhou, HANGZHOU_ZIMO)
    shown = night.board(found, False)
    assert not shown.comparable
    assert all(p.total is None for p in shown.people)  # points of two rulesets never added
    points = {key(p.name): p.points for p in shown.people}
    assert [n for n, _p in points[key("大刘")]] == [1, 2]
    response = client.post(
        f"/night/{found.edit_token}/settle/tables",
        {"rate": "50", "fee_mode": "equal", "fee_yuan": "40", "fee_payee": "老王"},
        follow=True,
    )
    assert "每一桌都结算了" in " ".join(messages_of(response))
    tables = night.tables_of(found)
    assert [g.status for g in tables] == [Game.FINISHED, Game.FINISHED]
    # each person's 元: their points at each table × 0.50 元, in exact 分, summing to zero
    nets = night.nets(tables)
    assert nets == {k: sum(int(p) * 50 for _n, p in played) for k, played in points.items() if played}
    assert sum(nets.values()) == 0
    # the night's 40 元 fee: 5 元 each of the eight who played, the whole of it to 老王
    final = {k: v - 500 + (4000 if k == key("老王") else 0) for k, v in nets.items()}
    up = night.settle_up_of(found)
    paid: dict[str, int] = {}
    for t in up.transfers.all():
        assert t.amount_fen > 0
        paid[key(t.payer)] = paid.get(key(t.payer), 0) - t.amount_fen
        paid[key(t.payee)] = paid.get(key(t.payee), 0) + t.amount_fen
    assert paid == {k: v for k, v in final.items() if v}
    assert up.transfers.count() == fewest_by_brute_force(list(final.values()))
    settled = night.board(found, False)
    assert settled.settled
    assert {key(p.name): p.fen for p in settled.people if p.points} == nets  # the board's totals: 元 now
    board = client.get(f"/night/{found.view_token}/").content.decode()
    assert "每桌都结算了" in board


RULESETS = {code: get_ruleset(code) for code in ("yiwu", "hangzhou", "wuyi2", "zhuji")}


def win(code: str, winner: int, discard: bool) -> dict:
    """A plain win at a table of ``code``: 自摸, or (where the ruleset takes one) off the next seat's discard."""
    if code == "hangzhou":
        return {"outcome": "win", "winner": winner}  # 自摸 only
    if code == "wuyi2":
        return {"outcome": "win", "winner": winner, "patterns": [], **({"discarder": 1 - winner} if discard else {})}
    if code == "zhuji":
        extra = {"discarder": (winner + 1) % 4} if discard else {}
        return {"outcome": "win", "winner": winner, "tai": {"shape": "pinghu"}, **extra}
    extra = {"win_type": "pinghu", "discarder": (winner + 1) % 4} if discard else {"win_type": "zimo"}
    return {"outcome": "win", "winner": winner, **extra}


@given(
    st.lists(st.sampled_from(sorted(RULESETS)), min_size=2, max_size=3).filter(
        lambda plan: sum(RULESETS[code].seats for code in plan) <= 10
    ),
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3), st.booleans(), st.integers(0, 9), st.integers(0, 9))),
    st.sampled_from([100, 50, 20]),
    st.sampled_from([100, 30]),
    st.integers(0, 2000),
)
@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_mixed_night_settles_exactly_into_the_fewest(db, plan, hands, first_rate, rate, fee):
    """Tables of random rulesets (two or three, 2 or 4 seats) for ten people, random wins at random tables,
    people moved between hands; the first table settled alone at its own rate, the rest at once with one
    fee for the night: each person's 元 is exactly their points × each table's rate, zero-sum; the netted
    transfers clear that less the fee's equal shares, as few as a brute force finds."""
    people = [f"p{i}" for i in range(10)]
    group = Group.objects.create(name="混桌", roster=people)
    terms = [TableTerms(RULESETS[code]) for code in plan]
    found = writes.open_night(group, people=people, tables=terms, how=TableNight.RANDOM, rng=random.Random(len(hands)))
    tables = list(found.tables.order_by("pk"))
    for table, winner, discard, mover, other in hands[:12]:
        game = tables[table % len(tables)]
        add_hand(game, win(game.ruleset, winner % game.plugin.seats, discard))
        try:
            writes.change_tables(found, people[mover], people[other])
        except night.NightConflict:
            pass  # the same table, or both sitting out: refused, nothing changed
    first = Game.objects.get(pk=tables[0].pk)
    finish_game(game=first, rate_fen=first_rate, fee_fen=0, fee_mode="equal", fee_payee=0)
    writes.settle_all(found, rate_fen=rate, round_yuan=False, fee_fen=fee, fee_mode="equal", fee_payee="p0")
    played: dict[str, int] = {}
    for game, game_rate in zip(night.tables_of(found), [first_rate] + [rate] * len(tables), strict=False):
        for name, points in game.plugin.state_from_dict(game.state["table"]).people():
            if key(name) in {key(n) for n in game.settlement.people()}:
                played[key(name)] = played.get(key(name), 0) + int(points * game_rate)
    nets = night.nets(night.tables_of(found))
    assert nets == {k: v for k, v in played.items() if k in nets}
    assert sum(nets.values()) == 0
    shares = night.to_net(found, night.tables_of(found), night.owed_tonight(found)).fee_shares if fee else {}
    assert sum(shares.values()) == fee
    final = {k: v - shares.get(k, 0) for k, v in nets.items()}
    final["p0"] = final.get("p0", 0) + fee
    netted, paid = tonights_transfers(found)
    assert {k: v for k, v in paid.items() if v} == {k: v for k, v in final.items() if v}
    assert len(netted) == fewest_by_brute_force(list(final.values()))
