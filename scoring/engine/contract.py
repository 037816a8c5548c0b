"""The JSON contract (docs/contract.md): a game object in, the result object out."""

from .errors import ScoringError, check_object
from .game import replay
from .points import to_json
from .ruleset import DEFAULT_RULESET, Ruleset, get_ruleset

GAME_FIELDS = frozenset(("ruleset", "rules", "first_dealer", "players", "hands"))
MAX_HANDS = 2_000  # a long evening is under 100 hands
MAX_NAME = 40  # the contract's bound on a player's name (Input hygiene); the new-game form keeps to 20


def _check_game(game) -> Ruleset:
    check_object(game, GAME_FIELDS, "牌局应为 JSON 对象", "The game must be a JSON object", "game")
    ruleset = get_ruleset(game.get("ruleset", DEFAULT_RULESET))
    seats = ruleset.seats
    first = game.get("first_dealer", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < seats:
        raise ScoringError(
            f"first_dealer 应为座位号 0-{seats - 1}", f"first_dealer must be a seat 0-{seats - 1}", "first_dealer"
        )
    players = game.get("players")
    if players is not None and (
        not isinstance(players, list)
        or len(players) != seats
        or any(not isinstance(p, str) or not 0 < len(p) <= MAX_NAME for p in players)
    ):
        raise ScoringError(
            f"players 应为 {seats} 个名字（每个 1-{MAX_NAME} 字）",
            f"players must be {seats} names of 1-{MAX_NAME} characters",
            "players",
        )
    hands = game.get("hands")
    if not isinstance(hands, list):
        raise ScoringError("hands 应为一局一局的列表", "hands must be a list of hands", "hands")
    if len(hands) > MAX_HANDS:
        raise ScoringError(f"一场最多 {MAX_HANDS} 局", f"At most {MAX_HANDS} hands in a game", "hands")
    return ruleset


def score_game(game) -> dict:
    """The contract's output for ``game``; raises ``ScoringError`` on invalid input."""
    ruleset = _check_game(game)
    rules = ruleset.parse_rules(game.get("rules", {}))
    results, state = replay(ruleset, rules, game["hands"], first_dealer=game.get("first_dealer", 0))
    return {"hands": [r.to_dict() for r in results], "totals": [to_json(t) for t in state.totals]}


def score_game_or_error(game) -> tuple[bool, dict]:
    """(True, result) or (False, the contract's error object): never raises for bad input."""
    try:
        return True, score_game(game)
    except ScoringError as error:
        return False, error.to_dict()
