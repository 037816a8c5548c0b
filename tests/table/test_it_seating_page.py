"""换人/换位 at the table (scoring/table/seatingpage.py): each step is a plain link, the preview says who
sits where and what ends, 确认 records the seating as a hand (the form token, the game's version,
the row lock), its 修改 and 作废 work like any hand's; and every page that says who won or owes says
it by person, sitting out or not. Both languages."""

import html as html_lib
import json
import re
from urllib.parse import parse_qs

import pytest
from django.conf import settings
from django.test import Client

from scoring.engine import score_game
from scoring.models import Game, Hand, Settlement
from scoring.people import draw
from tests.factories import add_hand, add_seating, finish
from tests.helpers import NEW_GAME, game_url, messages_of, parse, record, totals_on_page, version_of

ZIMO = {"outcome": "win", "win_type": "zimo"}


def english() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def text(response) -> str:
    """The page's main text, tags dropped, spaces folded."""
    return f" {parse(response.content.decode()).find('main').text} "


def seating_form(page: str) -> tuple[str, dict]:
    """The preview's confirm form: its address and fields (``p`` a list)."""
    form = parse(page).find("form", method="post", cls="seating-form")
    fields: dict = {"p": []}
    for field in form.find_all("input", type="hidden"):
        name, value = field.attrs["name"], field.attrs.get("value", "")
        if name == "p":
            fields["p"].append(value)
        else:
            fields[name] = value
    return form.attrs["action"], fields


def confirm(client, url: str, **changes):
    """Open the preview at ``url`` and tap 确认 (``changes`` alter the posted fields)."""
    action, fields = seating_form(client.get(url).content.decode())
    return client.post(action, {**fields, "confirm": "1", **changes})


def seat(client, game: Game, *names: str, **params) -> None:
    """Record the seating ``names`` (seat order) through the page, as a phone does."""
    query = "&".join(f"p={n}" for n in names) + "".join(f"&{k}={v}" for k, v in params.items())
    response = confirm(client, game_url(game) + "seating?" + query)
    assert response.status_code == 302, text(response)


def signed(client, game: Game, winner: int):
    """``winner`` 自摸, recorded by this phone through the entry form (signed with its 「我是」)."""
    response = record(client, game, {**ZIMO, "winner": winner})
    assert response.status_code == 302


def win(game: Game, winner: int, **entry):
    """``winner`` 自摸, recorded through the write path (tests/factories.py)."""
    add_hand(game, {**ZIMO, "winner": winner, **entry})


def tiles(client, game: Game) -> list[tuple[str, str]]:
    page = client.get(game_url(game)).content.decode()
    names = [
        name.find("bdi").text
        for name in parse(page).find_all("span", class_="name")
        if name.find("span", class_="wind")
    ]
    totals = totals_on_page(page)
    return list(zip(names, totals, strict=True))


# --- the steps --------------------------------------------------------------------------------


def test_every_step_is_a_plain_link_and_the_preview_says_who_sits_where(client, game):
    url = game_url(game) + "seating"
    assert "换人/换位" in text(client.get(game_url(game)))  # offered on the game page
    menu = text(client.get(url))
    for way in ("换人", "两人换位", "随机抽位", "按顺序重新坐"):
        assert way in menu
    assert "谁下场？" in text(client.get(url + "?how=sub"))
    assert "谁坐西，换下阿华？" in text(client.get(url + "?how=sub&seat=2"))
    # A new name typed in: the preview, nothing recorded yet.
    preview = text(client.get(url + "?how=sub&seat=2&name=小周"))
    assert "西 阿华 小周" in preview
    assert "轮空" not in preview  # 阿华 played no hand yet: he is no part of the evening's money
    assert game.hands.count() == 0
    # Two seats swap: tap one, then the other.
    assert "小李和谁换位？" in text(client.get(url + "?how=swap&a=1"))
    swapped = text(client.get(url + "?p=老王&p=大刘&p=阿华&p=小李"))
    assert "南 小李 大刘" in swapped
    assert "北 大刘 小李" in swapped
    # In order, name by name: the last tap is the preview.
    third = client.get(url + "?how=order&o=小李&o=老王")
    assert "谁坐西？" in text(third)
    assert "东 小李 · 南 老王" in text(third)
    # 阿华 next is one more step; 大刘 then 阿华 is the whole order, and its preview.
    links = dict(re.findall(r'href="([^"]*)"><bdi>([^<]+)</bdi>', third.content.decode())[::-1])
    last = text(client.get(html_lib.unescape({v: k for k, v in links.items()}["大刘"])))
    assert "谁坐北？" in last
    assert "东 小李 · 南 老王 · 西 大刘" in last


