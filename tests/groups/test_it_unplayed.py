"""Someone who played no hand of a game is in none of its lines: 老周, put in a seat by 换人 and replaced
before any hand, is not on the 牌友圈 page's line for the game, in 历史牌局, the standings, the settle
page or the CSV, and that game does not put him on the roster; who played a hand joins it."""

import pytest

from scoring import services
from scoring.models import Game, Group
from tests.groups.test_it_groups import group_url, played
from tests.helpers import FINISH, game_url, record
from tests.table.test_it_seating_page import confirm as confirm_seating

NAMES = ["老王", "小李", "阿华", "大刘"]
ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}


@pytest.fixture
def group(db) -> Group:
    return Group.objects.create(name="周五老地方", roster=list(NAMES))


def standings_line(html: str) -> str:
    start = html.index('class="d-flex flex-wrap column-gap-3 mt-1 standings"')
    return html[start : html.index("</div>", start)]


def test_seated_and_replaced_before_playing_is_in_none_of_the_games_lines(client, group):
    game = Game.objects.create(players=list(NAMES), rules={}, group=group)
    seat_zhou = {"outcome": "seating", "players": ["老王", "小李", "阿华", "老周"]}
    seat_chen = {"outcome": "seating", "players": ["老王", "小李", "阿华", "小陈"]}
    played(game, [ZIMO, seat_zhou, seat_chen, ZIMO])
    client.get(game_url(game))  # this phone holds the game: 历史牌局 lists it
    line = standings_line(client.get(group_url(group)).content.decode())
    assert "小陈" in line
    assert "大刘" in line
    assert "老周" not in line
    assert "老周" not in standings_line(client.get("/history").content.decode())
    summary = client.get(game_url(game) + "summary").content.decode()
    assert "老周" not in summary.split("换人")[0]  # the totals and the chart (a seating row names him)
    settle = client.get(game_url(game) + "settle", FINISH)
    assert "老周" not in [name for name, *_rest in settle.context["balances"]]
    header = client.get(game_url(game) + "export.csv").content.decode().splitlines()[0]
    assert "老周输赢" not in header
    assert "小陈输赢" in header
    assert "大刘输赢" in header
    assert client.post(game_url(game) + "finish", FINISH).status_code == 302
    assert {s.name for s in client.get(group_url(group)).context["standings"]} == {*NAMES, "小陈"}


def test_a_seating_puts_no_one_on_the_roster_until_they_play_a_hand(client, group):
    game = services.create_game(
        ruleset=game_ruleset(), players=list(NAMES), first_dealer=0, rules={}, round_length=None, group=group
    )
    assert confirm_seating(client, game_url(game) + "seating?how=sub&seat=3&name=老周").status_code == 302
    assert confirm_seating(client, game_url(game) + "seating?how=sub&seat=3&name=小陈").status_code == 302
    group.refresh_from_db()
    assert group.roster == NAMES  # neither has played yet
    assert record(client, game, ZIMO).status_code == 302
    group.refresh_from_db()
    assert group.roster == [*NAMES, "小陈"]  # 小陈 played hand 1; 老周 never did


def test_a_game_put_in_a_group_brings_only_who_played(client, group):
    other = Group.objects.create(name="周六", roster=[])
    game = played(
        Game.objects.create(players=list(NAMES), rules={}),
        [
            {"outcome": "seating", "players": ["老王", "小李", "阿华", "老周"]},
            ZIMO,
            {"outcome": "seating", "players": ["老王", "小李", "阿华", "小陈"]},
        ],
    )
    services.join_group(game, other)
    other.refresh_from_db()
    assert other.roster == ["老王", "小李", "阿华", "老周"]  # 大刘 and 小陈 sat in no hand


def test_a_new_group_game_adds_its_people_when_they_play(client, group):
    form = {**new_form(["老王", "小李", "阿华", "新来的"]), "group": group.edit_token}
    response = client.post("/new", form)
    assert response.status_code == 302
    group.refresh_from_db()
    assert group.roster == NAMES
    game = Game.objects.get(group=group)
    record(client, game, ZIMO)
    group.refresh_from_db()
    assert group.roster == [*NAMES, "新来的"]


def game_ruleset():
    from scoring.engine import get_ruleset

    return get_ruleset("yiwu")


def new_form(names):
    from tests.helpers import new_game_form

    return new_game_form(names)
