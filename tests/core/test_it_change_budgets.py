"""Every write that phones see (it raises a game's version, so every phone of the table fetches
a fresh page and step bundle) counts against a budget per minute: a hand's against the game's
hands (tests/core/test_it_budgets.py), any other against the game's, or the group's, changes
(scoring/access.py ``spend_change``). Past it the answer is the 429 page saying so, and nothing
changes."""

import pytest

from scoring.models import AccessMiss, Game, Group, Transfer
from tests.helpers import FINISH, SETTLE_HANDS, game_url, record

NAMES = ["老王", "小李", "阿华", "大刘"]


def one_more_change(settings, game: Game) -> None:
    """The game's budget set to what it has spent, plus one."""
    spent = AccessMiss.objects.filter(kind="changes", client=f"game:{game.pk}").values_list("count", flat=True)
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "changes": sum(spent) + 1}


def version(game: Game) -> int:
    return Game.objects.get(pk=game.pk).version


def refused(response) -> None:
    assert response.status_code == 429
    html = response.content.decode()
    assert "一分钟内改动太多了" in html
    assert "Too many changes in one minute" in html


def test_a_hundred_bets_in_a_minute_raise_the_version_only_as_often_as_the_budget_allows(client, game):
    """The review's probe: 100 place/withdraw posts of 买子 raised the version 100 times."""
    before = version(game)
    answers = [
        client.post(game_url(game) + "bet", {"bet": "maizi", "seat": "0", "on": "1" if i % 2 == 0 else "0"})
        for i in range(100)
    ]
    budget = 30  # DJANGO_LIMIT_CHANGES_PER_MINUTE's default
    assert [a.status_code for a in answers] == [302] * budget + [429] * (100 - budget)
    refused(answers[-1])
    assert version(game) == before + budget
    assert Game.objects.get(pk=game.pk).pending["maizi"] == []  # the 30th was a withdrawal


@pytest.fixture
def settled(client, game) -> Game:
    for entry in SETTLE_HANDS:
        record(client, game, entry)
    assert client.post(game_url(game) + "finish", FINISH).status_code == 302
    return game


def bet_twice(client, game):
    """买子 placed, then its withdrawal refused: still placed."""
    client.post(game_url(game) + "bet", {"bet": "maizi", "seat": "0", "on": "1"})
    response = client.post(game_url(game) + "bet", {"bet": "maizi", "seat": "0", "on": "0"})
    return response, lambda game: game.pending["maizi"] == [0]


def paid_twice(client, game):
    transfer = Transfer.objects.filter(settlement__game=game).first()
    client.post(game_url(game) + f"transfer/{transfer.pk}/paid", {"paid": "1"})
    response = client.post(game_url(game) + f"transfer/{transfer.pk}/paid", {"paid": "0"})
    return response, lambda game: Transfer.objects.get(pk=transfer.pk).paid_at is not None


def archive_twice(client, game):
    client.post(game_url(game) + "archive", {"archived": "1", "next": "/"})
    response = client.post(game_url(game) + "archive", {"archived": "0", "next": "/"})
    return response, lambda game: game.archived_at is not None


def join_and_leave(client, game):
    group = Group.objects.create(name="周五", roster=NAMES)
    client.get(f"/group/{group.edit_token}/")  # this phone holds the group's edit link
    client.post(game_url(game) + "group", {"group": group.edit_token})
    response = client.post(game_url(game) + "group", {"group": ""})
    return response, lambda game: game.group_id == group.pk


WRITES = {"bet": bet_twice, "paid": paid_twice, "archive": archive_twice, "join": join_and_leave}


@pytest.mark.parametrize("write", WRITES)
def test_each_kind_of_change_is_refused_past_the_games_budget_and_changes_nothing(client, settled, settings, write):
    game = settled
    if write == "bet":  # a game being played
        client.post(game_url(game) + "reopen")
    one_more_change(settings, game)
    before = Game.objects.get(pk=game.pk)
    response, only_the_first = WRITES[write](client, game)
    refused(response)
    after = Game.objects.get(pk=game.pk)
    assert only_the_first(after)
    assert after.version <= before.version + 1
    assert after.status == before.status


def test_a_reopen_past_the_budget_leaves_the_game_settled(client, settled, settings):
    game = settled
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "changes": 1}  # the settle
    refused(client.post(game_url(game) + "reopen"))
    assert Game.objects.get(pk=game.pk).status == Game.FINISHED


def test_a_groups_roster_has_a_budget_of_its_own(client, db, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "changes": 2}
    group = Group.objects.create(name="周五", roster=NAMES)
    url = f"/group/{group.edit_token}/roster"
    for name in ("周五老地方", "周六"):
        assert client.post(url, {"name": name, "roster": "\n".join(NAMES)}).status_code == 302
    refused(client.post(url, {"name": "周日", "roster": "\n".join(NAMES)}))
    assert Group.objects.get(pk=group.pk).name == "周六"
    other = Group.objects.create(name="别的圈", roster=NAMES)
    assert client.post(f"/group/{other.edit_token}/roster", {"name": "别的", "roster": "甲"}).status_code == 302