def test_a_substitute_is_recorded_and_the_table_shows_who_sits_and_who_sits_out(client, game):
    win(game, 0)  # 老王 (庄) 自摸 ×2: +42, the others −14
    response = confirm(client, game_url(game) + "seating?how=sub&seat=2&name=小周")
    assert "已换人/换位。" in messages_of(client.get(response["Location"]))
    assert Hand.objects.get(game=game, seq=2).entry == {
        "outcome": "seating",
        "players": ["老王", "小李", "小周", "大刘"],
    }
    response = client.get(game_url(game))
    assert tiles(client, game) == [("老王", "+42"), ("小李", "−14"), ("小周", "0"), ("大刘", "−14")]
    page = text(response)
    assert "轮空（不在桌上）: 阿华 −14" in page
    assert "共 1 局" in page  # a seating is no hand
    assert "换人/换位 · 老王 小李 小周 大刘" in page
    assert "谁打的: 东 老王 · 南 小李 · 西 阿华 · 北 大刘" in page  # hand 1, as it was played
    # The next hand is entered with the names that sit now.
    assert "小周" in text(client.get(game_url(game) + "record?winner=2"))


def test_someone_sitting_out_is_offered_when_a_seat_changes(client, game):
    seat(client, game, "老王", "小李", "小周", "大刘")
    step = client.get(game_url(game) + "seating?how=sub&seat=0").content.decode()
    assert "谁坐东，换下老王？" in text(client.get(game_url(game) + "seating?how=sub&seat=0"))
    # 阿华 sat out: one tap brings him back in 老王's seat.
    back = re.search(r'href="([^"]*)"[^>]*><bdi>阿华</bdi>', step).group(1)
    seat_url = html_lib.unescape(back)
    assert confirm(client, seat_url).status_code == 302
    game.refresh_from_db()
    assert game.state["table"]["seating"] == ["阿华", "小李", "小周", "大刘"]


def test_the_random_draw_is_the_servers_and_every_phone_sees_the_same_order(client, game):
    drawn = client.get(game_url(game) + "seating?how=draw")
    assert drawn.status_code == 302
    preview_url = drawn["Location"]
    assert "drawn=1" in preview_url
    other_phone = Client()
    other_phone.cookies = client.cookies
    first, again = client.get(preview_url).content.decode(), other_phone.get(preview_url).content.decode()
    assert seating_form(first)[1]["p"] == seating_form(again)[1]["p"]
    order = seating_form(first)[1]["p"]
    assert sorted(order) == sorted(["老王", "小李", "阿华", "大刘"])
    assert "抽到的座位" in text(client.get(preview_url))
    assert f"下一局: {order[0]} 坐庄 （扳位：东家坐庄）" in text(client.get(preview_url))
    assert confirm(client, preview_url).status_code == 302
    game.refresh_from_db()
    assert game.state["table"]["seating"] == order  # exactly what the preview showed
    assert game.state["table"]["dealer"] == 0  # 东 deals after a draw


def test_the_random_draw_never_falls_as_everyone_already_sits():
    """A seating that changes no seat is refused (docs/contract.md), so the draw that falls that
    way (1 in 24 at four, 1 in 2 at two) is drawn again instead of showing a preview that cannot
    be confirmed; bringing someone in may keep the others where they sit."""
    assert all(draw(["阿明", "小芳"], ["阿明", "小芳"]) == ["小芳", "阿明"] for _ in range(200))
    four = ["老王", "小李", "阿华", "大刘"]
    assert all(draw(four, four) != four for _ in range(500))
    with_a_sub = ["老王", "小李", "小周", "大刘"]
    assert tuple(with_a_sub) in {tuple(draw(with_a_sub, four)) for _ in range(500)}  # (23/24)^500 to miss
    assert all(sorted(draw(with_a_sub, four)) == sorted(with_a_sub) for _ in range(50))


