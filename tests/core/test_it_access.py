"""Every game URL with no token, a wrong token, the view token and the edit token."""

import pytest

from scoring.models import AccessMiss, Game, Hand

READS = ["", "poll?v=0", "share", "rules"]
WRITES = [
    # version 1: the game's version once ``played`` has its hand
    ("post", "record", {"outcome": "draw", "confirm": "1", "next_seq": "2", "version": "1"}),
    (
        "post",
        "hand/1/edit",
        {"outcome": "win", "winner": "1", "win_type": "zimo", "revision": "0", "version": "1", "confirm": "1"},
    ),
    ("post", "hand/1/void", {"reason": "x", "revision": "0", "version": "1"}),
    ("get", "undo", {}),
    ("post", "me/1", {}),
]
WRITE_PAGES = ["record?winner=1", "hand/1/edit", "hand/1/void"]


def unchanged(game: Game) -> bool:
    hand = Hand.objects.get(game=game)
    return Hand.objects.filter(game=game).count() == 1 and hand.revision == 0 and not hand.voided


@pytest.mark.parametrize("path", READS + WRITE_PAGES + [w[1] for w in WRITES])
@pytest.mark.parametrize("token", ["", "wrong-token-that-is-not-a-game", "x" * 200])
def test_a_wrong_or_missing_token_answers_404(client, one_hand_game, token, path):
    response = (
        client.post(f"/g/{token}/{path}")
        if path.startswith(("me/", "hand/1/void"))
        else client.get(f"/g/{token}/{path}")
    )
    assert response.status_code == 404
    assert unchanged(one_hand_game)


@pytest.mark.parametrize("path", READS)
def test_the_view_token_reads(client, one_hand_game, path):
    assert client.get(f"/g/{one_hand_game.view_token}/{path}").status_code in (200, 204)


@pytest.mark.parametrize(("method", "path", "data"), WRITES)
def test_the_view_token_cannot_write_anything(client, one_hand_game, method, path, data):
    response = getattr(client, method)(f"/g/{one_hand_game.view_token}/{path}", data)
    assert response.status_code in (403, 404)
    assert unchanged(one_hand_game)


@pytest.mark.parametrize("path", WRITE_PAGES)
def test_the_view_token_gets_no_entry_forms(client, one_hand_game, path):
    assert client.get(f"/g/{one_hand_game.view_token}/{path}").status_code == 403


@pytest.mark.parametrize("path", READS + WRITE_PAGES)
def test_the_edit_token_reads_and_opens_every_form(client, one_hand_game, path):
    assert client.get(f"/g/{one_hand_game.edit_token}/{path}").status_code in (200, 204)


@pytest.mark.parametrize(("method", "path", "data"), WRITES)
def test_the_edit_token_writes(client, one_hand_game, method, path, data):
    response = getattr(client, method)(f"/g/{one_hand_game.edit_token}/{path}", data)
    assert response.status_code == 302
    if path != "me/1":
        one_hand_game.refresh_from_db()
        assert one_hand_game.version >= 2 or path == "undo"


def test_forms_need_the_csrf_token(one_hand_game):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = strict.post(
        f"/g/{one_hand_game.edit_token}/record", {"outcome": "draw", "confirm": "1", "next_seq": "2"}
    )
    assert response.status_code == 403
    assert unchanged(one_hand_game)


def test_guessing_tokens_is_rate_limited_per_client(client, db):
    for i in range(30):
        assert client.get(f"/g/guess-{i}/").status_code == 404
    assert client.get("/g/guess-31/").status_code == 429
    # another client is not affected
    assert client.get("/g/guess-1/", REMOTE_ADDR="10.9.9.9").status_code == 404
    assert AccessMiss.objects.get(client="127.0.0.1").count == 30


def test_the_share_page_shows_both_links_as_qr_codes_to_the_edit_link(client, one_hand_game):
    html = client.get(f"/g/{one_hand_game.edit_token}/share").content.decode()
    assert html.count("<svg") == 2
    assert f"/g/{one_hand_game.edit_token}/" in html
    assert f"/g/{one_hand_game.view_token}/" in html


def test_the_share_page_hands_out_only_the_view_link_to_a_viewer(client, one_hand_game):
    html = client.get(f"/g/{one_hand_game.view_token}/share").content.decode()
    assert html.count("<svg") == 1
    assert one_hand_game.edit_token not in html


def test_tokens_are_unguessable():
    tokens = {Game().edit_token for _ in range(200)}
    assert len(tokens) == 200
    assert all(len(t) >= 22 for t in tokens)  # ≥ 128 bits of URL-safe base64
