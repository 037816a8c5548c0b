"""今晚几桌: a 牌友圈's night of several tables opened with each draw, a person moved between tables
between hands (a seating on both, or neither), the board across tables on a view link and its poll,
every table settled at once and the night's transfers netted: each person's net equal to the sum of
their tables' balances, zero-sum, and as few as a brute force finds (hypothesis, up to six people)."""

import json
import random

import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import night
from scoring.engine import get_ruleset
from scoring.engine.seating import key
from scoring.engine.transfers import settle_balances
from scoring.models import Game, Group, PayCode, SettleUp, TableNight
from scoring.nights.backup import night_backup
from scoring.services import nights as writes
from scoring.services.locks import Conflict
from tests.core.test_it_english_pages import leaks
from tests.factories import add_hand, finish
from tests.helpers import messages_of
from tests.speed import examples

EIGHT = ["老王", "小李", "阿华", "大刘", "阿明", "小芳", "老陈", "阿强"]
ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}
PINGHU = {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 0}
YIWU = get_ruleset("yiwu")


@pytest.fixture
def group(db) -> Group:
    return Group.objects.create(name="春节", roster=list(EIGHT))


def opened(group, people=EIGHT, tables=2, how=TableNight.AS_SEATED, rng=None) -> TableNight:
    return writes.open_night(group, people=people, tables=tables, how=how, ruleset=YIWU, rules=None, rng=rng)


def games(found: TableNight) -> list[Game]:
    return list(found.tables.order_by("pk"))


def test_as_seated_fills_tables_in_order_and_the_rest_sit_out(group):
    found = opened(group, [*EIGHT, "新来的"], tables=2)
    a, b = games(found)
    assert a.players == EIGHT[:4]
    assert b.players == EIGHT[4:8]
    assert a.group == b.group == group
    assert a.night == found
    assert found.drawn[-1] == ["新来的", -1, 0]
    group.refresh_from_db()
    assert group.roster == [*EIGHT, "新来的"]  # a new name joins the roster


def test_winds_deal_each_person_one_tile_of_a_table_or_a_blank():
    people = [f"p{i}" for i in range(10)]
    seating, drawn = night.seat_people(people, [4, 4], TableNight.WINDS, random.Random(3))
    assert [d[0] for d in drawn] == people  # shown in the order they were named
    tiles = sorted((t, s) for _n, t, s in drawn)
    assert tiles == [(-1, 0), (-1, 0), *[(t, s) for t in range(2) for s in range(4)]]
    assert sorted(n for table in seating for n in table) == sorted(n for n, t, _s in drawn if t >= 0)


@pytest.mark.parametrize(
    ("people", "tables", "words"),
    [(EIGHT[:4], 1, "5 to 16"), (EIGHT, 3, "at most 2 tables"), ([f"p{i}" for i in range(17)], 4, "5 to 16")],
)
def test_a_night_out_of_bounds_is_refused_and_nothing_is_saved(group, people, tables, words):
    with pytest.raises(night.NightConflict, match=words):
        opened(group, people, tables)
    assert not TableNight.objects.exists()
    assert not Game.objects.exists()


def test_a_roster_past_its_limit_refuses_the_whole_night(group, settings):
    settings.MAX_PEOPLE_PER_GROUP = 10
    with pytest.raises(night.NightConflict, match="at most 10 people"):
        opened(group, [*EIGHT[:5], "甲", "乙", "丙"], tables=2)
    assert not TableNight.objects.exists()
    assert not Game.objects.exists()


def test_moving_between_tables_is_a_seating_on_both(group):
    found = opened(group)
    a, b = games(found)
    add_hand(a, ZIMO)
    add_hand(b, PINGHU)
    writes.change_tables(found, "小李", "小芳")
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.seating == ["老王", "小芳", "阿华", "大刘"]
    assert b.seating == ["阿明", "小李", "老陈", "阿强"]
    add_hand(a, ZIMO)  # 老王 again: 小芳 plays her first hand at table 1
    assert [n for n, _p in night.board(found, False).people[0].points]  # the board reads the fresh replay
    add_hand(b, PINGHU)  # and 小李 his first at table 2
    shown = night.board(found, False)
    fang = next(p for p in shown.people if p.name == "小芳")
    li = next(p for p in shown.people if p.name == "小李")
    assert [n for n, _p in fang.points] == [1, 2]
    assert fang.at == 1
    assert [n for n, _p in li.points] == [1, 2]
    assert li.at == 2
    totals = {key(name): 0 for name in EIGHT}
    for game in (a, b):
        for name, points in game.plugin.state_from_dict(game.state["table"]).people():
            totals[key(name)] += points
    assert {key(p.name): p.total for p in shown.people} == totals
    assert sum(totals.values()) == 0


