"""Numbers and tokens read from requests: only ASCII digits count as numbers, and a token or
name holding NUL or control characters is refused the same way on SQLite and PostgreSQL."""

import json

import pytest

from scoring.models import AccessMiss, Game, Hand
from tests.web.helpers import game_url, messages_of

DEALER_ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}
SUPERSCRIPT_TWO = "\u00b2"  # "²".isdigit() is True, int("²") raises


def misses() -> int:
    return sum(AccessMiss.objects.values_list("count", flat=True))


@pytest.mark.parametrize("path", ["hand/1/edit", "hand/1/void"])
def test_a_superscript_revision_in_a_get_does_not_crash_the_page(client, one_hand_game, path):
    response = client.get(game_url(one_hand_game) + f"{path}?revision={SUPERSCRIPT_TWO}")
    assert response.status_code == 200


def test_a_superscript_revision_in_an_edit_is_refused_as_stale(client, one_hand_game):
    data = {"outcome": "win", "winner": "1", "win_type": "zimo", "revision": SUPERSCRIPT_TWO, "confirm": "1"}
    response = client.post(game_url(one_hand_game) + "hand/1/edit", data, follow=True)
    assert response.status_code == 200
    assert any("刚被别人改过" in m for m in messages_of(response))
    assert Hand.objects.get(seq=1).entry == DEALER_ZIMO


def test_a_superscript_revision_in_a_void_is_refused_as_stale(client, one_hand_game):
    response = client.post(
        game_url(one_hand_game) + "hand/1/void", {"reason": "x", "revision": SUPERSCRIPT_TWO}, follow=True
    )
    assert response.status_code == 200
    assert not Hand.objects.get(seq=1).voided


def test_a_superscript_next_seq_records_nothing_and_does_not_crash(client, one_hand_game):
    response = client.post(
        game_url(one_hand_game) + "record",
        {"outcome": "draw", "confirm": "1", "next_seq": SUPERSCRIPT_TWO},
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
