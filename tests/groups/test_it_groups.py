"""牌友圈: a group opened by its two links, 再来一局, standings over its settled games (checked
against the games' settlements, written out), what is still owed and settling it together with
tonight's (the arithmetic written out), 已付, archiving; both languages, and no write by a view
link or a wrong token."""

import html as html_lib
import re
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import circle
from scoring.engine import get_ruleset
from scoring.groups import evenings as groups
from scoring.models import AccessMiss, Game, Group, Hand, SettleUp, SettleUpTransfer, Transfer
from scoring.replay import build, store
from scoring.rulesets.yiwu.engine import Rules
from tests.core.test_it_english_pages import leaks
from tests.core.test_it_no_500 import SAFE, VALUES
from tests.factories import add_hand, finish
from tests.helpers import FINISH, NEW_GAME, SETTLE_HANDS, game_url, messages_of, parse, record
from tests.speed import examples
from tests.table.test_it_seating_page import confirm as confirm_seating
from tests.table.test_it_seating_page import text

NAMES = ["老王", "小李", "阿华", "大刘"]
TONIGHT = ["阿华", "大刘", "老王", "小李"]  # the same four, other seats: 阿华 deals first
ZHUJI_WIN = {"outcome": "win", "winner": 0, "tai": {"shape": "pinghu"}}


def english(client):
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def group_url(group: Group, view: bool = False) -> str:
    return f"/group/{group.view_token if view else group.edit_token}/"


@pytest.fixture
def group(db) -> Group:
    return Group.objects.create(name="周五老地方", roster=list(NAMES))


def played(game: Game, hands: list[dict]) -> Game:
    """``game`` with ``hands`` (contract HAND objects, seatings too) stored and its replay kept,
    as the app stores them (tests/factories.py)."""
    Hand.objects.bulk_create(Hand(game=game, seq=n, entry=entry) for n, entry in enumerate(hands, start=1))
    store(game, build(game))
    return game


def evening(client, group, players=NAMES, hands=SETTLE_HANDS, rate: str | None = "100", days_ago: int = 0) -> Game:
    """A game of ``group`` with ``hands`` played, 结束并结算 through the write path at ``rate`` 分
    a point (None: still playing), made ``days_ago`` days ago."""
    game = played(Game.objects.create(players=list(players), rules=Rules().to_dict(), group=group), hands)
    if rate is not None:
        finish(game, int(rate))
    if days_ago:
        Game.objects.filter(pk=game.pk).update(created_at=timezone.now() - timedelta(days=days_ago))
    game.refresh_from_db()
    return game


def name_links(page: str) -> list[tuple[str, str]]:
    """The page's links that are a name (a ``<bdi>`` first in them): (name, href)."""
    links = [a for a in parse(page).find_all("a") if "href" in a.attrs and a.children]
    return [(a.children[0].text, a.attrs["href"]) for a in links if getattr(a.children[0], "tag", "") == "bdi"]


def transfers_of(game: Game) -> list[tuple[str, str, int]]:
    return [(game.players[t.payer], game.players[t.payee], t.amount_fen) for t in game.settlement.transfers.all()]


def netted_of(settle_up: SettleUp) -> list[tuple[str, str, int]]:
    return [(t.payer, t.payee, t.amount_fen) for t in settle_up.transfers.all()]


# -- a group and its links ----------------------------------------------------------------------


def test_a_group_is_made_with_a_roster_and_opened_by_its_edit_and_view_links(client, db):
    response = client.post("/group/new", {"name": "周五老地方", "roster": "老王\n小李，阿华\n\n老王\n大刘"})
    group = Group.objects.get()
    assert response.status_code == 302
    assert response.url == group_url(group)
    assert group.name == "周五老地方"
    assert group.roster == NAMES  # one a line or comma-separated, each once, none empty
    html = client.get(group_url(group)).content.decode()
    assert "周五老地方" in html
    assert all(f"<bdi>{name}</bdi>" in html for name in NAMES)
    assert "在这个圈开第一局" in html
    assert client.get(group_url(group)).headers["Cache-Control"] == "private, no-store"
    viewer = client.get(group_url(group, view=True)).content.decode()
    assert "只读链接" in viewer
    assert "在这个圈开第一局" not in viewer
    assert group.edit_token not in viewer
    # the phone remembers it: the home page lists it
    home = client.get("/").content.decode()
    assert "周五老地方" in home
    assert group_url(group) in home


def test_the_share_page_gives_both_links_to_the_edit_link_and_only_the_view_link_to_a_viewer(client, group):
    html = client.get(group_url(group) + "share").content.decode()
    assert group_url(group) in html
    assert group_url(group, view=True) in html
    assert html.count("<svg") >= 2  # a QR code each
    viewer = client.get(group_url(group, view=True) + "share").content.decode()
    assert group.edit_token not in viewer
    assert group_url(group, view=True) in viewer


def test_a_signed_in_person_owns_the_groups_they_make_on_any_phone(client, django_user_model, db):
    user = django_user_model.objects.create_user("laowang", password="a-long-pass-9")
    client.force_login(user)
    client.post("/group/new", {"name": "老王的圈", "roster": ""})
    group = Group.objects.get()
    assert group.owner == user
    other_phone = type(client)()
    other_phone.force_login(user)
    assert group_url(group) in other_phone.get("/").content.decode()


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"name": "", "roster": ""}, "请给牌友圈起个名字。"),
        ({"name": "圈\u202e", "roster": ""}, "U+202E"),
        ({"name": "圈", "roster": "老王\n小\u0000李"}, "不允许"),
        ({"name": "圈", "roster": "\n".join(f"人{n}" for n in range(41))}, "名单最多 40 个名字。"),
        ({"name": "圈", "roster": "一二三四五六七八九十一二三四五六七八九十一"}, "名字太长"),
        ({"name": "一二三四五六七八九十一二三四五六七八九十一", "roster": ""}, "20"),
    ],
)
def test_bad_input_on_a_new_group_is_said_and_makes_nothing(client, db, data, said):
    response = client.post("/group/new", data)
    assert response.status_code == 200
    assert said in response.content.decode()
    assert not Group.objects.exists()


