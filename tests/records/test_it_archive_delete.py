"""The home list tells games apart (ruleset, date, the leader, each total); an edit link may
归档 a game (off the lists, still under 已归档) or 删除 it after a confirm screen; a view link may
do neither."""

from django.test import Client
from django.utils import timezone

from scoring.models import Game, Hand, SavedGame
from tests.factories import add_hand
from tests.helpers import game_url, messages_of

NAMES = ["甲", "乙", "丙", "丁"]


def same_names_twice(client, db) -> tuple[Game, Game]:
    """Two games of the same four people, both open, five hands each: once identical rows."""
    games = []
    for winner in (0, 2):
        game = Game.objects.create(players=NAMES, rules={})
        for _ in range(5):
            add_hand(game, {"outcome": "win", "winner": winner, "win_type": "pinghu", "discarder": 1})
        games.append(game)
    return games[0], games[1]


def row_of(html: str, game: Game) -> str:
    start = html.index(f'data-game="{game.pk}"')
    return html[start : html.find('data-game="', start + 1)]


def test_home_rows_show_the_ruleset_date_leader_and_every_total(client, db):
    a, b = same_names_twice(client, db)
    c = Game.objects.create(ruleset="zhuji", players=NAMES, rules={})
    add_hand(c, {"outcome": "win", "winner": 3, "tai": {"shape": "pinghu"}})
    for game in (a, b, c):
        client.get(game_url(game))
    html = client.get("/").content.decode()
    row_a, row_b, row_c = row_of(html, a), row_of(html, b), row_of(html, c)
    assert "义乌麻将" in row_a
    assert timezone.localtime(a.created_at).strftime("%Y-%m-%d %H:%M") in row_a  # the table's clock (TIME_ZONE)
    assert "5 局" in row_a
    assert "进行中" in row_a
    # 甲 won five 平胡 off 乙 as dealer: the leader first, then each total, highest first
    assert '领先</span> <bdi>甲</bdi> <b class="gain">+' in row_a
    assert row_a.index("<bdi>甲</bdi>") < row_a.index("<bdi>丙</bdi>") < row_a.index("<bdi>乙</bdi>")
    assert all(f"<bdi>{name}</bdi> <b" in row_a for name in NAMES)
    assert "领先</span> <bdi>丙</bdi>" in row_b
    assert "诸暨麻将" in row_c
    assert "1 局" in row_c
    assert "领先</span> <bdi>丁</bdi>" in row_c


def test_archiving_hides_a_game_from_home_and_history_and_lists_it_under_archived(client, db):
    a, b = same_names_twice(client, db)
    for game in (a, b):
        client.get(game_url(game))
    response = client.post(game_url(a) + "archive", {"archived": "1", "next": "/history"})
    assert response.status_code == 302
    assert response.url == "/history"
    for path in ("/", "/history"):
        html = client.get(path).content.decode()
        assert game_url(a) not in html, path
        assert game_url(b) in html, path
    archived = client.get("/history?archived=1").content.decode()
    assert game_url(a) in archived
    assert game_url(b) not in archived
    assert client.get("/stats").context["game_count"] == 2  # still counted
    client.post(game_url(a) + "archive", {"archived": "0", "next": "/"})
    assert game_url(a) in client.get("/").content.decode()


def test_delete_asks_first_then_removes_the_game_and_its_hands(client, db, django_user_model):
    a, b = same_names_twice(client, db)
    SavedGame.objects.create(user=django_user_model.objects.create(username="w"), game=a, token=a.edit_token)
    client.get(game_url(a))
    confirm = client.get(game_url(a) + "delete")
    assert confirm.status_code == 200
    assert "删除这个牌局？" in confirm.content.decode()
    assert "确认删除" in confirm.content.decode()
    assert Game.objects.filter(pk=a.pk).exists()  # asking deletes nothing
    response = client.post(game_url(a) + "delete")
    assert response.status_code == 302
    assert response.url == "/"
    assert not Game.objects.filter(pk=a.pk).exists()
    assert not Hand.objects.filter(game_id=a.pk).exists()
    assert not SavedGame.objects.exists()
    assert Hand.objects.filter(game=b).count() == 5
    assert "已删除牌局" in " ".join(messages_of(client.get("/", follow=True)))
    assert client.get(game_url(a)).status_code == 404


def test_a_view_link_can_neither_archive_nor_delete(client, db):
    a, _b = same_names_twice(client, db)
    viewer = Client()
    viewer.get(game_url(a, view=True))
    html = viewer.get("/").content.decode()
    assert game_url(a, view=True) in html
    assert "/archive" not in html
    assert "/delete" not in html
    assert viewer.post(game_url(a, view=True) + "archive", {"archived": "1"}).status_code == 403
    assert viewer.get(game_url(a, view=True) + "delete").status_code == 403
    assert viewer.post(game_url(a, view=True) + "delete").status_code == 403
    a.refresh_from_db()
    assert a.archived_at is None
    assert Hand.objects.filter(game=a).count() == 5


def test_a_game_that_no_longer_replays_can_still_be_deleted(client, db):
    a, _b = same_names_twice(client, db)
    Hand.objects.filter(game=a, seq=1).update(entry={"outcome": "win", "winner": 9, "win_type": "zimo"})
    Game.objects.filter(pk=a.pk).update(state=None)  # the stored replay must be rebuilt, and cannot be
    confirm = client.get(game_url(a) + "delete")
    assert confirm.status_code == 200
    assert "甲 · 乙 · 丙 · 丁" in confirm.content.decode()
    assert client.post(game_url(a) + "delete").status_code == 302
    assert not Game.objects.filter(pk=a.pk).exists()
