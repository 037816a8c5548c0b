"""One test per rule of docs/rules/yiwu.md (§2-§11), against the public engine entry point.

Every expected number is worked out by hand from the spec text; the arithmetic is in the
comment beside it. Seats: 0=东 1=南 2=西 3=北; the first dealer is 东 unless stated.
Default bases: 7 when the dealer is in the pair, 5 between two non-dealers (§3).
"""

import pytest

from scoring.engine import ScoringError, score_game

E, S, W, N = 0, 1, 2, 3  # 东 南 西 北


# --- helpers --------------------------------------------------------------------------


def win(winner, win_type, discarder=None, **extra):
    hand = {"outcome": "win", "winner": winner, "win_type": win_type}
    if discarder is not None:
        hand["discarder"] = discarder
    hand.update(extra)
    return hand


def draw(**extra):
    return {"outcome": "draw", **extra}


def abandon(leaver, **extra):
    return {"outcome": "abandon", "leaver": leaver, **extra}


def piao(player, level):
    return {"player": player, "level": level}


def game(*hands, first_dealer=None, **rules):
    g = {"hands": list(hands)}
    if first_dealer is not None:
        g["first_dealer"] = first_dealer
    if rules:
        g["rules"] = rules
    return g


def score(*hands, first_dealer=None, **rules):
    return score_game(game(*hands, first_dealer=first_dealer, **rules))


def last(*hands, first_dealer=None, **rules):
    """The result of the last hand."""
    return score(*hands, first_dealer=first_dealer, **rules)["hands"][-1]


def flows(hand_result):
    """{(from, to): amount} of one hand's payments."""
    return {(p["from"], p["to"]): p["amount"] for p in hand_result["payments"]}


def error(*hands, first_dealer=None, **rules):
    with pytest.raises(ScoringError) as info:
        score(*hands, first_dealer=first_dealer, **rules)
    err = info.value
    assert err.zh  # a clear message in both languages
    assert err.en
    return err


DEALER_ZIMO = win(E, "zimo")  # 东 (dealer) 自摸, M 2: the usual way to start a 连庄


# --- §2 dealer and streak -------------------------------------------------------------


def test_s2_first_dealer_is_east_by_default():
    h = last(win(S, "zimo"))
    assert (h["dealer"], h["streak"]) == (E, 0)


def test_s2_first_dealer_can_be_chosen_at_game_creation():
    h = last(win(W, "zimo"), first_dealer=W)
    assert h["dealer"] == W
    # 西 is dealer: everyone pays 7 × 2 = 14
    assert flows(h) == {(E, W): 14, (S, W): 14, (N, W): 14}


def test_s2_dealer_win_keeps_the_dealer_and_counts_the_streak():
    hands = score(DEALER_ZIMO, win(E, "pinghu", discarder=S), DEALER_ZIMO)["hands"]
    assert [h["dealer"] for h in hands] == [E, E, E]
    assert [h["streak"] for h in hands] == [0, 1, 2]


def test_s2_draw_keeps_the_dealer_and_does_not_change_the_streak():
    hands = score(DEALER_ZIMO, draw(), draw(), DEALER_ZIMO)["hands"]
    assert [h["dealer"] for h in hands] == [E, E, E, E]
    assert [h["streak"] for h in hands] == [0, 1, 1, 1]


def test_s2_non_dealer_win_passes_the_deal_to_the_next_seat_not_the_winner():
    # 东 deals, 东 wins twice (streak 2), then 北 wins: the deal goes to 南 (0+1), streak 0
    hands = score(DEALER_ZIMO, DEALER_ZIMO, win(N, "zimo"), win(W, "zimo"), win(E, "zimo"))["hands"]
    assert [h["dealer"] for h in hands] == [E, E, E, S, W]
    assert [h["streak"] for h in hands] == [0, 1, 2, 0, 0]
    # wrapping round: dealer 北 (3), 南 wins → 东 (3+1 mod 4)
    hands = score(win(S, "zimo"), DEALER_ZIMO, first_dealer=N)["hands"]
    assert [h["dealer"] for h in hands] == [N, E]


def test_s2_streak_never_raises_the_base():
    # 连庄一直按基数算: every dealer 自摸 pays 7 × 2 = 14 each, whatever the streak
    hands = score(DEALER_ZIMO, DEALER_ZIMO, DEALER_ZIMO, DEALER_ZIMO)["hands"]
    assert [h["streak"] for h in hands] == [0, 1, 2, 3]
    assert all(h["net"] == [42, -14, -14, -14] for h in hands)


# --- §3 the pair unit -----------------------------------------------------------------


def test_s3_unit_is_base_dealer_with_the_dealer_and_base_other_between_non_dealers():
    h = last(win(S, "zimo"))
    # 东↔南 7 × 2 = 14; 西↔南 and 北↔南 5 × 2 = 10
    assert flows(h) == {(E, S): 14, (W, S): 10, (N, S): 10}
    assert h["net"] == [-14, 34, -10, -10]


