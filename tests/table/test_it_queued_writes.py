"""The table's other writes sent by the phone's outbox (scoring/table/outbox.py, docs/offline.md "The other
writes"): with ``queued=1`` each write is done as its plain POST does it and answered in JSON with what the
page would have flashed; a resend of its form token is answered from its receipt and changes nothing; a
refusal is answered 409 and kept; a spent budget 429, kept by nobody; without ``queued`` nothing changed."""

from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings
from django.db import IntegrityError
from django.test import Client
from django.utils import timezone

from scoring import services
from scoring.models import Game, Hand, HandCheck, WriteReceipt
from scoring.table.together import sealed
from tests.factories import add_hand, finish
from tests.helpers import game_url, messages_of, version_of
from tests.table.test_it_seating_page import seating_form

ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}  # 老王 自摸 as dealer: 下子 is open after it


def send(client, game: Game, path: str, token: str = "outbox-token-1", **fields):
    """The outbox's send of a write: the form's fields, ``queued=1`` and its form token."""
    return client.post(game_url(game) + path, {**fields, "queued": "1", "form_token": token})


def phone_of(game: Game, seat: int, language: str = "") -> Client:
    """A phone that said 「我是」 the person at ``seat``."""
    phone = Client()
    if language:
        phone.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    phone.post(game_url(game) + f"me/{seat}")
    return phone


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def done(response, message: str, already: bool = False) -> None:
    assert response.status_code == 200, response.content.decode()
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"ok": True, "already": already, "message": message}


def refused(response, reason: str, url: str | None = "") -> dict:
    """A 409 refusal saying ``reason``; ``url`` None: sending nowhere, else its address's start ("": any)."""
    assert response.status_code == 409, response.content.decode()
    answer = response.json()
    assert answer["ok"] is False
    assert answer["refused"] is True
    assert reason in answer["reason"], answer
    assert set(answer) == {"ok", "refused", "reason", "url"}
    if url is None:
        assert answer["url"] is None
    else:
        assert (answer["url"] or "").startswith(url), answer
    return answer


# --- each write: done once, and a resend changes nothing -------------------------------------------


def test_a_queued_bet_is_placed_once_and_its_resend_is_said_already(client, game):
    add_hand(game, ZIMO)
    version = fresh(game).version
    bet = {"bet": "xiazi", "seat": "1", "on": "1"}
    done(send(client, game, "bet", **bet), "")  # the game page flashes nothing for a bet: neither does this
    assert fresh(game).pending == {"maizi": [], "xiazi": {"1": 2}}
    done(send(client, game, "bet", **bet), "", already=True)
    assert fresh(game).version == version + 1  # a second placement would have bumped it again
    assert WriteReceipt.objects.filter(game=game).count() == 1


def test_a_queued_play_on_adds_one_round_however_often_it_is_sent(client, game):
    Game.objects.filter(pk=game.pk).update(round_length=1)
    for winner in (1, 2, 3, 0):
        add_hand(game, {**ZIMO, "winner": winner})
    version = fresh(game).version
    done(send(client, game, "play-on"), "接着打：共 2 圈。")
    done(send(client, game, "play-on"), "接着打：共 2 圈。", already=True)
    game = fresh(game)
    assert (game.round_length, game.version) == (2, version + 1)


def test_a_queued_check_is_one_row_and_one_version(game):
    add_hand(game, ZIMO)
    phone, version = phone_of(game, 1), fresh(game).version
    fields = {"verdict": "wrong", "note": "番算错", "revision": "0"}
    done(send(phone, game, "hand/1/check", **fields), "")
    done(send(phone, game, "hand/1/check", **fields), "", already=True)
    assert list(HandCheck.objects.values_list("person", "verdict", "note")) == [("小李", "wrong", "番算错")]
    assert fresh(game).version == version + 1


def test_a_queued_check_up_to_says_how_many_and_a_resend_says_it_again(game):
    add_hand(game, ZIMO)
    add_hand(game, ZIMO)
    phone, version = phone_of(game, 2), fresh(game).version
    fields = {"upto": "2", "seen": "1.0,2.0"}
    done(send(phone, game, "checks", **fields), "已核对 2 局。")
    done(send(phone, game, "checks", **fields), "已核对 2 局。", already=True)
    assert HandCheck.objects.filter(person="阿华").count() == 2
    assert fresh(game).version == version + 1
    done(send(phone, game, "checks", token="outbox-token-2", **fields), "没有要核对的局了。")  # a new tap: nothing left


