"""赛季: a 牌友圈's season, made, changed, closed and deleted from its page with clear refusals; its
standings exact across evenings and simultaneous tables (each person's money and hands the sum of
what the engine says of each game), ranked past a minimum of hands, 元 per hand rounded from the
integers; its picture and CSV; a view link changes nothing."""

import json
from datetime import date, datetime, time, timedelta
from fractions import Fraction

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone, translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine.contract import score_game
from scoring.engine.points import from_json
from scoring.engine.seating import is_seating
from scoring.groups.evenings import Standing
from scoring.groups.season_picture import ROWS, picture_svg
from scoring.groups.seasons import Board
from scoring.models import AccessMiss, Game, Group, Season
from scoring.replay import all_nets
from scoring.rulesets.yiwu.engine import Rules
from tests.core.test_it_english_pages import leaks
from tests.core.test_it_no_500 import SAFE, VALUES
from tests.factories import finish, random_game
from tests.groups.test_it_groups import english, group_url, played
from tests.helpers import messages_of
from tests.speed import examples

NAMES = ["老王", "小李", "阿华", "大刘"]
ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}


@pytest.fixture
def group(db) -> Group:
    return Group.objects.create(name="周五老地方", roster=list(NAMES))


def local(day: date, hour: int = 20, minute: int = 0) -> datetime:
    return timezone.make_aware(datetime.combine(day, time(hour, minute)))


def table(group, players, hands, at: datetime, rate: int | None = 100) -> Game:
    """A game of ``group`` begun ``at`` with ``hands`` stored, settled at ``rate`` 分 a point (None: open)."""
    game = played(Game.objects.create(players=list(players), rules=Rules().to_dict(), group=group), hands)
    if rate is not None:
        finish(game, rate)
    Game.objects.filter(pk=game.pk).update(created_at=at)
    game.refresh_from_db()
    return game


def engine_sums(games: list[Game]) -> tuple[dict, dict]:
    """Each person's 分 (the engine's total × the game's rate) and hands sat in, summed over ``games``,
    from the scoring contract and the hands themselves: not from the app's stored replay."""
    fen: dict[str, int] = {}
    hands: dict[str, int] = {}
    for game in games:
        entries = [h.entry for h in game.hands.filter(voided_at__isnull=True).order_by("seq")]
        out = score_game({"ruleset": game.ruleset, "rules": game.rules, "players": game.players, "hands": entries})
        seated, sat = list(game.players), {}
        for entry in entries:
            if is_seating(entry):
                seated = entry["players"]
                continue
            for name in seated:
                sat[name] = sat.get(name, 0) + 1
        for person in out["people"]:
            if person["name"] in sat:
                fen[person["name"]] = fen.get(person["name"], 0) + from_json(person["total"]) * game.settlement.rate_fen
                hands[person["name"]] = hands.get(person["name"], 0) + sat[person["name"]]
    return fen, hands


def season(group, start: date, end: date, min_hands: int = 0, name: str = "冬季赛") -> Season:
    return Season.objects.create(group=group, name=name, start=start, end=end, min_hands=min_hands)


def board_of(client, group, found: Season):
    return client.get(group_url(group) + f"?period=season-{found.pk}").context["board"]


# -- exact across evenings and tables -----------------------------------------------------------


