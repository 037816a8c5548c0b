"""Settling up at the end of a session: the fewest transfers where that is cheap to prove, and
otherwise at most one transfer fewer than the balances left, said to be maybe not the fewest.

Why the fewest is a split: any set of transfers links the players into connected groups, each of
which must sum to zero and needs at least (size - 1) transfers to connect. So the minimum is
(non-zero players) - (the most disjoint zero-sum groups they split into), and settling each group
of the best split as a tree reaches it. Greedy "largest debtor pays largest creditor" misses
splits (10, 3, 3 owing 6, 5, 5 needs 4 transfers; greedy makes 5).

Finding the best split is a DP over subsets, O(2^n · n): at ``EXACT_LIMIT`` = 12 balances it costs
about 7 ms of CPU (bench/transfers.py; 20 ms on the server a security review measured), at 16 over
100 ms, at 20 over a second and at 24 half a minute and a gigabyte. So it never runs on more than
12, and a settle preview stays within a few tens of ms. Up to 12 non-zero balances it runs on all
of them, so a table's settlement is the full search's own answer.

Beyond 12, exact opposites (a and -a) are paired off first, which never loses the fewest. Take a
best split. If a and -a sit in one group with more members, that group less the two is zero-sum
too, so splitting them off makes one more group. If they sit in different groups G1 ∋ a and
G2 ∋ -a, then (G1 - a) ∪ (G2 - (-a)) (zero-sum, and not empty: no group is a lone non-zero
balance) and {a, -a} are again two zero-sum groups in their place. Each pair becomes its own group
of two, so pairing the next never breaks an earlier one. If at most 12 are left after that, the DP
on them keeps the answer the fewest. Otherwise the rest is settled as one tree (largest debtor
pays largest creditor: each transfer clears at least one of the two and the last clears both, so
k balances take at most k - 1 transfers, in O(k log k)), and the answer says it may not be the
fewest (``Settling.fewest`` is False).
"""

import heapq
from typing import NamedTuple

Transfer = tuple[str, str, int]

EXACT_LIMIT = 12  # non-zero balances the subset DP may take (2^12 · 12 steps: ~7-20 ms)
# What a page, the share text or the API says beside transfers that are not proven the fewest.
NOT_FEWEST = ("人数较多，转账笔数未必最少。", "Many people: these may not be the fewest transfers.")


class Settling(NamedTuple):
    """The transfers that clear a set of balances, and whether they are proven the fewest."""

    transfers: list[Transfer]
    fewest: bool


def settle_balances(balances: dict[str, int]) -> Settling:
    """(payer, payee, amount) transfers clearing ``balances``: the fewest possible when
    ``fewest``, else at most (balances left after pairing opposites) - 1 besides the pairs.

    Positive balances are owed money, negative ones owe it; they must sum to zero. Output is
    sorted by payer then payee, and does not depend on the dict's order, so the same game
    always shows the same settlement.
    """
    total = sum(balances.values())
    if total != 0:
        raise ValueError(f"balances must sum to 0, not {total}")
    names = sorted(name for name, amount in balances.items() if amount != 0)
    transfers: list[Transfer] = []
    if len(names) > EXACT_LIMIT:
        transfers, names = _pair_opposites(balances, names)
    fewest = len(names) <= EXACT_LIMIT
    if fewest:
        amounts = [balances[name] for name in names]
        for group in _zero_sum_groups(amounts):
            transfers.extend(_settle_group({names[i]: amounts[i] for i in group}))
    else:
        transfers.extend(_settle_group({name: balances[name] for name in names}))
    return Settling(sorted(transfers), fewest)


def min_transfers(balances: dict[str, int]) -> list[Transfer]:
    """``settle_balances``' transfers alone (the fewest whenever it says ``fewest``)."""
    return settle_balances(balances).transfers


def proven_fewest(amounts) -> bool:
    """Whether ``settle_balances`` of balances holding ``amounts`` is the proven fewest, without
    settling (it depends on the amounts alone): what a settlement stored earlier says again."""
    names = {str(i): amount for i, amount in enumerate(amounts) if amount}
    left = sorted(names) if len(names) <= EXACT_LIMIT else _pair_opposites(names, sorted(names))[1]
    return len(left) <= EXACT_LIMIT


def _pair_opposites(balances: dict[str, int], names: list[str]) -> tuple[list[Transfer], list[str]]:
    """Each balance -a paid straight to a balance a (names in order within each amount), and the
    names left unpaired, in order."""
    by_amount: dict[int, list[str]] = {}
    for name in names:
        by_amount.setdefault(balances[name], []).append(name)
    transfers: list[Transfer] = []
    paired: set[str] = set()
    for amount, payees in by_amount.items():
        if amount > 0:
            for payer, payee in zip(by_amount.get(-amount, []), payees, strict=False):
                transfers.append((payer, payee, amount))
                paired.update((payer, payee))
    return transfers, [name for name in names if name not in paired]


def _zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    """Indices of ``amounts`` split into the most disjoint zero-sum groups.

    dp[mask] is the most zero-sum prefixes an ordering of ``mask`` can have; an ordering's
    zero-sum prefixes cut it into zero-sum groups, and every split arises this way, so
    dp[full] is the best split. ``last[mask]`` remembers the element taken off to get there.
    """
    n = len(amounts)
    if n > EXACT_LIMIT:
        raise ValueError(f"the exact search takes at most {EXACT_LIMIT} balances, not {n}")
    size = 1 << n
    sums = _subset_sums(amounts)
    dp = [0] * size
    last = [0] * size
    for mask in range(1, size):
        best, best_i = -1, 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            value = dp[mask ^ bit]
            if value > best:
                best, best_i = value, bit.bit_length() - 1
        dp[mask] = best + (sums[mask] == 0)
        last[mask] = best_i
    return _groups_from_path(size - 1, sums, last)


def _subset_sums(amounts: list[int]) -> list[int]:
    """sum of ``amounts`` over every bitmask, each from the mask without its lowest bit."""
    sums = [0] * (1 << len(amounts))
    for mask in range(1, len(sums)):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + amounts[low.bit_length() - 1]
    return sums


def _groups_from_path(mask: int, sums: list[int], last: list[int]) -> list[list[int]]:
    """Walk the DP's choices back from ``mask``, cutting a group at each zero-sum prefix."""
    groups: list[list[int]] = []
    current: list[int] = []
    while mask:
        if sums[mask] == 0 and current:
            groups.append(current)
            current = []
        i = last[mask]
        current.append(i)
        mask ^= 1 << i
    if current:
        groups.append(current)
    return groups


def _settle_group(group: dict[str, int]) -> list[Transfer]:
    """Settle a zero-sum group in at most (size - 1) transfers: largest debtor pays largest
    creditor, each kept in a heap (O(size · log size)).

    Each transfer clears at least one of the two, and the last clears both. Ties go to the
    earlier name so the result is deterministic.
    """
    debtors = [(amount, name) for name, amount in group.items() if amount < 0]
    creditors = [(-amount, name) for name, amount in group.items() if amount > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    transfers: list[Transfer] = []
    while debtors:
        owed, payer = heapq.heappop(debtors)
        due, payee = heapq.heappop(creditors)
        amount = min(-owed, -due)
        transfers.append((payer, payee, amount))
        if owed + amount:
            heapq.heappush(debtors, (owed + amount, payer))
        if due + amount:
            heapq.heappush(creditors, (due + amount, payee))
    return transfers
