"""The game page is kept rendered (scoring/pagecache.py) and must never show what a fresh render
would not: each test renders the page into the cache first, changes one thing the page depends
on, and reads the page again."""

import re
from io import StringIO

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from scoring.models import Hand
from tests.helpers import game_url, record, totals_on_page, version_of

DEALER_ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}  # 老王 +42, the others −14
SOUTH_PINGHU = {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 2}


def page(client, game, query: str = "", view: bool = False) -> str:
    response = client.get(game_url(game, view) + query)
    assert response.status_code == 200
    return response.content.decode()


def cached(client, game, **kwargs) -> str:
    """The page read until it comes from the cache: once for any flash of the last write, then
    rendered, then served from the cache."""
    page(client, game, **kwargs)
    first = page(client, game, **kwargs)
    again = page(client, game, **kwargs)
    assert strip_csrf(again) == strip_csrf(first)
    return again


def strip_csrf(html: str) -> str:
    return re.sub(r"[A-Za-z0-9]{64}", "<csrf>", html)


def test_a_page_served_from_the_cache_is_the_page_rendered(client, game):
    record(client, game, DEALER_ZIMO)
    html = cached(client, game)
    assert totals_on_page(html) == ["+42", "−14", "−14", "−14"]


def test_an_unchanged_game_is_served_from_the_cache_with_one_query(client, one_hand_game, django_assert_num_queries):
    """The game's row, and no hand: what the tests below guard is really kept."""
    cached(client, one_hand_game)
    with django_assert_num_queries(1):
        page(client, one_hand_game)


def test_an_edit_shows_at_once(client, game):
    record(client, game, DEALER_ZIMO)
    cached(client, game)
    hand = Hand.objects.get()
    edited = {"outcome": "win", "winner": "1", "win_type": "zimo", "revision": hand.revision}
    response = client.post(game_url(game) + "hand/1/edit", {**edited, "version": version_of(game), "confirm": "1"})
    assert response.status_code == 302
    page(client, game)  # the flash
    assert totals_on_page(page(client, game)) == ["−14", "+34", "−10", "−10"]


@pytest.mark.parametrize("how", ["void", "undo"])
def test_a_void_or_an_undo_shows_at_once(client, game, how):
    record(client, game, DEALER_ZIMO)
    cached(client, game)
    if how == "undo":
        assert client.get(game_url(game) + "undo").status_code == 302
    hand = Hand.objects.get()
    data = {"reason": "记错了", "revision": hand.revision, "version": version_of(game)}
    assert client.post(game_url(game) + "hand/1/void", data).status_code == 302
    page(client, game)  # the flash
    html = page(client, game)
    assert totals_on_page(html) == ["0", "0", "0", "0"]
    assert "已作废" in html
    assert "撤销上一局" not in html  # nothing left to undo


def test_the_language_switch_shows_at_once(client, one_hand_game):
    assert "共 1 局" in cached(client, one_hand_game)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = page(client, one_hand_game)
    assert '<html lang="en">' in html
    assert "1 hand" in html
    assert "共 1 局" not in html


def test_the_view_link_never_gets_the_edit_links_page(client, one_hand_game):
    assert "记一局：谁胡了？" in cached(client, one_hand_game)
    html = page(client, one_hand_game, view=True)
    assert "只读链接：可以看，不能记分。" in html
    assert "记一局：谁胡了？" not in html
    assert "/edit" not in html
    assert one_hand_game.edit_token not in html


def test_a_page_of_the_whole_list_is_its_own(client, one_hand_game):
    cached(client, one_hand_game)
    assert "第 1 / 1 页" in page(client, one_hand_game, query="?page=1")


def test_this_phones_seat_shows_and_another_phones_does_not(client, one_hand_game):
    cached(client, one_hand_game)
    client.post(game_url(one_hand_game) + "me/1")
    mine = page(client, one_hand_game)
    assert mine.count(">我</span>") == 1
    assert mine.count("tile tile-dealer ") == 1  # seat 0 still deals, and is not this phone
    other = Client()
    assert ">我</span>" not in page(other, one_hand_game)


def test_a_signed_in_account_sees_its_own_name(client, one_hand_game):
    cached(client, one_hand_game)
    User.objects.create_user("阿明", password="pw-long-enough-1")
    client.force_login(User.objects.get(username="阿明"))
    html = page(client, one_hand_game)
    assert "退出 阿明" in html
    other = Client()
    User.objects.create_user("小芳", password="pw-long-enough-2")
    other.force_login(User.objects.get(username="小芳"))
    assert "退出 小芳" in page(other, one_hand_game)


def test_a_flash_shows_once_even_when_the_page_is_cached(client, game):
    """A refused bet changes nothing (the version stays): its message still shows, once."""
    cached(client, game)
    client.post(game_url(game) + "bet", {"bet": "xiazi", "seat": "1", "on": "1"})  # no dealer win yet
    assert "下子" in re.search(r'<div id="flash".*?</div>\s*</div>', page(client, game), re.S)[0]
    assert 'role="alert"' not in page(client, game)


