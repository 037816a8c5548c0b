"""Per-player statistics across games, keyed by the name players use at the table."""

from dataclasses import dataclass, field

from scoring.readmodel import GameView


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
    game_totals: list[int] = field(default_factory=list)


def player_stats(ledgers: list[GameView]) -> list[PlayerStats]:
    """Stats for every name in ``ledgers``, biggest net winner first."""
    by_name: dict[str, PlayerStats] = {}
    for ledger in ledgers:
        names = ledger.game.players
        for seat, name in enumerate(names):
            stats = by_name.setdefault(name, PlayerStats(name))
            stats.games += 1
            total = ledger.totals[seat]
            stats.net += total
            stats.game_totals.append(total)
            stats.best_game = total if stats.best_game is None else max(stats.best_game, total)
            stats.worst_game = total if stats.worst_game is None else min(stats.worst_game, total)
        for row in ledger.rows:
            if row.result is None:
                continue
            entry = row.hand.entry
            for seat, name in enumerate(names):
                stats = by_name[name]
                stats.hands += 1
                stats.biggest_hand = max(stats.biggest_hand, row.result.net[seat])
            if entry["outcome"] == "win":
                winner = by_name[names[entry["winner"]]]
                winner.wins += 1
                if "discarder" in entry:
                    by_name[names[entry["discarder"]]].discards += 1
                else:
                    winner.zimo_wins += 1
    return sorted(by_name.values(), key=lambda s: (-s.net, s.name))
