"""Numbers and tokens read from requests: only ASCII digits count as numbers, and a token or
name holding NUL or control characters is refused the same way on SQLite and PostgreSQL."""

import json

import pytest
from django.core import signing

from scoring.device import ME_COOKIE
from scoring.models import AccessMiss, Game, Hand, Settlement
from tests.helpers import NEW_GAME as YIWU_NEW_GAME
from tests.helpers import game_url, messages_of, record, version_of

DEALER_ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}
SUPERSCRIPT_TWO = "\u00b2"  # "²".isdigit() is True, int("²") raises


def misses() -> int:
    return sum(AccessMiss.objects.values_list("count", flat=True))


@pytest.mark.parametrize("path", ["hand/1/edit", "hand/1/void"])
def test_a_superscript_revision_in_a_get_does_not_crash_the_page(client, one_hand_game, path):
    response = client.get(game_url(one_hand_game) + f"{path}?revision={SUPERSCRIPT_TWO}")
    assert response.status_code == 200


def test_a_superscript_revision_in_an_edit_is_refused_as_unstamped(client, one_hand_game):
    data = {"outcome": "win", "winner": "1", "win_type": "zimo", "revision": SUPERSCRIPT_TWO, "confirm": "1"}
    response = client.post(
        game_url(one_hand_game) + "hand/1/edit", data | {"version": version_of(one_hand_game)}, follow=True
    )
    assert response.status_code == 200
    assert "这个表单缺少版本信息" in response.content.decode()
    assert Hand.objects.get(seq=1).entry == DEALER_ZIMO


def test_a_superscript_revision_in_a_void_is_refused_as_unstamped(client, one_hand_game):
    response = client.post(
        game_url(one_hand_game) + "hand/1/void",
        {"version": version_of(one_hand_game), "reason": "x", "revision": SUPERSCRIPT_TWO},
        follow=True,
    )
    assert response.status_code == 200
    assert "这个表单缺少版本信息" in response.content.decode()
    assert not Hand.objects.get(seq=1).voided


def test_a_superscript_next_seq_records_nothing_and_does_not_crash(client, one_hand_game):
    response = client.post(
        game_url(one_hand_game) + "record",
        {"version": version_of(one_hand_game), "outcome": "draw", "confirm": "1", "next_seq": SUPERSCRIPT_TWO},
        follow=True,
    )
    assert response.status_code == 200
    assert Hand.objects.filter(game=one_hand_game).count() == 1


@pytest.mark.parametrize("path", ["", "poll?v=1", "share", "record", "settle", "export.csv"])
@pytest.mark.parametrize("token", ["abc%00def", "%00", "a%01b", "tok%E2%80%AEen"])
def test_a_token_with_nul_or_control_characters_is_a_counted_wrong_token(client, one_hand_game, path, token):
    before = misses()
    response = client.get(f"/g/{token}/{path}")
    assert response.status_code == 404
    assert misses() == before + 1


def test_a_form_token_with_a_nul_byte_is_a_form_error(client, one_hand_game):
    data = {"outcome": "draw", "confirm": "1", "next_seq": "2", "form_token": "abc\x00def"}
    response = client.post(game_url(one_hand_game) + "record", data)
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert Hand.objects.filter(game=one_hand_game).count() == 1


@pytest.mark.parametrize("name", ["老\x00王", "老\x07王", "老\u202e王"])
def test_an_imported_name_with_nul_or_control_characters_is_refused(client, db, name):
    backup = {"players": [name, "乙", "丙", "丁"], "hands": [DEALER_ZIMO]}
    response = client.post("/import", {"text": json.dumps(backup)})
    assert response.status_code == 400
    assert "名字" in response.content.decode()
    assert not Game.objects.exists()


# --- One text check for every name and note, from every door (scoring/engine/hygiene.py) ---------

