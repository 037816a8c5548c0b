"""Bets placed at the table are facts of the table, not of one hand's outcome: voiding a hand
keeps the 买子/下子 placed before it for the next hand that stands (unless the preview's
「保留第N局前下的注」 is unticked), and every edit or void preview names each other hand whose
amounts change, before → after (docs/rules/yiwu.md §7, §8)."""

import json

from scoring.engine import score_game
from scoring.models import Hand
from scoring.replay import build, stored_replay
from tests.helpers import form_fields, game_url, record, version_of

# 老王 (东, seat 0) deals. Hand 1: a draw, before which 老王 bought 买子 (nobody pays in a draw).
BUY_THEN_DRAW = {"outcome": "draw", "maizi": [1, 0, 0, 0]}
# Hand 2: 老王 自摸 ×2 as dealer holding 买子: each pair unit is 庄7 + 买子2 = 9, × 2 = 18 from each.
DEALER_ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}
WITH_MAIZI = [54, -18, -18, -18]
WITHOUT_MAIZI = [42, -14, -14, -14]  # 7 × 2 = 14 from each


def play(client, game, *entries):
    for entry in entries:
        assert record(client, game, entry).status_code == 302


def void(client, game, seq: int, **extra):
    hand = Hand.objects.get(game=game, seq=seq)
    data = {"reason": "记错了", "revision": hand.revision, "version": version_of(game), **extra}
    return client.post(game_url(game) + f"hand/{seq}/void", data)


def ledger_is_the_replay(game) -> list:
    """The stored results equal a fresh replay of the hands; the totals."""
    game.refresh_from_db()
    stored = stored_replay(game, limit=None)
    replayed = build(game)
    assert [r.hand.result for r in stored.rows] == [r.hand.result for r in replayed.rows]
    assert stored.totals == replayed.totals
    return stored.totals


def test_voiding_a_hand_keeps_the_maizi_bought_before_it_for_the_next_hand(client, game):
    play(client, game, BUY_THEN_DRAW, DEALER_ZIMO)
    assert Hand.objects.get(seq=2).result["net"] == WITH_MAIZI
    preview = client.get(game_url(game) + "hand/1/void")
    html = preview.content.decode()
    assert "保留第1局前下的注" in html
    assert "老王买子" in html
    # 作废后 = now − hand 1 (a draw: 0 each), and no other hand changes
    assert [after for _, _, after, _ in preview.context["change"]] == WITH_MAIZI
    assert preview.context["other_hands"] == []
    assert void(client, game, 1).status_code == 302
    hand2 = Hand.objects.get(seq=2)
    assert hand2.entry["maizi"] == [1, 0, 0, 0]  # the bet now rides with the next hand that stands
    assert hand2.result["net"] == WITH_MAIZI
    assert ledger_is_the_replay(game) == WITH_MAIZI
    backup = json.loads(client.get(game_url(game) + "export.json").content)
    assert score_game(backup)["totals"] == WITH_MAIZI


def test_unticking_keep_bets_voids_them_with_the_hand_and_the_preview_says_so(client, game):
    play(client, game, BUY_THEN_DRAW, DEALER_ZIMO)
    preview = client.get(game_url(game) + "hand/1/void?keep_bets=0")
    assert [after for _, _, after, _ in preview.context["change"]] == WITHOUT_MAIZI
    # hand 2 is listed with each person's amount before → after: 54 → 42, −18 → −14
    [other] = preview.context["other_hands"]
    assert other["number"] == 2
    assert other["amounts"] == list(zip(WITH_MAIZI, WITHOUT_MAIZI, strict=True))
    assert "另外 1 局的金额也会变" in preview.content.decode()
    assert void(client, game, 1, keep_bets="0").status_code == 302
    assert "maizi" not in Hand.objects.get(seq=2).entry
    assert ledger_is_the_replay(game) == WITHOUT_MAIZI


def test_voiding_the_last_hand_gives_its_bets_back_to_the_next_hand_recorded(client, game):
    play(client, game, DEALER_ZIMO, {"outcome": "draw", "maizi": [0, 1, 0, 0], "xiazi_join": [2]})
    assert void(client, game, 2).status_code == 302
    game.refresh_from_db()
    assert game.pending == {"maizi": [1], "xiazi": {"2": 2}}  # 小李's 买子, 阿华's 下子 of 2 (the ×2 自摸)
    form = client.get(game_url(game) + "record?winner=0").context["form"]
    assert form["maizi"].value() == ["1"]
    assert form["xz2"].value() == "2"


def test_an_edit_preview_lists_each_other_hand_whose_amounts_change(client, game):
    play(client, game, BUY_THEN_DRAW, DEALER_ZIMO)
    # Hand 1 was really 小李's 自摸: 老王 (dealer, 买子) pays (7 + 2) × 2 = 18, 阿华 and 大刘 5 × 2 = 10.
    # The deal passes to 小李 and 买子 ends, so hand 2 is a 闲 自摸: 小李 pays 7 × 2 = 14, the others 10.
    edited = {**form_fields({"outcome": "win", "winner": 1, "win_type": "zimo", "maizi": [1, 0, 0, 0]}, game)}
    preview = client.post(game_url(game) + "hand/1/edit", {**edited, "revision": "0"})
    [other] = preview.context["other_hands"]
    assert other["number"] == 2
    assert other["amounts"] == [(54, 34), (-18, -14), (-18, -10), (-18, -10)]
    html = preview.content.decode()
    assert "第2局" in html
    assert "另外 1 局的金额也会变" in html