def test_a_new_dealer_and_what_a_seating_ends(client, game):
    win(game, 0)  # 老王 deals on: 连1, 下子 may be placed
    client.post(game_url(game) + "bet", {"bet": "xiazi", "seat": "1", "on": "1"})
    client.post(game_url(game) + "bet", {"bet": "maizi", "seat": "3", "on": "1"})
    url = game_url(game) + "seating?p=老王&p=小李&p=阿华&p=小周&dealer=1"
    preview = text(client.get(url))
    assert "下一局: 小李 坐庄" in preview
    assert "结束: 小李 下2 · 大刘 买 · 老王的连庄（连1）" in preview
    assert confirm(client, url).status_code == 302
    game.refresh_from_db()
    assert game.pending == {}
    assert (game.state["table"]["dealer"], game.state["table"]["streak"]) == (1, 0)
    assert Hand.objects.get(game=game, seq=2).entry["dealer"] == 1


def test_the_streak_is_the_dealers_not_the_seats(client, game):
    win(game, 0)  # 老王 deals on: 连1
    assert "（老王不在桌上，换坐这个位子的人坐庄）" in text(
        client.get(game_url(game) + "seating?p=小周&p=小李&p=阿华&p=大刘")
    )
    seat(client, game, "小周", "小李", "阿华", "大刘")  # 小周 takes the dealing seat
    game.refresh_from_db()
    assert (game.state["table"]["dealer"], game.state["table"]["streak"]) == (0, 0)
    stored = Hand.objects.get(game=game, seq=2)
    assert (stored.dealer_fix, stored.streak_fix, "dealer" in stored.entry) == (None, None, False)  # the engine's rule


def test_the_deal_and_its_streak_follow_the_dealer_to_another_seat(client, game):
    win(game, 0)  # 老王 deals on: 连1
    swap = game_url(game) + "seating?p=小李&p=老王&p=阿华&p=大刘"  # 老王 and 小李 swap seats
    preview = text(client.get(swap))
    assert "下一局: 老王 坐庄 · 连1 （庄跟着人走）" in preview
    assert "老王的连庄" not in preview  # nothing of his ends
    page = client.get(swap).content.decode()
    assert re.search(r'href="[^"]*dealer=1"[^>]*aria-current="true"', page)  # the chip on 老王, now 南
    assert confirm(client, swap).status_code == 302
    game.refresh_from_db()
    assert (game.state["table"]["dealer"], game.state["table"]["streak"]) == (1, 1)
    win(game, 1)  # 老王 wins again from 南: 连2, still his
    game.refresh_from_db()
    assert (game.state["table"]["dealer"], game.state["table"]["streak"]) == (1, 2)
    chosen = game_url(game) + "seating?p=老王&p=小李&p=阿华&p=大刘&dealer=0"  # the table picks 老王 again, at 东
    assert "下一局: 老王 坐庄 · 连2" in text(client.get(chosen))
    other = game_url(game) + "seating?p=老王&p=小李&p=阿华&p=大刘&dealer=1"  # or picks 小李: 老王's 连庄 ends
    assert "老王的连庄（连2）" in text(client.get(other))


@pytest.mark.parametrize(
    ("query", "says_zh", "says_en"),
    [
        ("how=sub&seat=1&name=" + "长" * 21, "名字最多 20 个字。", "A name is at most 20 characters."),
        ("how=sub&seat=1&name=%E2%80%AE%E9%98%BF", "不能包含控制字符", "May not contain control"),
        ("how=sub&seat=1&name=", "请填名字。", "Enter a name."),
        ("p=老王&p=老王&p=阿华&p=大刘", "玩家的名字不能重复：老王", "Two players have the same name: 老王"),
        ("p=老王&p=小李&p=阿华&p=大刘", "至少要有一个座位换了人", "at least one seat"),
    ],
)
def test_bad_input_is_a_clear_message_in_either_language_and_records_nothing(client, game, query, says_zh, says_en):
    for phone, says in ((client, says_zh), (english(), says_en)):
        phone.cookies.update({k: v for k, v in client.cookies.items() if k != settings.LANGUAGE_COOKIE_NAME})
        response = phone.get(game_url(game) + "seating?" + query)
        assert response.status_code == 200
        assert says in text(response), text(response)
        assert 'class="seating-form"' not in response.content.decode()
    assert game.hands.count() == 0


