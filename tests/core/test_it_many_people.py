"""An evening with many people (换人/换位 and imports): the settle preview stays cheap however many
sat at it and says when its transfers may not be the fewest, and the people limits (per game, per
牌友圈) refuse more with a message in both languages and change nothing."""

import json
import time

import pytest
from django.conf import settings
from django.test import Client, override_settings

from scoring import circle
from scoring.engine.transfers import NOT_FEWEST
from scoring.models import Game, Group, Hand, SettleUp, Transfer
from tests.factories import finish
from tests.helpers import FINISH, game_url, messages_of, next_seq_of, record, version_of
from tests.table.test_it_seating_page import confirm, text

ZH_NOTE, EN_NOTE = NOT_FEWEST


def english(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def many(people: int, start: int = 0) -> dict:
    """A game of ``people`` people, four at a time: a seating brings in four new names and one
    manual hand gives each a total of their own (no two alike, none the opposite of another)."""
    names = [f"p{i}" for i in range(start, start + people)]
    hands = []
    for first in range(0, people, 4):
        seat = names[first : first + 4]
        if len(seat) < 4:  # the last few sit down with three who played before
            seat = [*seat, *names[: 4 - len(seat)]]
        if first:
            hands.append({"outcome": "seating", "players": seat})
        k = 1 + 7 * (first // 4)
        net = [k, 2 * k + 1, 4 * k + 3]
        hands.append({"outcome": "manual", "net": [*net, -sum(net)], "note": "x"})
    return {"players": names[:4], "hands": hands}


def imported(client: Client, data: dict) -> Game:
    before = set(Game.objects.values_list("pk", flat=True))
    response = client.post("/import", {"text": json.dumps(data)})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.exclude(pk__in=before).get()


def clears(balances: list[int], transfers) -> bool:
    left = list(balances)
    for payer, payee, amount in transfers:
        left[payer] += amount
        left[payee] -= amount
    return not any(left)


def people_of(game: Game) -> list[str]:
    game.refresh_from_db()
    return [p["name"] for p in game.state["table"]["people"]]


# -- the settle-up of many people -----------------------------------------------------------------


@override_settings(MAX_PEOPLE_PER_GAME=40)  # an operator's raised limit, or a game stored before it
def test_the_settle_preview_of_24_people_through_the_view_link_is_quick(client, db):
    """Unbounded, the exact search takes about 40 s of CPU and a gigabyte here."""
    game = imported(client, many(24))
    assert len(people_of(game)) == 24
    started = time.process_time()
    response = client.get(game_url(game, view=True) + "settle", FINISH)
    spent = time.process_time() - started
    assert response.status_code == 200
    assert spent < 2, f"{spent:.1f} s of CPU"
    plan = response.context["plan"]
    assert sum(plan.balances_fen) == 0
    assert all(plan.balances_fen)
    assert clears(plan.balances_fen, [(t.payer, t.payee, t.amount_fen) for t in plan.transfers])
    assert len(plan.transfers) <= 23
    assert not plan.fewest
    assert ZH_NOTE in text(response)
    english(client)
    assert EN_NOTE in text(client.get(game_url(game, view=True) + "settle", FINISH))


@override_settings(MAX_PEOPLE_PER_GAME=40)
def test_settling_24_people_stores_transfers_that_clear_everyone_and_the_texts_say_so(client, db):
    game = imported(client, many(24))
    started = time.process_time()
    assert client.post(game_url(game) + "finish", FINISH).status_code == 302
    assert time.process_time() - started < 2
    game.refresh_from_db()
    settlement = game.settlement
    transfers = [(t.payer, t.payee, t.amount_fen) for t in settlement.transfers.all()]
    assert clears(settlement.balances_fen, transfers)
    page = client.get(game_url(game, view=True) + "settle")
    assert ZH_NOTE in text(page)
    assert ZH_NOTE in page.context["share"]
    assert ZH_NOTE in client.get(game_url(game, view=True) + "picture.svg").content.decode()
    english(client)
    page = client.get(game_url(game, view=True) + "settle")
    assert EN_NOTE in text(page)
    assert EN_NOTE in page.context["share"]
    assert EN_NOTE in client.get(game_url(game, view=True) + "picture.svg").content.decode()


def test_an_evening_of_four_says_nothing_about_the_fewest(client, game):
    from tests.helpers import record_settle_hands

    record_settle_hands(game)
    page = client.get(game_url(game) + "settle", FINISH)
    assert page.context["plan"].fewest
    assert ZH_NOTE not in text(page)
    finish(game)
    page = client.get(game_url(game) + "settle")
    assert ZH_NOTE not in text(page)
    assert ZH_NOTE not in page.context["share"]
    assert ZH_NOTE not in client.get(game_url(game) + "picture.svg").content.decode()


# -- people per game --------------------------------------------------------------------------------


def test_an_import_of_as_many_people_as_a_game_may_hold_is_restored(client, db):
    game = imported(client, many(settings.MAX_PEOPLE_PER_GAME))
    assert len(people_of(game)) == settings.MAX_PEOPLE_PER_GAME == 16


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("zh", "一场最多 16 人（连同轮空的和走了的）：p16 坐不进来了。请结算这一场，再开新的一场。"),
        ("en", "A game holds at most 16 people (counting everyone sitting out or gone): no room for p16."),
    ],
)
def test_an_import_of_more_people_is_refused_with_a_message_and_creates_nothing(client, db, language, said):
    if language == "en":
        english(client)
    response = client.post("/import", {"text": json.dumps(many(17))})
    assert response.status_code == 400
    assert said in text(response)
    assert not Game.objects.exists()