def test_a_seasons_standings_are_the_engines_sums_across_evenings_and_simultaneous_tables(client, group):
    """Four games in the season: a Friday evening (30 random hands, 1 元 a point); the next Saturday two
    tables at the same time, 老王 at both (24 and 18 random hands, 0.5 and 2 元), and at the first 小张
    takes 大刘's seat halfway through a third game. Outside it: a game the day before it starts, one the
    day after it ends, and one in it still open. Each person's 元 and hands are the engine's per game, summed."""
    first, last = date(2026, 11, 6), date(2026, 11, 30)
    friday = table(group, NAMES, random_game(30, seed=1)["hands"], local(first, 20))
    one = table(group, NAMES, random_game(24, seed=2)["hands"], local(date(2026, 11, 7), 19), rate=50)
    two = table(
        group, ["小陈", "老王", "小周", "小吴"], random_game(18, seed=3)["hands"], local(date(2026, 11, 7), 19), 200
    )
    seating = {"outcome": "seating", "players": ["老王", "小李", "阿华", "小张"]}
    swap = table(group, NAMES, [ZIMO, ZIMO, seating, ZIMO, {**ZIMO, "winner": 3}], local(date(2026, 11, 7), 23, 59))
    table(group, NAMES, random_game(8, seed=4)["hands"], local(first - timedelta(days=1), 23, 59))
    table(group, NAMES, random_game(8, seed=5)["hands"], local(last + timedelta(days=1), 0, 0))
    table(group, NAMES, random_game(8, seed=6)["hands"], local(date(2026, 11, 20)), rate=None)
    found = board_of(client, group, season(group, first, last))
    fen, hands = engine_sums([friday, one, two, swap])
    assert {s.name: s.fen for _place, s in found.ranked} == fen
    assert {s.name: s.hands for _place, s in found.ranked} == hands
    assert sum(fen.values()) == 0
    assert hands["老王"] == 30 + 24 + 18 + 4  # both tables, and the seating game throughout
    assert (hands["大刘"], hands["小张"]) == (30 + 24 + 2, 2)
    assert (found.counted, found.unsettled) == (4, 1)
    assert [s.name for _place, s in found.ranked] == sorted(fen, key=lambda n: (-fen[n], n))
    assert found.unranked == []


def test_whoever_played_fewer_hands_than_the_minimum_is_listed_unranked(client, group):
    """老王 自摸s three times, then 小张 takes 大刘's seat for two more: under the season's 4 hands 大刘
    (3) and 小张 (2) are listed apart, 「未满4局」, in their order of money; 小李 and 阿华 share second place."""
    seating = {"outcome": "seating", "players": ["老王", "小李", "阿华", "小张"]}
    table(group, NAMES, [ZIMO, ZIMO, ZIMO, seating, ZIMO, ZIMO], local(timezone.localdate()))
    found = board_of(client, group, season(group, timezone.localdate(), timezone.localdate(), min_hands=4))
    assert [(place, s.name, s.hands) for place, s in found.ranked] == [(1, "老王", 5), (2, "小李", 5), (2, "阿华", 5)]
    assert sorted((s.name, s.hands) for s in found.unranked) == [("大刘", 3), ("小张", 2)]
    assert [s.fen for s in found.unranked] == sorted((s.fen for s in found.unranked), reverse=True)
    html = client.get(group_url(group) + f"?period=season-{found.season.pk}").content.decode()
    assert "未满4局，不排名" in html
    unranked = html[html.index("unranked-title") :]
    assert 'data-person="小张"' in unranked
    assert 'data-person="老王"' not in unranked


@given(fen=st.integers(-(10**9), 10**9), hands=st.integers(1, 10**5))
def test_the_average_per_hand_is_the_exact_quotient_rounded_half_away_from_zero_to_a_tenth_of_a_yuan(fen, hands):
    exact = Fraction(abs(fen), 10 * hands)  # 角 per hand
    rounded = int(exact) + (1 if exact - int(exact) >= Fraction(1, 2) else 0)
    assert Standing("老王", fen=fen, hands=hands).per_hand == (rounded if fen >= 0 else -rounded)


def test_the_average_per_hand_shows_on_the_page_to_one_decimal(client, group):
    """3 自摸 of 老王 at 0.1 元: +3 × 42 × 10 分 = 12.60 元 over 3 hands, 4.2 元 a hand; the others −4.20 元, −1.4."""
    table(group, NAMES, [ZIMO, ZIMO, ZIMO], local(timezone.localdate()), rate=10)
    html = client.get(group_url(group)).content.decode()
    block = html[html.index('data-person="老王"') :]
    assert "每局 +4.2 元" in block[: block.index("</li>")]
    block = html[html.index('data-person="小李"') :]
    assert "每局 −1.4 元" in block[: block.index("</li>")]
    assert Standing("x", fen=-5, hands=1).per_hand == -1
    assert Standing("x", fen=4, hands=1).per_hand == 0


