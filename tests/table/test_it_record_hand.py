import re

from scoring.models import Hand
from tests.helpers import game_url, messages_of, record, totals_on_page, version_of

ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}


def test_first_tap_asks_how_the_winner_won(client, game):
    html = client.get(game_url(game) + "record?winner=1").content.decode()
    assert "小李 胡了 — 怎么胡？" in html
    assert "自摸 ×2" in html
    # 平胡 with the discarder in one tap: the three other players
    for seat, name in ((0, "老王"), (2, "阿华"), (3, "大刘")):
        assert f'win_type=pinghu&amp;discarder={seat}"><bdi>{name}</bdi><br><small>放铳' in html
    assert "discarder=1" not in html  # not the winner


def test_a_discard_type_asks_who_discarded(client, game):
    html = client.get(game_url(game) + "record?winner=1&win_type=qidui").content.decode()
    assert "谁放铳？" in html


def test_preview_shows_each_players_change_and_the_explanation(client, game):
    response = client.get(game_url(game) + "record?winner=1&win_type=pinghu&discarder=2")
    html = response.content.decode()
    assert response.status_code == 200
    assert "确认记录" in html
    assert "<bdi>阿华</bdi> → <bdi>小李</bdi> <b>6</b> = (闲5 + 放铳1) × 1 平胡" in html
    assert [row[3] for row in response.context["change"]] == [-7, 18, -6, -5]
    assert not Hand.objects.exists()  # a preview saves nothing


def test_confirming_records_the_hand_and_the_ledger_shows_it(client, game):
    response = record(client, game, {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 0})
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert hand.seq == 1
    assert hand.entry == {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 0}
    html = client.get(game_url(game)).content.decode()
    assert totals_on_page(html) == ["−8", "+18", "−5", "−5"]
    assert "第1局" in html
    assert "小李 平胡 ×1 · 老王放铳" in html


def test_the_same_form_submitted_twice_records_one_hand(client, game):
    first = record(client, game, ZIMO, form_token="tok-123")
    second = client.post(
        game_url(game) + "record",
        {"outcome": "win", "winner": "0", "win_type": "zimo", "confirm": "1", "next_seq": "1", "form_token": "tok-123"}
        | {"version": "0"},
    )
    assert first.status_code == second.status_code == 302
    assert Hand.objects.count() == 1


def test_a_hand_recorded_meanwhile_on_another_phone_is_not_recorded_twice(client, game):
    record(client, game, ZIMO)
    stale = client.post(
        game_url(game) + "record",
        {"outcome": "win", "winner": "2", "win_type": "zimo", "confirm": "1", "next_seq": "1", "version": "0"},
        follow=True,
    )
    assert Hand.objects.count() == 1
    assert any("已经被别人记录" in m for m in messages_of(stale))


def test_a_rule_violation_shows_the_engines_message_and_saves_nothing(client, game):
    entry = {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 0, "caishen": 2}
    response = record(client, game, entry)
    assert response.status_code == 200
    assert not Hand.objects.exists()
    errors = response.context["form"].errors
    assert "两个财神一定要自摸" in errors["caishen"][0]
    assert "确认记录" not in response.content.decode()


def test_malformed_input_is_a_message_not_a_500(client, game):
    response = client.post(
        game_url(game) + "record", {"version": version_of(game), "winner": "9", "win_type": "nonsense", "confirm": "1"}
    )
    assert response.status_code == 200
    assert not Hand.objects.exists()
    assert set(response.context["form"].errors) >= {"winner", "win_type"}


def test_a_draw_is_one_tap_to_the_preview(client, game):
    response = client.get(game_url(game) + "record?outcome=draw")
    assert "确认记录" in response.content.decode()
    assert [row[3] for row in response.context["change"]] == [0, 0, 0, 0]


def test_maizi_bought_in_the_form_is_recorded_and_locked_afterwards(client, game):
    record(client, game, {"outcome": "win", "winner": 0, "win_type": "zimo", "maizi": [0, 1, 0, 0]})
    assert Hand.objects.get().entry["maizi"] == [0, 1, 0, 0]
    html = client.get(game_url(game) + "record?winner=0&win_type=zimo").content.decode()
    assert re.search(r'name="maizi" value="1" id="mz1" checked\s+disabled', html)
    assert "小李·已买" in html
    # the next hand carries it without a new entry: "absent = unchanged"
    record(client, game, ZIMO)
    assert "maizi" not in Hand.objects.get(seq=2).entry


def test_xiazi_toggles_appear_only_right_after_a_dealer_win_with_the_amount(client, game):
    html = client.get(game_url(game) + "record?outcome=draw").content.decode()
    assert "下子（" not in html
    record(client, game, {"outcome": "win", "winner": 0, "win_type": "caishentou"})
    html = client.get(game_url(game) + "record?outcome=draw").content.decode()
    assert "这局可下 4" in html
    assert "小李 下4" in html
    record(client, game, {"outcome": "win", "winner": 0, "win_type": "zimo", "xiazi_join": [1, 3]})
    hand = Hand.objects.get(seq=2)
    assert hand.entry["xiazi_join"] == [1, 3]
    html = client.get(game_url(game)).content.decode()
    assert "下8" in html  # 4 doubled after the second dealer win


