"""大字 (长辈模式, docs/manual.md): the switch in every page's top bar turns it on and off for this phone,
from a plain form or a boosted one, and the page comes with ``class="big"`` on ``<html>`` from the server."""

import re

import pytest
from django.test import Client

from scoring import device, services
from scoring.models import Group
from tests.factories import seeded_game
from tests.helpers import game_url

SWITCH = re.compile(r'<form method="post" action="/big-text"[^>]*>.*?</form>', re.S)


@pytest.fixture
def pages(db):
    game = seeded_game(4)
    group = Group.objects.create(name="周五老地方", roster=["老王", "小李", "阿华", "大刘"])
    services.join_group(game, group)
    url = game_url(game)
    return [
        "/",
        "/new",
        "/history",
        "/stats",
        "/rules/yiwu",
        url,
        url + "?page=1",
        url + "record",
        url + "record?outcome=win&winner=1",
        url + "record?outcome=win&winner=1&win_type=pinghu&discarder=0",
        url + "settle",
        url + "summary",
        url + "rules",
        f"/group/{group.edit_token}/",
    ]


def big(html: str) -> bool:
    head = re.search(r"<html[^>]*>", html).group(0)
    return 'class="big"' in head


def switch(html: str) -> str:
    return SWITCH.search(html).group(0)


def test_every_page_has_the_switch_and_it_sets_and_clears_the_mode(client, pages):
    for url in pages:
        html = client.get(url).content.decode()
        assert not big(html), url
        assert 'name="big" value="1" aria-pressed="false"' in switch(html), url
        assert f'name="next" value="{url}"'.replace("&", "&amp;") in switch(html), url
        response = client.post("/big-text", {"big": "1", "next": url})
        assert response.status_code == 302
        assert response["Location"] == url
        html = client.get(url).content.decode()
        assert big(html), url  # rendered with the page: no flash of small text
        assert 'name="big" value="0" aria-pressed="true"' in switch(html), url
        assert client.post("/big-text", {"big": "0", "next": url})["Location"] == url
        assert not big(client.get(url).content.decode()), url


def test_the_mode_is_kept_by_this_phone_a_year_and_by_no_other(client, pages):
    response = client.post("/big-text", {"big": "1", "next": "/"})
    cookie = response.cookies[device.BIG_COOKIE]
    assert cookie["max-age"] == device.YEAR
    assert cookie["httponly"]
    assert cookie["samesite"] == "Lax"
    assert all(big(client.get(url).content.decode()) for url in pages)
    assert not any(big(Client().get(url).content.decode()) for url in pages)  # the cached game page too


def test_a_boosted_switch_loads_the_page_whole(client, pages):
    """An htmx request would swap <body> and keep <html>'s class: it is told to load the page instead."""
    url = pages[5]
    headers = {"HX-Request": "true", "HX-Boosted": "true", "HX-Current-URL": "http://testserver" + url}
    response = client.post("/big-text", {"big": "1", "next": url}, headers=headers)
    assert response.status_code == 204
    assert response["HX-Redirect"] == url
    assert big(client.get(url, headers=headers).content.decode())  # a boosted page in the mode
    response = client.post("/big-text", {"big": "0", "next": url}, headers=headers)
    assert response["HX-Redirect"] == url
    assert not big(client.get(url, headers=headers).content.decode())


def test_the_switch_never_sends_the_phone_elsewhere_and_only_answers_a_post(client, db):
    for away in ("https://evil.example/", "//evil.example/", ""):
        response = client.post("/big-text", {"big": "1", "next": away})
        assert response.status_code == 302
        assert response["Location"] == "/"
    assert client.get("/big-text").status_code == 405
    assert big(client.get("/").content.decode())