def test_a_confirm_without_a_version_or_with_a_stale_one_records_nothing(client, game):
    url = game_url(game) + "seating?p=老王&p=小李&p=阿华&p=小周"
    assert "缺少版本信息" in text(confirm(client, url, version=""))
    action, fields = seating_form(client.get(url).content.decode())
    client.post(game_url(game) + "bet", {"bet": "maizi", "seat": "1", "on": "1"})  # another phone, meanwhile
    response = client.post(action, {**fields, "confirm": "1"})
    assert response.status_code == 302  # asked again, fresh: the 买子 it would end is in the preview now
    assert game.hands.count() == 0
    response = client.get(response["Location"])
    assert "小李刚买了子，金额变了，请看新的预览。" in messages_of(response)
    assert "结束: 小李 买" in text(response)


def test_two_phones_confirming_never_record_twice(client, game):
    url = game_url(game) + "seating?p=老王&p=小李&p=阿华&p=小周"
    action, fields = seating_form(client.get(url).content.decode())
    other_phone = Client()
    other_phone.cookies = client.cookies
    other_fields = seating_form(other_phone.get(url).content.decode())[1]
    assert client.post(action, {**fields, "confirm": "1"}).status_code == 302
    again = client.post(action, {**fields, "confirm": "1", "version": version_of(game)}, follow=True)
    assert "这次换人/换位已经记过了。" in messages_of(again)
    other = other_phone.post(action, {**other_fields, "confirm": "1", "version": version_of(game)}, follow=True)
    assert "刚才别的手机记了一局或换了人" in " ".join(messages_of(other))
    assert game.hands.count() == 1


def test_a_view_link_cannot_and_a_finished_game_sends_to_the_settlement(client, game):
    assert client.get(game_url(game, view=True) + "seating").status_code == 403
    finish(game)
    response = client.get(game_url(game) + "seating")
    assert response.status_code == 302
    assert response["Location"].endswith("settle")


def test_the_pages_are_english_in_english(client, game):
    phone = english()
    phone.cookies.update({k: v for k, v in client.cookies.items() if k != settings.LANGUAGE_COOKIE_NAME})
    url = game_url(game) + "seating"
    assert record(client, game, {"outcome": "draw"}).status_code == 302  # 阿华 has played a hand
    assert "Random draw" in text(phone.get(url))
    assert "Who leaves the table?" in text(phone.get(url + "?how=sub"))
    preview = text(phone.get(url + "?how=sub&seat=2&name=小周"))
    assert "The new seating" in preview
    assert "Sitting out: 阿华 0" in preview
    response = confirm(phone, url + "?p=老王&p=小李&p=小周&p=大刘")
    assert "New seating recorded." in messages_of(phone.get(response["Location"]))
    page = text(phone.get(game_url(game)))
    assert "Sitting out: 阿华 0" in page
    assert "New seating · 老王 小李 小周 大刘" in page
    assert "East round (deal 1 of 4)" in page


# --- 修改 and 作废 of a seating -----------------------------------------------------------------


def test_a_seatings_edit_previews_every_persons_total_and_replays(client, game):
    win(game, 0)  # 老王 +42
    seat(client, game, "老王", "小李", "小周", "大刘")
    win(game, 2)  # 小周 (闲) 自摸 ×2: 老王 (庄) pays 14, 小李 and 大刘 10 each
    # It was 小陈, not 小周, who sat down: the +34 moves to 小陈.
    url = game_url(game) + "hand/2/edit?p=老王&p=小李&p=小陈&p=大刘"
    preview = client.get(url)
    assert "修改换人/换位" in text(preview)
    change = {name: (before, after) for name, before, after, _diff in preview.context["change"]}
    assert change == {"小周": (34, 0), "小陈": (0, 34)}
    assert confirm(client, url).status_code == 302
    game.refresh_from_db()
    people = {p["name"]: p["total"] for p in game.state["table"]["people"]}
    assert people == {"老王": 42 - 14, "小李": -14 - 10, "阿华": -14, "大刘": -14 - 10, "小陈": 34}
    assert Hand.objects.get(game=game, seq=2).revision == 1