def test_a_season_counts_its_first_and_last_days_in_local_time(client, group):
    day = date(2026, 11, 10)
    inside = [local(day, 0, 0), local(day + timedelta(days=2), 23, 59)]
    for at in [*inside, local(day, 0, 0) - timedelta(minutes=1), local(day + timedelta(days=3), 0, 0)]:
        table(group, NAMES, [ZIMO], at)
    found = board_of(client, group, season(group, day, day + timedelta(days=2)))
    assert found.counted == 2
    assert {s.name: s.hands for _p, s in found.ranked} == dict.fromkeys(NAMES, 2)


# -- made, changed, closed, deleted -------------------------------------------------------------


def post_season(client, group, **fields):
    data = {"name": "冬季赛", "start": "2026-11-01", "end": "2026-11-30", "min_hands": "16", **fields}
    return client.post(group_url(group) + "season/new", data, follow=True)


def test_a_season_is_made_from_the_group_page_and_is_a_period_of_its_standings(client, group):
    response = post_season(client, group)
    made = Season.objects.get()
    assert (made.name, made.start, made.end, made.min_hands) == ("冬季赛", date(2026, 11, 1), date(2026, 11, 30), 16)
    assert "赛季已建好。" in messages_of(response)
    assert response.redirect_chain[-1][0] == group_url(group) + f"?period=season-{made.pk}#standings"
    html = response.content.decode()
    assert "2026-11-01 – 2026-11-30" in html
    assert "打满 16 局才排名" in html
    assert f"/season/{made.pk}/picture" in html


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"name": ""}, "请给赛季起个名字。"),
        ({"name": "长" * 21}, "赛季名字最多 20 个字。"),
        ({"end": "2026-10-31"}, "结束日期不能早于开始日期。"),
        ({"start": "2026-13-01"}, "开始日期看不懂。"),
        ({"end": ""}, "请选结束日期。"),
        ({"min_hands": "-1"}, "局数不能是负数。"),
        ({"min_hands": "三"}, "局数要填整数。"),
        ({"min_hands": "10001"}, "局数最多 10000。"),
    ],
)
def test_a_wrong_season_is_refused_with_a_message_and_nothing_made(client, group, fields, said):
    response = post_season(client, group, **fields)
    assert response.status_code == 200
    assert said in " ".join(messages_of(response))
    assert not Season.objects.exists()


def test_a_group_holds_at_most_fifty_seasons(client, group):
    Season.objects.bulk_create(
        Season(group=group, name=f"第{n}季", start=date(2026, 1, 1), end=date(2026, 1, 2)) for n in range(50)
    )
    response = post_season(client, group)
    assert "一个牌友圈最多 50 个赛季：先删掉一个旧的。" in messages_of(response)
    assert Season.objects.count() == 50


def test_a_season_is_changed_closed_today_and_deleted_with_its_games_kept(client, group):
    today = timezone.localdate()
    made = season(group, today - timedelta(days=3), today + timedelta(days=30))
    game = table(group, NAMES, [ZIMO], local(today))
    url = group_url(group) + f"season/{made.pk}/"
    data = {"name": "春季赛", "start": str(today - timedelta(days=5)), "end": str(today + timedelta(days=9))}
    response = client.post(url + "edit", {**data, "min_hands": "4"}, follow=True)
    assert "赛季已保存。" in messages_of(response)
    made.refresh_from_db()
    assert (made.name, made.start, made.min_hands) == ("春季赛", today - timedelta(days=5), 4)
    response = client.post(url + "close", follow=True)
    assert "赛季已结束：到今天为止。" in messages_of(response)
    made.refresh_from_db()
    assert made.end == today
    later = season(group, today + timedelta(days=1), today + timedelta(days=9), name="下个月")
    response = client.post(group_url(group) + f"season/{later.pk}/close", follow=True)
    assert "赛季今天才开始：不能在开始之前结束。" in " ".join(messages_of(response))
    assert Season.objects.get(pk=later.pk).end == today + timedelta(days=9)
    past = season(group, today - timedelta(days=9), today - timedelta(days=1), name="上个月")
    response = client.post(group_url(group) + f"season/{past.pk}/close", follow=True)
    assert "这个赛季已经结束了。" in " ".join(messages_of(response))
    assert "season-close" not in response.content.decode()  # no 结束赛季 offered on it
    assert Season.objects.get(pk=past.pk).end == today - timedelta(days=1)
    response = client.post(url + "delete", follow=True)
    assert "赛季已删除，牌局都还在。" in messages_of(response)
    assert not Season.objects.filter(pk=made.pk).exists()
    assert Game.objects.filter(pk=game.pk, group=group).exists()
    response = client.post(url + "close", follow=True)  # meanwhile deleted on another phone
    assert "这个赛季已经不在了。" in messages_of(response)


