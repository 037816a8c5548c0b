"""下一局下注 (义乌): 买子 and 下子 placed on the game page before the hand, shown on every phone,
filled into the next record form, cleared when the hand is recorded."""

from django.test import Client

from scoring import services
from scoring.models import Game, Hand
from scoring.rulesets.yiwu import form_side as yiwu
from tests.factories import add_hand
from tests.helpers import game_url, record

ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}


def bet(client, game, kind: str, seat: int, on: bool = True, amount: int | None = None):
    data = {"bet": kind, "seat": seat, "on": "1" if on else "0"}
    if amount is not None:
        data["amount"] = amount
    return client.post(game_url(game) + "bet", data)


def pending(game) -> dict:
    game.refresh_from_db()
    return game.pending


def test_before_any_hand_every_player_may_buy_and_nobody_may_bet(client, game):
    html = client.get(game_url(game)).content.decode()
    assert "下一局下注" in html
    assert html.count('name="bet" value="maizi"') == 4
    assert 'value="xiazi"' not in html


def test_after_a_dealer_win_each_non_dealer_is_offered_the_dealers_multiplier(client, game):
    add_hand(game, ZIMO)
    html = client.get(game_url(game)).content.decode()
    assert html.count('name="bet" value="xiazi"') == 3  # not the dealer
    assert "小李</bdi> 下子 2" in html
    version = Game.objects.get().version
    assert bet(client, game, "xiazi", 1).status_code == 302
    assert pending(game) == {"maizi": [], "xiazi": {"1": 2}}
    assert game.version == version + 1  # every phone's poll sees it
    html = client.get(game_url(game)).content.decode()
    assert "pending" in html
    assert ">下2</span>" in html
    assert "撤回" in html


def test_up_to_offers_one_to_the_multiplier(client, make_game):
    game = make_game(xiazi_amount="up_to")
    add_hand(game, ZIMO)
    html = client.get(game_url(game)).content.decode()
    assert '<option value="1"' in html
    bet(client, game, "xiazi", 2, amount=1)
    assert pending(game)["xiazi"] == {"2": 1}
    bet(client, game, "xiazi", 3, amount=3)  # more than M = 2: refused
    assert "3" not in pending(game)["xiazi"]


def test_refused_bets_say_why(client, game, make_game):
    response = bet(client, game, "xiazi", 1)  # no dealer win yet
    assert response.status_code == 302
    assert pending(game) == {}
    messages = [str(m) for m in client.get(game_url(game)).context["messages"]]
    assert any("庄家胡牌后的下一局" in m for m in messages)
    add_hand(game, {**ZIMO, "maizi": [0, 1, 0, 0]})
    html = client.get(game_url(game)).content.decode()
    assert "小李</bdi> · 已买，换庄前不退" in html
    tenure = make_game(maizi_buy="tenure_start")
    add_hand(tenure, ZIMO)
    assert "连庄后不可买子" in client.get(game_url(tenure)).content.decode()
    bet(client, tenure, "maizi", 2)
    assert pending(tenure) == {}


def test_withdrawing_is_one_tap(client, game):
    bet(client, game, "maizi", 2)
    assert pending(game)["maizi"] == [2]
    bet(client, game, "maizi", 2, on=False)
    assert pending(game)["maizi"] == []


def test_the_record_form_starts_with_the_bets_and_recording_clears_them(client, game):
    add_hand(game, ZIMO)
    bet(client, game, "xiazi", 1)
    bet(client, game, "maizi", 3)
    response = client.get(game_url(game) + "record?winner=0&outcome=win&win_type=zimo")
    html = response.content.decode()
    assert 'name="xz1" value="2" id="xz1" checked' in html
    assert 'name="maizi" value="3" id="mz3" checked' in html
    assert "下子2" in html  # in the preview's explanation
    assert 'border-info pending">下2</span>' in client.get(game_url(game)).content.decode()  # 小李's badge, outlined
    record(client, game, {**ZIMO, "maizi": [0, 0, 0, 1], "xiazi_join": [1]})
    assert Hand.objects.get(seq=2).entry["xiazi_join"] == [1]
    assert pending(game) == {}
    page = client.get(game_url(game)).content.decode()
    assert 'border-info pending"' not in page  # no outlined badge: no bet waits for the next hand
    assert 'border-warning pending"' not in page


def test_still_editable_in_the_form(client, game):
    add_hand(game, ZIMO)
    bet(client, game, "xiazi", 1)
    record(client, game, ZIMO)  # the form posted without the bet: unticked there
    assert "xiazi_join" not in Hand.objects.get(seq=2).entry


