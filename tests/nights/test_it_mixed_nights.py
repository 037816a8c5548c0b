"""今晚几桌 with each table its own ruleset (docs/manual.md 「今晚几桌」): the new-night form's per-table
rulesets (each table seating its ruleset's seats, with the house rules of the group's last game of that
ruleset), a 义乌 table beside a 杭州 table played, a person moved between them, settled at once: each
person's 元 the sum of their tables' points × the rate, zero-sum, the night netted into the fewest."""

import pytest

from scoring import night
from scoring.engine import get_ruleset
from scoring.engine.seating import key
from scoring.models import Game, Group, TableNight
from scoring.services import nights as writes
from scoring.services.games import create_game
from tests.factories import add_hand
from tests.helpers import messages_of
from tests.nights.test_it_nights import EIGHT, fewest_by_brute_force

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
    page = client.get(f"/g/{hangzhou.edit_token}/rules").content.decode()  # the table's own rules page
    assert "杭州" in page
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