def test_a_view_link_sees_a_season_but_cannot_change_it_and_another_groups_season_is_not_found(client, group):
    made = season(group, date(2026, 11, 1), date(2026, 11, 30))
    other = Group.objects.create(name="别的圈", roster=list(NAMES))
    view = group_url(group, view=True)
    html = client.get(view + f"?period=season-{made.pk}").content.decode()
    assert "冬季赛" in html
    assert "season-edit" not in html
    assert "新建赛季" not in html
    assert client.get(view + f"season/{made.pk}/picture").status_code == 200
    for action in ("edit", "close", "delete"):
        assert client.post(view + f"season/{made.pk}/{action}").status_code == 403
    assert client.post(view + "season/new", {"name": "x"}).status_code == 403
    assert Season.objects.get().name == "冬季赛"
    assert client.get(group_url(other) + f"season/{made.pk}/picture").status_code == 404
    # another group's season, or no season at all, is all time
    assert client.get(group_url(other) + f"?period=season-{made.pk}").context["period"] == "all"
    assert client.get(group_url(group) + "?period=season-x1").context["period"] == "all"


# -- the picture and the CSV ---------------------------------------------------------------------


def test_the_seasons_picture_says_its_standings_biggest_hand_and_who_won_most(client, group):
    """老王 deals and 自摸s (+42), 小李 平胡s off him, then deals and 自摸s (+42 too): the biggest single
    gain, 小李's as he stands higher on the tie, is found in its game and numbered as the evening's
    picture numbers hands (第3局); 小李 won most, twice."""
    today = timezone.localdate()
    hands = [ZIMO, {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 0}, {**ZIMO, "winner": 1}]
    game = table(group, NAMES, hands, local(today))
    made = season(group, today, today, min_hands=1, name="冬季赛")
    svg = client.get(group_url(group) + f"season/{made.pk}/picture.svg").content.decode()
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="1080"')
    assert "冬季赛" in svg
    assert f"{today:%Y-%m-%d} – {today:%Y-%m-%d}" in svg
    names, nets = all_nets(game)
    assert [net[names.index("小李")] for net in nets] == [-14, 18, 42]  # the engine's
    assert max(net[names.index("老王")] for net in nets) == 42
    assert f"最大一局：小李 +42 分（{today:%m-%d} 20:00 那场第3局）" in svg
    assert "胡得最多：小李 2 次" in svg
    page = client.get(group_url(group) + f"season/{made.pk}/picture").content.decode()
    assert f'src="{group_url(group)}season/{made.pk}/picture.svg"' in page
    assert "data-picture-download" in page


def test_the_picture_draws_at_most_sixteen_rows_and_says_how_many_more():
    people = [Standing(f"人{n:02d}", fen=1000 - n, hands=20, wins=1) for n in range(ROWS + 5)]
    made = Season(name="冬季赛", start=date(2026, 11, 1), end=date(2026, 11, 30), min_hands=16)
    found = Board([(n + 1, s) for n, s in enumerate(people)], [Standing("少来", hands=3)], 16, 9, 0, made, people)
    with translation.override("zh-hans"):
        svg = picture_svg(found, "周五老地方")
    assert f"人{ROWS - 1:02d}" in svg
    assert f"人{ROWS:02d}" not in svg
    assert "还有 5 人" in svg
    assert "未满16局，不排名：1 人" in svg


