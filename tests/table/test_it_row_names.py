"""Every hand row names its people beside their amounts, in the evening's order of people (first
appearance), whatever seat each took; someone sitting out is not listed. The entry preview, its
总分 table and the void screen list them in the same order."""

import re

import pytest

from scoring.engine import score_game
from scoring.engine.points import fmt
from scoring.records.exports import import_game
from tests.helpers import game_url, version_of

FIRST = ["老王", "小李", "阿华", "大刘"]
PEOPLE = ["老王", "小李", "阿华", "大刘", "小周"]  # order of first appearance
HANDS = [
    {"outcome": "win", "winner": 0, "win_type": "zimo"},  # 1: 老王, seat 0
    {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 2},  # 2
    {"outcome": "seating", "players": ["老王", "小李", "小周", "大刘"]},  # 阿华 goes, 小周 sits in
    {"outcome": "win", "winner": 2, "win_type": "zimo"},  # 3: 小周
    {"outcome": "seating", "players": ["大刘", "小周", "小李", "老王"]},  # everyone changes places
    {"outcome": "win", "winner": 0, "win_type": "pinghu", "discarder": 3},  # 4: 大刘 in seat 0, 老王 discards
    {"outcome": "draw"},  # 5
]
ROW = re.compile(r'<details class="hand-row[^"]*" id="hand-(\d+)">(.*?)</summary>', re.S)
NET = re.compile(r'<span class="net"><bdi>([^<]*)</bdi> <b class="[^"]*">([^<]*)</b></span>')


def evening() -> dict:
    return {"ruleset": "yiwu", "players": FIRST, "first_dealer": 0, "hands": HANDS}


def expected_rows() -> dict[int, list[tuple[str, str]]]:
    """seq → (name, amount) of each hand as the engine scores it, in the evening's order of people."""
    scored = score_game(evening())["hands"]
    names, out = FIRST, {}
    for seq, (entry, result) in enumerate(zip(HANDS, scored, strict=True), start=1):
        if entry["outcome"] == "seating":
            names = entry["players"]
            continue
        by_name = dict(zip(names, result["net"], strict=True))
        out[seq] = [(name, fmt(by_name[name], signed=True)) for name in PEOPLE if name in by_name]
    return out


def rows_on(html: str) -> dict[int, list[tuple[str, str]]]:
    return {int(seq): NET.findall(summary) for seq, summary in ROW.findall(html)}


@pytest.fixture
def moved_game(db):
    return import_game(evening())


def test_each_row_names_who_played_it_with_their_amounts_in_the_evenings_order(client, moved_game):
    rows = rows_on(client.get(game_url(moved_game)).content.decode())
    expected = expected_rows()
    assert {seq: rows[seq] for seq in expected} == expected
    assert rows[3] == rows[5] == []  # the seatings are no hand: no amounts
    # 大刘 won from seat 0, 老王 discarded from seat 3 (5 + 1), and the deal went along with 小周 (7):
    # each is listed where they always are.
    assert rows[6] == [("老王", "\u22126"), ("小李", "\u22125"), ("大刘", "+18"), ("小周", "\u22127")]
    assert all("阿华" not in dict(rows[seq]) for seq in (4, 6, 7))  # sitting out: not listed
    assert [name for name, _n in rows[1]] == FIRST  # before anyone moved: seat order, seat 0 first


def test_the_english_rows_name_their_people_in_the_same_order(client, moved_game):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    rows = rows_on(client.get(game_url(moved_game)).content.decode())
    assert {seq: rows[seq] for seq in expected_rows()} == expected_rows()


def test_the_preview_lists_who_plays_in_the_order_of_its_totals_table(client, moved_game):
    html = client.get(game_url(moved_game) + "record?winner=0&win_type=zimo").content.decode()  # 大刘, seat 0
    shown = re.findall(r'<div class="col preview-net"><div class="small"><bdi>([^<]*)</bdi>', html)
    totals = re.findall(r'<tr><th scope="row" class="fw-normal"><bdi>([^<]*)</bdi>', html)
    assert totals == PEOPLE  # everyone of the evening, 阿华 sitting out too
    assert shown == [name for name in totals if name != "阿华"]
    assert "text-truncate" not in html[html.index('class="card preview') : html.index('class="table table-sm')]


def test_the_void_screen_lists_the_hand_in_the_same_order(client, moved_game):
    html = client.get(game_url(moved_game) + "hand/6/void").content.decode()
    card = html[html.index('<div class="card mb-2">') : html.index("</div></div>")]
    assert NET.findall(card) == expected_rows()[6]


def test_a_voided_seating_that_reorders_the_people_renders_the_rows_anew(client, db):
    """Voiding the seating that first brought 小周 in leaves the later seating bringing 小周 and 小陈
    at once, 小陈 in the lower seat: a later hand's seats are unchanged, its order is not (its cached
    row is not served)."""
    game = import_game(
        {
            "ruleset": "yiwu",
            "players": FIRST,
            "hands": [
                {"outcome": "seating", "players": ["老王", "小李", "阿华", "小周"]},
                {"outcome": "draw"},
                {"outcome": "seating", "players": ["老王", "小李", "小陈", "小周"]},
                {"outcome": "win", "winner": 3, "win_type": "zimo"},
            ],
        }
    )
    before = rows_on(client.get(game_url(game)).content.decode())
    assert [name for name, _n in before[4]] == ["老王", "小李", "小周", "小陈"]
    response = client.post(
        game_url(game) + "hand/1/void",
        {"version": version_of(game), "reason": "记错了", "revision": "0", "confirm": "1"},
    )
    assert response.status_code == 302
    after = rows_on(client.get(game_url(game)).content.decode())
    assert [name for name, _n in after[4]] == ["老王", "小李", "小陈", "小周"]
    assert dict(after[4])["小周"] == "+34"
