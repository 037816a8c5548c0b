"""Per-player statistics across games, keyed by the name players use at the table.

Each game's stored replay keeps a tally per person (scoring/replay.py), so the stats page adds up a
few numbers per game and never reads a hand.
"""

from dataclasses import dataclass

from scoring.engine.points import from_json, to_json
from scoring.engine.seating import is_seating, key


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


def new_tally(people: int) -> list[dict]:
    return [{"hands": 0, "wins": 0, "zimo": 0, "discards": 0, "biggest": 0} for _ in range(people)]


def who_sits(people: list[str], seating: list[str]) -> list[int]:
    """Each seat's person, as an index into ``people`` (names in order of first appearance)."""
    index = {key(name): i for i, name in enumerate(people)}
    return [index[key(name)] for name in seating]


def add_hand(tally: list[dict], entry: dict, net: list, who: list[int] | None = None) -> None:
    """Count one more hand into ``tally``, each seat's for the person ``who`` names (seat order by default)."""
    who = list(range(len(net))) if who is None else who
    for seat, n in enumerate(net):
        person = tally[who[seat]]
        person["hands"] += 1
        if n > from_json(person["biggest"]):
            person["biggest"] = to_json(n)
    if entry["outcome"] == "win":
        tally[who[entry["winner"]]]["wins"] += 1
        if "discarder" in entry:
            tally[who[entry["discarder"]]]["discards"] += 1
        else:
            tally[who[entry["winner"]]]["zimo"] += 1


def tally_of(rows, players: list[str]) -> list[dict]:
    """The tally of a replay's rows by person; ``players`` is the first seating."""
    index = {key(name): i for i, name in enumerate(players)}  # each person's place, kept as people come
    tally = new_tally(len(index))
    who = [index[key(name)] for name in players]
    for row in rows:
        if row.result is None:
            continue
        if is_seating(row.hand.entry):
            for name in row.hand.entry["players"]:
                if key(name) not in index:
                    index[key(name)] = len(tally)
                    tally.extend(new_tally(1))
            who = [index[key(name)] for name in row.hand.entry["players"]]
            continue
        add_hand(tally, row.hand.entry, row.result.net, who)
    return tally


def player_stats(games) -> list[PlayerStats]:
    """Stats for every name, biggest net winner first, from each game's ``(people, totals, tally)``."""
    by_name: dict[str, PlayerStats] = {}
    for names, totals, tally in games:
        for person, name in enumerate(names):
            total, counts = totals[person], tally[person]
            if not counts["hands"]:  # seated but never played a hand that stands: not their game
                continue
            stats = by_name.setdefault(name, PlayerStats(name))
            stats.games += 1
            stats.hands += counts["hands"]
            stats.net += total
            stats.best_game = total if stats.best_game is None else max(stats.best_game, total)
            stats.worst_game = total if stats.worst_game is None else min(stats.worst_game, total)
            stats.wins += counts["wins"]
            stats.zimo_wins += counts["zimo"]
            stats.discards += counts["discards"]
            stats.biggest_hand = max(stats.biggest_hand, from_json(counts["biggest"]))
    return sorted(by_name.values(), key=lambda s: (-s.net, s.name))