def test_s3_maizi_adds_two_per_buyer_in_the_pair():
    h = last(win(S, "zimo", maizi=[0, 1, 1, 0]))
    # 东↔南 7 + 2(南) = 9, × 2 = 18; 西↔南 5 + 2 + 2 = 9, × 2 = 18; 北↔南 5 + 2(南) = 7, × 2 = 14
    assert flows(h) == {(E, S): 18, (W, S): 18, (N, S): 14}
    assert h["net"] == [-18, 50, -18, -14]


@pytest.mark.parametrize(("base_dealer", "base_other"), [(7, 5), (5, 3), (9, 7), (13, 11), (10, 4)])
def test_s3_base_presets_and_custom_bases(base_dealer, base_other):
    h = last(win(S, "zimo"), base_dealer=base_dealer, base_other=base_other)
    # 南 自摸 ×2: 东 pays base_dealer × 2, 西 and 北 base_other × 2
    assert flows(h) == {(E, S): 2 * base_dealer, (W, S): 2 * base_other, (N, S): 2 * base_other}


def test_s3_maizi_points_option_changes_the_maizi_term():
    h = last(win(S, "zimo", maizi=[1, 0, 0, 0]), maizi_points=3)
    # 东↔南 7 + 3 = 10, × 2 = 20; 西 5 × 2 = 10; 北 5 × 2 = 10
    assert flows(h) == {(E, S): 20, (W, S): 10, (N, S): 10}


def test_s3_xiazi_points_option_changes_the_xiazi_term():
    # hand 0: 东 自摸 (M 2) → 南 joins with 2; xiazi_points 2 makes the term 2 × 2 = 4
    h = last(DEALER_ZIMO, win(E, "zimo", xiazi_join=[S]), xiazi_points=2)
    # 南↔东 7 + 4 = 11, × 2 = 22; 西, 北 7 × 2 = 14
    assert flows(h) == {(S, E): 22, (W, E): 14, (N, E): 14}


# --- §4 win types and multiplier M ----------------------------------------------------

# 北 (non-dealer) wins; discard types on 西's discard; 飘 types with 北 as the 飘 player.
# Shares: 东 7·M, 南 5·M, 西 5·M (discard: 西 (5+1)·M).
WIN_TYPE_CASES = [
    ("pinghu", 1, {(E, N): 7, (S, N): 5, (W, N): 6}),  # 7, 5, 5+1
    ("qidui", 1, {(E, N): 7, (S, N): 5, (W, N): 6}),
    ("shisanbukao", 1, {(E, N): 7, (S, N): 5, (W, N): 6}),
    ("zimo", 2, {(E, N): 14, (S, N): 10, (W, N): 10}),  # 7·2, 5·2, 5·2
    ("qidui_zimo", 2, {(E, N): 14, (S, N): 10, (W, N): 10}),
    ("shisanbukao_zimo", 2, {(E, N): 14, (S, N): 10, (W, N): 10}),
    ("qianggang", 2, {(E, N): 14, (S, N): 10, (W, N): 10}),  # counts as 自摸: all three pay
    ("caishentou", 4, {(E, N): 28, (S, N): 20, (W, N): 20}),  # 7·4, 5·4
    ("qidui_caishentou", 4, {(E, N): 28, (S, N): 20, (W, N): 20}),
    ("gangkai", 4, {(E, N): 28, (S, N): 20, (W, N): 20}),
    ("danpiao", 8, {(E, N): 56, (S, N): 40, (W, N): 40}),  # 7·8, 5·8
    ("danpiao_gang", 8, {(E, N): 56, (S, N): 40, (W, N): 40}),
    ("shuangpiao", 16, {(E, N): 112, (S, N): 80, (W, N): 80}),  # 7·16, 5·16
    ("shuangpiao_gang", 16, {(E, N): 112, (S, N): 80, (W, N): 80}),
]


@pytest.mark.parametrize(("code", "m", "expected"), WIN_TYPE_CASES, ids=[c[0] for c in WIN_TYPE_CASES])
def test_s4_each_win_type_has_its_multiplier(code, m, expected):
    extra = {}
    if m == 1:
        extra["discarder"] = W
    if code.startswith("danpiao"):
        extra["piao"] = piao(N, 1)
    if code.startswith("shuangpiao"):
        extra["piao"] = piao(N, 2)
    h = last(win(N, code, **extra))
    assert h["multiplier"] == m
    assert flows(h) == expected
    assert sum(h["net"]) == 0


# --- §5 settling a win ----------------------------------------------------------------


def test_s5_1_discarder_pays_plus1_on_the_unit_by_default():
    h = last(win(S, "pinghu", discarder=N))
    # 东 7; 西 5; 北 (5 + 1) × 1 = 6
    assert flows(h) == {(E, S): 7, (W, S): 5, (N, S): 6}
    # the +1 goes on the unit that already holds 买子: 北 (5 + 2 + 1) × 1 = 8
    h = last(win(S, "pinghu", discarder=N, maizi=[0, 0, 0, 1]))
    assert flows(h) == {(E, S): 7, (W, S): 5, (N, S): 8}


def test_s5_1_dealer_winning_on_a_discard_gets_plus1_from_the_discarder():
    h = last(win(E, "qidui", discarder=W))
    # 南 7; 西 7 + 1 = 8; 北 7
    assert flows(h) == {(S, E): 7, (W, E): 8, (N, E): 7}