def test_a_queued_take_back_is_said_once_and_sent_again_takes_nothing_more(game):
    add_hand(game, ZIMO)
    services.check_hand(game=game, seq=1, revision=0, person="小李", verdict="ok")
    phone, version = phone_of(game, 1), fresh(game).version
    done(send(phone, game, "hand/1/check/back"), "已撤回。")
    done(send(phone, game, "hand/1/check/back"), "已撤回。", already=True)
    assert not HandCheck.objects.exists()
    assert fresh(game).version == version + 1


def edit_fields(game: Game, **changes) -> dict:
    return {"outcome": "win", "winner": "2", "win_type": "zimo", "revision": "0", "confirm": "1"} | {
        "version": version_of(game),
        **changes,
    }


def test_a_queued_edit_changes_the_hand_once(game):
    add_hand(game, ZIMO)
    phone, version = phone_of(game, 3), fresh(game).version
    fields = edit_fields(game)
    done(send(phone, game, "hand/1/edit", **fields), "已修改第1局。")
    done(send(phone, game, "hand/1/edit", **fields), "已修改第1局。", already=True)
    hand = Hand.objects.get(game=game, seq=1)
    assert (hand.entry["winner"], hand.revision, hand.edited_by) == (2, 1, "大刘")
    assert fresh(game).version == version + 1


def test_a_queued_void_voids_the_hand_once(client, game):
    add_hand(game, ZIMO)
    add_hand(game, ZIMO)
    version = fresh(game).version
    fields = {"reason": "记错了", "revision": "0", "version": version_of(game), "keep_bets": "1"}
    done(send(client, game, "hand/2/void", **fields), "第2局已作废。")
    done(send(client, game, "hand/2/void", **fields), "第2局已作废。", already=True)
    hand = Hand.objects.get(game=game, seq=2)
    assert hand.voided
    assert hand.revision == 1
    assert fresh(game).version == version + 1


def test_a_queued_void_with_the_edits_carried_does_both_once(client, game):
    add_hand(game, ZIMO)
    add_hand(game, {"outcome": "draw"})
    version = fresh(game).version
    carried = sealed(game.edit_token, [services.Change(1, 0, {**ZIMO, "winner": 2})])
    fields = {"with": carried, "reason": "记错了", "revision": "0", "version": str(version), "keep_bets": "1"}
    forged = {**fields, "with": "forged"}
    refused(
        send(client, game, "hand/2/void", token="outbox-token-2", **forged),
        "已损坏",
        url=game_url(game) + "hand/2/void",
    )
    done(send(client, game, "hand/2/void", **fields), "已修改第1局并作废第2局。")
    done(send(client, game, "hand/2/void", **fields), "已修改第1局并作废第2局。", already=True)
    assert [(h.entry.get("winner"), h.revision, h.voided) for h in game.hands.all()] == [(2, 1, False), (None, 1, True)]
    assert fresh(game).version == version + 1


def test_a_queued_seating_is_recorded_once(client, game):
    url = game_url(game) + "seating?p=老王&p=小李&p=阿华&p=小周"
    action, fields = seating_form(client.get(url).content.decode())
    assert action == game_url(game) + "seating"
    token = fields.pop("form_token")  # the page's own: the outbox sends it as the write's
    done(send(client, game, "seating", token=token, **fields, confirm="1"), "已换人/换位。")
    done(send(client, game, "seating", token=token, **fields, confirm="1"), "已换人/换位。", already=True)
    assert game.hands.count() == 1
    assert fresh(game).state["table"]["seating"] == ["老王", "小李", "阿华", "小周"]


def test_a_queued_undo_with_nothing_to_undo_says_so_and_with_a_hand_sends_to_its_void_page(client, game):
    done(send(client, game, "undo"), "还没有可以撤销的局。")
    add_hand(game, ZIMO)
    answer = refused(send(client, game, "undo", token="outbox-token-2"), "没有改", url=game_url(game) + "hand/1/void?")
    assert parse_qs(urlsplit(answer["url"]).query) == {"reason": ["撤销上一局"]}
    assert not Hand.objects.get(game=game).voided  # 撤销 is the void page's 确认作废


# --- refused: said, kept, nothing changed -------------------------------------------------------------


def test_a_bet_the_rules_refuse_is_refused_and_its_resend_gets_the_same_refusal(client, game):
    version = fresh(game).version
    bet = {"bet": "xiazi", "seat": "1", "on": "1"}
    first = refused(send(client, game, "bet", **bet), "§8 只有庄家胡牌后的下一局才能下子。", url=None)
    assert send(client, game, "bet", **bet).json() == first
    assert fresh(game).pending in ({}, {"maizi": [], "xiazi": {}})
    assert fresh(game).version == version
    assert WriteReceipt.objects.get(game=game).answer == first