def test_a_move_refused_at_the_second_table_changes_neither(group, monkeypatch):
    found = opened(group)
    a, b = games(found)
    real = writes.record_hand

    def refused_at_b(*, game, **kwargs):
        if game.pk == b.pk:
            raise Conflict("别的手机刚记了一局。", "Another phone just recorded a hand.")
        return real(game=game, **kwargs)

    monkeypatch.setattr(writes, "record_hand", refused_at_b)
    with pytest.raises(Conflict):
        writes.change_tables(found, "小李", "小芳")
    assert not a.hands.exists()
    assert Game.objects.get(pk=a.pk).seating == EIGHT[:4]


def test_the_people_of_a_finished_table_are_free_to_sit_in(group):
    found = opened(group)
    a, b = games(found)
    finish(b)
    writes.change_tables(found, "小李", "小芳")
    a.refresh_from_db()
    assert a.seating == ["老王", "小芳", "阿华", "大刘"]
    assert not b.hands.exists()


def test_sitting_out_changes_places_with_one_at_a_table(group):
    found = opened(group, [*EIGHT, "阿九"])
    writes.change_tables(found, "阿九", "阿华")
    a, _b = games(found)
    assert a.seating == ["老王", "小李", "阿九", "大刘"]
    with pytest.raises(night.NightConflict, match="same table"):
        writes.change_tables(found, "阿九", "老王")


def test_the_board_on_a_view_link_and_its_poll(client, group):
    found = opened(group)
    a, _b = games(found)
    page = client.get(f"/night/{found.view_token}/").content.decode()
    assert "只读链接" in page
    assert "move-button" not in page
    version = night.poll_version(found)
    assert client.get(f"/night/{found.view_token}/poll?v={version}").status_code == 204
    add_hand(a, ZIMO)
    fresh = client.get(f"/night/{found.view_token}/poll?v={version}")
    assert fresh.status_code == 200
    assert 'id="night-board"' in fresh.content.decode()
    assert client.post(f"/night/{found.view_token}/move", {"mover": "小李", "other": "小芳"}).status_code == 403
    assert client.get("/night/nosuchtoken/").status_code == 404
    assert f'href="/night/{found.view_token}/"' in client.get(f"/g/{a.edit_token}/").content.decode()  # and back
    board = client.get(f"/night/{found.edit_token}/").content.decode()
    assert f'href="/g/{a.edit_token}/"' in board


def test_the_board_reads_a_bounded_number_of_queries(client, group):
    found = opened(group)
    a, b = games(found)
    with CaptureQueriesContext(connection) as few:
        client.get(f"/night/{found.edit_token}/")
    for _ in range(6):
        add_hand(a, ZIMO)
        add_hand(b, PINGHU)
    with CaptureQueriesContext(connection) as many:
        client.get(f"/night/{found.edit_token}/")
    assert len(many) == len(few)


def test_settle_every_table_and_net_the_night(client, group):
    found = opened(group)
    a, b = games(found)
    add_hand(a, ZIMO)
    add_hand(b, PINGHU)
    writes.change_tables(found, "小李", "小芳")
    add_hand(a, PINGHU)
    add_hand(b, ZIMO)
    response = client.post(
        f"/night/{found.edit_token}/settle/tables", {"rate": "100", "fee_mode": "equal"}, follow=True
    )
    assert "每一桌都结算了" in " ".join(messages_of(response))
    nets = night.nets(games(found))
    assert nets == table_balances(found)
    assert sum(nets.values()) == 0
    up = SettleUp.objects.get()
    paid_in: dict[str, int] = {}
    for t in up.transfers.all():
        paid_in[key(t.payer)] = paid_in.get(key(t.payer), 0) - t.amount_fen
        paid_in[key(t.payee)] = paid_in.get(key(t.payee), 0) + t.amount_fen
    assert paid_in == {k: v for k, v in nets.items() if v}
    assert up.transfers.count() == len(settle_balances(nets).transfers)
    page = client.get(f"/night/{found.view_token}/settle").content.decode()
    assert "今晚的转账" in page
    assert "最少的笔数" in page


