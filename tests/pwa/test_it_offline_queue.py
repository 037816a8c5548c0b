"""A hand entered on a phone without network, sent once it is back (queued=1): recorded after
whatever is there now, named in a JSON answer the phone's script reads (static/js/offline.js),
exactly once however often it is sent, and refused with the reason when the rules refuse it."""

from django.test import Client

from scoring.models import Game, Hand
from tests.factories import add_hand, finish
from tests.helpers import edit_sheet, form_fields, game_url, record

ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}
DRAW = {"outcome": "draw"}


def send_queued(client, game: Game, entry: dict, next_seq: int, form_token: str):
    """What offline.js posts: the kept form's fields (its preview's version long stale), plus queued=1."""
    data = {**form_fields(entry, game), "confirm": "1", "next_seq": next_seq, "version": "0"}
    return client.post(game_url(game) + "record", {**data, "form_token": form_token, "queued": "1"})


def me(client, game: Game, seat: int) -> Client:
    client.post(game_url(game) + f"me/{seat}")  # 我是: what this phone records is signed
    return client


def test_a_queued_hand_goes_after_the_hands_recorded_meanwhile_and_says_who_recorded_them(client, game):
    other = me(Client(), game, 1)  # 小李's phone, online
    me(client, game, 0)  # 老王's phone entered its hand offline, before any hand was recorded
    record(other, game, DRAW)
    record(
        other, game, DRAW
    )  # 老王 still deals: his hand scores as kept (else it is held: test_it_holds_kept_hands.py)
    response = send_queued(client, game, ZIMO, next_seq=1, form_token="kept-1")
    assert response.status_code == 200
    answer = response.json()
    assert answer == {
        "ok": True,
        "already": False,
        "seq": 3,
        "number": 3,
        "moved": True,
        "message": "这一局存在你手机上时，小李记了第1局、小李记了第2局；你记的已排在第3局。",
    }
    hand = Hand.objects.get(game=game, seq=3)
    assert (hand.entry, hand.entered_by, hand.form_token) == (ZIMO, "老王", "kept-1")


def test_the_message_speaks_english_and_names_no_one_for_an_unsigned_phone(client, game):
    record(Client(), game, DRAW)  # a phone that never said 我是
    client.cookies["django_language"] = "en"
    answer = send_queued(client, game, ZIMO, next_seq=1, form_token="kept-en").json()
    assert answer["message"] == "While yours waited on this phone, another phone recorded hand 1; yours is hand 2."


def test_a_queued_hand_nobody_overtook_is_simply_recorded(client, game):
    answer = send_queued(client, game, ZIMO, next_seq=1, form_token="kept-2").json()
    assert answer["ok"]
    assert not answer["moved"]
    assert answer["message"] == "存在这台手机上的一局已记上，是第1局。"
    assert Hand.objects.filter(game=game).count() == 1


def test_a_resend_after_a_lost_answer_records_nothing_new_and_names_the_hand(client, game):
    send_queued(client, game, ZIMO, next_seq=1, form_token="kept-3")
    record(client, game, DRAW)
    version = Game.objects.get(pk=game.pk).version
    again = send_queued(client, game, ZIMO, next_seq=1, form_token="kept-3")
    assert again.status_code == 200
    assert again.json() == {
        "ok": True,
        "already": True,
        "seq": 1,
        "number": 1,
        "message": "这台手机存着的第1局已经记上了，没有重复记录。",
    }
    assert Hand.objects.filter(game=game).count() == 2
    assert Game.objects.get(pk=game.pk).version == version  # nothing changed, no phone refreshes


def test_a_normal_confirm_still_refuses_a_stale_next_seq(client, game):
    record(client, game, DRAW)
    stale = {**form_fields(ZIMO, game), "confirm": "1", "next_seq": "1", "version": str(game.version)}
    response = client.post(game_url(game) + "record", {**stale, "form_token": "not-queued"})
    assert response.status_code == 302
    assert Hand.objects.filter(game=game).count() == 1


def test_a_bet_the_table_no_longer_allows_is_refused_with_the_reason_and_nothing_recorded(client, make_game):
    game = make_game(maizi_buy="tenure_start")  # 买子 only at the start of a dealer's tenure
    record(Client(), game, ZIMO)  # meanwhile the dealer won: 连庄
    answer = send_queued(client, game, {**ZIMO, "maizi": [0, 0, 1, 0]}, next_seq=1, form_token="kept-4")
    assert answer.status_code == 409
    assert answer.json()["ok"] is False
    assert "连庄后不可买子" in answer.json()["reason"]
    assert Hand.objects.filter(game=game).count() == 1