def test_the_contract_doors_refuse_more_people_than_a_game_may_hold(client, db):
    response = client.post("/api/score", json.dumps(many(17)), content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == "players"
    assert error["message_en"].startswith("A game holds at most 16 people")
    assert client.post("/api/score", json.dumps(many(16)), content_type="application/json").status_code == 200
    with override_settings(MAX_PEOPLE_PER_GAME=17):
        assert client.post("/api/score", json.dumps(many(17)), content_type="application/json").status_code == 200


def seating_post(game: Game, names: list[str]) -> dict:
    return {
        "p": names,
        "form_token": "token-of-the-form-1234",
        "next_seq": next_seq_of(game),
        "version": version_of(game),
        "confirm": "1",
    }


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("zh", "一场最多 16 人（连同轮空的和走了的）：新人 坐不进来了。"),
        ("en", "A game holds at most 16 people (counting everyone sitting out or gone): no room for 新人."),
    ],
)
def test_the_seating_page_refuses_a_seventeenth_person_and_changes_nothing(client, db, language, said):
    game = imported(client, many(16))
    if language == "en":
        english(client)
    game.refresh_from_db()
    seating, hands, version = list(game.state["table"]["seating"]), Hand.objects.count(), game.version
    proposal = ["新人", *seating[1:]]
    preview = client.get(game_url(game) + "seating", {"p": proposal})
    assert said in text(preview)
    assert not preview.context.get("preview")
    response = client.post(game_url(game) + "seating", seating_post(game, proposal))
    assert response.status_code == 200
    assert said in text(response)
    game.refresh_from_db()
    assert (Hand.objects.count(), game.version, game.state["table"]["seating"]) == (hands, version, seating)
    # the people of the evening still change places, and one who sat out comes back
    back = ["p0", *seating[1:]]
    assert confirm(client, game_url(game) + "seating?" + "&".join(f"p={n}" for n in back)).status_code == 302
    assert people_of(game)[0] == "p0"
    assert len(people_of(game)) == 16


def test_an_edit_of_a_seating_that_would_bring_a_seventeenth_person_is_refused(client, db):
    data = many(16)
    data["hands"].append({"outcome": "seating", "players": ["p0", "p1", "p2", "p3"]})  # the first four are back
    game = imported(client, data)
    seating = Hand.objects.filter(game=game, entry__outcome="seating").order_by("seq").last()
    proposal = ["新人", "p1", "p2", "p3"]
    url = game_url(game) + f"hand/{seating.seq}/edit?" + "&".join(f"p={n}" for n in proposal)
    preview = client.get(url)
    assert "一场最多 16 人（连同轮空的和走了的）：新人 坐不进来了。" in text(preview)
    posted = {"p": proposal, "revision": "0", "version": version_of(game), "confirm": "1"}
    response = client.post(game_url(game) + f"hand/{seating.seq}/edit", posted)
    assert "一场最多 16 人" in text(response)
    assert Hand.objects.get(pk=seating.pk).entry["players"] == ["p0", "p1", "p2", "p3"]
    assert Hand.objects.get(pk=seating.pk).revision == 0
    assert len(people_of(game)) == 16


@override_settings(MAX_PEOPLE_PER_GAME=20)
def test_a_game_over_a_limit_lowered_since_plays_on_among_its_people(client, db):
    game = imported(client, many(20))
    with override_settings(MAX_PEOPLE_PER_GAME=16):
        seating = people_of(game)[:4]
        back = ["p8", *game.state["table"]["seating"][1:]]
        assert confirm(client, game_url(game) + "seating?" + "&".join(f"p={n}" for n in back)).status_code == 302
        assert len(people_of(game)) == 20
        first = Hand.objects.filter(game=game, entry__outcome="seating").order_by("seq").first()
        url = game_url(game) + f"hand/{first.seq}/edit?" + "&".join(f"p={n}" for n in ["p5", "p4", "p6", "p7"])
        assert confirm(client, url).status_code == 302  # a swap of two of its people: no one new
        assert seating == people_of(game)[:4]