def test_two_phones_placing_bets_keep_both(game):
    first, second = Client(), Client()
    stale = Game.objects.get()  # both phones loaded the page before either bet
    services.change_pending(
        game=stale, change=lambda p, s, r: yiwu.FORM_SIDE.change_bet(p, s, r, bet="maizi", seat=1, amount=None, on=True)
    )
    services.change_pending(
        game=stale, change=lambda p, s, r: yiwu.FORM_SIDE.change_bet(p, s, r, bet="maizi", seat=2, amount=None, on=True)
    )
    bet(first, game, "maizi", 0)
    bet(second, game, "maizi", 3)
    assert pending(game)["maizi"] == [0, 1, 2, 3]


def test_other_rulesets_offer_no_bets(client, zhuji_game, wuyi2_game):
    for g in (zhuji_game, wuyi2_game):
        assert "下一局下注" not in client.get(game_url(g)).content.decode()
        bet(client, g, "maizi", 0)
        assert pending(g) == {}


def test_a_manual_hand_keeps_the_bets(client, game):
    bet(client, game, "maizi", 1)
    client.post(
        game_url(game) + "record",
        {"outcome": "manual", "n0": "-1", "n1": "1", "note": "罚", "confirm": "1", "next_seq": "1"},
    )
    assert pending(game)["maizi"] == [1]


def test_a_bet_the_form_cannot_read_is_refused_with_a_message_and_changes_nothing(client, make_game):
    game = make_game(xiazi_amount="up_to")
    add_hand(game, ZIMO)
    client.get(game_url(game))  # the hand's 「已记录」 is read
    version = Game.objects.get().version
    for data in (
        {"bet": "xiazi", "seat": "9", "on": "1"},  # no such seat
        {"bet": "xiazi", "seat": "١", "on": "1"},  # not an ASCII digit
        {"bet": "xiazi", "seat": "1", "on": "1", "amount": "abc"},
        {"bet": "xiazi", "seat": "1", "on": "1", "amount": "0"},
        {"bet": "lottery", "seat": "1", "on": "1"},
    ):
        response = client.post(game_url(game) + "bet", data, follow=True)
        assert response.status_code == 200
        assert [m.level_tag for m in response.context["messages"]] == ["warning"], data
        assert pending(game) == {}
        assert game.version == version  # nothing written, no poll wakes up


def test_the_up_to_select_is_drawn_from_the_bet_form_once_per_seat_without_ids(client, make_game):
    game = make_game(xiazi_amount="up_to")
    add_hand(game, ZIMO)  # 老王 deals on ×2
    html = client.get(game_url(game)).content.decode()
    assert html.count('<select name="amount" class="form-select form-select-sm w-auto" aria-label="下子数额">') == 3
    assert 'id="id_amount"' not in html
    assert html.count('<option value="2" selected>2</option>') == 3  # the dealer's multiplier first


# -- bets where the eye is ------------------------------------------------------------------------


def test_after_a_dealer_win_the_game_page_asks_plainly_who_bets(client, game):
    assert "谁下子" not in client.get(game_url(game)).content.decode()  # before any hand: nothing to ask
    add_hand(game, ZIMO)  # 老王, seat 0, deals and wins
    html = client.get(game_url(game)).content.decode()
    assert '<div class="question xiazi-question" id="xiazi-question"><bdi>老王</bdi>连庄：谁下子？</div>' in html
    offers = html[html.index('id="xiazi-question"') : html.index('class="d-flex flex-wrap gap-1 maizi-offers"')]
    assert [n for n in ("老王", "小李", "阿华", "大刘") if f"<bdi>{n}</bdi> 下子" in offers] == ["小李", "阿华", "大刘"]


def test_after_a_win_by_seat_1_the_question_names_him_and_offers_seat_0(client, game):
    add_hand(game, {"outcome": "win", "winner": 1, "win_type": "zimo"})  # 小李 takes the deal
    add_hand(game, {"outcome": "win", "winner": 1, "win_type": "zimo"})  # and wins it
    html = client.get(game_url(game)).content.decode()
    assert "<bdi>小李</bdi>连庄：谁下子？" in html
    assert '<input type="hidden" name="seat" value="0">' in html[html.index("xiazi-question") :]


def test_the_preview_says_the_bets_in_force_and_that_nobody_bet_with_one_tap_to_change(client, game):
    add_hand(game, ZIMO)
    preview = client.get(game_url(game) + "record", {"outcome": "win", "winner": 2, "win_type": "zimo"})
    html = preview.content.decode()
    assert "下注: <bdi>这局没人下子</bdi> · <a" in html
    assert 'href="#bets-more">改下注</a>' in html
    assert 'id="bets-more"' in html
    bet(client, game, "xiazi", 1)  # 小李 places 下子 on the game page
    html = client.get(game_url(game) + "record", {"outcome": "win", "winner": 2, "win_type": "zimo"}).content.decode()
    assert "<bdi>小李 下2（这局）</bdi>" in html
    assert "这局没人下子" not in html