def test_s5_1_discarder_pays_double_option():
    h = last(win(S, "pinghu", discarder=E), discarder_extra="double")
    # 东 7 × 2 = 14; 西 5; 北 5
    assert flows(h) == {(E, S): 14, (W, S): 5, (N, S): 5}
    h = last(win(S, "pinghu", discarder=W), discarder_extra="double")
    # 东 7; 西 5 × 2 = 10; 北 5
    assert flows(h) == {(E, S): 7, (W, S): 10, (N, S): 5}


def test_s5_1_all_three_losers_pay_on_a_discard_win():
    h = last(win(N, "shisanbukao", discarder=S))
    # 东 7, 南 5 + 1 = 6, 西 5: every loser pays the winner, total 18
    assert flows(h) == {(E, N): 7, (S, N): 6, (W, N): 5}
    assert h["net"] == [-7, -6, -5, 18]


def test_s5_2_each_loser_pays_its_share_to_the_winner_and_the_winner_gets_the_total():
    h = last(win(W, "gangkai", maizi=[0, 0, 0, 1]))
    # 东 7 × 4 = 28; 南 5 × 4 = 20; 北 (5 + 2) × 4 = 28; total 76
    assert flows(h) == {(E, W): 28, (S, W): 20, (N, W): 28}
    assert h["net"] == [-28, -20, 76, -28]


def test_s5_3_feeder_pays_whole_total_on_piao_win():
    h = last(win(W, "danpiao", piao=piao(W, 1), feeders=[S]))
    # shares 东 7·8 = 56, 南 5·8 = 40, 北 5·8 = 40; total 136, all from 南
    assert flows(h) == {(S, W): 136}
    assert h["net"] == [0, -136, 136, 0]


def test_s5_3_feeder_pays_whole_total_on_shuangpiao_win():
    h = last(win(N, "shuangpiao_gang", piao=piao(N, 2), feeders=[E]))
    # shares 东 7·16 = 112, 南 5·16 = 80, 西 80; total 272, all from 东
    assert flows(h) == {(E, N): 272}


def test_s5_3_several_feeders_shared_each_pays_own_share_plus_equal_part_of_the_others():
    h = last(win(W, "danpiao", piao=piao(W, 1), feeders=[E, S]))
    # shares 东 56, 南 40, 北 40; the non-feeder 北's 40 split in two: 20 each
    # 东 56 + 20 = 76; 南 40 + 20 = 60; total 136
    assert flows(h) == {(E, W): 76, (S, W): 60}
    assert h["net"] == [-76, -60, 136, 0]
    # three feeders: no non-feeder share to split; each pays its own 东 56, 南 40, 北 40
    h = last(win(W, "danpiao", piao=piao(W, 1), feeders=[E, S, N]))
    assert flows(h) == {(E, W): 56, (S, W): 40, (N, W): 40}


def test_s5_3_several_feeders_first_option_only_first_listed_is_liable():
    h = last(win(W, "danpiao", piao=piao(W, 1), feeders=[S, E]), multi_feeder="first")
    # total 56 + 40 + 40 = 136, all from 南 (listed first, although 东 has the lower seat)
    assert flows(h) == {(S, W): 136}


def test_s5_3_fanpei_feeder_wins_piao_player_pays_twice_the_total():
    h = last(win(N, "zimo", piao=piao(S, 1), feeders=[N]))
    # normal shares of 北 自摸: 东 14, 南 10, 西 10 = 34; 南 (飘) pays 2 × 34 = 68; 东, 西 nothing
    assert flows(h) == {(S, N): 68}
    assert h["net"] == [0, -68, 0, 68]


def test_s5_3_fanpei_after_shuangpiao_feeder_wins_by_gangkai():
    h = last(win(N, "gangkai", piao=piao(S, 2), feeders=[N]))
    # shares 东 7·4 = 28, 南 5·4 = 20, 西 20 = 68; 南 pays 2 × 68 = 136
    assert flows(h) == {(S, N): 136}


def test_s5_3_fanpei_factor_1_option():
    h = last(win(N, "zimo", piao=piao(S, 1), feeders=[N]), fanpei_factor=1)
    # 1 × (14 + 10 + 10) = 34
    assert flows(h) == {(S, N): 34}


def test_s5_3_anyone_else_wins_normal_payments():
    h = last(win(W, "zimo", piao=piao(S, 1), feeders=[N]))
    # 西 is neither the 飘 player nor a feeder: 东 14, 南 10, 北 10
    assert flows(h) == {(E, W): 14, (S, W): 10, (N, W): 10}


def test_s5_3_piao_win_without_feeders_everyone_pays():
    h = last(win(W, "danpiao", piao=piao(W, 1)))
    # 东 56, 南 40, 北 40
    assert flows(h) == {(E, W): 56, (S, W): 40, (N, W): 40}


# --- §6 draws -------------------------------------------------------------------------


def test_s6_draw_nobody_pays():
    h = last(draw(maizi=[1, 1, 1, 1]))
    assert h["multiplier"] == 0
    assert h["payments"] == []
    assert h["net"] == [0, 0, 0, 0]