def test_a_check_without_i_am_is_refused_in_the_phones_language(game):
    add_hand(game, ZIMO)
    refused(
        send(Client(), game, "hand/1/check", verdict="ok", revision="0"), "先在页面下方选「我是」，再核对。", url=None
    )
    english = Client()
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    answer = refused(send(english, game, "hand/1/check", token="outbox-token-2", verdict="ok", revision="0"), "")
    assert "我是" not in answer["reason"]
    assert answer["reason"]
    assert not HandCheck.objects.exists()


def test_a_stale_edit_is_refused_with_the_fresh_previews_address(game):
    add_hand(game, ZIMO)
    phone = phone_of(game, 0)
    fields = edit_fields(game)
    phone.post(game_url(game) + "bet", {"bet": "xiazi", "seat": "1", "on": "1"})  # another phone, meanwhile
    answer = refused(
        send(phone, game, "hand/1/edit", **fields), "金额变了，请看新的预览。", url=game_url(game) + "hand/1/edit?"
    )
    query = parse_qs(urlsplit(answer["url"]).query)
    assert query["winner"] == ["2"]
    assert not {"queued", "form_token", "version", "confirm", "csrfmiddlewaretoken"} & set(query)
    assert send(phone, game, "hand/1/edit", **fields).json() == answer  # the resend: the same, nothing more
    assert Hand.objects.get(game=game).revision == 0


def test_a_stale_void_is_refused_and_voids_nothing(client, game):
    add_hand(game, ZIMO)
    fields = {"reason": "记错了", "revision": "0", "version": version_of(game)}
    client.post(game_url(game) + "bet", {"bet": "xiazi", "seat": "1", "on": "1"})
    refused(send(client, game, "hand/1/void", **fields), "金额变了", url=game_url(game) + "hand/1/void?")
    assert not Hand.objects.get(game=game).voided


def test_an_edit_its_page_refuses_is_refused_with_the_pages_words_and_its_address(game):
    add_hand(game, ZIMO)
    phone = phone_of(game, 0)
    answer = refused(
        send(phone, game, "hand/1/edit", **edit_fields(game, version="")),
        "这个表单缺少版本信息（可能是旧的页面），什么都没有改。",
        url=game_url(game) + "hand/1/edit?",
    )
    assert "winner=2" in answer["url"]
    assert Hand.objects.get(game=game).revision == 0


def test_a_seating_its_page_refuses_is_refused_with_the_pages_words(client, game):
    fields = {"p": ["老王", "小李", "阿华", "老王"], "confirm": "1", "version": version_of(game), "next_seq": "1"}
    answer = refused(send(client, game, "seating", **fields), "玩家的名字不能重复：老王")
    assert parse_qs(urlsplit(answer["url"]).query) == {"p": ["老王", "小李", "阿华", "老王"]}
    assert answer["url"].startswith(game_url(game) + "seating?")
    assert game.hands.count() == 0


def test_a_finished_game_is_refused_and_sent_to_its_settlement(client, game):
    add_hand(game, ZIMO)
    finish(game)
    answer = refused(send(client, game, "bet", bet="maizi", seat="1", on="1"), "牌局已结束")
    assert answer["url"] == game_url(game) + "settle"


def test_a_hand_not_there_is_refused(client, game):
    refused(send(client, game, "hand/7/void", reason="x", revision="0", version="0"), "没有这一局", url=None)


def test_a_receipt_from_a_week_ago_goes_with_the_next_write(client, game):
    old = WriteReceipt.objects.create(game=game, form_token="old", answer={"ok": True, "message": ""})
    WriteReceipt.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=8))
    recent = WriteReceipt.objects.create(game=game, form_token="recent", answer={"ok": True, "message": ""})
    done(send(client, game, "bet", bet="maizi", seat="1", on="1"), "")
    assert set(WriteReceipt.objects.values_list("form_token", flat=True)) == {recent.form_token, "outbox-token-1"}


# --- what is not kept ---------------------------------------------------------------------------------


def test_a_spent_budget_is_429_kept_by_nobody_and_goes_through_later(client, game, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "changes": 1}
    done(send(client, game, "bet", bet="maizi", seat="1", on="1"), "")
    response = send(client, game, "bet", token="outbox-token-2", bet="maizi", seat="2", on="1")
    assert response.status_code == 429
    assert response.json() == {
        "ok": False,
        "budget": True,
        "reason": "一分钟内改动太多了（记分、下注、换座、标已付……），请过一会儿再试。",
    }
    assert int(response["Retry-After"]) > 0
    assert fresh(game).pending["maizi"] == [1]
    assert not WriteReceipt.objects.filter(form_token="outbox-token-2").exists()
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "changes": 100}  # the next minute
    done(send(client, game, "bet", token="outbox-token-2", bet="maizi", seat="2", on="1"), "")
    assert fresh(game).pending["maizi"] == [1, 2]