def test_a_piao_win_with_a_feeder_is_recorded_with_chengbao(client, game):
    entry = {
        "outcome": "win",
        "winner": 2,
        "win_type": "danpiao",
        "piao": {"player": 2, "level": 1},
        "feeders": [1],
        "maizi": [1, 0, 0, 0],
    }
    record(client, game, entry)
    html = client.get(game_url(game)).content.decode()
    assert totals_on_page(html) == ["0", "−152", "+152", "0"]
    # the explanation names the players whose shares the feeder covers: 东 (7+2)×8, 南 5×8, 北 5×8
    assert "<bdi>小李</bdi> → <bdi>阿华</bdi> <b>152</b> = 承包全赔 (老王72 + 小李40 + 大刘40)，单飘 ×8" in html


def test_choosing_a_piao_type_marks_the_winner_as_floating(client, game):
    response = client.get(game_url(game) + "record?winner=3&win_type=shuangpiao")
    assert response.status_code == 200
    assert [row[3] for row in response.context["change"]] == [-112, -80, -80, 272]


def test_the_dealer_can_be_corrected_for_a_game_joined_midway(client, game):
    response = record(client, game, {"outcome": "win", "winner": 2, "win_type": "zimo"}, dealer_fix="2", streak_fix="3")
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert (hand.dealer_fix, hand.streak_fix) == (2, 3)
    html = client.get(game_url(game)).content.decode()
    assert totals_on_page(html) == ["−14", "−14", "+42", "−14"]  # 阿华 was the dealer: 连庄
    assert "庄·连4" in html


def test_the_view_link_cannot_record(client, game):
    response = client.post(game_url(game, view=True) + "record", {"outcome": "draw", "confirm": "1", "next_seq": "1"})
    assert response.status_code == 403
    assert not Hand.objects.exists()


def test_an_abandon_asks_who_left_and_the_leaver_pays_everyone(client, make_game):
    game = make_game(abandon_enabled=True)
    assert "逃跑" in client.get(game_url(game)).content.decode()
    assert "谁逃跑了？" in client.get(game_url(game) + "record?outcome=abandon").content.decode()
    response = client.get(game_url(game) + "record?outcome=abandon&leaver=1")
    assert [row[3] for row in response.context["change"]] == [7, -17, 5, 5]  # 南 pays 庄7, 闲5, 闲5
    record(client, game, {"outcome": "abandon", "leaver": 1})
    assert Hand.objects.get().entry == {"outcome": "abandon", "leaver": 1}


def test_abandons_are_not_offered_unless_the_house_rules_allow_them(client, game):
    assert "outcome=abandon" not in client.get(game_url(game)).content.decode()
    response = record(client, game, {"outcome": "abandon", "leaver": 1})
    assert response.status_code == 200
    assert "没有开启逃跑" in response.content.decode()
    assert not Hand.objects.exists()


def test_a_game_of_2000_hands_takes_no_more_and_says_why(client, db):
    from tests.factories import seeded_game

    game = seeded_game(2000)
    response = record(client, game, ZIMO)
    assert Hand.objects.filter(game=game).count() == 2000
    assert "一场最多 2000 局" in " ".join(messages_of(client.get(response["Location"])))


def test_a_game_holding_as_many_records_as_a_backup_holds_takes_no_more_voided_ones_included(client, game, monkeypatch):
    """Voiding frees a hand, never a record: else a game would grow past what its backup imports."""
    monkeypatch.setattr("scoring.services.hands.MAX_RECORDS", 3)
    for _ in range(3):
        record(client, game, ZIMO)
    client.post(game_url(game) + "hand/3/void", {"version": version_of(game), "reason": "记错了", "revision": "0"})
    response = record(client, game, ZIMO)
    assert Hand.objects.filter(game=game).count() == 3
    assert "一场最多记 3 条（作废的也算）" in " ".join(messages_of(client.get(response["Location"])))


def test_a_hand_changed_as_often_as_a_backup_holds_is_changed_no_more(client, game, monkeypatch):
    monkeypatch.setattr("scoring.services.hands.MAX_REVISION", 1)
    record(client, game, ZIMO)
    void = {"version": version_of(game), "reason": "记错了", "revision": "0"}
    Hand.objects.filter(game=game).update(revision=1)  # as if edited once
    response = client.post(game_url(game) + "hand/1/void", {**void, "revision": "1"}, follow=True)
    assert "第1局已经改过 1 次，不能再改。" in response.content.decode()
    assert not Hand.objects.get(game=game).voided


def test_a_resubmitted_form_names_the_hand_it_already_recorded(client, game):
    record(client, game, ZIMO, form_token="tok-123")
    record(client, game, {"outcome": "draw"})
    client.get(game_url(game))  # shows (and clears) 已记录第2局
    again = client.post(
        game_url(game) + "record",
        {"outcome": "win", "winner": "0", "win_type": "zimo", "confirm": "1", "next_seq": "1", "form_token": "tok-123"}
        | {"version": "0"},
        follow=True,
    )
    assert "第1局已经记过了。" in messages_of(again)
    assert not any("已记录" in m for m in messages_of(again))
    assert Hand.objects.count() == 2


def test_a_form_token_is_one_time_per_game_only(client, make_game):
    first, second = make_game(), make_game()
    record(client, first, ZIMO, form_token="same-token")
    response = record(client, second, ZIMO, form_token="same-token")
    assert response.status_code == 302
    assert Hand.objects.filter(game=second, form_token="same-token").count() == 1
    assert Hand.objects.filter(game=first).count() == 1
