"""Settling up at the end of a session with the fewest possible transfers.

Why this is exact and not greedy: any set of transfers links the players into connected
groups, each of which must sum to zero and needs at least (size - 1) transfers to connect.
So the minimum is (non-zero players) - (the most disjoint zero-sum groups they split into),
and settling each group of the best split as a tree reaches it. Greedy "largest debtor pays
largest creditor" misses splits (10, 3, 3 owing 6, 5, 5 needs 4 transfers; greedy makes 5).

Finding the best split is a DP over subsets, O(2^n · n): fine for a table of up to a dozen
players, not meant for hundreds. Past ``EXACT_UP_TO`` players with a balance (an evening of
many substitutes, or an imported game) everyone is one group: at most n - 1 transfers, the
fewest only when no smaller group sums to zero.
"""

import heapq

Transfer = tuple[str, str, int]
EXACT_UP_TO = 12  # the search's 2^12 subsets take milliseconds; each player more doubles them


def min_transfers(balances: dict[str, int]) -> list[Transfer]:
    """(payer, payee, amount) transfers clearing ``balances`` in the fewest possible moves.

    Positive balances are owed money, negative ones owe it; they must sum to zero. Output is
    sorted by payer then payee, and does not depend on the dict's order, so the same game
    always shows the same settlement.
    """
    total = sum(balances.values())
    if total != 0:
        raise ValueError(f"balances must sum to 0, not {total}")
    names = sorted(name for name, amount in balances.items() if amount != 0)
    amounts = [balances[name] for name in names]
    transfers: list[Transfer] = []
    groups = _zero_sum_groups(amounts) if len(names) <= EXACT_UP_TO else [list(range(len(names)))]
    for group in groups:
        transfers.extend(_settle_group({names[i]: amounts[i] for i in group}))
    return sorted(transfers)


def _zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    """Indices of ``amounts`` split into the most disjoint zero-sum groups.

    dp[mask] is the most zero-sum prefixes an ordering of ``mask`` can have; an ordering's
    zero-sum prefixes cut it into zero-sum groups, and every split arises this way, so
    dp[full] is the best split. ``last[mask]`` remembers the element taken off to get there.
    """
    n = len(amounts)
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
    """Settle one zero-sum group in (size - 1) transfers: largest debtor pays largest creditor.

    Each transfer clears at least one of the two, and the last clears both. Ties go to the
    earlier name so the result is deterministic.
    """
    debtors = [(amount, name) for name, amount in group.items() if amount < 0]
    creditors = [(-amount, name) for name, amount in group.items() if amount > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    transfers: list[Transfer] = []
    while debtors:
        debt, payer = heapq.heappop(debtors)
        credit, payee = heapq.heappop(creditors)
        amount = min(-debt, -credit)
        transfers.append((payer, payee, amount))
        if debt + amount:
            heapq.heappush(debtors, (debt + amount, payer))
        if credit + amount:
            heapq.heappush(creditors, (credit + amount, payee))
    return transfers