def test_each_phone_gets_its_own_csrf_token(one_hand_game):
    """The page's forms work on every phone: a token cached from another phone would be refused."""
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    cached(first, one_hand_game)
    html = page(second, one_hand_game)  # from the cache
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)[1]
    assert f'"X-CSRFToken": "{token}"' in html  # one token per response, as rendered
    response = second.post(game_url(one_hand_game) + "me/2", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302


def test_a_repaired_replay_cache_shows_at_once(client, game):
    """``verify_ledgers --repair`` rewrites a wrong stored result without any write to the hands."""
    record(client, game, DEALER_ZIMO)
    hand = Hand.objects.get()
    hand.result = {**hand.result, "net": [0, 0, 0, 0]}
    hand.save()
    assert '<span class="net"><bdi>老王</bdi> <b class="even">0</b>' in cached(client, game)  # the wrong row, as stored
    call_command("verify_ledgers", "--repair", stdout=StringIO())
    assert '<span class="net"><bdi>老王</bdi> <b class="gain">+42</b>' in page(client, game)


def test_the_poll_answer_is_fresh_too(client, one_hand_game):
    page(client, one_hand_game)  # the flash of the write
    for _ in range(2):
        assert "共 1 局" in client.get(game_url(one_hand_game) + "poll?v=0").content.decode()
    record(Client(), one_hand_game, SOUTH_PINGHU)  # another phone
    assert "共 2 局" in client.get(game_url(one_hand_game) + "poll?v=0").content.decode()


def test_a_new_release_never_serves_the_last_ones_pages(settings, tmp_path):
    """A shared cache outlives a deploy: its keys carry the release (templates, code, wording)."""
    from scoring.pagecache import build

    (tmp_path / "templates").mkdir()
    page_file = tmp_path / "templates" / "game.html"
    settings.BASE_DIR = tmp_path
    releases = []
    for text in ("<p>{{ a }}</p>", "<p>{{ a }} </p>", "<p>{{ a }} </p>"):
        page_file.write_text(text)
        build.cache_clear()
        releases.append(build())
    build.cache_clear()
    assert releases[0] != releases[1] == releases[2]


def test_a_query_string_makes_no_new_copy_of_the_game_page_through_the_view_link(client, one_hand_game, monkeypatch):
    """Anyone holding the view link could add ``?n=1``, ``?n=2``… : each must be the page kept,
    not another build stored for an hour."""
    import scoring.pagecache

    page(client, one_hand_game)  # the flash of its hand
    built = []
    real = scoring.pagecache.render_to_string
    monkeypatch.setattr(scoring.pagecache, "render_to_string", lambda *a, **k: built.append(1) or real(*a, **k))
    pages = [page(client, one_hand_game, f"?n={i}", view=True) for i in range(6)]
    assert len(built) == 1
    assert {strip_csrf(html) for html in pages} == {strip_csrf(pages[0])}
    assert 'name="next" type="hidden" value="/g/' in pages[0]
    assert "?n=" not in pages[0]  # the language switch returns without it


def test_a_page_number_past_the_last_is_the_last_page_kept_once(client, one_hand_game, monkeypatch):
    import scoring.pagecache

    page(client, one_hand_game)  # the flash of its hand
    built = []
    real = scoring.pagecache.render_to_string
    monkeypatch.setattr(scoring.pagecache, "render_to_string", lambda *a, **k: built.append(1) or real(*a, **k))
    last = page(client, one_hand_game, "?page=1")
    for query in ("?page=2", "?page=999999", "?all=1", "?page=1&n=3"):
        assert strip_csrf(page(client, one_hand_game, query)) == strip_csrf(last)
    assert len(built) == 1


def test_a_poll_with_any_stale_version_is_served_the_ledger_kept_once(client, one_hand_game, monkeypatch):
    import scoring.pagecache

    page(client, one_hand_game)  # the flash of its hand
    built = []
    real = scoring.pagecache.render_to_string
    monkeypatch.setattr(scoring.pagecache, "render_to_string", lambda *a, **k: built.append(1) or real(*a, **k))
    for stale in (*range(-3, 1), 2, 77):
        assert client.get(game_url(one_hand_game, view=True) + f"poll?v={stale}").status_code == 200
    assert len(built) == 1


def test_a_query_string_makes_no_new_step_bundle(client, one_hand_game, monkeypatch):
    import scoring.table.views.steps

    game, walks = one_hand_game, []
    page(client, game)  # the flash of its hand
    real = scoring.table.views.steps.walk
    monkeypatch.setattr(scoring.table.views.steps, "walk", lambda *a, **k: walks.append(1) or real(*a, **k))
    bundles = {client.get(game_url(game) + f"steps?n={i}").content.decode()[:2000] for i in range(5)}
    assert len(walks) == 1
    assert len({strip_csrf(b) for b in bundles}) == 1