def test_voiding_a_seating_previews_who_gets_the_hands_after_it(client, game):
    win(game, 0)
    seat(client, game, "老王", "小李", "小周", "大刘")
    win(game, 2)  # 小周 +34; 老王 −14, 小李 −10, 大刘 −10
    void = client.get(game_url(game) + "hand/2/void")
    assert "作废这次换人/换位？" in text(void)
    change = {name: (before, after) for name, before, after, _diff in void.context["change"]}
    assert change["小周"] == (34, 0)  # his hand is 阿华's again, who sat there before
    assert change["阿华"] == (-14, -14 + 34)
    hand = Hand.objects.get(game=game, seq=2)
    response = client.post(
        game_url(game) + "hand/2/void", {"reason": "记错了", "revision": hand.revision, "version": version_of(game)}
    )
    assert "这次换人/换位已作废，之后的每一局都已重算。" in messages_of(client.get(response["Location"]))
    game.refresh_from_db()
    assert [p["name"] for p in game.state["table"]["people"]] == ["老王", "小李", "阿华", "大刘"]


# --- people, not seats: the evening written out --------------------------------------------------

# 义乌 at its default rules (庄/闲 7/5). 老王 deals first.
#   1  老王 (庄) 自摸 ×2           老王 +42, 小李 −14, 阿华 −14, 大刘 −14
#   2  小李 (闲) 自摸 ×2           老王 (庄) −14, 小李 +34, 阿华 −10, 大刘 −10   (the deal passes to 小李)
#      小周 takes 阿华's seat (西)
#   3  小周 (闲) 自摸 ×2           小李 (庄) −14, 小周 +34, 老王 −10, 大刘 −10   (the deal passes to 小周)
#      阿华 comes back, in 老王's seat (东)
#   4  阿华 (闲) 平胡 ×1 on 大刘    小周 (庄) −7, 阿华 +18, 小李 −5, 大刘 −(5 + 1 放铳) = −6
# Each person's total, over the seats they sat in:
#   老王  +42 − 14 − 10        = +18   (sits out after hand 3)
#   小李  −14 + 34 − 14 − 5    =  +1
#   阿华  −14 − 10 + 18        =  −6
#   大刘  −14 − 10 − 10 − 6    = −40
#   小周  +34 − 7              = +27   (18 + 1 − 6 − 40 + 27 = 0)
# The seats' totals are others (东 +36, 南 +1, 西 +3, 北 −40): nothing below may show those.
PEOPLE = {"老王": 18, "小李": 1, "阿华": -6, "大刘": -40, "小周": 27}


def seated_by_the_write(game: Game, *names: str) -> None:
    """A seating through the one write every hand takes (the page's 确认 calls it: tests above)."""
    add_seating(game, names)


@pytest.fixture
def evening(client, game) -> Game:
    win(game, 0)
    win(game, 1)
    seated_by_the_write(game, "老王", "小李", "小周", "大刘")
    win(game, 2)
    seated_by_the_write(game, "阿华", "小李", "小周", "大刘")
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "pinghu", "discarder": 3})
    return game


def test_the_people_of_the_evening_add_up_hand_by_hand(client, evening):
    evening.refresh_from_db()
    assert {p["name"]: p["total"] for p in evening.state["table"]["people"]} == PEOPLE
    assert evening.state["table"]["totals"] == [36, 1, 3, -40]  # the seats', kept apart
    assert tiles(client, evening) == [("阿华", "−6"), ("小李", "+1"), ("小周", "+27"), ("大刘", "−40")]
    assert "轮空（不在桌上）: 老王 +18" in text(client.get(game_url(evening)))
    contract = score_game(json.loads(client.get(game_url(evening) + "export.json").content))
    assert {p["name"]: p["total"] for p in contract["people"]} == PEOPLE