def test_a_view_link_changes_nothing_and_a_wrong_token_is_not_found(client, group):
    game = evening(client, group)
    view = group_url(group, view=True)
    before = (Game.objects.count(), Group.objects.get().roster, Transfer.objects.filter(paid_at=None).count())
    for path, data in [
        ("again", {}),
        ("again", {"draw": "1"}),
        ("roster", {"name": "x", "roster": "x"}),
        ("settle-up", {"ids": ",".join(str(t.pk) for t in Transfer.objects.all())}),
        ("paid/1", {"paid": "1"}),
    ]:
        response = client.post(view + path, data)
        assert response.status_code == 403, path
        assert "只读链接不能修改牌友圈。" in response.content.decode()
    assert client.post(game_url(game) + "group", {"group": group.view_token}).status_code == 403
    assert client.get(f"/new?group={group.view_token}").status_code == 403
    after = (Game.objects.count(), Group.objects.get().roster, Transfer.objects.filter(paid_at=None).count())
    assert after == before
    assert game.edit_token not in client.get(view).content.decode()  # its games by their view links only
    assert client.get("/group/nosuchtoken123/").status_code == 404
    assert client.post("/group/nosuchtoken123/again").status_code == 404
    assert client.get("/group/%00bad/").status_code == 404


def test_every_group_page_answers_in_english_with_no_chinese_left(client, db):
    names = ["Ann", "Bob", "Cat", "Dan"]
    group = Group.objects.create(name="Fridays", roster=names)
    first = evening(client, group, players=names)
    evening(client, group, players=[names[2], names[3], names[0], names[1]], rate="50")
    evening(client, group, players=names, hands=[{"outcome": "draw"}], rate=None)
    english(client)
    pages = [
        group_url(group),
        group_url(group) + "?period=week",
        group_url(group) + "?archived=1",
        group_url(group, view=True),
        group_url(group) + "share",
        group_url(group) + "person?name=Ann",
        "/group/new",
        f"/new?group={group.edit_token}",
        game_url(Game.objects.latest("pk")) + "settle",  # still playing: a word about what is owed
        game_url(Game.objects.filter(status="finished").latest("pk")) + "settle",  # the offer
        game_url(first),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert leaks(response.content.decode()) == [], url
    client.post(game_url(Game.objects.filter(status="finished").latest("pk")) + "carry", {"ids": plan_ids(group)})
    response = client.get(game_url(Game.objects.filter(status="finished").latest("pk")) + "settle")
    assert "Settled together" in response.content.decode()
    assert leaks(response.content.decode()) == []
    assert leaks(client.get(group_url(group)).content.decode()) == []


def plan_ids(group: Group) -> str:
    return ",".join(str(o.transfer.pk) for o in circle.free_transfers(group))


# -- games in a group ---------------------------------------------------------------------------


def test_again_starts_the_next_game_with_the_same_people_seats_ruleset_and_rules(client, db):
    group = Group.objects.create(name="诸暨帮", roster=[])
    client.get(group_url(group))  # this phone holds the group
    rules = {**Rules().to_dict()}
    last = Game.objects.create(
        ruleset="zhuji",
        players=["阿强", "阿芳", "老周", "小陈"],
        first_dealer=2,
        rules=get_ruleset("zhuji").rules_class(base=2, draw_passes_deal=True).to_dict(),
        group=group,
    )
    # 换人 mid-game: 小张 takes 阿芳's seat; the next game starts with whoever sat there at the end
    played(last, [ZHUJI_WIN, {"outcome": "seating", "players": ["阿强", "小张", "老周", "小陈"]}])
    response = client.post(group_url(group) + "again")
    game = Game.objects.latest("pk")
    assert response.status_code == 302
    assert response.url == game_url(game)
    assert (game.ruleset, game.players, game.first_dealer, game.rules) == (
        "zhuji",
        ["阿强", "小张", "老周", "小陈"],
        2,
        last.rules,
    )
    assert game.group == group
    assert game.rules != rules  # the last game's own rules, not any default
    assert "诸暨" in client.get(response.url).content.decode()  # it opens at once, as a 诸暨 game


def test_again_with_a_fresh_draw_seats_the_same_people_at_random_on_the_server(client, group):
    evening(client, group, rate=None)
    orders = set()
    for _ in range(12):
        client.post(group_url(group) + "again", {"draw": "1"})
        game = Game.objects.latest("pk")
        assert sorted(game.players) == sorted(NAMES)
        orders.add(tuple(game.players))
    # 12 draws of 24 orders: all the same would happen once in 24^11 groups
    assert len(orders) > 1


def test_again_in_a_group_without_a_game_goes_to_the_new_game_form(client, group):
    response = client.post(group_url(group) + "again", follow=True)
    assert "这个牌友圈还没有牌局：先开一局。" in messages_of(response)
    assert not Game.objects.exists()
    assert f'name="group" value="{group.edit_token}"' in response.content.decode()


def test_a_game_started_from_the_group_page_is_in_the_group_with_its_people_on_the_roster(client, group):
    evening(client, group, rate=None)
    form = client.get(f"/new?group={group.edit_token}")
    html = form.content.decode()
    assert "在牌友圈「周五老地方」里开" in html
    assert all(f'value="{name}"' in html for name in NAMES)  # the last game's people in their seats
    assert form.headers["Cache-Control"] == "private, no-store"
    response = client.post("/new", {**NEW_GAME, "name3": "新来的", "group": group.edit_token})
    game = Game.objects.latest("pk")
    assert response.url == game_url(game)
    assert game.group == group
    group.refresh_from_db()
    assert group.roster == NAMES  # 新来的 joins the roster once he plays a hand
    record(client, game, {"outcome": "draw"})
    group.refresh_from_db()
    assert group.roster == [*NAMES, "新来的"]


def test_an_existing_game_joins_a_group_from_its_page_with_its_edit_link_only(client, group):
    game = Game.objects.create(players=list(NAMES), rules=Rules().to_dict())
    add_hand(game, {"outcome": "draw"})
    client.get(group_url(group))  # this phone holds the group's edit link
    page = client.get(game_url(game)).content.decode()
    assert "加入牌友圈" in page
    assert group.edit_token in page
    assert "加入牌友圈" not in client.get(game_url(game, view=True)).content.decode()
    assert client.post(game_url(game, view=True) + "group", {"group": group.edit_token}).status_code == 403
    response = client.post(game_url(game) + "group", {"group": group.edit_token}, follow=True)
    assert "已加入牌友圈「周五老地方」。" in messages_of(response)
    game.refresh_from_db()
    assert game.group == group
    assert "牌友圈：<bdi>周五老地方</bdi>" in client.get(game_url(game)).content.decode()
    # a view link reaches the group's view link only
    other = type(client)()
    assert group.view_token in other.get(game_url(game, view=True)).content.decode()
    assert group.edit_token not in other.get(game_url(game, view=True)).content.decode()
    client.post(game_url(game) + "group", {"group": ""})
    game.refresh_from_db()
    assert game.group is None


def test_a_new_group_can_take_tonights_game_along(client, db):
    game = Game.objects.create(players=["甲", "乙", "丙", "丁"], rules=Rules().to_dict())
    add_hand(game, {"outcome": "draw"})
    form = client.get(f"/group/new?game={game.edit_token}")
    assert form.headers["Cache-Control"] == "private, no-store"
    client.post("/group/new", {"name": "新圈", "roster": "", "game": game.edit_token})
    game.refresh_from_db()
    assert game.group.name == "新圈"
    assert game.group.roster == ["甲", "乙", "丙", "丁"]
    assert client.post("/group/new", {"name": "再一个", "game": game.view_token}).status_code == 403


def test_archived_games_leave_the_group_list_and_wait_behind_a_link(client, group):
    old = evening(client, group, days_ago=3)
    new = evening(client, group, players=TONIGHT)
    client.post(game_url(old) + "archive", {"archived": "1", "next": group_url(group)})
    html = client.get(group_url(group)).content.decode()
    assert f'data-game="{old.pk}"' not in html
    assert f'data-game="{new.pk}"' in html
    archived = client.get(group_url(group) + "?archived=1").content.decode()
    assert f'data-game="{old.pk}"' in archived
    assert f'data-game="{new.pk}"' not in archived
    # the standings still count it, as 个人统计 does
    assert "只算已结算的牌局：2 场" in html


# -- standings ----------------------------------------------------------------------------------


def test_standings_are_the_sums_of_the_settled_games_money_per_person(client, group):
    """A, 1 元 a point: 老王 +34, 小李 +4, 阿华 −19, 大刘 −19 (tests/helpers.py SETTLE_HANDS:
    老王 deals and 自摸 +42, then 小李 平胡 off 老王 +18).
    B, 0.5 元, the same hands with 阿华 dealing: 阿华 +34 → 17 元, 大刘 +4 → 2 元, 老王 and 小李
    −19 → −9.50 元 each.
    C, 0.1 元, 40 days ago, as A: 老王 +3.40, 小李 +0.40, 阿华 −1.90, 大刘 −1.90 元.
    D, still playing (大刘 自摸): counts nowhere."""
    a = evening(client, group, rate="100")
    b = evening(client, group, players=TONIGHT, rate="50")
    c = evening(client, group, rate="10", days_ago=40)
    evening(client, group, hands=[{"outcome": "win", "winner": 3, "win_type": "zimo"}], rate=None)
    # each game's settlement, as stored: the points × its rate
    assert a.settlement.balances_fen == [3400, 400, -1900, -1900]
    assert b.settlement.balances_fen == [1700, 200, -950, -950]
    assert c.settlement.balances_fen == [340, 40, -190, -190]
    everything = {s.name: s for s in client.get(group_url(group) + "?period=all").context["standings"]}
    assert {name: s.fen for name, s in everything.items()} == {
        "老王": 3400 - 950 + 340,  # 27.90 元
        "小李": 400 - 950 + 40,  # −5.10 元
        "阿华": -1900 + 1700 - 190,  # −3.90 元
        "大刘": -1900 + 200 - 190,  # −18.90 元
    }
    assert sum(s.fen for s in everything.values()) == 0
    assert {name: (s.games, s.wins, s.zimo, s.discards, s.biggest) for name, s in everything.items()} == {
        "老王": (3, 2, 2, 2, 42),  # 自摸 in A and C; dealt into 小李's 平胡 in A and C
        "小李": (3, 2, 0, 0, 18),
        "阿华": (3, 1, 1, 1, 42),  # B's dealer: 自摸, then dealt into 大刘's 平胡
        "大刘": (3, 1, 0, 0, 18),
    }
    for period in ("week", "month"):  # C is 40 days old
        recent = {s.name: s.fen for s in client.get(group_url(group) + f"?period={period}").context["standings"]}
        assert recent == {"老王": 3400 - 950, "小李": 400 - 950, "阿华": -1900 + 1700, "大刘": -1900 + 200}
    html = client.get(group_url(group)).content.decode()
    assert "只算已结算的牌局：3 场" in html
    assert "还没结算的 1 场不算" in html
    block = html[html.index('data-person="老王"') :]
    assert "+27.90 元" in block[: block.index("</li>")]
    assert "自摸率 <b>100%</b>" in block[: block.index("</li>")]
    english(client)
    html = client.get(group_url(group)).content.decode()
    assert "+¥27.90" in html
    assert "−¥18.90" in html
    assert "Only settled games count: 3." in html


def test_standings_follow_people_through_a_seating(client, group):
    """老王 deals and 自摸 (+42; the others −14), then 小张 takes 老王's seat and, dealing on, 自摸s
    too: each person's money is their own total (``people``) at the rate, and each keeps the hands
    they won in their own tally, not the seat's."""
    zimo = {"outcome": "win", "winner": 0, "win_type": "zimo"}
    seating = {"outcome": "seating", "players": ["小张", "小李", "阿华", "大刘"]}
    game = evening(client, group, hands=[zimo, seating, zimo])
    people = dict(circle.people_with_totals(game))
    standings = {s.name: s for s in client.get(group_url(group)).context["standings"]}
    assert {name: s.fen for name, s in standings.items()} == {name: points * 100 for name, points in people.items()}
    assert people["老王"] == 42
    assert standings["老王"].wins == standings["小张"].wins == 1
    assert standings["小张"].biggest == people["小张"]  # his one hand is all he won
    assert standings["小李"].wins == 0


def test_a_persons_page_shows_their_periods_evenings_and_what_they_owe(client, group):
    a = evening(client, group, rate="100")
    evening(client, group, players=TONIGHT, rate="50", days_ago=40)
    html = client.get(group_url(group) + "person?name=大刘").content.decode()
    assert html.count('class="card my-2 p-2 d-block text-decoration-none text-body evening"') == 2
    assert game_url(a) in html
    assert "−19 元" in html  # A at 1 元
    assert "+2 元" in html  # B at 0.5 元: +4 points
    assert 'data-owes="-1700"' in html  # 15 + 4 to A's winners, 2 back from 小李 in B
    view = client.get(group_url(group, view=True) + "person?name=大刘").content.decode()
    assert a.view_token in view
    assert a.edit_token not in view
    assert client.get(group_url(group) + "person?name=nobody").status_code == 404
    assert client.get(group_url(group) + "person").status_code == 404


# -- what is owed, settled together -------------------------------------------------------------


def settled_pair(client, group) -> tuple[Game, Game]:
    """Last week, 1 元 a point: 老王 +34, 小李 +4, 阿华 −19, 大刘 −19 → 阿华 → 老王 19 元,
    大刘 → 老王 15 元, 大刘 → 小李 4 元, unpaid. Tonight, 0.5 元 with 阿华 dealing: 阿华 +17,
    大刘 +2, 老王 −9.50, 小李 −9.50 → 老王 → 阿华 9.50, 小李 → 阿华 7.50, 小李 → 大刘 2 元."""
    last_week = evening(client, group, rate="100", days_ago=7)
    tonight = evening(client, group, players=TONIGHT, rate="50")
    assert transfers_of(last_week) == [("阿华", "老王", 1900), ("大刘", "老王", 1500), ("大刘", "小李", 400)]
    assert transfers_of(tonight) == [("老王", "阿华", 950), ("小李", "阿华", 750), ("小李", "大刘", 200)]
    return last_week, tonight


def test_settling_tonight_with_last_weeks_unpaid_transfers_nets_them_into_the_fewest(client, group):
    """Each person over both evenings: 老王 +19 +15 −9.50 = +24.50; 小李 +4 −7.50 −2 = −5.50;
    阿华 −19 +9.50 +7.50 = −2; 大刘 −15 −4 +2 = −17. Sum 0. No two or three of them cancel out,
    so three transfers (one fewer than four people) instead of six: everyone pays 老王."""
    _last_week, tonight = settled_pair(client, group)
    html = client.get(game_url(tonight) + "settle").content.decode()
    assert "这几个人以前还有没付的" in html
    ids = ",".join(str(t.pk) for t in Transfer.objects.order_by("pk"))
    assert f'name="ids" value="{ids}"' in html
    response = client.post(game_url(tonight) + "carry", {"ids": ids}, follow=True)
    assert "已连同以前没付的一起结清：按下面的转账付。" in messages_of(response)
    client.post(game_url(tonight) + "carry", {"ids": ids})  # a second tap, or another phone's
    settle_up = SettleUp.objects.get()
    assert netted_of(settle_up) == [("大刘", "老王", 1700), ("小李", "老王", 550), ("阿华", "老王", 200)]
    assert sum(t.amount_fen for t in settle_up.transfers.all()) == 2450
    assert settle_up.parts.count() == 6
    html = response.content.decode()
    assert html.count("已并入一起结清") == 3  # tonight's own three, each ticked by the settle-up now
    # the game's own transfers cannot be ticked alone
    own = tonight.settlement.transfers.first()
    response = client.post(game_url(tonight) + f"transfer/{own.pk}/paid", {"paid": "1"}, follow=True)
    assert "这笔已并入「一起结清」：请在下面一起结清的转账上标已付。" in messages_of(response)
    own.refresh_from_db()
    assert own.paid_at is None
    # 已付, one by one: the six underlying transfers are paid once all three are
    netted = list(settle_up.transfers.all())
    for t in netted[:2]:
        client.post(game_url(tonight) + f"carry/{t.pk}/paid", {"paid": "1"})
    assert not Transfer.objects.filter(paid_at__isnull=False).exists()
    client.post(group_url(group) + f"paid/{netted[2].pk}", {"paid": "1"})
    assert Transfer.objects.filter(paid_at__isnull=True).count() == 0
    assert "都付清了。" in client.get(group_url(group)).content.decode()
    # taking one back makes them owed again
    client.post(game_url(tonight) + f"carry/{netted[0].pk}/paid", {"paid": "0"})
    assert Transfer.objects.filter(paid_at__isnull=False).count() == 0
    balances = dict(client.get(group_url(group)).context["balances"])
    assert balances == {"老王": 1700, "大刘": -1700}


def test_the_wechat_text_of_an_evening_settled_together_gives_the_netted_transfers(client, group):
    """Once tonight is settled together with last week, the text sent to the group chat says so
    and lists the three transfers to pay (not tonight's own three, which they replace)."""
    last_week, tonight = settled_pair(client, group)
    before = client.get(game_url(tonight) + "settle").context["share"]
    assert "转账：\n老王 → 阿华 9.50 元\n小李 → 阿华 7.50 元\n小李 → 大刘 2 元" in before
    client.post(game_url(tonight) + "carry", {"ids": plan_ids(group)})
    share = client.get(game_url(tonight) + "settle").context["share"]
    week = f"{timezone.localtime(last_week.created_at):%m-%d}"
    assert share.endswith(
        f"转账（连同 {week} 没付的一起结清）：\n大刘 → 老王 17 元\n小李 → 老王 5.50 元\n阿华 → 老王 2 元"
    )
    assert "老王 → 阿华 9.50 元" not in share
    assert "大刘 → 老王 17 元" not in client.get(game_url(last_week) + "settle").context["share"]  # made tonight
    picture = re.findall(r"<text [^>]*>([^<]*)</text>", client.get(game_url(tonight) + "picture.svg").content.decode())
    at = picture.index("转账（连同以前没付的一起结清）")
    assert picture[at + 1 : at + 4] == ["大刘 → 老王 17 元", "小李 → 老王 5.50 元", "阿华 → 老王 2 元"]
    english(client)
    share = client.get(game_url(tonight) + "settle").context["share"]
    assert f"Transfers (settled together with what was unpaid from {week}):\n大刘 → 老王 ¥17" in share


def test_a_settle_up_is_undone_until_something_of_it_is_paid(client, group):
    """撤销一起结清: the six transfers are owed again, each on its own evening (the offer comes
    back, the text gives tonight's own); once one netted transfer is 已付 the undo is refused and
    changes nothing, and the button is gone until it is unticked."""
    _last_week, tonight = settled_pair(client, group)
    client.post(game_url(tonight) + "carry", {"ids": plan_ids(group)})
    settle_up = SettleUp.objects.get()
    page = client.get(game_url(tonight) + "settle").content.decode()
    assert f'action="/g/{tonight.edit_token}/carry/{settle_up.pk}/undo"' in page
    first = settle_up.transfers.first()
    client.post(game_url(tonight) + f"carry/{first.pk}/paid", {"paid": "1"})
    assert "撤销一起结清" not in client.get(game_url(tonight) + "settle").content.decode()
    response = client.post(game_url(tonight) + f"carry/{settle_up.pk}/undo", follow=True)
    assert "这次一起结清已经有人付了：先取消「已付」，再撤销。" in messages_of(response)
    assert SettleUp.objects.filter(pk=settle_up.pk).exists()
    client.post(game_url(tonight) + f"carry/{first.pk}/paid", {"paid": "0"})
    response = client.post(group_url(group) + f"settle-up/{settle_up.pk}/undo", follow=True)
    assert "已撤销一起结清：各笔转账回到各自那场，仍然没付。" in messages_of(response)
    assert not SettleUp.objects.exists()
    assert len(circle.free_transfers(group)) == 6
    assert not Transfer.objects.filter(paid_at__isnull=False).exists()
    assert "这几个人以前还有没付的" in client.get(game_url(tonight) + "settle").content.decode()
    assert "转账：\n老王 → 阿华 9.50 元" in client.get(game_url(tonight) + "settle").context["share"]
    again = client.post(group_url(group) + f"settle-up/{settle_up.pk}/undo", follow=True)  # another phone's tap
    assert "这次一起结清已不存在（已撤销，或有一局重新打开了）。" in messages_of(again)
    viewer = client.post(group_url(group, view=True) + f"settle-up/{settle_up.pk}/undo")
    assert viewer.status_code in (403, 404)


def test_the_group_page_shows_what_each_person_still_owes_across_evenings(client, group):
    """Before settling together, by person: the same sums as above."""
    settled_pair(client, group)
    response = client.get(group_url(group))
    assert dict(response.context["balances"]) == {"老王": 2450, "小李": -550, "阿华": -200, "大刘": -1700}
    html = response.content.decode()
    assert "应收 <b>24.50 元</b>" in html
    assert "要付 <b>17 元</b>" in html
    assert html.count("那场的结算") == 6
    view = client.get(group_url(group, view=True)).content.decode()
    assert "一起结清" not in view  # a view link is offered no write


def test_only_transfers_between_tonights_people_are_carried(client, group):
    """Last week 新人 sat in for 大刘: 新人's debt is not tonight's table's to settle."""
    evening(client, group, players=["老王", "小李", "阿华", "新人"], rate="100", days_ago=7)
    tonight = evening(client, group, players=TONIGHT, rate="50")
    plan = groups.carry_plan(group, tonight)
    carried = {(o.payer, o.payee) for o in plan.parts}
    assert ("新人", "老王") not in carried
    assert ("新人", "小李") not in carried
    assert ("阿华", "老王") in carried
    forged = ",".join(str(t.pk) for t in Transfer.objects.all())  # 新人's too
    response = client.post(game_url(tonight) + "carry", {"ids": forged}, follow=True)
    assert circle.CHANGED[0] in messages_of(response)
    assert not SettleUp.objects.exists()


@pytest.mark.parametrize("ids", ["", "1", "x,y", "1,,2", "99999,99998", "1;2", "１,２", "-1,2"])
def test_a_settle_up_of_wrong_ids_is_refused_with_a_message(client, group, ids):
    settled_pair(client, group)
    response = client.post(group_url(group) + "settle-up", {"ids": ids}, follow=True)
    assert response.status_code == 200
    assert messages_of(response)
    assert not SettleUp.objects.exists()


def test_a_transfer_paid_meanwhile_makes_the_settle_up_refused(client, group):
    last_week, tonight = settled_pair(client, group)
    ids = plan_ids(group)
    paid = last_week.settlement.transfers.first()
    client.post(game_url(last_week) + f"transfer/{paid.pk}/paid", {"paid": "1"})
    response = client.post(game_url(tonight) + "carry", {"ids": ids}, follow=True)
    assert circle.CHANGED[0] in messages_of(response)
    assert not SettleUp.objects.exists()
    english(client)
    response = client.post(game_url(tonight) + "carry", {"ids": ids}, follow=True)
    assert circle.CHANGED[1] in messages_of(response)


def test_the_group_page_settles_everything_owed_together(client, group):
    settled_pair(client, group)
    client.post(group_url(group) + "settle-up", {"ids": plan_ids(group)})
    settle_up = SettleUp.objects.get()
    assert netted_of(settle_up) == [("大刘", "老王", 1700), ("小李", "老王", 550), ("阿华", "老王", 200)]
    assert settle_up.game is None


def test_a_plan_nobody_paid_from_is_taken_over_by_a_later_settle_up(client, group):
    """Settled together after last week (nothing paid), then again tonight: one settle-up, of all six."""
    last_week = evening(client, group, rate="100", days_ago=7)
    client.post(group_url(group) + "settle-up", {"ids": plan_ids(group)})
    first = SettleUp.objects.get()
    # 老王 +34, 小李 +4, 阿华 −19, 大刘 −19 netted by name: still three, in another order (the
    # first debtor by name, 大刘, pays the largest creditor first)
    assert netted_of(first) == [("大刘", "老王", 1900), ("阿华", "小李", 400), ("阿华", "老王", 1500)]
    tonight = evening(client, group, players=TONIGHT, rate="50")
    assert groups.carry_plan(group, tonight) is not None  # last week's plan is not paid from: offered again
    client.post(game_url(tonight) + "carry", {"ids": plan_ids(group)})
    assert not SettleUp.objects.filter(pk=first.pk).exists()
    assert SettleUp.objects.get().parts.count() == 6
    assert last_week.settlement.transfers.filter(settle_up_part__isnull=False).count() == 3


def test_evenings_that_cancel_out_need_no_transfer_and_are_paid_at_once(client, group):
    """Last week 老王 +34, 小李 +4, 阿华 −19, 大刘 −19 (1 元 a point); tonight one 手动记分 of
    the opposite, 老王 −34, 小李 −4, 阿华 +19, 大刘 +19: every person's sum is 0, so settling
    together makes no transfer at all, and every one of the six is paid at once."""
    evening(client, group, rate="100", days_ago=7)
    back = {"outcome": "manual", "net": [-34, -4, 19, 19], "note": "还回去"}
    tonight = evening(client, group, hands=[back], rate="100")
    assert transfers_of(tonight) == [("老王", "阿华", 1900), ("老王", "大刘", 1500), ("小李", "大刘", 400)]
    assert groups.carry_plan(group, tonight).netted == []
    response = client.post(game_url(tonight) + "carry", {"ids": plan_ids(group)}, follow=True)
    assert "正好抵消：谁也不用转账，都结清了。" in response.content.decode()
    assert Transfer.objects.filter(paid_at__isnull=True).count() == 0
    assert client.get(group_url(group)).context["balances"] == []
    client.post(game_url(tonight) + "reopen")  # tonight's money is gone again: last week's is owed again
    assert [(o.payer, o.payee, o.amount_fen) for o in circle.free_transfers(group)] == [
        ("阿华", "老王", 1900),
        ("大刘", "老王", 1500),
        ("大刘", "小李", 400),
    ]


def test_reopening_a_game_whose_money_was_paid_together_is_refused_until_untick(client, group):
    last_week, tonight = settled_pair(client, group)
    client.post(game_url(tonight) + "carry", {"ids": plan_ids(group)})
    first = SettleUpTransfer.objects.first()
    client.post(game_url(tonight) + f"carry/{first.pk}/paid", {"paid": "1"})
    response = client.post(game_url(tonight) + "reopen", follow=True)
    assert any("先在那里取消已付" in m for m in messages_of(response))
    tonight.refresh_from_db()
    assert tonight.status == Game.FINISHED
    client.post(game_url(tonight) + f"carry/{first.pk}/paid", {"paid": "0"})
    client.post(game_url(tonight) + "reopen")
    tonight.refresh_from_db()
    assert tonight.status == Game.PLAYING
    assert not SettleUp.objects.exists()  # the plan is gone; last week's three are free again
    assert [(o.payer, o.payee, o.amount_fen) for o in circle.free_transfers(group)] == transfers_of(last_week)


def test_deleting_a_game_gives_its_unpaid_settle_up_back(client, group):
    _last_week, tonight = settled_pair(client, group)
    client.post(game_url(tonight) + "carry", {"ids": plan_ids(group)})
    client.post(game_url(tonight) + "delete")
    assert not SettleUp.objects.exists()
    assert len(circle.free_transfers(group)) == 3


def test_while_playing_the_settle_page_says_what_is_still_owed_among_the_players(client, group):
    evening(client, group, rate="100", days_ago=7)
    tonight = evening(client, group, players=TONIGHT, rate=None)
    html = client.get(game_url(tonight) + "settle").content.decode()
    assert "这几个人以前还有 3 笔没付（共 38 元），结算后可以和今晚的一起结清。" in html


def test_the_period_boundaries_are_monday_and_the_first_in_local_time():
    wednesday = timezone.make_aware(timezone.datetime(2026, 3, 4, 23, 30))  # Asia/Shanghai
    assert groups.period_start("week", wednesday) == timezone.make_aware(timezone.datetime(2026, 3, 2))
    assert groups.period_start("month", wednesday) == timezone.make_aware(timezone.datetime(2026, 3, 1))
    assert groups.period_start("all", wednesday) is None


POSTS = st.dictionaries(
    st.sampled_from(["ids", "paid", "draw", "name", "roster", "group", "game"]),
    st.one_of(VALUES, st.just("1,2,3"), st.just("4,5,6,1,2,3")),
    max_size=5,
)


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=POSTS,
    path=st.sampled_from(["again", "roster", "settle-up", "paid/1", "paid/99", "person", "", "share"]),
    where=st.sampled_from(["group", "carry", "carry/1/paid", "group-of-game", "new-group", "new-game"]),
    method=st.sampled_from(["get", "post"]),
)
def test_whatever_a_phone_sends_to_a_group_is_a_page_or_a_message(client, pair, data, path, where, method):
    AccessMiss.objects.all().delete()  # one group for every example: each starts under its budgets
    group, tonight = pair
    url = {
        "group": group_url(group) + path,
        "carry": game_url(tonight) + "carry",
        "carry/1/paid": game_url(tonight) + "carry/1/paid",
        "group-of-game": game_url(tonight) + "group",
        "new-group": "/group/new",
        "new-game": "/new",
    }[where]
    response = getattr(client, method)(url, data)
    assert response.status_code in SAFE
    for settle_up in SettleUp.objects.prefetch_related("transfers", "parts__transfer"):
        # whatever was netted still clears exactly what it took in
        moved = {}
        for t in settle_up.parts.all():
            game = t.transfer.settlement.game
            for name, sign in ((game.players[t.transfer.payer], -1), (game.players[t.transfer.payee], 1)):
                moved[name] = moved.get(name, 0) + sign * t.transfer.amount_fen
        for t in settle_up.transfers.all():
            moved[t.payer] = moved.get(t.payer, 0) + t.amount_fen
            moved[t.payee] = moved.get(t.payee, 0) - t.amount_fen
        assert set(moved.values()) <= {0}


