"""min_transfers against brute force: exact clearing, and the true minimum number of transfers;
with many people, the exact search only within its bound and a tree that clears everyone beyond."""

import random
import time
from collections import deque

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scoring.engine import min_transfers
from scoring.engine.transfers import EXACT_LIMIT, _zero_sum_groups, proven_fewest, settle_balances
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


# -- many people: the exact search only within its bound, a tree beyond it -----------------------


def reference_transfers(balances: dict[str, int]) -> list[tuple[str, str, int]]:
    """The search as it was before the bound: the subset DP over every non-zero balance, each
    group settled largest debtor to largest creditor. Exponential: only for small inputs."""
    names = sorted(name for name, amount in balances.items() if amount)
    amounts = [balances[name] for name in names]
    n, size = len(amounts), 1 << len(amounts)
    sums = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + amounts[low.bit_length() - 1]
    dp, last = [0] * size, [0] * size
    for mask in range(1, size):
        best, best_i = -1, 0
        for i in range(n):
            if mask >> i & 1 and dp[mask ^ (1 << i)] > best:
                best, best_i = dp[mask ^ (1 << i)], i
        dp[mask], last[mask] = best + (sums[mask] == 0), best_i
    groups, current, mask = [], [], size - 1
    while mask:
        if sums[mask] == 0 and current:
            groups.append(current)
            current = []
        current.append(last[mask])
        mask ^= 1 << last[mask]
    if current:
        groups.append(current)
    transfers = []
    for group in groups:
        left = {names[i]: amounts[i] for i in group}
        while left:
            payer = min(left, key=lambda name: (left[name], name))
            payee = min(left, key=lambda name: (-left[name], name))
            amount = min(-left[payer], left[payee])
            transfers.append((payer, payee, amount))
            for name, change in ((payer, amount), (payee, -amount)):
                left[name] += change
                if left[name] == 0:
                    del left[name]
    return sorted(transfers)


@st.composite
def crowd(draw, min_people: int = 1, max_people: int = 40, max_points: int = 50, opposites: bool = True):
    """Balances of up to ``max_people`` people summing to 0, some of them (when ``opposites``)
    exact opposites of others, so both the pairing and what is left after it are tried."""
    n = draw(st.integers(min_people, max_people))
    values = draw(st.lists(st.integers(-max_points, max_points), min_size=n - 1, max_size=n - 1))
    if opposites and values:
        flips = draw(st.lists(st.integers(0, len(values) - 1), max_size=len(values)))
        for i in flips[: len(values) // 2]:
            values[(i + 1) % len(values)] = -values[i]
    values.append(-sum(values))
    return {f"p{i:02d}": v for i, v in enumerate(values)}


def unpaired_after_pairing(balances: dict[str, int]) -> int:
    """How many non-zero balances are left once exact opposites are paired off."""
    counts: dict[int, int] = {}
    for v in balances.values():
        if v:
            counts[v] = counts.get(v, 0) + 1
    paired = sum(min(c, counts.get(-v, 0)) for v, c in counts.items() if v > 0)
    return sum(counts.values()) - 2 * paired


@settings(max_examples=examples(300), deadline=None)
@given(crowd())
def test_any_balances_are_cleared_by_positive_sorted_transfers_however_many_people(balances):
    settling = settle_balances(balances)
    transfers = settling.transfers
    assert all(v == 0 for v in apply(balances, transfers).values())
    assert all(amount > 0 and isinstance(amount, int) for _, _, amount in transfers)
    assert all(payer != payee for payer, payee, _ in transfers)
    assert transfers == sorted(transfers)
    assert transfers == min_transfers(balances)
    assert settling.fewest == proven_fewest(balances.values())


@settings(max_examples=examples(200), deadline=None)
@given(crowd(max_people=EXACT_LIMIT, max_points=30))
def test_within_the_bound_the_answer_is_the_old_searchs_own(balances):
    settling = settle_balances(balances)
    assert settling.fewest
    assert settling.transfers == reference_transfers(balances)


@settings(max_examples=examples(80), deadline=None)
@given(crowd(min_people=EXACT_LIMIT + 1, max_people=15, max_points=20))
def test_past_the_bound_pairing_opposites_keeps_the_fewest_when_few_are_left(balances):
    """13-15 people: when pairing leaves at most 12, the count is the old search's (run here on
    all of them, at up to 2^15 · 15 steps)."""
    settling = settle_balances(balances)
    if unpaired_after_pairing(balances) <= EXACT_LIMIT:
        assert settling.fewest
        assert len(settling.transfers) == len(reference_transfers(balances))
    else:
        assert not settling.fewest


@settings(max_examples=examples(200), deadline=None)
@given(crowd(min_people=EXACT_LIMIT + 1, max_people=60, max_points=10**6, opposites=False))
def test_past_the_bound_the_tree_takes_at_most_one_fewer_than_those_left(balances):
    settling = settle_balances(balances)
    k = unpaired_after_pairing(balances)
    pairs = (sum(1 for v in balances.values() if v) - k) // 2
    assert len(settling.transfers) <= pairs + max(k - 1, 0)
    assert settling.fewest == (k <= EXACT_LIMIT)


def test_two_exact_opposites_among_many_are_paid_straight():
    balances = {f"p{i:02d}": v for i, v in enumerate([7, -7, 5, -5, 3, -3, *range(1, 12), -66])}
    settling = settle_balances(balances)
    assert settling.fewest  # 17 people, 11 + 1 left after three pairs
    assert ("p01", "p00", 7) in settling.transfers
    assert ("p03", "p02", 5) in settling.transfers
    assert ("p05", "p04", 3) in settling.transfers
    assert len(settling.transfers) == 3 + 11


def test_forty_people_settle_in_a_few_milliseconds():
    rng = random.Random(40)
    values = [rng.choice([-1, 1]) * rng.randint(1, 10**6) for _ in range(39)]
    balances = {f"p{i:02d}": v for i, v in enumerate([*values, -sum(values)])}
    started = time.process_time()
    settling = settle_balances(balances)
    spent = time.process_time() - started
    assert spent < 0.05, f"{spent * 1000:.0f} ms"
    assert not settling.fewest
    assert all(v == 0 for v in apply(balances, settling.transfers).values())
    assert len(settling.transfers) <= 39


def test_the_exact_search_at_its_bound_is_a_few_tens_of_milliseconds_at_worst():
    """12 distinct non-zero balances, none opposite: the DP's whole 2^12 · 12."""
    values = [3**i for i in range(11)]
    balances = {f"p{i:02d}": v for i, v in enumerate([*values, -sum(values)])}
    started = time.process_time()
    settling = settle_balances(balances)
    spent = time.process_time() - started
    assert settling.fewest
    assert len(settling.transfers) == 11
    assert spent < 0.2, f"{spent * 1000:.0f} ms"


def test_the_exact_search_refuses_more_than_its_bound():
    with pytest.raises(ValueError, match="at most 12"):
        _zero_sum_groups([*range(1, 13), -78])
