"""Money is whole 分: the table fee split always sums exactly, by the stated rounding rule."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.money import fee_shares, final_balances, split_fee
from tests.speed import examples


@settings(max_examples=examples(300), deadline=None)
@given(
    st.integers(0, 10_000_00), st.lists(st.integers(0, 10_000), min_size=2, max_size=12).filter(lambda w: sum(w) > 0)
)
def test_fee_shares_sum_exactly_and_stay_within_one_fen_of_the_exact_share(fee, weights):
    shares = split_fee(fee, weights)
    assert sum(shares) == fee
    total = sum(weights)
    for share, weight in zip(shares, weights, strict=True):
        exact = fee * weight / total
        assert exact - 1 < share < exact + 1


def test_an_awkward_fee_goes_to_the_earlier_seats_first():
    assert split_fee(10, [1, 1, 1, 1]) == [3, 3, 2, 2]
    assert split_fee(1, [1, 1, 1, 1]) == [1, 0, 0, 0]
    # largest remainders first: 7 × (1, 2, 4) / 7 = 1, 2, 4 exactly; 5 × (1, 1, 1) / 3 → 2, 2, 1
    assert split_fee(7, [1, 2, 4]) == [1, 2, 4]
    assert split_fee(5, [1, 1, 1]) == [2, 2, 1]


def test_winners_carry_the_fee_in_proportion_and_everyone_when_nobody_won():
    assert fee_shares(900, [3000, 1500, -2000, -2500], "winners") == [600, 300, 0, 0]
    assert fee_shares(900, [0, 0, 0, 0], "winners") == [225, 225, 225, 225]


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.integers(-500, 500), min_size=3, max_size=3),
    st.sampled_from([1, 3, 7, 10, 33, 50, 99, 100, 137]),
    st.integers(0, 50_000),
    st.sampled_from(["equal", "winners"]),
    st.integers(0, 3),
)
def test_final_balances_always_sum_to_zero(points3, rate, fee, mode, payee):
    points = [*points3, -sum(points3)]
    balances = final_balances(points, rate, fee, mode, payee)
    assert sum(balances) == 0
    assert all(isinstance(b, int) for b in balances)


def test_bad_fee_input_raises():
    with pytest.raises(ValueError, match="fee"):
        split_fee(-1, [1, 1])
    with pytest.raises(ValueError, match="fee mode"):
        fee_shares(10, [1, -1], "loser")