def test_settle_up_is_by_person_exact_and_sums_to_zero(client, evening):
    # 1 元 a point, a 10 元 fee shared equally (2 元 each), advanced by 小周 (the fifth person):
    #   老王 18 − 2 = 16, 小李 1 − 2 = −1, 阿华 −6 − 2 = −8, 大刘 −40 − 2 = −42, 小周 27 − 2 + 10 = 35
    terms = {"rate": "100", "fee_yuan": "10", "fee_mode": "equal", "fee_payee": "4"}
    settle = client.get(game_url(evening) + "settle", terms)
    assert [(name, points) for name, points, _yuan, _fen in settle.context["balances"]] == list(PEOPLE.items())
    assert [fen for *_rest, fen in settle.context["balances"]] == [1600, -100, -800, -4200, 3500]
    client.post(game_url(evening) + "finish", terms)
    settlement = Settlement.objects.get(game=evening)
    assert settlement.names == list(PEOPLE)
    assert settlement.balances_fen == [1600, -100, -800, -4200, 3500]
    assert sum(settlement.balances_fen) == 0
    transfers = [
        (settlement.names[t.payer], settlement.names[t.payee], t.amount_fen) for t in settlement.transfers.all()
    ]
    assert len(transfers) == 4  # the fewest: five people, one of them even after the others
    for name, fen in zip(settlement.names, settlement.balances_fen, strict=True):
        received = sum(a for _p, payee, a in transfers if payee == name) - sum(
            a for payer, _q, a in transfers if payer == name
        )
        assert received == fen
    page = text(client.get(game_url(evening) + "settle"))
    assert "老王" in page
    assert "+18" in page
    share = client.get(game_url(evening) + "settle").context["share"]
    assert "老王 +18 · 赢 16 元" in share  # sitting out: no seat beside the name
    assert "小周（西）+27 · 赢 35 元" in share
    assert "小周 垫付台费 10 元（已算入）" in share
    svg = client.get(game_url(evening) + "picture.svg").content.decode()
    assert "小周" in svg
    assert "老王" in svg
    assert "赢 35 元" in svg


def test_csv_summary_and_chart_are_by_person(client, evening):
    rows = client.get(game_url(evening) + "export.csv").content.decode().lstrip("\ufeff").splitlines()
    header = rows[0].split(",")
    assert header[-10:] == [f"{n}输赢" for n in PEOPLE] + [f"{n}累计" for n in PEOPLE]
    last = rows[-1].split(",")
    assert last[-5:] == ["18", "1", "-6", "-40", "27"]
    assert last[-10:-5] == ["", "-5", "18", "-6", "-7"]  # 老王 sat out hand 4: no net
    assert any("换人/换位 · 老王 小李 小周 大刘" in row for row in rows)
    summary = client.get(game_url(evening) + "summary")
    assert summary.context["totals"] == list(PEOPLE.items())
    table = summary.content.decode()
    assert all(f"<bdi>{n}</bdi></th>" in table for n in PEOPLE)
    chart = client.get(game_url(evening) + "chart").content.decode()
    assert "小周 +27" in chart
    assert "老王 +18" in chart
    assert "阿华 −6" in chart


def test_history_and_stats_are_by_person(client, evening):
    client.get(game_url(evening))  # this phone opened it
    history = text(client.get("/history"))
    assert "小周 +27" in history
    assert "老王 +18" in history
    stats = client.get("/stats").context["stats"]
    by_name = {s.name: s for s in stats}
    assert by_name["小周"].net == 27
    assert by_name["老王"].net == 18
    # The hands each person sat in: 老王 1-3, 小李 all 4, 阿华 1, 2 and 4, 大刘 all 4, 小周 3 and 4.
    assert {n: s.hands for n, s in by_name.items()} == {"老王": 3, "小李": 4, "阿华": 3, "大刘": 4, "小周": 2}
    assert (by_name["阿华"].wins, by_name["大刘"].discards, by_name["小周"].zimo_wins) == (1, 1, 1)


