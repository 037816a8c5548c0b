"""Live updates: every open phone polls a cheap endpoint with the version it shows."""

from tests.factories import add_hand
from tests.helpers import game_url, version_of


def test_the_game_page_polls_with_its_version(client, game):
    html = client.get(game_url(game)).content.decode()
    assert f'hx-get="{game_url(game)}poll?v=0"' in html
    assert 'hx-trigger="every 3s, poll-now"' in html


def test_nothing_new_is_one_query_and_an_empty_204(client, game, django_assert_num_queries):
    client.get(game_url(game))  # the session and cookies a phone already has
    with django_assert_num_queries(1):
        response = client.get(game_url(game) + "poll?v=0")
    assert response.status_code == 204
    assert response.content == b""
    assert response["Cache-Control"] == "private, no-store"


def test_a_new_hand_sends_the_fresh_ledger_and_the_next_version(client, game):
    add_hand(game, {"outcome": "win", "winner": 2, "win_type": "zimo"})
    response = client.get(game_url(game, view=True) + "poll?v=0")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'poll?v=1"' in html
    assert 'id="tiles" hx-swap-oob="true"' in html
    assert 'id="hands" hx-swap-oob="true"' in html
    assert ">+34<" in html  # 阿华 self-draws off the dealer 老王: 14 + 10 + 10
    assert "<html" not in html  # a fragment, not a page


def test_edits_and_voids_bump_the_version(client, game):
    add_hand(game, {"outcome": "draw"})
    client.post(
        game_url(game) + "hand/1/edit",
        {"outcome": "win", "winner": "1", "win_type": "zimo", "revision": "0", "confirm": "1", "version": "1"},
    )
    client.post(game_url(game) + "hand/1/void", {"version": version_of(game), "reason": "x", "revision": "1"})
    game.refresh_from_db()
    assert game.version == 3
    assert client.get(game_url(game) + "poll?v=3").status_code == 204
    assert client.get(game_url(game) + "poll?v=2").status_code == 200
