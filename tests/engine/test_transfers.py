"""min_transfers against brute force: exact clearing, and the true minimum number of transfers."""

import random
from collections import deque

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scoring.engine import min_transfers
from tests.speed import examples

SETTINGS = settings(max_examples=examples(150), deadline=None)
NAMES = ["老王", "小李", "阿华", "大刘", "Eve", "Bob", "C", "d", "e", "f", "g", "h"]


@st.composite
def balanced(draw, max_players: int = 6, max_points: int = 12) -> dict[str, int]:
    """Random balances over 1..max_players players summing to 0 (zeros and repeats included)."""
    n = draw(st.integers(1, max_players))
    values = draw(st.lists(st.integers(-max_points, max_points), min_size=n - 1, max_size=n - 1))
    values.append(-sum(values))
    return dict(zip(NAMES, values, strict=False))


def set_partitions(items: list):
    """Every way to split ``items`` into non-empty blocks (Bell(n) of them)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def brute_force_minimum(balances: dict[str, int]) -> int:
    """Non-zero players minus the most zero-sum blocks over EVERY set partition of them."""
    values = [v for v in balances.values() if v]
    best = max(len(partition) for partition in set_partitions(values) if all(sum(block) == 0 for block in partition))
    return len(values) - best


def bfs_minimum(balances: dict[str, int]) -> int:
    """Fewest transfers by breadth-first search over every transfer of every amount.

    Independent of the partition argument; a transfer moves 1..min(debt, credit) from a
    debtor to a creditor. Only for tiny inputs.
    """
    start = tuple(balances.values())
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        state, depth = queue.popleft()
        if not any(state):
            return depth
        for payer, owed in enumerate(state):
            for payee, due in enumerate(state):
                if owed >= 0 or due <= 0:
                    continue
                for amount in range(1, min(-owed, due) + 1):
                    nxt = list(state)
                    nxt[payer] += amount
                    nxt[payee] -= amount
                    key = tuple(nxt)
                    if key not in seen:
                        seen.add(key)
                        queue.append((key, depth + 1))
    raise AssertionError("unreachable: balanced input always clears")


def apply(balances: dict[str, int], transfers) -> dict[str, int]:
    after = dict(balances)
    for payer, payee, amount in transfers:
        after[payer] += amount
        after[payee] -= amount
    return after


@SETTINGS
@given(balanced())
def test_transfers_clear_every_balance_with_positive_amounts_and_no_self_transfers(balances):
    transfers = min_transfers(balances)
    assert all(v == 0 for v in apply(balances, transfers).values())
    assert all(amount > 0 and isinstance(amount, int) for _, _, amount in transfers)
    assert all(payer != payee for payer, payee, _ in transfers)
    assert transfers == sorted(transfers)


@SETTINGS
@given(balanced())
def test_count_is_the_brute_force_minimum(balances):
    assert len(min_transfers(balances)) == brute_force_minimum(balances)


@settings(max_examples=examples(60), deadline=None)
@given(balanced(max_players=5, max_points=4))
@example({"a": 2, "b": 2, "c": 3, "d": -3, "e": -4})  # greedy makes 4 here
@example({"a": -10, "b": -3, "c": -3, "d": 6, "e": 5, "f": 5})  # greedy makes 5 here
def test_count_matches_a_search_over_transfer_sequences(balances):
    assert len(min_transfers(balances)) == bfs_minimum(balances)


@SETTINGS
@given(balanced(), st.randoms(use_true_random=False))
def test_output_does_not_depend_on_dict_order(balances, rng):
    items = list(balances.items())
    rng.shuffle(items)
    assert min_transfers(dict(items)) == min_transfers(balances)


def test_greedy_trap_needs_four_transfers():
    balances = {"a": -10, "b": -3, "c": -3, "d": 6, "e": 5, "f": 5}
    transfers = min_transfers(balances)
    assert len(transfers) == 4
    assert transfers == [("a", "e", 5), ("a", "f", 5), ("b", "d", 3), ("c", "d", 3)]


@pytest.mark.parametrize("balances", [{}, {"老王": 0}, {"a": 0, "b": 0, "c": 0}])
def test_nothing_to_settle(balances):
    assert min_transfers(balances) == []


def test_twelve_players_finish():
    rng = random.Random(12)
    values = [rng.randint(-500, 500) for _ in range(11)]
    balances = dict(zip(NAMES, [*values, -sum(values)], strict=True))
    transfers = min_transfers(balances)
    assert all(v == 0 for v in apply(balances, transfers).values())
    assert len(transfers) <= 11


def test_thousands_of_players_settle_at_once_in_one_group():
    """Past twelve the subset search would double with each player (an import of 8,000 hung)."""
    rng = random.Random(8000)
    values = [rng.randint(-(10**9), 10**9) or 1 for _ in range(7999)]
    balances = {f"p{i}": v for i, v in enumerate([*values, -sum(values)])}
    transfers = min_transfers(balances)
    assert all(v == 0 for v in apply(balances, transfers).values())
    assert len(transfers) <= 7999
    thirteen = {f"p{i}": v for i, v in enumerate([*values[:12], -sum(values[:12])])}
    assert len(min_transfers(thirteen)) <= 12


@pytest.mark.parametrize("balances", [{"a": 1}, {"a": 5, "b": -4}, {"a": -1, "b": -1}])
def test_unbalanced_input_is_refused(balances):
    with pytest.raises(ValueError, match="sum to 0"):
        min_transfers(balances)
