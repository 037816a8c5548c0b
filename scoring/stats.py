"""Per-player statistics across games, keyed by the name players use at the table.

Each game keeps a tally per seat (wins, 自摸, 放铳, its biggest hand) in its stored replay
(``Game.state``, scoring/cache.py), added to hand by hand as hands are recorded and recounted
from the replay on every edit or void, so the stats page adds up a few numbers per game and
never reads a hand.
"""

from dataclasses import dataclass

from scoring.engine.points import from_json, to_json


@dataclass
class PlayerStats:
    name: str
    games: int = 0
    hands: int = 0  # hands played that counted
    wins: int = 0
    zimo_wins: int = 0  # self-drawn wins (any win not on a discard)
    discards: int = 0  # 放铳: wins made on this player's discard
    biggest_hand: int = 0  # the largest single-hand gain
    best_game: int | None = None
    worst_game: int | None = None
    net: int = 0


def new_tally(seats: int) -> list[dict]:
    return [{"wins": 0, "zimo": 0, "discards": 0, "biggest": 0} for _ in range(seats)]


def add_hand(tally: list[dict], entry: dict, net: list) -> None:
    """Count one more hand (its entry and each seat's change) into ``tally``."""
    for seat, n in zip(tally, net, strict=True):
        if n > from_json(seat["biggest"]):
            seat["biggest"] = to_json(n)
    if entry["outcome"] == "win":
        tally[entry["winner"]]["wins"] += 1
        if "discarder" in entry:
            tally[entry["discarder"]]["discards"] += 1
        else:
            tally[entry["winner"]]["zimo"] += 1


def tally_of(rows, seats: int) -> list[dict]:
    """The tally of a replay's rows (voided hands count for nothing)."""
    tally = new_tally(seats)
    for row in rows:
        if row.result is not None:
            add_hand(tally, row.hand.entry, row.result.net)
    return tally


def player_stats(games) -> list[PlayerStats]:
    """Stats for every name, biggest net winner first, from each game's ``(players, totals,
    counted hands, tally)``."""
    by_name: dict[str, PlayerStats] = {}
    for names, totals, hands, tally in games:
        for seat, name in enumerate(names):
            stats = by_name.setdefault(name, PlayerStats(name))
            total, counts = totals[seat], tally[seat]
            stats.games += 1
            stats.hands += hands
            stats.net += total
            stats.best_game = total if stats.best_game is None else max(stats.best_game, total)
            stats.worst_game = total if stats.worst_game is None else min(stats.worst_game, total)
            stats.wins += counts["wins"]
            stats.zimo_wins += counts["zimo"]
            stats.discards += counts["discards"]
            stats.biggest_hand = max(stats.biggest_hand, from_json(counts["biggest"]))
    return sorted(by_name.values(), key=lambda s: (-s.net, s.name))
