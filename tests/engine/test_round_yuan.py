"""抹零: balances to whole 元 that still sum to zero, each moved by under 1 元, by a stated rule."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.money import round_to_yuan, settlement_plan
from tests.speed import examples


@st.composite
def balances(draw) -> list[int]:
    """Balances in 分 summing to zero: any amounts, the last one balancing the rest."""
    rest = draw(st.lists(st.integers(-10_000_000, 10_000_000), min_size=1, max_size=15))
    return [*rest, -sum(rest)]


@settings(max_examples=examples(400), deadline=None)
@given(balances())
def test_the_rounded_balances_are_whole_yuan_sum_to_zero_and_move_under_one_yuan(fen):
    rounded = round_to_yuan(fen)
    assert sum(rounded) == 0
    assert all(r % 100 == 0 for r in rounded)
    assert all(abs(r - b) < 100 for r, b in zip(rounded, fen, strict=True))
    assert all(r == b for r, b in zip(rounded, fen, strict=True) if b % 100 == 0)  # whole 元 stay


@settings(max_examples=examples(300), deadline=None)
@given(balances())
def test_no_zero_sum_rounding_moves_the_money_less(fen):
    """Largest remainder moves the least in all: every balance goes to its floor or ceiling 元, and
    only the largest 零头 go up."""
    rounded = round_to_yuan(fen)
    up = [b for r, b in zip(rounded, fen, strict=True) if r > b]
    down = [b for r, b in zip(rounded, fen, strict=True) if r < b]
    if up and down:
        assert min(b % 100 for b in up) >= max(b % 100 for b in down)


@settings(max_examples=examples(300), deadline=None)
@given(balances(), st.randoms(use_true_random=False))
def test_the_same_balances_round_the_same_and_a_person_keeps_their_rounding_wherever_listed(fen, rng):
    """Deterministic; and on unequal 零头 the order of the list changes nothing."""
    assert round_to_yuan(fen) == round_to_yuan(list(fen))
    order = list(range(len(fen)))
    rng.shuffle(order)
    shuffled = round_to_yuan([fen[i] for i in order])
    if len({b % 100 for b in fen}) == len(fen):
        assert shuffled == [round_to_yuan(fen)[i] for i in order]


def test_on_equal_change_whoever_owes_is_let_off_then_the_earlier_person():
    assert round_to_yuan([4750, -4750]) == [4700, -4700]  # 阿明 → 老王 47.50 元 becomes 47 元
    assert round_to_yuan([-4750, 4750]) == [-4700, 4700]
    assert round_to_yuan([150, 150, -300]) == [200, 100, -300]  # both owed: the earlier
    assert round_to_yuan([-150, -150, 300]) == [-100, -200, 300]  # both owe: the earlier
    assert round_to_yuan([1230, -1270, 40]) == [1200, -1300, 100]  # 零头 30, 30, 40: largest first


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.integers(-4000, 4000).map(lambda h: Fraction(h, 2)), min_size=2, max_size=8).map(
        lambda p: [*p, -sum(p)]
    ),
    st.integers(1, 999),
    st.integers(0, 99_999),
    st.sampled_from(["equal", "winners"]),
)
def test_a_rounded_plan_pays_whole_yuan_that_clear_the_rounded_balances_even_with_half_points(points, rate, fee, mode):
    plan = settlement_plan(points, rate_fen=rate, fee_fen=fee, fee_mode=mode, fee_payee=0, round_yuan=True)
    exact = settlement_plan(points, rate_fen=rate, fee_fen=fee, fee_mode=mode, fee_payee=0)
    assert all(t.amount_fen % 100 == 0 for t in plan.transfers)
    net = [0] * len(points)
    for t in plan.transfers:
        net[t.payer] -= t.amount_fen
        net[t.payee] += t.amount_fen
    assert net == plan.balances_fen
    assert plan.rounded_away == [r - b for r, b in zip(plan.balances_fen, exact.balances_fen, strict=True)]
    assert sum(plan.rounded_away) == 0
    assert exact.rounded_away is None