def table_balances(found: TableNight) -> dict[str, int]:
    """Each person's fen summed over the tables' own settlements, read straight off them (not night.nets)."""
    by_table: dict[str, int] = {}
    for game in games(found):
        for name, fen in zip(game.settlement.people(), game.settlement.balances_fen, strict=True):
            by_table[key(name)] = by_table.get(key(name), 0) + fen
    return by_table


def tonights_transfers(found: TableNight) -> tuple[list[tuple[str, str, int]], dict[str, int]]:
    """The night's transfers (its settle-up's, or the tables' own when nothing was netted) and what
    they move for each person, by ``key``."""
    up = night.settle_up_of(found)
    netted = (
        [(t.payer, t.payee, t.amount_fen) for t in up.transfers.all()]
        if up
        else [(o.payer, o.payee, o.amount_fen) for o in night.owed_tonight(found)]
    )
    paid: dict[str, int] = {}
    for payer, payee, fen in netted:
        paid[key(payer)] = paid.get(key(payer), 0) - fen
        paid[key(payee)] = paid.get(key(payee), 0) + fen
    return netted, paid


def fewest_by_brute_force(balances: list[int]) -> int:
    """The fewest transfers clearing ``balances``: n − the most disjoint zero-sum groups (every subset tried)."""
    people = [b for b in balances if b]
    n = len(people)
    best = {0: 0}
    for mask in range(1, 1 << n):
        total = sum(people[i] for i in range(n) if mask >> i & 1)
        below = max((best[mask & ~(1 << i)] for i in range(n) if mask >> i & 1), default=0)
        best[mask] = below + (1 if total == 0 else 0)
    return n - best[(1 << n) - 1] if n else 0


WUYI2 = get_ruleset("wuyi2")
HANDS = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 1), st.booleans(), st.integers(0, 5), st.integers(0, 5)),
    min_size=1,
    max_size=8,
)