@pytest.fixture
def pair(client, group):
    settled_pair(client, group)
    return group, Game.objects.latest("pk")


@pytest.mark.parametrize("games", [2, 8])
def test_the_group_pages_cost_the_same_queries_however_many_games(client, group, games, django_assert_max_num_queries):
    for n in range(games):
        evening(client, group, players=NAMES if n % 2 else TONIGHT, rate="100" if n < games - 1 else None)
    client.get(group_url(group))  # the phone's cookie
    with django_assert_max_num_queries(
        11
    ):  # its seasons (scoring/groups/seasons.py) and the latest 今晚 (scoring/nights/templatetags/nights.py)
        assert client.get(group_url(group)).status_code == 200
    with django_assert_max_num_queries(5):
        assert client.get(group_url(group) + "person?name=老王").status_code == 200


def test_a_game_that_no_longer_replays_leaves_the_group_pages_whole(client, group):
    """A stored hand the engine now refuses (as after a rules change): the game's own page says
    why; the group's pages leave it out of the standings and still answer."""
    evening(client, group)
    broken = Game.objects.create(players=list(NAMES), rules=Rules().to_dict())
    Hand.objects.create(game=broken, seq=1, entry={"outcome": "win", "winner": 7, "win_type": "zimo"})
    assert client.post(game_url(broken) + "group", {"group": group.edit_token}).status_code == 302
    broken.refresh_from_db()
    assert broken.group == group
    for url in (group_url(group), group_url(group) + "person?name=老王", group_url(group, view=True)):
        assert client.get(url).status_code == 200, url
    assert {s.name: s.games for s in client.get(group_url(group)).context["standings"]}["老王"] == 1
    assert client.post(group_url(group) + "again").status_code == 302  # from the broken one's players


