from scoring.models import Game
from scoring.rulesets.yiwu.engine import Rules
from tests.factories import add_hand
from tests.helpers import game_url


def two_games(client):
    a = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules().to_dict())
    add_hand(a, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    add_hand(a, {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 2})
    b = Game.objects.create(players=["小李", "老王", "阿华", "大刘"], rules=Rules().to_dict())  # other seats
    add_hand(b, {"outcome": "win", "winner": 1, "win_type": "caishentou"})
    for game in (a, b):
        client.get(game_url(game))  # this phone opened both
    return a, b


def test_stats_per_player_name_across_games_match_the_hand_computed_numbers(client, db):
    two_games(client)
    stats = {s.name: s for s in client.get("/stats").context["stats"]}
    # Game A: 老王 自摸 as dealer (+42, −14 ×3); 小李 平胡 off 阿华 (老王 −7, 阿华 −6, 大刘 −5, 小李 +18)
    #   → 老王 35, 小李 4, 阿华 −20, 大刘 −19
    # Game B: 老王 (南) 财神头, dealer 小李 pays 28, the others 20 → 小李 −28, 老王 68, 阿华 −20, 大刘 −20
    wang = stats["老王"]
    assert (wang.games, wang.wins, wang.zimo_wins, wang.discards) == (2, 2, 2, 0)
    assert (wang.biggest_hand, wang.best_game, wang.worst_game, wang.net) == (68, 68, 35, 103)
    li = stats["小李"]
    assert (li.games, li.wins, li.zimo_wins, li.biggest_hand, li.best_game, li.worst_game, li.net) == (
        2,
        1,
        0,
        18,
        4,
        -28,
        -24,
    )
    hua = stats["阿华"]
    assert (hua.wins, hua.discards, hua.best_game, hua.worst_game, hua.net) == (0, 1, -20, -20, -40)
    assert stats["大刘"].net == -39
    order = [s.name for s in client.get("/stats").context["stats"]]
    assert order == ["老王", "小李", "大刘", "阿华"]
    html = client.get("/stats").content.decode()
    assert "100%" in html  # 老王's 自摸 rate


def test_history_lists_games_newest_first_with_their_results(client, db):
    a, b = two_games(client)
    html = client.get("/history").content.decode()
    assert html.index(game_url(b)) < html.index(game_url(a))
    assert '<bdi>老王</bdi> <b class="gain">+35</b>' in html
    assert '<bdi>老王</bdi> <b class="gain">+68</b>' in html


def test_another_phone_sees_no_history(client, db):
    from django.test import Client

    two_games(client)
    assert "这台手机还没有打开过牌局" in Client().get("/history").content.decode()


def test_home_history_and_stats_are_kept_by_no_cache(client, db):
    two_games(client)  # the lists hold edit links: the links are the keys
    for path in ("/", "/history", "/stats"):
        assert "no-store" in client.get(path)["Cache-Control"], path


def test_history_pages_twenty_games_at_a_time_newest_first(client, db):
    games = [Game.objects.create(players=[f"甲{i}", "乙", "丙", "丁"], rules=Rules().to_dict()) for i in range(23)]
    for game in games:
        client.get(game_url(game))
    first, second = client.get("/history"), client.get("/history?page=2")
    assert [line.game for line in first.context["rows"]] == games[::-1][:20]
    assert [line.game for line in second.context["rows"]] == games[::-1][20:]
    assert 'href="?page=2"' in first.content.decode()
    assert client.get("/history?page=x").context["rows"] == first.context["rows"]  # a bad page: the first
