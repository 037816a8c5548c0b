from scoring.models import Game, Hand, Settlement, Transfer
from tests.factories import add_hand
from tests.helpers import FINISH, SETTLE_HANDS, game_url, messages_of, record, record_settle_hands


def net_by_seat(transfers, seats=4):
    net = [0] * seats
    for payer, payee, amount in transfers:
        net[payer] -= amount
        net[payee] += amount
    return net


def test_preview_shows_balances_and_the_fewest_transfers(client, game):
    record_settle_hands(game)
    response = client.get(game_url(game) + "settle", FINISH)
    # 老王 42 − (7+1)·1 = 34; 小李 −14 + 18 = 4; 阿华 −14 − 5 = −19; 大刘 −19
    assert [fen for *_, fen in response.context["balances"]] == [3400, 400, -1900, -1900]
    preview = response.context["preview"]
    assert len(preview) == 3
    html = response.content.decode()
    assert "结束并结算" in html
    assert not Settlement.objects.exists()


def test_finishing_stores_transfers_that_clear_every_balance_exactly(client, game):
    record_settle_hands(game)
    response = client.post(game_url(game) + "finish", {**FINISH, "rate": "custom", "custom_yuan": "0.3"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    settlement = Settlement.objects.get(game=game)
    assert settlement.rate_fen == 30
    transfers = [(t.payer, t.payee, t.amount_fen) for t in settlement.transfers.all()]
    assert net_by_seat(transfers) == settlement.balances_fen == [1020, 120, -570, -570]
    assert len(transfers) == 3


def test_a_table_fee_that_does_not_divide_is_split_by_the_stated_rule(client, game):
    record_settle_hands(game)
    client.post(game_url(game) + "finish", {**FINISH, "fee_yuan": "0.10", "fee_payee": "2"})
    settlement = Settlement.objects.get()
    # 10 分 over four: 3, 3, 2, 2 (largest remainders, ties to the earlier seat); 阿华 pays the venue
    assert settlement.balances_fen == [3400 - 3, 400 - 3, -1900 - 2 + 10, -1900 - 2]
    assert sum(settlement.balances_fen) == 0


def test_the_winners_can_carry_the_fee_in_proportion(client, game):
    record_settle_hands(game)
    client.post(game_url(game) + "finish", {**FINISH, "fee_yuan": "19", "fee_mode": "winners"})
    # 1900 分 over winnings 3400 : 400 → 1700 and 200; 老王 pays the venue
    assert Settlement.objects.get().balances_fen == [3400 - 1700 + 1900, 400 - 200, -1900, -1900]


def test_a_finished_game_takes_no_more_hands_until_reopened(client, game):
    record_settle_hands(game)
    client.post(game_url(game) + "finish", FINISH)
    response = client.get(game_url(game) + "record?winner=0", follow=True)
    assert any("牌局已结束" in m for m in messages_of(response))
    record(client, game, {"outcome": "draw"})
    assert Hand.objects.count() == 2
    assert client.get(game_url(game)).status_code == 200  # still readable
    client.post(game_url(game) + "reopen")
    game.refresh_from_db()
    assert game.status == Game.PLAYING
    assert not Settlement.objects.exists()
    record(client, game, {"outcome": "draw"})
    assert Hand.objects.count() == 3


def test_paid_toggles_are_stored_for_every_phone(client, game):
    record_settle_hands(game)
    client.post(game_url(game) + "finish", FINISH)
    transfer = Transfer.objects.first()
    client.post(game_url(game) + f"transfer/{transfer.id}/paid", {"paid": "1"})
    transfer.refresh_from_db()
    assert transfer.paid_at is not None
    assert 'text-bg-success">已付<' in client.get(game_url(game, view=True) + "settle").content.decode()
    client.post(game_url(game) + f"transfer/{transfer.id}/paid", {"paid": "0"})
    transfer.refresh_from_db()
    assert transfer.paid_at is None


def test_the_view_link_cannot_finish_reopen_or_tick(client, game):
    record_settle_hands(game)
    view = game_url(game, view=True)
    assert client.post(view + "finish", FINISH).status_code == 403
    client.post(game_url(game) + "finish", FINISH)
    transfer = Transfer.objects.first()
    assert client.post(view + f"transfer/{transfer.id}/paid", {"paid": "1"}).status_code == 403
    assert client.post(view + "reopen").status_code == 403
    assert Game.objects.get().status == Game.FINISHED


def test_bad_settle_input_is_a_message_and_changes_nothing(client, game):
    record_settle_hands(game)
    response = client.post(game_url(game) + "finish", {**FINISH, "rate": "custom", "custom_yuan": ""}, follow=True)
    assert any("每点多少元" in m for m in messages_of(response))
    response = client.post(game_url(game) + "finish", {**FINISH, "fee_yuan": "-5"}, follow=True)
    assert Game.objects.get().status == Game.PLAYING
    assert not Settlement.objects.exists()


def test_the_settle_screen_shows_the_running_totals_chart(client, game):
    record_settle_hands(game)
    html = client.get(game_url(game) + "settle").content.decode()
    assert '<svg class="chart"' in html
    assert html.count("<polyline") == 4


def test_a_transfer_over_21_million_yuan_is_stored_on_every_database(client, make_game):
    game = make_game(base_dealer=100_000, base_other=100_000)
    add_hand(game, SETTLE_HANDS[0])  # 老王 (dealer) 自摸: each of the three pays 200,000 points
    response = client.post(game_url(game) + "finish", {**FINISH, "rate": "custom", "custom_yuan": "10000"})
    assert response.status_code == 302
    amounts = sorted(Transfer.objects.values_list("amount_fen", flat=True))
    assert amounts == [200_000 * 1_000_000] * 3  # 2 × 10^11 fen each, far past 2^31
    assert "2000000000.00" in client.get(game_url(game) + "settle").content.decode()


def test_rate_and_fee_beyond_their_bounds_are_refused_with_a_clear_message(client, game):
    record_settle_hands(game)
    response = client.post(
        game_url(game) + "finish", {**FINISH, "rate": "custom", "custom_yuan": "10000.01"}, follow=True
    )
    assert any("每点最多 10000 元" in m for m in messages_of(response))
    response = client.post(game_url(game) + "finish", {**FINISH, "fee_yuan": "100000.01"}, follow=True)
    assert any("台费最多 100000 元" in m for m in messages_of(response))
    assert not Settlement.objects.exists()


def test_ticking_a_transfer_of_a_game_reopened_meanwhile_says_so(client, game):
    record_settle_hands(game)
    client.post(game_url(game) + "finish", FINISH)
    transfer = Transfer.objects.first()
    client.post(game_url(game) + "reopen")  # another phone reopens the game
    response = client.post(game_url(game) + f"transfer/{transfer.id}/paid", {"paid": "1"}, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0].endswith("/settle")
    assert "这笔转账已不存在（牌局已重新打开）。" in messages_of(response)


def test_a_finished_game_says_its_rate_and_fee_in_yuan(client, game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    client.post(game_url(game) + "finish", {"rate": "50", "fee_yuan": "40", "fee_mode": "equal", "fee_payee": "0"})
    html = client.get(game_url(game) + "settle").content.decode()
    assert "每点 0.5 元 · 台费 40 元" in html
    assert "分 · 台费" not in html


def test_an_htmx_settle_preview_gets_only_the_preview(client, game):
    query = "settle?rate=100&fee_yuan=10&fee_mode=equal&fee_payee=0"
    full = client.get(game_url(game) + query)
    part = client.get(game_url(game) + query, headers={"HX-Request": "true"})
    assert part.content.decode().startswith('<div id="settle-preview"')
    assert len(part.content) * 3 < len(full.content)