@given(st.integers(5, 6), st.integers(2, 3), HANDS, st.sampled_from(["100", "50", "10"]), st.integers(0, 3000))
@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_nights_settle_up_is_exact_and_minimal(db, size, tables, hands, rate, fee):
    """A night of 武义二人 (2 seats) with up to six people: random wins at random tables, people moved
    between hands, one fee for the night (or none); settled, each person's net is the sum of their
    tables' balances, less an equal share of the fee (the whole fee to p0, who advanced it), zero-sum;
    the netted transfers clear exactly that and are as few as a brute force finds."""
    people, tables = [f"p{i}" for i in range(size)], min(tables, size // 2)
    group = Group.objects.create(name="二人", roster=people)
    found = writes.open_night(
        group, people=people, tables=tables, how=TableNight.RANDOM, ruleset=WUYI2, rules=None, rng=random.Random(size)
    )
    for table, winner, discard, mover, other in hands:
        game = games(found)[table % tables]
        entry = {"outcome": "win", "winner": winner, "patterns": [], **({"discarder": 1 - winner} if discard else {})}
        add_hand(game, entry)
        try:
            writes.change_tables(found, people[mover % size], people[other % size])
        except night.NightConflict:
            pass  # the same table, or both sitting out: refused, nothing changed
    writes.settle_all(found, rate_fen=int(rate), round_yuan=False, fee_fen=fee, fee_mode="equal", fee_payee="p0")
    nets = night.nets(games(found))
    assert nets == table_balances(found)
    assert sum(nets.values()) == 0
    shares = night.to_net(found, games(found), night.owed_tonight(found)).fee_shares if fee else {}
    assert sum(shares.values()) == fee
    assert all(share in (fee // len(nets), fee // len(nets) + 1) for share in shares.values())
    final = {k: v - shares.get(k, 0) for k, v in nets.items()}
    final["p0"] = final.get("p0", 0) + fee  # p0 advanced it, whether or not they played a hand
    netted, paid = tonights_transfers(found)
    assert {k: v for k, v in paid.items() if v} == {k: v for k, v in final.items() if v}
    assert len(netted) == fewest_by_brute_force(list(final.values()))


def test_one_fee_for_the_night_is_split_among_everyone_who_played_and_paid_to_who_advanced_it(client, group):
    found = opened(group)
    a, b = games(found)
    add_hand(a, ZIMO)
    add_hand(b, ZIMO)
    form = {"rate": "100", "fee_mode": "equal", "fee_yuan": "100", "fee_payee": "阿华"}
    client.post(f"/night/{found.edit_token}/settle/tables", form)
    found.refresh_from_db()
    assert (found.fee_fen, found.fee_payee) == (10000, "阿华")
    nets = night.nets(games(found))
    up = night.settle_up_of(found)
    paid: dict[str, int] = {}
    for t in up.transfers.all():
        paid[key(t.payer)] = paid.get(key(t.payer), 0) - t.amount_fen
        paid[key(t.payee)] = paid.get(key(t.payee), 0) + t.amount_fen
    assert paid == {k: v - 1250 + (10000 if k == "阿华" else 0) for k, v in nets.items()}  # 100 元 ÷ 8
    page = client.get(f"/night/{found.view_token}/settle").content.decode()
    assert "今晚台费 100 元" in page
    assert "台费 −12.50 元" in page
    # settled again (unpaid): the plan is given up for the new one, with no fee now
    client.post(f"/night/{found.edit_token}/settle/tables", {"rate": "100", "fee_mode": "equal"})
    assert SettleUp.objects.count() == 1
    assert sum(t.amount_fen for t in night.settle_up_of(found).transfers.all()) < sum(abs(v) for v in paid.values())
    first = night.settle_up_of(found).transfers.first()
    client.post(f"/night/{found.edit_token}/paid/{first.pk}", {"paid": "1"})
    response = client.post(f"/night/{found.edit_token}/settle/tables", form, follow=True)
    assert "已经有人付了" in " ".join(messages_of(response))


def test_a_fee_advanced_by_someone_not_tonight_is_refused(group):
    found = opened(group)
    writes.settle_tables(found, rate_fen=100, round_yuan=False)
    with pytest.raises(night.NightConflict, match="not one of tonight"):
        writes.settle_night(found, fee_fen=500, fee_payee="外人")
    assert not SettleUp.objects.exists()


def test_brute_force_knows_small_cases():
    assert fewest_by_brute_force([5, -5, 3, -3]) == 2
    assert fewest_by_brute_force([4, -1, -1, -2]) == 3
    assert fewest_by_brute_force([]) == 0


def test_a_nights_backup_restores_the_night_and_its_tables(client, group):
    found = opened(group)
    a, b = games(found)
    add_hand(a, ZIMO)
    writes.change_tables(found, "小李", "小芳")
    add_hand(b, PINGHU)
    writes.settle_all(found, rate_fen=50, round_yuan=True, fee_fen=3000, fee_mode="winners", fee_payee="阿华")
    response = client.get(f"/night/{found.view_token}/backup.json")
    assert response["Content-Disposition"].startswith('attachment; filename="mahjong-night-')
    other = Group.objects.create(name="另一圈", roster=[])
    upload = SimpleUploadedFile("night.json", response.content, content_type="application/json")
    restored = client.post(f"/group/{other.edit_token}/night/restore", {"file": upload})
    again = TableNight.objects.get(group=other)
    assert restored.status_code == 302
    assert restored["Location"] == f"/night/{again.edit_token}/"
    assert (again.people, again.draw, again.drawn) == (found.people, found.draw, found.drawn)
    fee = ("fee_fen", "fee_mode", "fee_payee", "round_yuan")
    assert [getattr(again, f) for f in fee] == [3000, "winners", "阿华", True]
    assert [(g.players, g.seating, g.status, g.group) for g in games(again)] == [
        (g.players, g.seating, g.status, other) for g in games(found)
    ]
    assert night.nets(night.tables_of(again)) == night.nets(night.tables_of(found))
    other.refresh_from_db()
    assert other.roster == EIGHT


@pytest.mark.parametrize(
    "broken",
    [
        {"night": {}, "tables": []},
        {"tables": []},
        "not a night",
        {
            "night": {"format": 1, "people": ["a"] * 5, "draw": "random", "drawn": [], "created_at": "", "fee": {}},
            "tables": [],
        },
    ],
)
def test_a_broken_nights_backup_is_refused_in_words_and_restores_nothing(client, group, broken):
    found = opened(group)
    assert night_backup(found)["night"]["people"] == EIGHT  # what a whole one holds
    raw = json.dumps(broken).encode()
    upload = SimpleUploadedFile("night.json", raw, content_type="application/json")
    response = client.post(f"/group/{group.edit_token}/night/restore", {"file": upload})
    assert response.status_code == 400
    assert "今晚的备份" in response.content.decode()
    assert TableNight.objects.count() == 1
    assert Game.objects.count() == 2


def test_a_backup_with_a_bad_table_restores_no_table_and_no_night(client, group):
    found = opened(group)
    data = night_backup(found)
    data["tables"][1]["hands"] = [{"outcome": "win", "winner": 9}]
    upload = SimpleUploadedFile("night.json", json.dumps(data).encode(), content_type="application/json")
    response = client.post(f"/group/{group.edit_token}/night/restore", {"file": upload})
    assert response.status_code == 400
    assert (TableNight.objects.count(), Game.objects.count()) == (1, 2)


def test_every_night_page_answers_in_english_with_no_chinese_left(client, db):
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
    group = Group.objects.create(name="Fridays", roster=names)
    found = writes.open_night(group, people=names, tables=2, how=TableNight.WINDS, ruleset=YIWU, rules=None)
    a, b = games(found)
    add_hand(a, ZIMO)
    add_hand(b, PINGHU)
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    edit, view = f"/night/{found.edit_token}/", f"/night/{found.view_token}/"
    pages = [edit, view, edit + "settle", f"/group/{group.edit_token}/night/new", f"/group/{group.edit_token}/"]
    pages += [f"/group/{group.edit_token}/night/restore", f"/g/{a.edit_token}/"]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert leaks(response.content.decode()) == [], url
    client.post(edit + "settle/tables", {"rate": "50", "fee_mode": "equal"})
    for url in (edit, view + "settle", edit + "settle"):
        page = client.get(url).content.decode()
        assert leaks(page) == [], url
    assert "Tonight's transfers" in page
    assert "White dragon (sits out)" in client.get(edit).content.decode()  # Ivy drew the blank


def test_each_payees_code_shows_once_and_paid_ticks_on_the_nights_transfers(client, group):
    found = opened(group)
    a, b = games(found)
    add_hand(a, ZIMO)  # 老王 wins at table 1; 阿明 at table 2: each is paid by three
    add_hand(b, ZIMO)
    for name in ("老王", "阿明"):
        PayCode.objects.create(group=group, name=name, person=key(name), kind="wechat", address=f"wxp://f2f0{name}")
    client.post(f"/night/{found.edit_token}/settle/tables", {"rate": "100", "fee_mode": "equal"})
    page = client.get(f"/night/{found.view_token}/settle").content.decode()
    up = night.settle_up_of(found)
    assert up.transfers.count() == 6
    assert page.count('class="paycode-image') == 2  # 老王's and 阿明's, once each
    first = up.transfers.first()
    assert client.post(f"/night/{found.view_token}/paid/{first.pk}", {"paid": "1"}).status_code == 403
    client.post(f"/night/{found.edit_token}/paid/{first.pk}", {"paid": "1"})
    first.refresh_from_db()
    assert first.paid_at is not None
    assert client.post(f"/night/{found.edit_token}/paid/999999", {"paid": "1"}).status_code == 404
    png = client.get(f"/night/{found.view_token}/paycode/{PayCode.objects.first().pk}.png")
    assert png["Content-Type"] == "image/png"


def test_the_new_night_form_opens_the_night_or_says_why_not(client, group):
    url = f"/group/{group.edit_token}/night/new"
    form = {"people": "\n".join(EIGHT), "tables": "3", "how": "winds", "ruleset": "yiwu"}
    refused = client.post(url, form)
    assert refused.status_code == 200
    assert "8 个人最多开 2 桌（每桌 4 人）" in refused.content.decode()
    assert not TableNight.objects.exists()
    assert client.get(f"/group/{group.view_token}/night/new").status_code == 403
    opened_page = client.post(url, {**form, "tables": "2", "ruleset": "wuyi2"})
    found = TableNight.objects.get()
    assert opened_page["Location"] == f"/night/{found.edit_token}/"
    assert [g.ruleset for g in games(found)] == ["wuyi2", "wuyi2"]
    assert sorted(n for g in games(found) for n in g.players) == sorted(n for n, t, _s in found.drawn if t >= 0)
    assert len([d for d in found.drawn if d[1] < 0]) == 4  # 武义二人: two tables of two, four sit out
