"""The JSON contract (docs/contract.md): a game object in, the result object out."""

from .errors import ScoringError, validate_object
from .game import replay, score
from .hygiene import MAX_NAME, validate_names
from .points import to_json
from .ruleset import DEFAULT_RULESET, Ruleset, get_ruleset
from .seating import OUTCOME, is_seating, seat

# ``backup`` is the app's own record of a game (docs/contract.md "A backup"): scoring ignores it.
GAME_FIELDS = frozenset(("ruleset", "rules", "first_dealer", "players", "corrections", "hands", "backup"))
CORRECTION_FIELDS = frozenset(("hand", "dealer", "streak"))
MAX_STREAK = 999  # what the entry form's 更正连庄数 takes
MAX_HANDS = 2_000  # a long evening is under 100 hands
# Everyone who sits in one game unless the caller says otherwise (the app passes DJANGO_MAX_PEOPLE_PER_GAME).
MAX_PEOPLE = 16


def _validate_game(game) -> Ruleset:
    validate_object(game, GAME_FIELDS, "牌局应为 JSON 对象", "The game must be a JSON object", "game")
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
    if players is not None:
        validate_names(players)
    hands = game.get("hands")
    if not isinstance(hands, list):
        raise ScoringError("hands 应为一局一局的列表", "hands must be a list of hands", "hands")
    if len(hands) > MAX_HANDS:
        raise ScoringError(f"一场最多 {MAX_HANDS} 局", f"At most {MAX_HANDS} hands in a game", "hands")
    if players is None and any(is_seating(hand) for hand in hands if isinstance(hand, dict)):
        raise ScoringError(
            "有换人/换位（seating）的牌局需要在开头写明玩家名字（players），即第一次的座位",
            "A game with a seating must name its players at the top level: the first seating",
            "players",
        )
    return ruleset


def _whole(value, low: int, high: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


def corrections(game, seats: int) -> dict[int, tuple[int, int]]:
    """The table's 更正庄家 (``corrections``) as a replay's ``fixes``."""
    raw, hands = game.get("corrections", []), len(game["hands"])
    if not isinstance(raw, list):
        raise ScoringError("corrections 应为列表", "corrections must be a list", "corrections")
    fixes: dict[int, tuple[int, int]] = {}
    for item in raw:
        validate_object(item, CORRECTION_FIELDS, "更正应为 JSON 对象", "A correction must be an object", "corrections")
        hand, dealer, streak = item.get("hand"), item.get("dealer"), item.get("streak")
        if not (
            _whole(hand, max(fixes, default=-1) + 1, hands - 1)
            and _whole(dealer, 0, seats - 1)
            and _whole(streak, 0, MAX_STREAK)
        ):
            raise ScoringError(
                f"corrections 的每项应为 hand（0-{hands - 1}，依次递增）、dealer（座位 0-{seats - 1}）"
                f"和 streak（0-{MAX_STREAK}）",
                f"Each correction needs hand (0-{hands - 1}, increasing), dealer (a seat 0-{seats - 1}) "
                f"and streak (0-{MAX_STREAK})",
                "corrections",
            )
        fixes[hand] = (dealer, streak)
    return fixes


def score_game(game, max_people: int = MAX_PEOPLE) -> dict:
    """The contract's output for ``game`` (``people`` when it names its players); ``ScoringError`` on bad input."""
    ruleset = _validate_game(game)
    rules = ruleset.parse_rules(game.get("rules", {}))
    fixes = corrections(game, ruleset.seats)
    players = game.get("players")
    first = game.get("first_dealer", 0)
    results, state = replay(
        ruleset, rules, game["hands"], first_dealer=first, fixes=fixes, players=players, max_people=max_people
    )
    out = {"hands": [r.to_dict() for r in results], "totals": [to_json(t) for t in state.totals]}
    if players is not None:
        out["people"] = [{"name": name, "total": to_json(total)} for name, total in state.people()]
    return out


def score_game_or_error(game, max_people: int = MAX_PEOPLE) -> tuple[bool, dict]:
    """(True, result) or (False, the contract's error object): never raises for bad input."""
    try:
        return True, score_game(game, max_people)
    except ScoringError as error:
        return False, error.to_dict()


def seat_kept_the_deal(game: dict) -> dict:
    """``game`` with each seating lacking ``dealer`` given the dealing seat, so a file written when the
    deal stayed at its seat scores as it did; a game that does not score comes back unchanged."""
    try:
        ruleset = _validate_game(game)
        rules = ruleset.parse_rules(game.get("rules", {}))
        fixes = corrections(game, ruleset.seats)
        if game.get("players") is None:
            return game
        state = seat(ruleset.new_state(game.get("first_dealer", 0)), game["players"])
        hands = []
        for index, raw in enumerate(game["hands"]):
            if index in fixes:
                state.correct(*fixes[index])
            if isinstance(raw, dict) and raw.get("outcome") == OUTCOME and "dealer" not in raw:
                raw = {**raw, "dealer": state.dealer}
            score(ruleset, rules, state, ruleset.parse_hand(raw))
            hands.append(raw)
    except ScoringError:
        return game
    return {**game, "hands": hands}