def test_s6_failed_danpiao_pays_nothing():
    h = last(draw(piao=piao(S, 1)))
    assert h["payments"] == []
    assert h["net"] == [0, 0, 0, 0]


def test_s6_failed_shuangpiao_pays_everyone_unit_times_4():
    h = last(draw(piao=piao(S, 2)))
    # 南 pays 东 7 × 4 = 28, 西 5 × 4 = 20, 北 5 × 4 = 20
    assert flows(h) == {(S, E): 28, (S, W): 20, (S, N): 20}
    assert h["net"] == [28, -68, 20, 20]


def test_s6_failed_shuangpiao_draw_mult_2_option():
    h = last(draw(piao=piao(S, 2)), shuangpiao_draw_mult=2)
    # 南 pays 东 7 × 2 = 14, 西 5 × 2 = 10, 北 10
    assert flows(h) == {(S, E): 14, (S, W): 10, (S, N): 10}


@pytest.mark.parametrize(
    ("mult", "includes", "to_dealer"),
    [
        (4, True, 36),  # (7 + 1·2) × 4
        (4, False, 28),  # 7 × 4
        (2, True, 18),  # (7 + 1·2) × 2
        (2, False, 14),  # 7 × 2
    ],
)
def test_s6_failed_shuangpiao_unit_includes_xiazi_unless_switched_off(mult, includes, to_dealer):
    # hand 0: 东 自摸 (M 2); hand 1: 南 joins with 2, 飘s twice and the hand is drawn
    h = last(
        DEALER_ZIMO,
        draw(xiazi_join=[S], piao=piao(S, 2)),
        shuangpiao_draw_mult=mult,
        shuangpiao_draw_includes_xiazi=includes,
    )
    assert h["xiazi"] == [0, 2, 0, 0]
    # 西, 北: 5 × mult (no 下子 between non-dealers)
    assert flows(h) == {(S, E): to_dealer, (S, W): 5 * mult, (S, N): 5 * mult}


# --- §7 买子 ---------------------------------------------------------------------------


def test_s7_any_hand_buy_allowed_mid_tenure_dealer_included():
    h = last(DEALER_ZIMO, win(E, "zimo", maizi=[1, 1, 0, 0]))
    # 南↔东 7 + 2 + 2 = 11, × 2 = 22; 西↔东 7 + 2 = 9, × 2 = 18; 北 18
    assert h["maizi"] == [1, 1, 0, 0]
    assert flows(h) == {(S, E): 22, (W, E): 18, (N, E): 18}
    assert h["net"] == [58, -22, -18, -18]


def test_s7_tenure_start_rejects_a_buy_after_the_tenure_first_hand():
    err = error(DEALER_ZIMO, win(E, "zimo", maizi=[0, 1, 0, 0]), maizi_buy="tenure_start")
    assert err.hand == 1
    # a draw also uses up the tenure's first hand
    err = error(draw(), win(E, "zimo", maizi=[0, 0, 1, 0]), maizi_buy="tenure_start")
    assert err.hand == 1


def test_s7_tenure_start_allows_a_buy_on_each_tenure_first_hand():
    hands = score(
        win(S, "zimo", maizi=[0, 1, 0, 0]),  # 东's tenure, first hand
        win(W, "zimo", maizi=[0, 0, 1, 0]),  # 南's tenure, first hand
        win(W, "zimo", maizi=[0, 0, 0, 1]),  # 西's tenure, first hand
        maizi_buy="tenure_start",
    )["hands"]
    # hand 0: 东↔南 (7 + 2) × 2 = 18; 西, 北 (5 + 2) × 2 = 14
    assert flows(hands[0]) == {(E, S): 18, (W, S): 14, (N, S): 14}
    # hand 1, dealer 南, 西 buys: 东↔西 (5 + 2) × 2 = 14; 南↔西 (7 + 2) × 2 = 18; 北↔西 (5 + 2) × 2 = 14
    assert flows(hands[1]) == {(E, W): 14, (S, W): 18, (N, W): 14}
    # hand 2, dealer 西 (西's 买子 reset), 北 buys: 东↔西 7 × 2 = 14; 南↔西 7 × 2 = 14; 北↔西 (7 + 2) × 2 = 18
    assert flows(hands[2]) == {(E, W): 14, (S, W): 14, (N, W): 18}
    # keeping an existing 买子 listed on a later hand is not a new buy
    h = last(win(E, "zimo", maizi=[0, 1, 0, 0]), win(E, "zimo", maizi=[0, 1, 0, 0]), maizi_buy="tenure_start")
    assert flows(h) == {(S, E): 18, (W, E): 14, (N, E): 14}  # (7 + 2) × 2, 7 × 2, 7 × 2


def test_s7_maizi_cannot_be_dropped_mid_tenure():
    err = error(win(E, "zimo", maizi=[0, 1, 0, 0]), win(E, "zimo", maizi=[0, 0, 0, 0]))
    assert err.hand == 1
    # a draw does not end the tenure either
    err = error(draw(maizi=[0, 0, 1, 0]), draw(), win(W, "zimo", maizi=[0, 0, 0, 0]))
    assert err.hand == 2


