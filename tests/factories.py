"""Random valid 义乌 games, and long games stored the way the app stores them: for the
query-count, paging and browser tests, and for the benchmarks (bench/ imports them from here).
And the state a test starts from, built through the write path (``scoring.services``) instead of
posting forms: ``new_game``, ``add_hand``/``add_hands``, ``add_seating``, ``check``, ``edit``, ``void``."""

import random

from scoring.engine import score
from scoring.engine.analyse import CODES, INDEX
from scoring.engine.analyse.analyser import trait
from scoring.engine.analyse.tiles import next_kind
from scoring.rulesets.yiwu.engine import WIN_TYPES, YIWU, Rules, TableState, parse_hand

PLAIN = [t.code for t in WIN_TYPES.values() if not t.piao_level]


def random_hand(rng: random.Random, rules: Rules, state: TableState) -> dict:
    roll = rng.random()
    if roll < 0.08:
        return {"outcome": "draw"}
    hand: dict = {"outcome": "win", "winner": rng.randrange(4)}
    if roll < 0.12:  # someone floats and wins with it
        level = rng.choice([1, 2])
        hand["piao"] = {"player": hand["winner"], "level": level}
        hand["win_type"] = "danpiao" if level == 1 else "shuangpiao"
        others = [s for s in range(4) if s != hand["winner"]]
        hand["feeders"] = rng.sample(others, rng.randrange(3))
    else:
        hand["win_type"] = rng.choice(PLAIN)
        if WIN_TYPES[hand["win_type"]].discard:
            hand["discarder"] = rng.choice([s for s in range(4) if s != hand["winner"]])
    if state.may_buy_maizi(rules) and rng.random() < 0.2:
        hand["maizi"] = [max(held, int(rng.random() < 0.3)) for held in state.maizi]
    if state.join_amount(rules):
        free = [s for s in range(4) if s != state.dealer and not state.xiazi[s]]
        if free and rng.random() < 0.5:
            hand["xiazi_join"] = rng.sample(free, rng.randrange(1, len(free) + 1))
    return hand


def random_game(n_hands: int, seed: int = 7, rules: Rules | None = None) -> dict:
    """A valid game of ``n_hands`` hands under the default rules (or ``rules``)."""
    rng = random.Random(seed)
    rules = rules or Rules()
    state = TableState()
    hands = []
    for _ in range(n_hands):
        hand = random_hand(rng, rules, state)
        score(YIWU, rules, state, parse_hand(hand))
        hands.append(hand)
    return {"hands": hands}


def seeded_game(n_hands: int, seed: int = 7):
    """A stored game of ``n_hands`` valid hands with its replay cache filled in (needs Django;
    ``random_game`` above does not, so the engine benchmark can use it)."""
    from scoring.models import Game, Hand
    from scoring.replay import build, store

    game = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules().to_dict())
    hands = random_game(n_hands, seed=seed)["hands"]
    Hand.objects.bulk_create(Hand(game=game, seq=i, entry=entry) for i, entry in enumerate(hands, start=1))
    store(game, build(game))
    game.bump_version()
    return game


def random_complete(rng: random.Random, ruleset: str, max_wilds: int) -> tuple[str | None, list[str]]:
    """(flip, tiles) of a complete 14-tile hand for 算牌: 4 random sets (pung or chow) and a
    pair, then 0..max_wilds tiles swapped for wilds (the 算牌 properties and bench/analyse.py).
    The flip is None where the ruleset's wilds are fixed (杭州's 白, which the sets may hold too)."""
    fixed = trait(ruleset, "WILDS")
    flip = None if fixed else rng.choice(CODES)
    counts = [0] * 34
    kinds: list[int] = []

    def take(group: list[int]) -> None:
        if all(counts[k] + group.count(k) <= 4 for k in group):
            for k in group:
                counts[k] += 1
            kinds.extend(group)

    while len(kinds) < 12:
        if rng.random() < 0.5:
            take([rng.randrange(34)] * 3)
        else:
            k = rng.randrange(3) * 9 + rng.randrange(7)
            take([k, k + 1, k + 2])
    while len(kinds) < 14:
        take([rng.randrange(34)] * 2)
    tiles = [CODES[k] for k in kinds]
    if fixed:
        wild_codes = list(fixed)
    else:
        wild_codes = [flip] if ruleset != "zhuji" else [flip, CODES[next_kind(INDEX[flip])]]
    for _ in range(rng.randint(0, max_wilds)):
        i = rng.randrange(14)
        code = rng.choice(wild_codes)
        if tiles[i] not in wild_codes and tiles.count(code) < 4:
            tiles[i] = code
    rng.shuffle(tiles)
    return flip, tiles