@pytest.mark.parametrize("token", ["", "has space", "x" * 41])
def test_a_missing_or_broken_form_token_is_400_and_changes_nothing(client, game, token):
    version = fresh(game).version
    response = send(client, game, "bet", token=token, bet="maizi", seat="1", on="1")
    assert response.status_code == 400
    assert response.json() == {
        "ok": False,
        "refused": True,
        "reason": "表单已损坏，什么都没有改。请重新打开页面。",
        "url": None,
    }
    assert fresh(game).version == version
    assert not WriteReceipt.objects.exists()


def test_a_view_link_and_a_wrong_link_are_refused_in_json(client, game):
    view = client.post(game_url(game, view=True) + "bet", {"queued": "1", "form_token": "t", "bet": "maizi"})
    assert view.status_code == 403
    assert view.json()["refused"] is True
    wrong = client.post("/g/nosuchgame/bet", {"queued": "1", "form_token": "t", "bet": "maizi"})
    assert wrong.status_code == 404
    assert wrong.json()["reason"] == "没有这个牌局"
    assert not WriteReceipt.objects.exists()


def test_a_server_error_is_a_5xx_with_nothing_written_or_kept(game, monkeypatch):
    def failing(**kwargs):
        services.locks.lock_game(kwargs["game"])
        Game.objects.filter(pk=kwargs["game"].pk).update(round_length=9)  # written, then it fails
        raise RuntimeError("the disk")

    monkeypatch.setattr(services, "change_pending", failing)
    phone = Client(raise_request_exception=False)
    response = send(phone, game, "bet", bet="maizi", seat="1", on="1")
    assert response.status_code == 500
    assert fresh(game).round_length == game.round_length
    assert not WriteReceipt.objects.exists()


def test_the_loser_of_a_race_rolls_back_whole_and_answers_from_the_winners_receipt(client, game, monkeypatch):
    """Two sends of one token that both found no receipt (PostgreSQL without the game's lock taken first, say):
    the second's receipt breaks the unique constraint, its write goes with it, and it answers as already."""
    done(send(client, game, "bet", bet="maizi", seat="1", on="1"), "")
    version = fresh(game).version
    looked = []
    monkeypatch.setattr(services, "receipt_for", lambda **kwargs: looked.append(1))  # blind to the first's
    done(send(client, game, "bet", bet="maizi", seat="2", on="1"), "", already=True)
    assert looked == [1]
    game = fresh(game)
    assert (game.pending["maizi"], game.version) == ([1], version)  # seat 2's placement rolled back
    with pytest.raises(IntegrityError):  # the constraint itself
        services.keep_receipt(game=game, form_token="outbox-token-1", answer={})


# --- without queued: as before --------------------------------------------------------------------------


def test_a_plain_post_and_a_get_are_as_before_and_keep_no_receipt(client, game):
    add_hand(game, ZIMO)
    plain = client.post(game_url(game) + "bet", {"bet": "xiazi", "seat": "1", "on": "1", "form_token": "t"})
    assert plain.status_code == 302
    assert plain["Location"] == game_url(game)
    assert client.get(game_url(game) + "hand/1/check?queued=1").status_code == 302
    assert client.get(game_url(game) + "undo?queued=1")["Location"].startswith(game_url(game) + "hand/1/void?")
    assert not WriteReceipt.objects.exists()


def test_a_queued_writes_words_are_not_flashed_again_on_the_next_page(game):
    add_hand(game, ZIMO)
    phone = phone_of(game, 0)
    done(send(phone, game, "hand/1/edit", **edit_fields(game)), "已修改第1局。")
    assert messages_of(phone.get(game_url(game))) == []


def test_english_words_for_a_page_that_refuses_without_saying_why(game):
    phone = phone_of(game, 0, language="en")
    add_hand(game, ZIMO)
    answer = refused(send(phone, game, "undo"), "Nothing changed")
    assert answer["url"].startswith(game_url(game) + "hand/1/void?")


def test_only_this_writes_words_are_read_not_a_flash_left_for_the_next_page(game):
    add_hand(game, ZIMO)
    services.check_hand(game=game, seq=1, revision=0, person="小李", verdict="ok")
    phone = phone_of(game, 1)
    left = phone.post(game_url(game) + "bet", {"bet": "xiazi", "seat": "0", "on": "1"})  # 庄家不能下子, not yet shown
    assert left.status_code == 302
    done(send(phone, game, "hand/1/check/back"), "已撤回。")
    assert messages_of(phone.get(game_url(game))) == ["§8 庄家不能下子。"]  # still there for the page
