"""晒图: the picture says what the settle page says, in the table's money words."""

import re

from scoring.models import Settlement
from tests.factories import add_hand, void
from tests.helpers import FINISH, game_url, record_settle_hands


def _svg(client, game, view: bool = False) -> str:
    response = client.get(game_url(game, view) + "picture.svg")
    assert response["Content-Type"].startswith("image/svg+xml")
    return response.content.decode()


def _texts(svg: str) -> list[str]:
    return re.findall(r"<text [^>]*>([^<]*)</text>", svg)


def test_the_picture_of_a_settled_game_has_the_settle_pages_money_and_transfers(client, game):
    record_settle_hands(game)
    client.post(game_url(game) + "finish", {**FINISH, "rate": "custom", "custom_yuan": "0.5", "fee_yuan": "2"})
    settle = client.get(game_url(game) + "settle").context
    texts = _texts(_svg(client, game))
    # The settle page's balances, largest first, in words: 老王 +34 分 × 0.5 元 − 0.5 元 台费 + the 2 元
    # he paid the venue for everyone = 18.5 元.
    balances = sorted(((fen, name) for name, _p, _y, fen in settle["balances"]), key=lambda b: -b[0])
    assert (
        [fen for fen, _name in balances]
        == [1850, 150, -1000, -1000]
        == sorted(Settlement.objects.get().balances_fen, reverse=True)
    )
    names_then_words = [texts[i : i + 2] for i in range(3, 3 + 2 * 4, 2)]
    assert names_then_words == [
        ["老王", "赢 18.50 元"],
        ["小李", "赢 1.50 元"],
        ["阿华", "输 10 元"],
        ["大刘", "输 10 元"],
    ]
    transfers = [f"{payer} → {payee} {amount}" for _t, payer, payee, amount in settle["transfers"]]
    assert len(transfers) == 3
    for words in transfers:
        assert words in texts
    assert "义乌麻将 · 每点 0.5 元 · 台费 2 元（老王垫付，已算入）" in texts  # who fronted the fee
    assert "共 2 局" in texts
    assert "最大一局：第1局 老王 +42" in texts
    assert _svg(client, game).count("<polyline") == 4  # the running totals, one line each


def test_the_picture_numbers_the_standing_hands_and_skips_a_voided_one(client, game):
    add_hand(game, {"outcome": "win", "winner": 2, "win_type": "zimo"})  # voided below
    record_settle_hands(game)
    void(game, 1, "记错了")
    texts = _texts(_svg(client, game))
    assert "共 2 局" in texts
    assert "最大一局：第1局 老王 +42" in texts


def test_an_open_game_is_pictured_in_points(client, game):
    record_settle_hands(game)
    texts = _texts(_svg(client, game))
    assert "义乌麻将 · 未结算 · 按分计" in texts
    assert ["老王", "赢 34 分"] == texts[3:5]
    assert "输 19 分" in texts
    assert not any("→" in text for text in texts)


def test_halves_and_long_or_hostile_names_are_drawn_exactly_and_safely(client, zhuji_game):
    zhuji_game.players = ["欧阳娜娜娜娜娜娜娜娜娜娜", "<b>阿芳</b>", "老周", "小陈"]
    zhuji_game.save()
    add_hand(zhuji_game, {"outcome": "win", "winner": 3, "discarder": 1, "tai": {"no_caishen": True}})
    client.post(game_url(zhuji_game) + "finish", {**FINISH, "rate": "custom", "custom_yuan": "1"})
    svg = _svg(client, zhuji_game)
    texts = _texts(svg)
    assert ["小陈", "赢 2 元"] == texts[3:5]
    assert "欧阳娜娜娜娜娜…" in texts  # 15 narrow characters, then …
    assert "&lt;b&gt;阿芳&lt;/b&gt;" in svg
    assert "<b>" not in svg
    assert "输 0.50 元" in texts  # the half point, to the 分


def test_the_picture_page_is_a_whole_page_for_either_link_and_says_how_to_save(client, game):
    record_settle_hands(game)
    for view in (False, True):
        html = client.get(game_url(game, view) + "picture").content.decode()
        assert "<nav" in html or "navbar" in html
        assert "长按图片保存或发送" in html
        assert 'data-picture src="' + game_url(game, view) + 'picture.svg"' in html
    assert client.get("/g/nosuchtoken/picture.svg").status_code == 404


def test_settle_and_summary_offer_the_picture(client, game):
    record_settle_hands(game)
    assert f'href="{game_url(game)}picture"' in client.get(game_url(game) + "summary").content.decode()
    client.post(game_url(game) + "finish", FINISH)
    assert f'href="{game_url(game)}picture"' in client.get(game_url(game) + "settle").content.decode()


def test_the_picture_speaks_english_when_the_phone_does(client, game):
    from django.conf import settings

    record_settle_hands(game)
    client.post(game_url(game) + "finish", FINISH)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    texts = _texts(_svg(client, game))
    assert "Yiwu · ¥1 a point · table fee ¥0" in texts
    assert ["老王", "won ¥34"] == texts[3:5]
    assert "lost ¥19" in texts
    assert "Biggest hand: #1 老王 +42" in texts
    html = client.get(game_url(game) + "picture").content.decode()
    assert "Long-press the picture to save or send it" in html