def test_a_backup_of_a_settled_evening_restores_by_person(client, evening):
    finish(evening, 100, fee_fen=1000, fee_payee=4)
    Game.objects.filter(pk=evening.pk).update(round_length=4)
    backup = json.loads(client.get(game_url(evening) + "export.json").content)
    assert backup["backup"]["settlement"]["fee_payee"] == 4
    assert backup["backup"]["round_length"] == 4
    response = client.post("/import", {"text": json.dumps(backup, ensure_ascii=False)})
    assert response.status_code == 302
    copy = Game.objects.exclude(pk=evening.pk).get()
    assert copy.round_length == 4
    settlement = Settlement.objects.get(game=copy)
    assert settlement.names == list(PEOPLE)
    assert settlement.balances_fen == [1600, -100, -800, -4200, 3500]


# --- rounds (圈) ----------------------------------------------------------------------------------


def test_rounds_count_the_deal_passing_and_a_set_length_offers_seats_or_settling(client, game):
    Game.objects.filter(pk=game.pk).update(round_length=1)
    assert "东风圈（1/4）" in text(client.get(game_url(game)))
    win(game, 0)  # the dealer wins: the deal stays, still the first of four
    assert "东风圈（1/4）" in text(client.get(game_url(game)))
    win(game, 1)  # the deal passes to 小李
    win(game, 2)
    assert "东风圈（3/4）" in text(client.get(game_url(game)))
    win(game, 3)
    page = text(client.get(game_url(game)))
    assert "东风圈（4/4）" in page
    assert "1 圈打完了" not in page
    win(game, 0)  # 大刘 dealt and lost: the deal is back at 东, a round
    page = client.get(game_url(game)).content.decode()
    assert "南风圈（1/4）" in text(client.get(game_url(game)))
    assert "1 圈打完了" in text(client.get(game_url(game)))
    assert f'href="{game_url(game)}settle"' in page[page.find("round-question") :]
    # 换位 taken: the agreed length's question stays until 接着打 answers it (tests/table/test_it_round_question.py).
    seat(client, game, "小李", "老王", "阿华", "大刘")
    assert "1 圈打完了" in text(client.get(game_url(game)))
    assert "South round (deal 1 of 4)" in text(english_of(client).get(game_url(game)))


def english_of(client) -> Client:
    phone = english()
    phone.cookies.update({k: v for k, v in client.cookies.items() if k != settings.LANGUAGE_COOKIE_NAME})
    return phone


def test_a_longer_game_says_which_round_ended_and_offers_to_change_seats(client, game):
    Game.objects.filter(pk=game.pk).update(round_length=2)
    for winner in (1, 2, 3, 0):
        win(game, winner)
    page = text(client.get(game_url(game)))
    assert "东风圈打完了" in page
    assert "换位" in page
    assert "East round is over" in text(english_of(client).get(game_url(game)))


def test_the_new_game_form_sets_the_rounds_to_play(client, db):
    form = client.get("/new").content.decode()
    assert "打几圈" in form
    assert "4 圈" in form
    assert "Rounds to play" in english().get("/new").content.decode()
    client.post("/new", {**NEW_GAME, "round_length": "4"})
    assert Game.objects.get().round_length == 4
    client.post("/new", {**NEW_GAME, "round_length": ""})
    assert Game.objects.order_by("-pk").first().round_length is None
    response = client.post("/new", {**NEW_GAME, "round_length": "5"})
    assert response.status_code == 200
    assert Game.objects.count() == 2


HOSTILE = [
    "p=老王&p=小李&p=阿华",  # a name short: the menu again
    "p=老王&p=&p=阿华&p=大刘",
    "p=老王&p=小李&p=阿华&p=小周&dealer=9",
    "p=老王&p=小李&p=阿华&p=小周&dealer=x",
    "p=老王&p=小李&p=阿华&p=" + "长" * 41,
    "p=老王&p=小李&p=阿华&p=%00",
    "how=sub&seat=-1",
    "how=sub&seat=99&name=小周",
    "how=swap&a=７",
    "how=order&" + "&".join(f"o=甲{i}" for i in range(9)),
    "how=order&o=老王&o=老王&o=老王",
    "how=nothing&p=老王",
    "how=sub&seat=1&name=" + "长" * 5000,
]