def test_a_kept_game_page_never_hands_one_phones_group_link_to_another(client, group):
    """The game page is kept rendered (scoring/pagecache.py); its 牌友圈 box depends on the phone
    (the group links it holds) and on the group's name: a phone holding only the game's link
    never gets the group's edit link from a page rendered for another phone, and a renamed group
    shows at once."""
    game = evening(client, group, rate=None)
    client.get(group_url(group))  # this phone holds the group's edit link
    for url in (game_url(game), game_url(game, view=True)):
        assert group.edit_token in client.get(url).content.decode(), url
        stranger = type(client)().get(url).content.decode()
        assert group.edit_token not in stranger, url
        assert group.view_token in stranger, url
    client.post(group_url(group) + "roster", {"name": "周六新地方", "roster": "老王"})
    assert "周六新地方" in client.get(game_url(game)).content.decode()
    other = Game.objects.create(players=list(NAMES), rules=Rules().to_dict())
    assert "周六新地方" in client.get(game_url(other)).content.decode()  # offered to join it
    assert "周六新地方" not in type(client)().get(game_url(other)).content.decode()


# -- 换人 at a group's table, and the next game's settings -----------------------------------------


def test_a_seat_is_offered_the_groups_roster_and_a_new_name_joins_it(client, group):
    """换人 in a group's game offers the regulars on its roster who are not at the table (after
    the evening's own people); a new name typed in joins the roster."""
    Group.objects.filter(pk=group.pk).update(roster=[*NAMES, "小周", "阿芳"])
    game = evening(client, group, rate=None)
    step = client.get(game_url(game) + "seating?how=sub&seat=0").content.decode()
    offered = [name for name, _href in name_links(step)]
    assert offered[-2:] == ["小周", "阿芳"]
    assert not set(offered) & set(NAMES)
    back = dict(name_links(step))["小周"]
    assert confirm_seating(client, back).status_code == 302
    game.refresh_from_db()
    assert game.state["table"]["seating"] == ["小周", "小李", "阿华", "大刘"]
    # a new name typed in for 小李's seat joins the roster once he plays a hand, and is offered at the group's next table
    new = game_url(game) + "seating?how=sub&seat=1&name=新来的"
    assert confirm_seating(client, new).status_code == 302
    group.refresh_from_db()
    assert group.roster == [*NAMES, "小周", "阿芳"]
    record(client, game, {"outcome": "draw"})
    group.refresh_from_db()
    assert group.roster == [*NAMES, "小周", "阿芳", "新来的"]
    english(client)
    response = client.get(game_url(game) + "seating?how=sub&seat=0")
    step = response.content.decode()
    assert "Who sits E instead of 小周?" in text(response)
    assert {"老王", "小李", "阿芳"} <= {name for name, _href in name_links(step)}