def test_a_finished_game_refuses_a_queued_hand(client, game):
    add_hand(game, ZIMO)
    finish(game)
    answer = send_queued(client, game, DRAW, next_seq=2, form_token="kept-5")
    assert answer.status_code == 409
    assert answer.json() == {"ok": False, "reason": "牌局已结束；要修改请先在结算页重新打开。"}
    assert Hand.objects.filter(game=game).count() == 1


def test_an_incomplete_or_broken_queued_hand_is_refused_in_json_never_a_page(client, game):
    for data, reason in (
        ({"outcome": "win", "winner": "1"}, "请选择胡牌型"),
        ({"outcome": "draw", "form_token": "!" * 50}, "表单已损坏"),
        ({"outcome": "draw", "form_token": ""}, "表单已损坏"),
    ):
        fields = {"form_token": "kept-6", **data, "confirm": "1", "next_seq": "1", "queued": "1"}
        response = client.post(game_url(game) + "record", fields)
        assert response.status_code == 409, data
        assert reason in response.json()["reason"], response.json()
    assert not Hand.objects.filter(game=game).exists()


def test_a_view_link_cannot_send_a_queued_hand(client, game):
    data = {**form_fields(DRAW, game), "confirm": "1", "next_seq": "1", "form_token": "kept-7", "queued": "1"}
    response = client.post(game_url(game, view=True) + "record", data)
    assert response.status_code == 403  # offline.js keeps it with 「没有记上 (HTTP 403)」
    assert not Hand.objects.filter(game=game).exists()


def test_the_confirm_names_the_hand_for_a_phone_that_keeps_it(client, game, zhuji_game, wuyi2_game):
    html = client.get(game_url(game) + "record?winner=0&win_type=zimo").content.decode()
    assert 'name="confirm" value="1" class="btn btn-danger btn-lg w-100 py-3 mb-2" data-facts="老王 自摸 ×2"' in html
    for each in (game, zhuji_game, wuyi2_game):  # the ruleset's own title function, whatever the ruleset
        response = client.get(game_url(each) + "record?outcome=draw")
        assert f'data-facts="{response.context["row"].title}"' in response.content.decode()
    record(client, game, ZIMO)
    edit = edit_sheet(client, game_url(game) + "hand/1/edit")
    assert "确认修改" in edit.content.decode()
    assert 'data-facts="修改 · 老王 自摸 ×2">确认修改' in edit.content.decode()  # its 待同步 row names it


def test_the_phone_script_gets_its_words_in_the_pages_language(client, game):
    assert "离线 · {n} 局待同步" in client.get(game_url(game)).content.decode()
    client.cookies["django_language"] = "en"
    html = client.get(game_url(game)).content.decode()
    assert "Offline · {n} waiting to sync" in html
    assert "Offline: edits, voids and settling need the network" in html


def test_a_hand_kept_from_a_link_gets_the_buy_in_placed_on_the_game_page_as_its_preview_would(client, game):
    """from_link=1 (static/js/offline.js: a link tapped with no network, its preview never loaded):
    the 买子 placed on the game page is filled in as the preview's GET would; without it, a kept
    preview's answers are taken as confirmed (a 买子 unticked there stays off)."""
    client.post(game_url(game) + "bet", {"bet": "maizi", "seat": 2, "on": "1"})
    link = {"outcome": "win", "winner": "0", "win_type": "zimo", "confirm": "1", "next_seq": "1", "queued": "1"}
    answer = client.post(game_url(game) + "record", {**link, "from_link": "1", "form_token": "link-1"}).json()
    assert answer["ok"]
    assert answer["seq"] == 1
    assert Hand.objects.get(game=game, seq=1).entry["maizi"] == [0, 0, 1, 0]
    game.refresh_from_db()
    assert not (game.pending or {}).get("maizi")  # the hand took it

    client.post(game_url(game) + "bet", {"bet": "maizi", "seat": 3, "on": "1"})
    game.refresh_from_db()
    assert game.pending["maizi"] == [3]
    assert client.post(game_url(game) + "record", {**link, "next_seq": "2", "form_token": "preview-2"}).json()["ok"]
    assert Hand.objects.get(game=game, seq=2).entry.get("maizi", [0, 0, 0, 0])[3] == 0


def test_a_hand_kept_from_a_link_with_no_whole_hand_is_refused_with_the_reason(client, game):
    answer = client.post(
        game_url(game) + "record",
        {"outcome": "win", "winner": "1", "confirm": "1", "queued": "1", "from_link": "1", "form_token": "half"},
    )
    assert answer.status_code == 409
    assert answer.json()["ok"] is False
    assert not Hand.objects.filter(game=game).exists()
