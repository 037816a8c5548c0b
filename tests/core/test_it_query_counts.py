"""The number of SQL queries per request does not grow with the number of hands."""

import pytest

from scoring.models import Game, Hand
from tests.factories import seeded_game
from tests.helpers import form_fields, game_url, kept_for_the_module

GET_PAGES = {
    "": 3,  # game page: the game, the latest hands (+ rate-limit-free token lookup)
    "poll?v=0": 6,  # changed: the version, then the page's ledger
    "record?winner=1": 3,
    "record?winner=1&win_type=pinghu&discarder=0": 3,
    "hand/{last}/edit": 3,
    "hand/{last}/void": 3,
    "rules": 2,
    "share": 2,
    "settle": 5,  # and the hands not checked (核对): the hands joined to their checks, one query
    "settle?rate=100&fee_yuan=1&fee_mode=equal&fee_payee=0": 5,
    "summary": 3,
    "chart": 3,
    "export.csv": 3,
    "export.json": 5,  # and the game's 收款码 and every hand's 核对, a query each, which its backup carries
}


@pytest.fixture(scope="module", params=[10, 500], ids=["10-hands", "500-hands"])
def stored_long_game(request, django_db_setup, django_db_blocker):
    """The game written once for all this module's tests of its length (each test's own writes
    are undone after it)."""
    with kept_for_the_module(django_db_blocker):
        with django_db_blocker.unblock():
            pk = seeded_game(request.param).pk
        yield pk


@pytest.fixture
def long_game(stored_long_game, db):
    return Game.objects.get(pk=stored_long_game)


@pytest.mark.parametrize("path", list(GET_PAGES))
def test_page_queries_do_not_grow_with_hands(client, long_game, path, django_assert_max_num_queries):
    last = Hand.objects.filter(game=long_game, voided_at__isnull=True).order_by("-seq").first().seq
    url = game_url(long_game) + path.format(last=last)
    client.get(game_url(long_game))  # the phone's cookies, and a warm cache
    with django_assert_max_num_queries(GET_PAGES[path]):
        response = client.get(url)
    assert response.status_code == 200


def test_polling_with_nothing_new_is_one_query_at_any_length(client, long_game, django_assert_num_queries):
    long_game.refresh_from_db()
    with django_assert_num_queries(1):
        response = client.get(game_url(long_game) + f"poll?v={long_game.version}")
    assert response.status_code == 204


def test_recording_a_hand_costs_the_same_at_any_length(client, long_game, django_assert_max_num_queries):
    long_game.refresh_from_db()
    data = {"outcome": "draw", "confirm": "1", "next_seq": str(long_game.state["last_seq"] + 1), "form_token": "q"}
    data["version"] = long_game.version
    with django_assert_max_num_queries(12):
        response = client.post(game_url(long_game) + "record", data)
    assert response.status_code == 302
    assert Hand.objects.filter(game=long_game, form_token="q").exists()


def test_editing_and_voiding_cost_a_bounded_number_of_queries(client, long_game, django_assert_max_num_queries):
    first = Hand.objects.filter(game=long_game).order_by("seq").first()
    version = long_game.version
    # 14, and the game's budget of writes: one upsert, and on a window's first the old ones' clearing
    with django_assert_max_num_queries(16):
        response = client.post(
            game_url(long_game) + f"hand/{first.seq}/edit",
            {**form_fields(first.entry), "revision": "0", "confirm": "1", "version": version},
        )
    assert response.status_code == 302
    last = Hand.objects.filter(game=long_game).order_by("-seq").first()
    version += 1
    with django_assert_max_num_queries(16):
        response = client.post(
            game_url(long_game) + f"hand/{last.seq}/void",
            {"reason": "x", "revision": str(last.revision), "version": version},
        )
    assert response.status_code == 302


@pytest.mark.parametrize("path", ["/", "/history", "/stats"])
def test_home_history_and_stats_do_not_grow_with_hands(client, long_game, path, django_assert_max_num_queries):
    client.get(game_url(long_game))
    with django_assert_max_num_queries(4):
        assert client.get(path).status_code == 200