def test_again_keeps_the_last_games_length_in_rounds(client, group):
    last = evening(client, group, rate=None)
    Game.objects.filter(pk=last.pk).update(round_length=4)
    client.post(group_url(group) + "again")
    assert Game.objects.latest("pk").round_length == 4


def form_answers(form) -> dict:
    """What a phone posts for the new-game form as it is shown (an unticked box is not sent)."""
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else value
    return data


@pytest.mark.parametrize(
    ("code", "rules", "preset"),
    [
        ("yiwu", {"base_dealer": 6, "base_other": 4, "maizi_points": 3, "xiazi_cap": 10}, "custom"),
        ("yiwu", {"base_dealer": 9, "base_other": 7, "abandon_enabled": True}, "9/7"),
        ("zhuji", {"base": 2, "tai_cap": 8, "draw_passes_deal": True}, "2分"),
        ("wuyi2", {"base": 5, "fan": {"qingyise": 5}}, "5分"),
    ],
)
def test_a_new_game_from_the_group_page_starts_from_the_last_games_rules(client, group, code, rules, preset):
    """换人或换玩法，开新局: the form starts from the last game's rules and 打几圈 when the ruleset is
    the same (posted as shown, the new game has them); another ruleset starts from its defaults."""
    ruleset = get_ruleset(code)
    stored = ruleset.rules_class(**rules).to_dict()
    players = NAMES[: ruleset.seats]
    Game.objects.create(ruleset=code, players=players, rules=stored, round_length=8, group=group)
    client.get(group_url(group))
    link = re.search(r'href="([^"]+)">换人或换玩法，开新局', client.get(group_url(group)).content.decode()).group(1)
    form = client.get(html_lib.unescape(link)).context["form"]
    assert form["preset"].value() == preset
    response = client.post("/new", {**form_answers(form), "group": group.edit_token})
    assert response.status_code == 302
    game = Game.objects.latest("pk")
    assert (game.ruleset, game.rules, game.round_length, game.players) == (code, stored, 8, players)
    other = "zhuji" if code != "zhuji" else "yiwu"
    fresh = client.get(f"/new?ruleset={other}&group={group.edit_token}").context["form"]
    assert fresh["preset"].value() == get_ruleset(other).default_preset
    assert fresh["round_length"].value() in ("", None)