def test_s7_maizi_absent_means_unchanged():
    h = last(win(E, "zimo", maizi=[0, 1, 0, 0]), DEALER_ZIMO)
    assert h["maizi"] == [0, 1, 0, 0]
    # 南 (7 + 2) × 2 = 18; 西, 北 7 × 2 = 14
    assert flows(h) == {(S, E): 18, (W, E): 14, (N, E): 14}


def test_s7_maizi_resets_when_the_dealer_changes():
    hands = score(
        win(E, "zimo", maizi=[1, 0, 0, 1]),
        win(S, "pinghu", discarder=N),  # still 东's tenure: 买子 in force; then the deal passes
        win(W, "zimo"),
    )["hands"]
    # hand 1: 东↔南 7 + 2 = 9; 西 5; 北 5 + 2 + 1 = 8
    assert flows(hands[1]) == {(E, S): 9, (W, S): 5, (N, S): 8}
    # hand 2, dealer 南, no 买子: 东 5 × 2 = 10, 南 7 × 2 = 14, 北 5 × 2 = 10
    assert hands[2]["maizi"] == [0, 0, 0, 0]
    assert flows(hands[2]) == {(E, W): 10, (S, W): 14, (N, W): 10}
    # listing everyone as not bought after the change is not a "drop"
    h = last(win(E, "zimo", maizi=[1, 0, 0, 1]), win(S, "zimo"), win(W, "zimo", maizi=[0, 0, 0, 0]))
    assert h["maizi"] == [0, 0, 0, 0]


# --- §8 下子 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "bad"),
    [
        ([win(E, "zimo", xiazi_join=[S])], 0),  # first hand: no dealer win yet
        ([win(S, "zimo", xiazi_join=[W])], 0),  # e4
        ([DEALER_ZIMO, win(S, "zimo"), win(W, "zimo", xiazi_join=[N])], 2),  # after a non-dealer win
        ([win(S, "zimo"), win(W, "zimo", xiazi_join=[E])], 1),  # after a non-dealer win, new dealer
    ],
)
def test_s8_xiazi_join_only_right_after_a_dealer_win(hands, bad):
    assert error(*hands).hand == bad


@pytest.mark.parametrize(
    ("first", "m"),
    [
        (win(E, "pinghu", discarder=W), 1),
        (win(E, "zimo"), 2),
        (win(E, "caishentou"), 4),
        (win(E, "gangkai"), 4),
        (win(E, "danpiao", piao=piao(E, 1)), 8),
        (win(E, "shuangpiao", piao=piao(E, 2)), 16),
    ],
)
def test_s8_xiazi_amount_is_the_multiplier_of_that_dealer_win(first, m):
    h = last(first, win(E, "zimo", xiazi_join=[S]))
    assert h["xiazi"] == [0, m, 0, 0]
    # 南↔东 (7 + m) × 2; 西, 北 7 × 2 = 14
    assert flows(h) == {(S, E): (7 + m) * 2, (W, E): 14, (N, E): 14}


def test_s8_xiazi_fixed_amount_rejects_another_amount():
    # default fixed: after a 自摸 (M 2) the bet is exactly 2
    assert error(DEALER_ZIMO, win(E, "zimo", xiazi_join={"1": 1})).hand == 1


def test_s8_xiazi_up_to_allows_any_amount_1_to_m():
    h = last(win(E, "caishentou"), win(E, "zimo", xiazi_join={"1": 1, "2": 4}), xiazi_amount="up_to")
    assert h["xiazi"] == [0, 1, 4, 0]
    # 南 (7 + 1) × 2 = 16; 西 (7 + 4) × 2 = 22; 北 7 × 2 = 14
    assert flows(h) == {(S, E): 16, (W, E): 22, (N, E): 14}
    # more than M (4) is rejected
    err = error(win(E, "caishentou"), win(E, "zimo", xiazi_join={"1": 5}), xiazi_amount="up_to")
    assert err.hand == 1


def test_s8_xiazi_doubles_after_each_further_dealer_win():
    hands = score(
        DEALER_ZIMO,  # M 2
        win(E, "pinghu", discarder=W, xiazi_join=[S]),  # 南 bets 2
        DEALER_ZIMO,  # bet doubled: 4
        DEALER_ZIMO,  # doubled again: 8
    )["hands"]
    assert [h["xiazi"][S] for h in hands] == [0, 2, 4, 8]
    # hand 1: 南 (7 + 2) × 1 = 9; 西 (7 + 1) × 1 = 8; 北 7
    assert flows(hands[1]) == {(S, E): 9, (W, E): 8, (N, E): 7}
    # hand 2: 南 (7 + 4) × 2 = 22; hand 3: 南 (7 + 8) × 2 = 30
    assert flows(hands[2])[(S, E)] == 22
    assert flows(hands[3])[(S, E)] == 30


