"""A navigation gets the whole page: a boosted link or form (``HX-Boosted``) and htmx's history
restore (the back gesture, ``HX-History-Restore-Request``) swap the whole body, so only a request
that targets a part of the page (a plain ``HX-Request``) may get that part."""

import pytest

from scoring.models import Hand
from tests.web.helpers import form_fields, game_url, record, version_of

PART = {"HX-Request": "true"}
BOOSTED = {"HX-Request": "true", "HX-Boosted": "true"}
RESTORE = {"HX-Request": "true", "HX-History-Restore-Request": "true"}
ZIMO = {"outcome": "win", "winner": 1, "win_type": "zimo"}
MANUAL = {"outcome": "manual", "n0": "-10", "n1": "6", "n2": "4", "n3": "0", "note": "罚分"}


def whole(html: str) -> bool:
    """The whole document, with its top bar."""
    return html.lstrip().startswith("<!doctype html>") and '<nav class="navbar topbar">' in html


@pytest.mark.parametrize("headers", [BOOSTED, RESTORE], ids=["boosted", "history-restore"])
def test_a_navigation_to_the_settle_screen_gets_the_whole_page(client, game, headers):
    record(client, game, ZIMO)
    for query in ("settle", "settle?rate=100&fee_yuan=10&fee_mode=equal&fee_payee=0"):
        html = client.get(game_url(game) + query, headers=headers).content.decode()
        assert whole(html), query
        assert 'id="settle-form"' in html


def test_only_the_settle_forms_own_refresh_gets_the_preview_alone(client, game):
    html = client.get(game_url(game) + "settle?rate=100&fee_yuan=10&fee_mode=equal&fee_payee=0", headers=PART)
    assert html.content.decode().startswith('<div id="settle-preview"')


@pytest.mark.parametrize("answers", [form_fields(ZIMO), MANUAL], ids=["zimo", "manual"])
@pytest.mark.parametrize("headers", [BOOSTED, RESTORE], ids=["boosted", "history-restore"])
def test_the_update_preview_button_gets_the_whole_page_and_its_address(client, game, answers, headers):
    """「更新预览」 is the form's own submit (boosted): the whole page, at an address a reload shows again."""
    response = client.post(game_url(game) + "record", {**answers, "next_seq": "1", "form_token": "t1"}, headers=headers)
    html = response.content.decode()
    assert whole(html)
    assert 'id="hand-form"' in html
    assert "确认记录" in html
    assert "取消" in html
    again = client.get(response["HX-Push-Url"]).content.decode()
    assert 'id="hand-form"' in again
    assert "确认记录" in again
    assert "form_token=t1" not in response["HX-Push-Url"]  # a one-time token is never in an address


def test_a_confirm_after_the_refresh_records_one_hand(client, game):
    data = {**form_fields(ZIMO), "next_seq": "1", "form_token": "t1", "version": version_of(game)}
    client.post(game_url(game) + "record", data, headers=BOOSTED)
    response = client.post(game_url(game) + "record", {**data, "confirm": "1"}, headers=BOOSTED)
    html = response.content.decode()
    assert whole(html)
    assert 'id="tiles"' in html
    assert response["HX-Push-Url"] == game_url(game)
    client.post(game_url(game) + "record", {**data, "confirm": "1"}, headers=BOOSTED)  # a second tap
    assert [h.entry for h in Hand.objects.all()] == [ZIMO]


def test_the_previews_own_refresh_still_gets_the_panel_alone(client, game):
    data = {**form_fields(ZIMO), "next_seq": "1"}
    html = client.post(game_url(game) + "record", data, headers=PART).content.decode()
    assert html.lstrip().startswith('<div id="preview-panel">')