def test_standings_read_each_persons_stored_tally_without_walking_the_hands(client, group):
    """A game with a seating costs the group page no query more than one without: each person's
    wins, 自摸 and 放铳 come from the game's stored replay (by person), not from its hands."""

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(group_url(group)).status_code == 200
        return len(captured)

    zimo = {"outcome": "win", "winner": 0, "win_type": "zimo"}
    evening(client, group, hands=[zimo, zimo])
    client.get(group_url(group))  # the phone's cookie
    plain = queries()
    Group.objects.get(pk=group.pk).games.all().delete()
    evening(client, group, hands=[zimo, {"outcome": "seating", "players": ["小张", "小李", "阿华", "大刘"]}, zimo])
    assert queries() == plain
    standings = {s.name: s for s in client.get(group_url(group)).context["standings"]}
    assert (standings["老王"].wins, standings["小张"].wins, standings["小张"].zimo) == (1, 1, 1)


def test_the_group_evening_on_a_phone_says_each_of_its_messages(client, group):
    """tests/browser/test_group_evening.py's evening, every message it read off the phone: last
    week unpaid at 1 元; tonight started with 再来一局 (阿华 自摸, 大刘 平胡 off 小李), settled at
    0.5 元 together with last week, ticked 已付 until everything is paid."""
    last_week = evening(client, group, rate="100", days_ago=7)
    page = client.get(group_url(group)).content.decode()
    owed = page[page.find('id="owed"') :]
    assert "各场没付的转账" in owed[: owed.find("</section>")]
    response = client.post(group_url(group) + "again")
    tonight = Game.objects.latest("pk")
    assert response.url == game_url(tonight)
    assert (tonight.group, tonight.players, tonight.rules) == (group, NAMES, last_week.rules)
    add_hand(tonight, {"outcome": "win", "winner": 2, "win_type": "zimo"})
    add_hand(tonight, {"outcome": "win", "winner": 3, "win_type": "pinghu", "discarder": 1})
    note = client.get(game_url(tonight) + "settle").content.decode()
    assert re.search(r'class="small earlier-note">这几个人以前还有 3 笔没付', note)
    client.post(game_url(tonight) + "finish", {**FINISH, "rate": "50"})
    offer = client.get(game_url(tonight) + "settle").content.decode()
    carry = offer[offer.find('id="carry"') :]
    assert "连同今晚的一起算，只要这几笔" in carry
    ids = re.search(r'name="ids" value="([^"]+)"', carry).group(1)
    together = client.post(game_url(tonight) + "carry", {"ids": ids}, follow=True).content.decode()
    settle_up = SettleUp.objects.get()
    netted = list(settle_up.transfers.all())
    assert sum(t.amount_fen for t in netted) > 0
    assert len(netted) < settle_up.parts.count()  # fewer transfers than the six it took in
    shown = together[together.find('settle-up" data-settle-up') :]
    assert shown.count("标为已付") == len(netted)
    assert together.count('class="badge text-bg-secondary merged"') == tonight.settlement.transfers.count()
    for t in netted:
        client.post(game_url(tonight) + f"carry/{t.pk}/paid", {"paid": "1"})
    assert not Transfer.objects.filter(paid_at__isnull=True).exists()  # last week's three and tonight's
    assert "都付清了。" in client.get(group_url(group)).content.decode()
    first = re.search(
        r'class="fw-semibold person-link[^"]*" href="([^"]+)"', client.get(group_url(group)).content.decode()
    )
    person = client.get(html_lib.unescape(first.group(1))).content.decode()
    assert person.count('class="card my-2 p-2 d-block text-decoration-none text-body evening"') == 2