# -- people per 牌友圈 ---------------------------------------------------------------------------------


def group_url(group: Group) -> str:
    return f"/group/{group.edit_token}/"


@override_settings(MAX_PEOPLE_PER_GROUP=6)
@pytest.mark.parametrize(
    ("language", "said"), [("zh", "名单最多 6 个名字。"), ("en", "A roster holds at most 6 names.")]
)
def test_a_roster_edit_past_the_limit_is_refused_with_a_message_and_changes_nothing(client, db, language, said):
    group = Group.objects.create(name="周五", roster=["a", "b"])
    if language == "en":
        english(client)
    response = client.post(group_url(group) + "roster", {"name": "周五", "roster": "\n".join("abcdefg")}, follow=True)
    assert any(said in m for m in messages_of(response))
    group.refresh_from_db()
    assert group.roster == ["a", "b"]


@override_settings(MAX_PEOPLE_PER_GROUP=5)
@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("zh", "牌友圈名单已满（最多 5 人）：p5、p6 没有加进名单。"),
        ("en", "The group's roster is full (at most 5 people): p5, p6 not added."),
    ],
)
def test_a_seating_onto_a_full_roster_is_kept_and_says_who_was_left_off(client, db, language, said):
    """People join the roster at their first hand (docs/manual.md): the seating is kept, and the hand
    they first play says who the full roster left off."""
    game = imported(client, many(4))
    group = Group.objects.create(name="周五", roster=["p0", "p1", "p2", "p3", "老王"])
    Game.objects.filter(pk=game.pk).update(group=group)
    if language == "en":
        english(client)
    response = confirm(client, game_url(game) + "seating?p=p0&p=p5&p=p6&p=p3")
    assert response.status_code == 302
    assert not any(said in m for m in messages_of(client.get(response["Location"])))  # not played yet
    response = record(client, Game.objects.get(pk=game.pk), {"outcome": "draw"})
    assert any(said in m for m in messages_of(client.get(response["Location"])))
    group.refresh_from_db()
    assert group.roster == ["p0", "p1", "p2", "p3", "老王"]
    assert people_of(game) == ["p0", "p1", "p2", "p3", "p5", "p6"]


def test_group_netting_of_many_peoples_evenings_clears_everyone_and_says_it_may_not_be_the_fewest(client, db):
    """Three settled evenings of 12 people each, no two of whose balances cancel: 36 people, past
    the exact search (which had refused more than 12 people before)."""
    group = Group.objects.create(name="周五", roster=[])
    for start in (0, 12, 24):
        game = imported(client, many(12, start=start))
        Game.objects.filter(pk=game.pk).update(group=group)
        assert client.post(game_url(game) + "finish", FINISH).status_code == 302
    page = client.get(group_url(group))
    plan = page.context["plan"]
    assert plan is not None
    assert not plan.fewest
    assert ZH_NOTE in text(page)
    started = time.process_time()
    ids = ",".join(str(t.pk) for t in Transfer.objects.order_by("pk"))
    client.post(group_url(group) + "settle-up", {"ids": ids})
    assert time.process_time() - started < 2
    settle_up = SettleUp.objects.get()
    owed: dict[str, int] = {}
    for t in Transfer.objects.select_related("settlement"):
        names = t.settlement.names
        owed[names[t.payer]] = owed.get(names[t.payer], 0) - t.amount_fen
        owed[names[t.payee]] = owed.get(names[t.payee], 0) + t.amount_fen
    for t in settle_up.transfers.all():
        owed[t.payer] += t.amount_fen
        owed[t.payee] -= t.amount_fen
    assert not any(owed.values())
    assert settle_up.transfers.count() <= 35
    assert ZH_NOTE in text(client.get(group_url(group)))
    english(client)
    assert EN_NOTE in text(client.get(group_url(group)))


@override_settings(MAX_PEOPLE_PER_GROUP=10)
def test_netting_more_people_than_a_group_holds_is_refused_with_a_message(db):
    owed = [circle.Owed(Transfer(amount_fen=100 + i), None, f"p{i}", f"q{i}") for i in range(6)]
    with pytest.raises(circle.GroupConflict) as refused:
        circle.net(owed)
    assert refused.value.zh == "一起结清最多 10 个人：请先在各局里标已付一些。"
    assert refused.value.en.startswith("A settle-up nets at most 10 people")