def test_the_standings_download_as_csv_with_the_unranked_last(client, group):
    today = timezone.localdate()
    seating = {"outcome": "seating", "players": ["老王", "小李", "阿华", "小张"]}
    table(group, NAMES, [ZIMO, ZIMO, seating, ZIMO], local(today))
    made = season(group, today, today, min_hands=3)
    body = client.get(group_url(group) + f"standings.csv?period=season-{made.pk}").content.decode()
    lines = body.removeprefix("\ufeff").splitlines()
    assert lines[0] == "名次,名字,输赢（元）,每局（元）,局数,场数,胡,自摸,放铳,最大一局（分）"
    assert lines[1].startswith("1,老王,")
    assert sorted(line.split(",")[:2] for line in lines[-2:]) == [["未满3局", "大刘"], ["未满3局", "小张"]]
    english(client)
    body = client.get(group_url(group, view=True) + f"standings.csv?period=season-{made.pk}").content.decode()
    assert body.removeprefix("\ufeff").startswith("Rank,Name,")


def test_a_season_answers_in_english_with_no_chinese_left(client, group):
    today = timezone.localdate()
    table(group, NAMES, [ZIMO, ZIMO], local(today))
    made = season(group, today, today, min_hands=2, name="Winter")
    table(group, ["老王", "小李", "阿华", "Sam"], [ZIMO], local(today))  # Sam: one hand, unranked
    Group.objects.filter(pk=group.pk).update(name="Friday", roster=[])
    english(client)
    response = post_season(client, group, end="2026-10-01")
    assert "The last day cannot come before the first." in messages_of(response)
    pages = [f"?period=season-{made.pk}", f"season/{made.pk}/picture", f"season/{made.pk}/picture.svg"]
    for page in pages:
        html = client.get(group_url(group) + page).content.decode()
        names_out = html
        for name in NAMES:
            names_out = names_out.replace(name, "")
        assert leaks(names_out) == [], page
    html = client.get(group_url(group) + pages[0]).content.decode()
    assert "Under 2 hands, not ranked" in html
    assert "Per hand +¥" in html


# -- out and back in ------------------------------------------------------------------------------


def test_seasons_go_out_as_json_with_their_standings_and_a_restore_makes_them_again(client, group):
    today = timezone.localdate()
    table(group, NAMES, [ZIMO, ZIMO], local(today))
    season(group, today, today, min_hands=2, name="冬季赛")
    season(group, date(2026, 1, 1), date(2026, 3, 31), min_hands=16, name="春季赛")
    data = client.get(group_url(group, view=True) + "seasons.json").json()
    assert (data["format"], data["kind"], data["group"]) == (1, "seasons", "周五老地方")
    winter = next(s for s in data["seasons"] if s["name"] == "冬季赛")
    assert (winter["start"], winter["min_hands"], winter["counted"]) == (f"{today:%Y-%m-%d}", 2, 1)
    page = {s.name: s for _p, s in board_of(client, group, Season.objects.get(name="冬季赛")).ranked}
    assert [(r["place"], r["name"], r["fen"], r["hands"]) for r in winter["standings"]] == [
        (1, "老王", page["老王"].fen, 2),
        (2, "大刘", page["大刘"].fen, 2),
        (2, "小李", page["小李"].fen, 2),
        (2, "阿华", page["阿华"].fen, 2),
    ]
    assert sum(r["fen"] for r in winter["standings"]) == 0
    # into another group, by the page's file form; again, nothing is made twice
    other = Group.objects.create(name="新圈", roster=[])
    upload = SimpleUploadedFile("seasons.json", json.dumps(data).encode(), content_type="application/json")
    response = client.post(group_url(other) + "seasons/restore", {"file": upload}, follow=True)
    assert "已恢复 2 个赛季。" in messages_of(response)
    made = sorted((s.name, s.start, s.end, s.min_hands) for s in other.seasons.all())
    assert made == sorted((s.name, s.start, s.end, s.min_hands) for s in group.seasons.all())
    response = client.post(group_url(other) + "seasons.json", json.dumps(data), content_type="application/json")
    assert response.json() == {"made": 0}
    assert other.seasons.count() == 2


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d.update(kind="game"), "这不是本应用导出的赛季文件。"),
        (lambda d: d["seasons"][1].update(end="2026-01-01", start="2026-02-01"), "第2个赛季：结束日期早于开始日期。"),
        (lambda d: d["seasons"][0].update(name=""), "第1个赛季：名字应为 1-20 个字"),
        (lambda d: d["seasons"][0].update(start="2026/01/01"), "开始日期应为 YYYY-MM-DD 的日期。"),
        (lambda d: d["seasons"][0].update(min_hands=True), "min_hands 应为 0-10000 的整数。"),
        (lambda d: d["seasons"][0].pop("min_hands"), "应有 name、start、end、min_hands。"),
        (lambda d: d.update(seasons=[d["seasons"][0]] * 51), "seasons 应为最多 50 个赛季的列表。"),
    ],
)
def test_a_wrong_seasons_file_is_refused_whole_with_a_message(client, group, change, said):
    data = {"format": 1, "kind": "seasons", "seasons": []}
    for n in (1, 2):
        data["seasons"].append({"name": f"第{n}季", "start": "2026-01-01", "end": "2026-02-01", "min_hands": 16})
    change(data)
    response = client.post(group_url(group) + "seasons.json", json.dumps(data), content_type="application/json")
    assert response.status_code == 400
    assert said in response.json()["error"]
    upload = SimpleUploadedFile("s.json", json.dumps(data).encode())
    response = client.post(group_url(group) + "seasons/restore", {"file": upload}, follow=True)
    assert said in " ".join(messages_of(response))
    assert not Season.objects.exists()
    assert (
        client.post(group_url(group, view=True) + "seasons.json", "{}", content_type="application/json").status_code
        == 403
    )