NAMES = ["老王", "小李", "阿华", "大刘"]


def new_game(players: list[str] | None = None, *, ruleset: str = "yiwu", first_dealer: int = 0, rules=None, **options):
    """A new game as the new-game form makes it (``services.create_game``): ``rules`` a dict, else the ruleset's
    defaults with ``options`` (e.g. ``maizi_points=2``); ``group``, ``round_length``, ``checks_required`` pass through."""
    from scoring import services
    from scoring.engine import get_ruleset

    plugin = get_ruleset(ruleset)
    kept = {k: options.pop(k) for k in ("group", "round_length", "checks_required") if k in options}
    rules = rules if rules is not None else plugin.rules_class(**options).to_dict()
    players = list(players or NAMES)
    return services.create_game(ruleset=plugin, players=players, first_dealer=first_dealer, rules=rules, **kept)


def add_hand(game, entry: dict, *, fix: tuple[int, int] | None = None, by: str = ""):
    """Hand ``entry`` (a contract HAND object) recorded next, as a confirmed entry form records it; the stored Hand."""
    import secrets

    from scoring import services

    game.refresh_from_db()
    next_seq = (game.hands.order_by("-seq").values_list("seq", flat=True).first() or 0) + 1
    token = secrets.token_urlsafe(16)
    hand = services.record_hand(game=game, entry=entry, fix=fix, next_seq=next_seq, form_token=token, entered_by=by)
    game.refresh_from_db()
    return hand


def add_hands(game, entries: list[dict]):
    """Each of ``entries`` recorded in turn; ``game``, refreshed."""
    for entry in entries:
        add_hand(game, entry)
    return game


def add_seating(game, players: list[str], *, by: str = "", **extra):
    """换人/换位: ``players`` at the seats from the next hand on (``extra``: ``dealer``…), recorded as the seating page does."""
    return add_hand(game, {"outcome": "seating", "players": list(players), **extra}, by=by)


def _hand(game, seq: int):
    return game.hands.get(seq=seq)


def check(game, seq: int, person: str, verdict: str = "ok", note: str = ""):
    """核对 of hand ``seq`` by ``person`` at its present revision (``services.check_hand``)."""
    from scoring import services

    hand = _hand(game, seq)
    made = services.check_hand(game=game, seq=seq, revision=hand.revision, person=person, verdict=verdict, note=note)
    game.refresh_from_db()
    return made


def edit(game, seq: int, entry: dict, *, fix: tuple[int, int] | None = None, by: str = ""):
    """Hand ``seq`` changed to ``entry`` (``services.edit_hand``)."""
    from scoring import services

    hand = services.edit_hand(
        game=game, seq=seq, revision=_hand(game, seq).revision, entry=entry, fix=fix, edited_by=by
    )
    game.refresh_from_db()
    return hand


def void(game, seq: int, reason: str = "记错了", *, by: str = "", keep_bets: bool = True):
    """Hand ``seq`` voided (``services.void_hand``)."""
    from scoring import services

    hand = services.void_hand(
        game=game, seq=seq, revision=_hand(game, seq).revision, reason=reason, voided_by=by, keep_bets=keep_bets
    )
    game.refresh_from_db()
    return hand


def finish(
    game, rate_fen: int = 100, *, fee_fen: int = 0, fee_mode: str = "equal", fee_payee: int = 0, round_yuan=False
):
    """结束并结算 at ``rate_fen`` 分 a point (``services.finish_game``), as FINISH posts it by default."""
    from scoring import services

    settlement = services.finish_game(
        game=game, rate_fen=rate_fen, fee_fen=fee_fen, fee_mode=fee_mode, fee_payee=fee_payee, round_yuan=round_yuan
    )
    game.refresh_from_db()
    return settlement
