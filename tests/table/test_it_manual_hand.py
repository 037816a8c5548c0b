"""手动记分: typed changes and a note, previewed, confirmed, edited, voided and exported in every ruleset."""

import json

import pytest

from scoring.engine import score_game
from scoring.models import Hand
from tests.factories import add_hand
from tests.helpers import game_url, totals_on_page, version_of

PENALTY = {"outcome": "manual", "net": [-10, 5, 3, 2], "note": "诈胡罚分"}


def post(client, game, data: dict, confirm: bool = True):
    game.refresh_from_db()
    next_seq = (game.hands.order_by("-seq").values_list("seq", flat=True).first() or 0) + 1
    body = {"outcome": "manual", "next_seq": next_seq, **data}
    if confirm:
        body["confirm"], body["version"] = "1", game.version
    return client.post(game_url(game) + "record", body)


def test_the_winner_step_of_every_ruleset_links_to_manual_scoring(client, game, zhuji_game, wuyi2_game):
    for g in (game, zhuji_game, wuyi2_game):
        html = client.get(game_url(g) + "record").content.decode()
        assert "?outcome=manual" in html
        assert "手动记分" in html


def test_the_form_asks_each_players_change_and_a_note(client, game):
    html = client.get(game_url(game) + "record?outcome=manual").content.decode()
    for seat in range(4):
        assert f'name="n{seat}"' in html
    assert 'name="note"' in html
    assert "alert-danger" not in html  # nothing typed yet: no complaint


def test_preview_then_confirm_records_and_marks_it_in_the_ledger(client, game):
    data = {"n0": "-10", "n1": "5", "n2": "3", "n3": "2", "note": "诈胡罚分"}
    html = post(client, game, data, confirm=False).content.decode()
    assert "确认记录" in html
    assert "手动 · 诈胡罚分" in html
    assert not Hand.objects.exists()
    response = post(client, game, data)
    assert response.status_code == 302
    assert Hand.objects.get().entry == PENALTY
    page = client.get(game_url(game)).content.decode()
    assert totals_on_page(page) == ["−10", "+5", "+3", "+2"]
    assert "手动 · 诈胡罚分" in page


def test_amounts_that_do_not_add_up_or_no_note_are_refused(client, game):
    html = post(client, game, {"n0": "-10", "n1": "5", "note": "x"}).content.decode()
    assert "加起来应为 0" in html
    html = post(client, game, {"n0": "-10", "n1": "10", "note": ""}).content.decode()
    assert "需要说明" in html
    assert not Hand.objects.exists()


def test_halves_in_zhuji_only(client, game, zhuji_game):
    assert post(client, zhuji_game, {"n0": "-1.5", "n1": "1.5", "note": "半分"}).status_code == 302
    assert Hand.objects.get(game=zhuji_game).entry["net"] == [-1.5, 1.5, 0, 0]
    html = post(client, game, {"n0": "-1.5", "n1": "1.5", "note": "半分"}).content.decode()
    assert "整数" in html
    assert not Hand.objects.filter(game=game).exists()


def test_wuyi2_has_two_players(client, wuyi2_game):
    assert post(client, wuyi2_game, {"n0": "-8", "n1": "8", "note": "另外的赌注"}).status_code == 302
    assert Hand.objects.get().entry == {"outcome": "manual", "net": [-8, 8], "note": "另外的赌注"}


def test_the_next_dealer_is_optional(client, game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    post(client, game, {"n0": "-1", "n1": "1", "note": "换庄", "next_dealer": "2"})
    assert Hand.objects.get(seq=2).entry["dealer"] == 2
    html = client.get(game_url(game)).content.decode()
    assert "下一局阿华坐庄" in html
    add_hand(game, {"outcome": "win", "winner": 2, "win_type": "zimo"})
    assert Hand.objects.get(seq=3).result["dealer"] == 2


def test_edit_and_void_a_manual_hand(client, game):
    post(client, game, {"n0": "-10", "n1": "5", "n2": "3", "n3": "2", "note": "诈胡罚分"})
    html = client.get(game_url(game) + "hand/1/edit").content.decode()
    assert 'value="诈胡罚分"' in html
    assert 'name="n0"' in html
    response = client.post(
        game_url(game) + "hand/1/edit",
        {"outcome": "manual", "n0": "-4", "n1": "4", "note": "改了", "revision": "0", "confirm": "1", "version": "1"},
    )
    assert response.status_code == 302
    assert Hand.objects.get().entry == {"outcome": "manual", "net": [-4, 4, 0, 0], "note": "改了"}
    client.post(game_url(game) + "hand/1/void", {"version": version_of(game), "reason": "记错了", "revision": "1"})
    assert Hand.objects.get().voided


@pytest.mark.parametrize("fixture", ["game", "zhuji_game", "wuyi2_game"])
def test_the_json_backup_replays_to_the_same_totals(client, request, fixture):
    g = request.getfixturevalue(fixture)
    net = {"game": ["-7", "7", "0", "0"], "zhuji_game": ["-2.5", "2.5", "0", "0"], "wuyi2_game": ["-7", "7"]}[fixture]
    post(client, g, {f"n{s}": v for s, v in enumerate(net)} | {"note": "手算"})
    backup = json.loads(client.get(game_url(g) + "export.json").content)
    assert backup["hands"][0]["outcome"] == "manual"
    assert score_game(backup)["totals"] == [float(v) if "." in v else int(v) for v in net]
    csv = client.get(game_url(g) + "export.csv").content.decode("utf-8-sig")
    assert "手动 · 手算" in csv


def test_a_change_left_blank_is_0(client, game):
    """tests/browser/test_bets_piao_manual.py's 诈胡 penalty, typed as a phone leaves it (大刘's
    change not typed), from the link on the game page itself."""
    assert f'href="{game_url(game)}record?outcome=manual&amp;v=0"' in client.get(game_url(game)).content.decode()
    data = {"n0": "-10", "n1": "6", "n2": "4", "n3": "", "note": "诈胡罚分"}
    assert "手动 · 诈胡罚分" in post(client, game, data, confirm=False).content.decode()
    assert post(client, game, data).status_code == 302
    assert Hand.objects.get().entry == {"outcome": "manual", "net": [-10, 6, 4, 0], "note": "诈胡罚分"}
    page = client.get(game_url(game)).content.decode()
    assert totals_on_page(page) == ["−10", "+6", "+4", "0"]
    assert "手动 · 诈胡罚分" in page