def test_a_restore_past_fifty_seasons_is_refused_and_makes_none(client, group):
    Season.objects.bulk_create(
        Season(group=group, name=f"第{n}季", start=date(2025, 1, 1), end=date(2025, 1, 2)) for n in range(49)
    )
    seasons = [{"name": f"新{n}", "start": "2026-01-01", "end": "2026-01-02", "min_hands": 0} for n in range(2)]
    body = json.dumps({"format": 1, "kind": "seasons", "seasons": seasons})
    response = client.post(group_url(group) + "seasons.json", body, content_type="application/json")
    assert response.json()["error"] == "一个牌友圈最多 50 个赛季：先删掉一个旧的。"
    assert Season.objects.count() == 49


SEASON_POSTS = st.dictionaries(
    st.sampled_from(["name", "start", "end", "min_hands", "period", "file"]),
    st.one_of(VALUES, st.just("2026-11-01"), st.just("2026-02-30"), st.just("99999")),
    max_size=5,
)


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=SEASON_POSTS,
    path=st.sampled_from(
        [
            "season/new",
            "season/{id}/edit",
            "season/{id}/close",
            "season/{id}/delete",
            "season/99/edit",
            "season/{id}/picture",
            "season/{id}/picture.svg",
            "seasons.json",
            "seasons/restore",
            "standings.csv",
            "",
        ]
    ),
    view=st.booleans(),
    method=st.sampled_from(["get", "post"]),
)
def test_whatever_a_phone_sends_to_a_season_is_a_page_or_a_message(client, group, data, path, view, method):
    AccessMiss.objects.all().delete()
    held = Season.objects.first() or season(group, date(2026, 11, 1), date(2026, 11, 30))
    url = group_url(group, view=view) + path.format(id=held.pk)
    response = getattr(client, method)(url, data)
    assert response.status_code in SAFE
    for found in Season.objects.all():
        assert found.start <= found.end
        assert 0 < len(found.name) <= 20
        assert found.min_hands <= 10_000
    assert Season.objects.count() <= Season.MAX_PER_GROUP


@pytest.mark.parametrize("games", [2, 8])
def test_a_seasons_pages_cost_the_same_queries_however_many_games(client, group, games, django_assert_max_num_queries):
    today = timezone.localdate()
    for n in range(games):
        table(group, NAMES, [ZIMO, {**ZIMO, "winner": n % 4}], local(today), rate=100 if n < games - 1 else None)
    made = season(group, today, today, min_hands=2)
    client.get(group_url(group))  # the phone's cookie
    with django_assert_max_num_queries(11):  # the group page's own bound (tests/groups/test_it_groups.py)
        assert client.get(group_url(group) + f"?period=season-{made.pk}").status_code == 200
    for page in ("picture", "picture.svg"):
        with django_assert_max_num_queries(6):  # and the biggest hand's one game's hands
            assert client.get(group_url(group) + f"season/{made.pk}/{page}").status_code == 200
    with django_assert_max_num_queries(6):
        assert client.get(group_url(group) + "seasons.json").status_code == 200