BAD_NAMES = {
    "nul": "老\x00王",
    "bidi": "老\u202e王",
    "isolate": "老\u2066王",
    "zero-width": "\u200b",
    "private-use": "老\ue000王",
    "line-separator": "老\u2028王",
    "spaces": "   ",
    "ideographic-space": "\u3000",
}
DUPLICATES = {"same": ["甲", "甲", "丙", "丁"], "spaced": ["甲", "甲 ", "丙", "丁"]}


NEW_GAME = {"name1": "小李", "name2": "阿华", "name3": "大刘", "first_dealer": "0", "preset": "7/5"}


def four(name: str) -> list[str]:
    return [name, "乙", "丙", "丁"]


def api(client, url: str, body) -> dict:
    response = client.post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    return response.json()["error"]


@pytest.mark.parametrize("players", [four(n) for n in BAD_NAMES.values()] + list(DUPLICATES.values()))
def test_a_backup_with_a_bad_or_repeated_name_is_refused_and_stores_nothing(client, db, players):
    response = client.post("/import", {"text": json.dumps({"players": players, "hands": [DEALER_ZIMO]})})
    assert response.status_code == 400
    assert "名字" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("players", [four(n) for n in BAD_NAMES.values()] + list(DUPLICATES.values()))
def test_api_score_refuses_a_bad_or_repeated_name(client, db, players):
    error = api(client, "/api/score", {"players": players, "hands": [DEALER_ZIMO]})
    assert error["field"] == "players"
    assert "名字" in error["message"]


@pytest.mark.parametrize("name", list(BAD_NAMES.values()))
def test_api_settle_refuses_a_bad_name(client, db, name):
    error = api(client, "/api/settle", {"balances": {name: 1, "乙": -1}, "rate_fen": 100})
    assert error["field"] == "balances"
    assert "名字" in error["message"]


def test_api_settle_refuses_two_names_that_differ_only_by_spaces(client, db):
    error = api(client, "/api/settle", {"balances": {"甲": 1, "甲 ": -1, "乙": 0}, "rate_fen": 100})
    assert "重复" in error["message"]


@pytest.mark.parametrize("bad", ["\ue000", "\u2028", "\U000f0000"])
def test_a_new_game_refuses_private_use_and_separator_characters_in_a_name(client, db, bad):
    response = client.post("/new", {**NEW_GAME, "name0": f"老{bad}王"})
    assert response.status_code == 200
    assert "不能包含控制字符或文字方向字符" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("note", ["罚\u202e分", "罚\ue000分", "罚\u200b分"])
def test_a_manual_note_with_a_direction_or_invisible_character_is_refused(client, game, note):
    data = {"outcome": "manual", "n0": "-3", "n1": "3", "note": note, "next_seq": "1", "confirm": "1"}
    response = client.post(game_url(game) + "record", data)
    assert response.status_code == 200
    assert "不能包含控制字符或文字方向字符" in response.content.decode()
    assert not Hand.objects.exists()


@pytest.mark.parametrize("note", ["罚\u202e分", "罚\x00分", "罚\ue000分"])
def test_api_score_refuses_a_manual_note_with_a_direction_or_control_character(client, db, note):
    hand = {"outcome": "manual", "net": [-3, 3, 0, 0], "note": note}
    error = api(client, "/api/score", {"hands": [hand]})
    assert error["field"] == "note"
    assert error["hand"] == 0


# --- Seats are the game's seats: 武义二人 has two ---------------------------------------------------


def seat_cookie(value: str) -> str:
    """The 我是… cookie as scoring/device.py signs it (Django salts with the name plus the salt)."""
    return signing.get_cookie_signer(salt=ME_COOKIE + ME_COOKIE).sign(value)


@pytest.mark.parametrize("seat", [2, 3])
def test_a_two_seat_game_has_no_third_or_fourth_seat_to_sit_at(client, wuyi2_game, seat):
    response = client.post(game_url(wuyi2_game) + f"me/{seat}")
    assert response.status_code == 404
    assert ME_COOKIE not in response.cookies