def test_s8_xiazi_cap_limits_the_bet():
    hands = score(DEALER_ZIMO, win(E, "zimo", xiazi_join=[S]), DEALER_ZIMO, DEALER_ZIMO, xiazi_cap=3)["hands"]
    # 2, then 2 × 2 = 4 capped at 3, then 3 × 2 = 6 capped at 3
    assert [h["xiazi"][S] for h in hands] == [0, 2, 3, 3]
    # hand 2: 南 (7 + 3) × 2 = 20
    assert flows(hands[2])[(S, E)] == 20
    # a new bet is limited too: after a 财神头 (M 4) the fixed bet is min(4, 3) = 3; 南 (7 + 3) × 2 = 20
    h = last(win(E, "caishentou"), win(E, "zimo", xiazi_join=[S]), xiazi_cap=3)
    assert h["xiazi"] == [0, 3, 0, 0]
    assert flows(h)[(S, E)] == 20


def test_s8_draw_does_not_double_bets():
    hands = score(DEALER_ZIMO, draw(xiazi_join=[S]), draw(), DEALER_ZIMO)["hands"]
    # joined with 2 right after the 自摸; the draws leave it at 2
    assert [h["xiazi"][S] for h in hands] == [0, 2, 2, 2]
    # hand 3: 南 (7 + 2) × 2 = 18
    assert flows(hands[3]) == {(S, E): 18, (W, E): 14, (N, E): 14}


def test_s8_draw_does_not_allow_new_bets():
    assert error(DEALER_ZIMO, draw(), win(E, "zimo", xiazi_join=[S])).hand == 2


def test_s8_all_bets_end_when_the_dealer_changes():
    hands = score(DEALER_ZIMO, win(S, "zimo", xiazi_join=[S, W]), win(S, "zimo"))["hands"]
    # hand 1: 南's bet counts against 东: (7 + 2) × 2 = 18; 西 5 × 2 = 10; 北 10
    assert flows(hands[1]) == {(E, S): 18, (W, S): 10, (N, S): 10}
    # hand 2, dealer 南: no bets left; each pays 7 × 2 = 14
    assert hands[2]["xiazi"] == [0, 0, 0, 0]
    assert flows(hands[2]) == {(E, S): 14, (W, S): 14, (N, S): 14}


def test_s8_dealer_never_bets():
    assert error(DEALER_ZIMO, win(E, "zimo", xiazi_join=[E])).hand == 1


def test_s8_no_double_joining():
    assert error(DEALER_ZIMO, win(E, "zimo", xiazi_join=[S]), win(E, "zimo", xiazi_join=[S])).hand == 2


def test_s8_xiazi_counts_between_dealer_and_bettor_in_both_directions():
    # dealer wins: 南 (7 + 2) × 2 = 18 to 东
    h = last(DEALER_ZIMO, win(E, "zimo", xiazi_join=[S]))
    assert flows(h)[(S, E)] == 18
    # bettor wins: 东 (7 + 2) × 2 = 18 to 南
    h = last(DEALER_ZIMO, win(S, "zimo", xiazi_join=[S]))
    assert flows(h)[(E, S)] == 18


def test_s8_xiazi_not_counted_between_non_dealers():
    # 南 bets 2; 西 wins: 东 7 × 2 = 14, 南 5 × 2 = 10 (闲闲之间不算), 北 10
    h = last(DEALER_ZIMO, win(W, "zimo", xiazi_join=[S]))
    assert flows(h) == {(E, W): 14, (S, W): 10, (N, W): 10}
    # 南 and 北 both bet 2; 北 wins on 南's discard: 南 (5 + 1) × 1 = 6, no 下子 term between them;
    # 东 (7 + 2) × 1 = 9 (北's own bet against the dealer); 西 5
    h = last(DEALER_ZIMO, win(N, "pinghu", discarder=S, xiazi_join=[S, N]))
    assert flows(h) == {(E, N): 9, (S, N): 6, (W, N): 5}


# --- §9 validation --------------------------------------------------------------------


def test_s9_discard_type_needs_a_discarder():
    assert error(DEALER_ZIMO, win(S, "pinghu")).hand == 1


def test_s9_discarder_must_differ_from_the_winner():
    assert error(DEALER_ZIMO, win(S, "qidui", discarder=S)).hand == 1


def test_s9_non_discard_type_has_no_discarder():
    assert error(DEALER_ZIMO, win(S, "zimo", discarder=W)).hand == 1
    assert error(DEALER_ZIMO, draw(), win(S, "caishentou", discarder=W)).hand == 2


def test_s9_two_caishen_no_discard_win():
    assert error(DEALER_ZIMO, win(S, "pinghu", discarder=W, caishen=2)).hand == 1
    # a self-drawn win with 2 财神 is fine: 东 7 × 2, 西 5 × 2, 北 5 × 2
    assert flows(last(win(S, "zimo", caishen=2))) == {(E, S): 14, (W, S): 10, (N, S): 10}


def test_s9_three_caishen_only_caishentou_types_or_gangkai():
    assert error(DEALER_ZIMO, win(S, "zimo", caishen=3)).hand == 1
    assert error(DEALER_ZIMO, win(S, "qianggang", caishen=3)).hand == 1
    for code in ("caishentou", "qidui_caishentou", "gangkai"):
        # 东 7 × 4 = 28, 西 5 × 4 = 20, 北 20
        assert flows(last(win(S, code, caishen=3))) == {(E, S): 28, (W, S): 20, (N, S): 20}


def test_s9_piao_player_wins_only_with_a_piao_type():
    assert error(DEALER_ZIMO, win(S, "caishentou", piao=piao(S, 1))).hand == 1