@pytest.mark.parametrize("query", HOSTILE)
def test_no_address_of_the_seating_page_is_a_500(client, game, query):
    response = client.get(game_url(game) + "seating?" + query)
    assert response.status_code == 200
    answers = parse_qs(query, keep_blank_values=True)
    confirmed = client.post(
        game_url(game) + "seating",
        {**answers, "confirm": "1", "version": version_of(game), "next_seq": "x", "form_token": "!" * 80},
    )
    assert confirmed.status_code in (200, 302)
    assert game.hands.count() == 0


# --- 「我是」 is a person, not a seat ---------------------------------------------------------------


def me_tile(client, game: Game) -> str | None:
    """The name on the tile marked 我 (None if none is)."""
    page = client.get(game_url(game)).content.decode()
    found = parse(page).find("div", cls="tile-me")
    return found.find("bdi").text if found else None


def test_i_am_follows_my_person_through_a_swap_and_signs_by_name_when_i_sit_out(client, game):
    """我是小李 taps his seat (南); after he swaps into 东 the phone still is 小李 (his tile is
    marked, his hands signed 小李, not 老王's); sitting out, the page says so and still signs 小李."""
    client.post(game_url(game) + "me/1")
    assert me_tile(client, game) == "小李"
    seat(client, game, "小李", "老王", "阿华", "大刘")
    assert me_tile(client, game) == "小李"
    assert client.get(game_url(game)).context["me"] == 0
    signed(client, game, 0)
    assert Hand.objects.get(game=game, seq=2).entered_by == "小李"
    seat(client, game, "小周", "老王", "阿华", "大刘")  # 小李 goes home
    assert me_tile(client, game) is None
    assert "我是 小李 （现在轮空，记录仍署这个名字）" in text(client.get(game_url(game)))
    phone = english()
    phone.cookies.update(client.cookies)
    assert "I am 小李 (sitting out now; what I record is still signed with this name)" in text(
        phone.get(game_url(game))
    )
    signed(client, game, 1)
    assert Hand.objects.get(game=game, seq=4).entered_by == "小李"
    seat(client, game, "小周", "老王", "小李", "大刘")  # back, in 西
    assert me_tile(client, game) == "小李"
    assert "现在轮空" not in text(client.get(game_url(game)))


def test_someone_sitting_out_can_say_i_am_on_a_fresh_phone(client, game):
    """阿华 sits out and picks up a phone that never said who it is: the 「我是」 buttons offer him
    too (by name, he has no seat to tap), and what he records is signed 阿华; a name not of this
    evening is refused and changes nothing."""
    assert record(client, game, {"outcome": "draw"}).status_code == 302  # 阿华 plays a hand
    seat(client, game, "老王", "小李", "小周", "大刘")  # then goes out
    page = client.get(game_url(game)).content.decode()
    assert re.search(r'name="name" value="阿华"><button[^>]*><bdi>阿华</bdi> <small>轮空</small>', page)
    assert client.post(game_url(game) + "me", {"name": "没来的人"}).status_code == 404
    assert "现在轮空" not in text(client.get(game_url(game)))
    assert client.post(game_url(game) + "me", {"name": "阿华"}).status_code == 302
    assert "我是 阿华 （现在轮空，记录仍署这个名字）" in text(client.get(game_url(game)))
    signed(client, game, 0)
    assert Hand.objects.get(game=game, seq=3).entered_by == "阿华"
    viewer = Client()
    assert viewer.post(f"/g/{game.view_token}/me", {"name": "阿华"}).status_code == 404  # the view link signs nothing


def test_an_older_phones_seat_means_whoever_sits_there_now(client, game):
    """A 「我是」 cookie written before people (a seat number) still reads: the person in that seat."""
    from django.core import signing

    from scoring.device import ME_COOKIE

    seat(client, game, "小李", "老王", "阿华", "大刘")
    client.cookies[ME_COOKIE] = signing.get_cookie_signer(salt=ME_COOKIE + ME_COOKIE).sign(f"{game.id}:1")
    assert me_tile(client, game) == "老王"
    signed(client, game, 0)
    assert Hand.objects.get(game=game, seq=2).entered_by == "老王"
    client.post(game_url(game) + "me/0")  # taps 小李's tile: from now on it is 小李, wherever he sits
    seat(client, game, "老王", "小李", "阿华", "大刘")
    assert me_tile(client, game) == "小李"