def test_sitting_at_a_two_seat_games_second_seat_still_works(client, wuyi2_game):
    response = client.post(game_url(wuyi2_game) + "me/1")
    assert response.status_code == 302
    assert client.get(game_url(wuyi2_game)).context["me"] == 1


def test_a_remembered_seat_past_the_games_seats_is_ignored_and_hands_still_record(client, wuyi2_game):
    """A phone that sat at seat 3 before seats were checked: its confirms were a 500 (IndexError)."""
    for seat, me in ((1, 1), (3, None)):  # seat 1 proves the cookie is read as the app writes it
        client.cookies[ME_COOKIE] = seat_cookie(f"{wuyi2_game.id}:{seat}")
        assert client.get(game_url(wuyi2_game)).context["me"] == me
    response = record(client, wuyi2_game, {"outcome": "win", "winner": 0, "discarder": 1, "patterns": []})
    assert response.status_code == 302
    assert Hand.objects.filter(game=wuyi2_game).count() == 1


# --- Numbers are ASCII digits everywhere: 「٣」, 「３」, 「²」 and 「1e3」 are not numbers -------------

ARABIC_THREE, FULLWIDTH_THREE, ARABIC_ZERO = "\u0663", "\uff13", "\u0660"


@pytest.mark.parametrize(("n0", "n1"), [(ARABIC_THREE, "-3"), ("1e3", "-1e3"), (FULLWIDTH_THREE, "-3"), ("3", "-²")])
def test_a_manual_amount_in_other_digits_or_an_exponent_is_refused(client, game, n0, n1):
    data = {"outcome": "manual", "n0": n0, "n1": n1, "note": "罚分", "next_seq": "1", "confirm": "1"}
    response = client.post(game_url(game) + "record", data)
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not Hand.objects.exists()


def test_a_streak_correction_in_other_digits_is_refused(client, game):
    response = record(client, game, {"outcome": "draw"}, streak_fix=ARABIC_THREE)
    assert response.status_code == 200
    assert "streak_fix" in response.context["form"].errors
    assert not Hand.objects.exists()


def test_a_house_rule_in_other_digits_is_refused(client, db):
    response = client.post("/new", {**YIWU_NEW_GAME, "maizi_points": ARABIC_THREE})
    assert response.status_code == 200
    assert "maizi_points" in response.context["form"].errors
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [("custom_yuan", ARABIC_THREE), ("custom_yuan", "1e3"), ("fee_yuan", ARABIC_THREE + ARABIC_ZERO)],
)
def test_a_settle_amount_in_other_digits_or_an_exponent_is_refused(client, one_hand_game, field, value):
    data = {"rate": "custom", "custom_yuan": "1", "fee_yuan": "", "fee_mode": "equal", "fee_payee": "0", field: value}
    response = client.post(game_url(one_hand_game) + "finish", data, follow=True)
    assert messages_of(response)
    assert not Settlement.objects.exists()
    preview = client.get(game_url(one_hand_game) + "settle", data)
    assert field in preview.context["form"].errors


@pytest.mark.parametrize("winner", [ARABIC_THREE, FULLWIDTH_THREE, SUPERSCRIPT_TWO, "1e0"])
def test_sanpai_takes_a_winner_only_in_ascii_digits(client, game, winner):
    response = client.get(game_url(game) + "analyse", {"winner": winner})
    assert response.status_code == 200
    error = response.context["q"].error
    assert "没有这个座位" in error
    assert "invalid literal" not in response.content.decode()


@pytest.mark.parametrize("melded", [ARABIC_ZERO, "\uff12", SUPERSCRIPT_TWO])
def test_sanpai_takes_melded_sets_only_in_ascii_digits(client, game, melded):
    response = client.get(game_url(game) + "analyse", {"melded": melded})
    assert "副数应为 0-4" in response.context["q"].error