def test_s9_piao_type_must_match_the_piao_level():
    assert error(DEALER_ZIMO, win(S, "shuangpiao", piao=piao(S, 1))).hand == 1
    assert error(DEALER_ZIMO, win(S, "danpiao_gang", piao=piao(S, 2))).hand == 1


def test_s9_piao_types_need_the_winner_to_be_the_piao_player():
    assert error(DEALER_ZIMO, win(S, "danpiao")).hand == 1
    assert error(DEALER_ZIMO, win(S, "danpiao", piao=piao(W, 1))).hand == 1


def test_s9_after_danpiao_nobody_else_wins_on_a_discard():
    assert error(DEALER_ZIMO, win(S, "pinghu", discarder=E, piao=piao(W, 1))).hand == 1
    # a self-drawn win by someone else is allowed: 东 14, 西 10, 北 10
    assert flows(last(win(S, "zimo", piao=piao(W, 1)))) == {(E, S): 14, (W, S): 10, (N, S): 10}


def test_s9_after_shuangpiao_others_may_only_win_by_gangkai():
    for code in ("zimo", "qianggang", "caishentou", "qidui_caishentou"):
        assert error(DEALER_ZIMO, win(S, code, piao=piao(W, 2))).hand == 1
    assert error(DEALER_ZIMO, win(S, "pinghu", discarder=E, piao=piao(W, 2))).hand == 1
    # 杠开 is allowed: 东 28, 西 20, 北 20
    assert flows(last(win(S, "gangkai", piao=piao(W, 2)))) == {(E, S): 28, (W, S): 20, (N, S): 20}


def test_s9_option_others_may_caishentou_after_shuangpiao():
    opt = {"others_may_caishentou_after_shuangpiao": True}
    for code in ("caishentou", "qidui_caishentou"):
        # 东 7 × 4 = 28, 西 20, 北 20
        assert flows(last(win(S, code, piao=piao(W, 2)), **opt)) == {(E, S): 28, (W, S): 20, (N, S): 20}
    assert error(DEALER_ZIMO, win(S, "zimo", piao=piao(W, 2)), **opt).hand == 1


def test_s9_feeders_need_a_piao_player():
    assert error(DEALER_ZIMO, win(S, "zimo", feeders=[W])).hand == 1


def test_s9_feeder_must_differ_from_the_piao_player():
    assert error(DEALER_ZIMO, win(W, "danpiao", piao=piao(W, 1), feeders=[W])).hand == 1


def test_s9_feeders_must_differ_from_each_other():
    assert error(DEALER_ZIMO, win(W, "danpiao", piao=piao(W, 1), feeders=[S, S])).hand == 1


# --- §10 abandon ----------------------------------------------------------------------


def test_s10_abandon_disabled_by_default_is_an_error():
    assert error(DEALER_ZIMO, abandon(S)).hand == 1


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # c = 1, no 飘: 南 pays 东 7, 西 5, 北 5
        (abandon(S), {(S, E): 7, (S, W): 5, (S, N): 5}),
        # the dealer leaves: 7 to each
        (abandon(E), {(E, S): 7, (E, W): 7, (E, N): 7}),
        # c = 2 after 北's 单飘: 西 pays 东 7·2 = 14, 南 5·2 = 10, 北 10
        (abandon(W, piao=piao(N, 1)), {(W, E): 14, (W, S): 10, (W, N): 10}),
        # c = 4 after 北's 双飘: 南 pays 东 7·4 = 28, 西 20, 北 20
        (abandon(S, piao=piao(N, 2)), {(S, E): 28, (S, W): 20, (S, N): 20}),
    ],
    ids=["c1", "c1-dealer-leaves", "c2-danpiao", "c4-shuangpiao"],
)
def test_s10_leaver_pays_everyone_unit_times_c(hand, expected):
    h = last(hand, abandon_enabled=True)
    assert h["multiplier"] == 0
    assert flows(h) == expected


def test_s10_feeder_leaver_pays_the_piao_success_total():
    h = last(abandon(S, piao=piao(W, 1), feeders=[S]), abandon_enabled=True)
    # as if 西 won 单飘: 东 7·8 = 56, 南 5·8 = 40, 北 40 = 136, all from 南 to 西
    assert flows(h) == {(S, W): 136}
    h = last(abandon(S, piao=piao(W, 2), feeders=[S]), abandon_enabled=True)
    # as if 西 won 双飘: 7·16 + 5·16 + 5·16 = 112 + 80 + 80 = 272
    assert flows(h) == {(S, W): 272}


def test_s10_dealer_stays_after_an_abandon():
    hands = score(DEALER_ZIMO, abandon(W), DEALER_ZIMO, abandon_enabled=True)["hands"]
    assert [h["dealer"] for h in hands] == [E, E, E]
    assert [h["streak"] for h in hands] == [0, 1, 1]


# --- §11 worked numbers ---------------------------------------------------------------


def test_s11_row1_east_dealer_zimo():
    h = last(win(E, "zimo"))
    # each pays 7 × 2 = 14
    assert flows(h) == {(S, E): 14, (W, E): 14, (N, E): 14}
    assert h["net"] == [42, -14, -14, -14]


