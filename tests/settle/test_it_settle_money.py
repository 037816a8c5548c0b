"""Settling up in 元: the form, the fee advance, the share text with every transfer, in both languages."""

import csv
import io

from django.conf import settings

from scoring.models import Settlement
from tests.factories import add_hand
from tests.helpers import FINISH, game_url, record_settle_hands

FEE = {**FINISH, "rate": "50", "fee_yuan": "40", "fee_payee": "0"}


def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_the_settle_form_speaks_of_yuan_per_point_and_who_advances_the_fee(client, game):
    html = client.get(game_url(game) + "settle").content.decode()
    assert "每点 0.5 元" in html
    assert "1 点 = " not in html
    assert "台费怎么分" in html
    assert "谁先垫付台费" in html
    assert "整数分" not in html
    assert "一分按" not in html


def test_the_preview_and_the_finished_page_explain_the_fee_advance(client, game):
    record_settle_hands(game)
    preview = client.get(game_url(game) + "settle", FEE).content.decode()
    assert "老王</bdi> 垫付台费 40 元（已算入）" in preview
    client.post(game_url(game) + "finish", FEE)
    html = client.get(game_url(game) + "settle").content.decode()
    assert "垫付台费 40 元（已算入）" in html
    assert "每点 0.5 元 · 台费 40 元" in html


def test_no_fee_no_advance_line(client, game):
    record_settle_hands(game)
    assert "（已算入）" not in client.get(game_url(game) + "settle", FINISH).content.decode()


def test_balances_use_one_minus_sign(client, game):
    record_settle_hands(game)
    html = client.get(game_url(game) + "settle", FINISH).content.decode()
    assert "\u221219.00" in html
    assert ">-19.00" not in html


def test_the_share_text_carries_each_persons_money_and_every_transfer(client, game):
    record_settle_hands(game)
    client.post(game_url(game) + "finish", FEE)
    settlement = Settlement.objects.get()
    names = game.players
    for url in ("settle", "summary"):
        response = client.get(game_url(game) + url)
        share = response.context["share"]
        assert "每点 0.5 元 · 台费 40 元" in share
        assert "老王 垫付台费 40 元（已算入）" in share
        for t in settlement.transfers.all():
            whole, cents = divmod(t.amount_fen, 100)
            amount = f"{whole}.{cents:02d}" if cents else f"{whole}"
            assert f"{names[t.payer]} → {names[t.payee]} {amount} 元" in share
        assert "老王（东）+34 · 赢 47 元" in share  # 34 points × 0.5 元 = 17, fee 10 each, +40 advanced
        html = response.content.decode()
        assert 'data-copy="#share-text"' in html
        assert 'data-share="#share-text" hidden' in html  # shown by app.js only where navigator.share exists


def test_the_share_text_and_csv_follow_the_page_language(client, game):
    record_settle_hands(game)
    client.post(game_url(game) + "finish", FEE)
    english(client)
    share = client.get(game_url(game) + "summary").context["share"]
    assert "hands" in share
    assert "共" not in share
    assert "¥0.5 a point · table fee ¥40" in share
    assert "advanced the table fee ¥40 (counted in)" in share
    assert "老王 (E) +34" in share
    rows = list(csv.reader(io.StringIO(client.get(game_url(game) + "export.csv").content.decode("utf-8-sig"))))
    assert rows[0][:10] == [
        "Hand",
        "Status",
        "Dealer",
        "Streak",
        "Result",
        "Multiplier",
        "Payer",
        "Payee",
        "Points",
        "Explanation",
    ]
    assert rows[0][10] == "老王 net"
    assert rows[1][1] == "Counted"
    assert "自摸" not in rows[1][9]


def test_before_settling_the_share_text_has_no_money(client, game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    share = client.get(game_url(game) + "summary").context["share"]
    assert "¥" not in share
    assert "共1局" in share


def test_money_is_said_as_the_table_says_it_no_needless_fen(client, game):
    """「老王 赢 47 元」「阿华 输 19.50 元」「阿华 → 老王 19.50 元」: whole 元 without .00, fen kept when there are some."""
    record_settle_hands(game)  # 老王 +34, 小李 +4, 阿华 −19, 大刘 −19
    client.post(game_url(game) + "finish", FEE)  # at 0.5 元: 17, 2, −9.50, −9.50; the fee 10 each, 老王 advanced it
    share = client.get(game_url(game) + "settle").context["share"].splitlines()
    assert share[1:5] == [
        "老王（东）+34 · 赢 47 元",
        "小李（南）+4 · 输 8 元",
        "阿华（西）−19 · 输 19.50 元",
        "大刘（北）−19 · 输 19.50 元",
    ]
    assert "小李 → 老王 8 元" in share
    assert not any(".00" in line or "¥" in line for line in share)
    html = client.get(game_url(game) + "settle").content.decode()
    assert "<bdi>小李</bdi> → <bdi>老王</bdi> <b>8 元</b>" in html
    english(client)
    share = client.get(game_url(game) + "settle").context["share"].splitlines()
    assert share[1:5] == [
        "老王 (E) +34 · won ¥47",
        "小李 (S) +4 · lost ¥8",
        "阿华 (W) −19 · lost ¥19.50",
        "大刘 (N) −19 · lost ¥19.50",
    ]
    assert "小李 → 老王 ¥8" in share
    html = client.get(game_url(game) + "settle").content.decode()
    assert "<bdi>小李</bdi> → <bdi>老王</bdi> <b>¥8</b>" in html


def test_someone_who_breaks_even_is_said_so(client, game):
    add_hand(game, {"outcome": "draw"})
    client.post(game_url(game) + "finish", FINISH)
    share = client.get(game_url(game) + "settle").context["share"]
    assert "老王（东）0 · 不输不赢" in share
    assert "没有人需要转账。" in share