def test_s11_row2_south_pinghu_on_east_discard():
    h = last(win(S, "pinghu", discarder=E))
    # 东 7 + 1 = 8, 西 5, 北 5
    assert flows(h) == {(E, S): 8, (W, S): 5, (N, S): 5}
    assert h["net"] == [-8, 18, -5, -5]


def test_s11_row3_south_pinghu_on_west_discard():
    h = last(win(S, "pinghu", discarder=W))
    # 东 7, 西 5 + 1 = 6, 北 5
    assert flows(h) == {(E, S): 7, (W, S): 6, (N, S): 5}
    assert h["net"] == [-7, 18, -6, -5]


def test_s11_row4_row2_with_south_and_east_maizi():
    h = last(win(S, "pinghu", discarder=E, maizi=[1, 1, 0, 0]))
    # 东 7 + 2 + 2 + 1 = 12, 西 5 + 2 = 7, 北 5 + 2 = 7
    assert flows(h) == {(E, S): 12, (W, S): 7, (N, S): 7}
    assert h["net"] == [-12, 26, -7, -7]


def test_s11_row5_north_caishentou():
    h = last(win(N, "caishentou"))
    # 东 7 × 4 = 28, 南 5 × 4 = 20, 西 20
    assert flows(h) == {(E, N): 28, (S, N): 20, (W, N): 20}
    assert h["net"] == [-28, -20, -20, 68]


def test_s11_row6_west_danpiao_feeder_south_east_maizi():
    h = last(win(W, "danpiao", piao=piao(W, 1), feeders=[S], maizi=[1, 0, 0, 0]))
    # total (9 + 5 + 5) × 8 = 152, all from 南
    assert flows(h) == {(S, W): 152}
    assert h["net"] == [0, -152, 152, 0]


def test_s11_row7_east_danpiao_feeder_west_wins_zimo():
    h = last(win(W, "zimo", piao=piao(E, 1), feeders=[W]))
    # total 14 + 10 + 10 = 34, 东 pays × 2 = 68
    assert flows(h) == {(E, W): 68}
    assert h["net"] == [-68, 0, 68, 0]


def test_s11_row8_north_shuangpiao_fails_in_draw_south_maizi():
    h = last(draw(piao=piao(N, 2), maizi=[0, 1, 0, 0]))
    # 北 pays 东 7 × 4 = 28, 南 (5 + 2) × 4 = 28, 西 5 × 4 = 20
    assert flows(h) == {(N, E): 28, (N, S): 28, (N, W): 20}
    assert h["net"] == [28, 28, 20, -76]


# --- contract and packaging -----------------------------------------------------------


def test_contract_output_shape_totals_and_sorted_payments():
    result = score(win(N, "pinghu", discarder=S), win(E, "zimo"))
    first, second = result["hands"]
    # hand 0: 东 7, 南 6, 西 5 → 北 +18; hand 1 (dealer 南): 东 自摸 7×2 = 14 from 南, 10 from 西, 10 from 北
    assert first["net"] == [-7, -6, -5, 18]
    assert second["dealer"] == S
    assert flows(second) == {(S, E): 14, (W, E): 10, (N, E): 10}
    assert second["net"] == [34, -14, -10, -10]
    assert result["totals"] == [27, -20, -15, 8]
    for h in result["hands"]:
        keys = [(p["from"], p["to"]) for p in h["payments"]]
        assert keys == sorted(keys)
        assert all(p["amount"] > 0 and "explain" in p and "explain_en" in p for p in h["payments"])
        assert sum(h["net"]) == 0


def test_contract_game_level_errors_have_no_hand_index():
    with pytest.raises(ScoringError) as info:
        score_game({"hands": [], "colour": "red"})
    assert info.value.hand is None
    with pytest.raises(ScoringError) as info:
        score_game({"hands": [], "rules": {"no_such_rule": 1}})
    assert info.value.hand is None
    with pytest.raises(ScoringError) as info:
        score_game({"hands": [], "rules": {"base_dealer": "7"}})
    assert info.value.hand is None


def test_contract_unknown_field_in_a_hand_is_an_error_for_that_hand():
    assert error(DEALER_ZIMO, {**DEALER_ZIMO, "bonus": 1}).hand == 1


def test_s8_up_to_amount_above_the_cap_is_cut_to_the_cap():
    # 东 wins 单飘 (M = 8) with cap 2: 南 may bet any 1..8 under up_to; the cap limits it to 2.
    hands = score(
        win(E, "danpiao", piao=piao(E, 1)),
        draw(xiazi_join={"1": 5}),
        xiazi_amount="up_to",
        xiazi_cap=2,
    )["hands"]
    assert hands[1]["xiazi"] == [0, 2, 0, 0]


def test_s8_up_to_amount_above_the_dealers_multiplier_is_refused():
    # 东 wins 自摸 (M = 2): a bet of 3 is more than that win allows.
    assert error(DEALER_ZIMO, draw(xiazi_join={"1": 3}), xiazi_amount="up_to").hand == 1


def test_caishen_count_is_optional_on_a_draw_and_ignored():
    assert score(draw(caishen=2))["totals"] == [0, 0, 0, 0]
