"""The request and its checks (docs/analysis.md "Request fields" to "Errors"): a ScoringError with ``hand`` None."""

from functools import cache
from operator import eq, itemgetter
from typing import NamedTuple, NoReturn

from ..errors import ScoringError, unknown_field
from ..ruleset import DEFAULT_RULESET, get_ruleset
from .analyser import analyser, trait
from .tiles import CODES, INDEX, Memo, fixed_wilds

FLAGS = ("self_drawn", "after_kong", "robbing_kong", "last_tile", "dealer")  # each false unless sent
FIELDS = frozenset(("ruleset", "tiles", "flip", "last", "melded", "seat_wind", "first_round", "rules", *FLAGS))
SEAT_WINDS = ("E", "S", "W", "N")
MAX_TILES = 14


class Context(NamedTuple):
    """A checked request; ``self_drawn`` is the effective one (杠开 implies it). A named tuple: cheap to make."""

    ruleset: str
    kinds: tuple[int, ...]
    flip: int | None  # None where the wilds are fixed (the analyser's WILDS): nothing is flipped
    last: int | None
    self_drawn: bool
    after_kong: bool
    robbing_kong: bool
    last_tile: bool
    melded: int
    dealer: bool
    seat_wind: int | None  # kind index of the seat wind, or None
    first_round: str | None
    rules: object  # the table's house rules (the ruleset's ``Rules``): 武义's 番 table


_new = tuple.__new__  # a named tuple made from a tuple, without its Python-level __new__


def table_rules(ruleset: str, raw):
    """The ruleset's ``Rules`` from a request's ``rules`` (None: the defaults), parsed once per ruleset and value."""
    try:
        key = (ruleset, None if raw is None else _frozen(raw))
        rules = _RULES.get(key)
    except TypeError:  # something unhashable: parse it (and fail) every time
        key, rules = None, None
    if rules is None:
        rules = get_ruleset(ruleset).parse_rules({} if raw is None else raw)
        if key is not None:
            if len(_RULES) >= 256:
                _RULES.clear()
            _RULES[key] = rules
    return rules


_RULES = Memo()  # (ruleset, _frozen(rules)) -> the parsed Rules


def _frozen(value):
    """A hashable key telling apart what ``parse_rules`` does (``1`` from ``True`` and ``1.0``); TypeError if none."""
    if isinstance(value, dict):
        return (dict, frozenset((_frozen(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return (list, tuple(_frozen(v) for v in value))
    if value is None or type(value) in (str, int, float, bool):
        return (type(value), value)
    raise TypeError(type(value).__name__)


def _code(value, field: str) -> int:
    if not isinstance(value, str) or value not in INDEX:
        shown = repr(value)[:20]
        raise ScoringError(f"{field}：不是牌的代码：{shown}", f"{field}: not a tile code: {shown}", field)
    return INDEX[value]


def _tiles(value) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise ScoringError("tiles 应为牌代码的列表", "tiles must be a list of tile codes", "tiles")
    if len(value) > MAX_TILES:
        raise ScoringError(
            f"tiles 最多 {MAX_TILES} 张，现有 {len(value)} 张",
            f"tiles holds at most {MAX_TILES} tiles, not {len(value)}",
            "tiles",
        )
    if len(value) not in (13, 14):
        raise ScoringError(
            f"手牌应为 13 或 14 张，现有 {len(value)} 张",
            f"A hand has 13 or 14 tiles, not {len(value)}",
            "tiles",
        )
    try:
        kinds = itemgetter(*value)(INDEX)  # every code's kind, a tuple (13 or 14 of them)
    except (KeyError, TypeError):  # the first tile that is no code names the error
        kinds = tuple(_code(v, "tiles") for v in value)
    ordered = sorted(kinds)
    if any(map(eq, ordered, ordered[4:])):  # five of a kind: a kind equal to the one four on
        for kind in set(kinds):
            if kinds.count(kind) > 4:
                code = CODES[kind]
                raise ScoringError(f"{code} 超过 4 张", f"More than 4 tiles of {code}", "tiles")
    return kinds


def _flag(request: dict, name: str) -> bool:
    value = request.get(name, False)
    if not isinstance(value, bool):
        raise ScoringError(f"{name} 应为 true 或 false", f"{name} must be true or false", name)
    return value


def parse(request) -> Context:
    """The checked Context of a request dict, or ScoringError."""
    if not isinstance(request, dict):
        raise ScoringError("请求应为 JSON 对象", "The request must be a JSON object", None)
    if not FIELDS.issuperset(request):
        raise unknown_field(sorted(k for k in request if k not in FIELDS)[0])
    ruleset = request.get("ruleset", DEFAULT_RULESET)
    analyser(ruleset)  # a ruleset that offers 算牌, or ScoringError
    fields, fixed, drawn_only, validate = _own(ruleset)
    if fields is not None and not fields.issuperset(request):
        _not_taken(ruleset, sorted(k for k in request if k not in fields)[0])
    if fixed and "flip" in request:
        _not_taken(ruleset, "flip")
    if "tiles" not in request:
        raise ScoringError("缺少 tiles", "tiles is missing", "tiles")
    kinds = _tiles(request["tiles"])
    if fixed:
        flip = None
    elif "flip" not in request:
        raise ScoringError("缺少 flip（翻出的财神牌）", "flip (the flipped indicator) is missing", "flip")
    else:
        flip = request["flip"]
        flip = INDEX[flip] if type(flip) is str and flip in INDEX else _code(flip, "flip")
    drawn = request.get("self_drawn", drawn_only)
    after_kong = request.get("after_kong", False)
    robbing_kong = request.get("robbing_kong", False)
    last_tile = request.get("last_tile", False)
    dealer = request.get("dealer", False)
    if not (
        type(drawn) is bool
        and type(after_kong) is bool
        and type(robbing_kong) is bool
        and type(last_tile) is bool
        and type(dealer) is bool
    ):
        for name in FLAGS:  # the first one that is not a boolean names the error
            _flag(request, name)
    if drawn_only and not drawn:
        zh, en = get_ruleset(ruleset).zh, get_ruleset(ruleset).en
        raise ScoringError(
            f"{zh}只能自摸：self_drawn 不能是 false",
            f"{en} wins are self-drawn only: self_drawn cannot be false",
            "self_drawn",
        )
    last = None
    if "last" in request:
        if len(kinds) == 13:
            raise ScoringError("13 张牌不能有 last", "A 13-tile hand takes no last", "last")
        last = _code(request["last"], "last")
        if last not in kinds:
            code = CODES[last]
            raise ScoringError(f"last {code} 不在手牌中", f"last {code} is not in the hand", "last")
    elif len(kinds) == 14:
        last = kinds[-1]
    melded = request.get("melded", 0)
    if not isinstance(melded, int) or isinstance(melded, bool) or not 0 <= melded <= 4:
        raise ScoringError("melded 应为 0-4 的整数", "melded must be an integer 0-4", "melded")
    if robbing_kong and (drawn or after_kong):
        raise ScoringError(
            "抢杠不是自摸，也不是杠开", "robbing_kong is neither self-drawn nor after_kong", "robbing_kong"
        )
    seat = request.get("seat_wind", "E" if dealer else None)
    if seat is not None and seat not in SEAT_WINDS:
        raise ScoringError("seat_wind 应为 E S W N 之一", "seat_wind must be one of E S W N", "seat_wind")
    if dealer and seat != "E":
        raise ScoringError("庄家的门风是东", "The dealer's seat wind is E", "seat_wind")
    if not dealer and seat == "E":
        raise ScoringError("只有庄家的门风是东", "Only the dealer's seat wind is E", "seat_wind")
    self_drawn = drawn or after_kong
    first_round = request.get("first_round")
    if first_round is not None:
        first_round = _first_round(first_round, ruleset, dealer, self_drawn)
    rules = table_rules(ruleset, request.get("rules"))
    seat_wind = None if seat is None else INDEX[seat]
    ctx = _new(  # Context(...), made faster
        Context,
        (
            ruleset,
            kinds,
            flip,
            last,
            self_drawn,
            after_kong,
            robbing_kong,
            last_tile,
            melded,
            dealer,
            seat_wind,
            first_round,
            rules,
        ),
    )
    if validate is not None:
        validate(ctx)
    return ctx


@cache
def _own(ruleset: str) -> tuple:
    """What the analyser says of its requests (fields, fixed wilds, self-drawn only, its validate), per code."""
    fields = trait(ruleset, "FIELDS")
    return (
        None if fields is None else frozenset(fields),
        fixed_wilds(ruleset),
        trait(ruleset, "SELF_DRAWN_ONLY"),
        trait(ruleset, "validate"),
    )


def _not_taken(ruleset: str, name: str) -> NoReturn:
    """A field the ruleset's request does not take (its FIELDS): flip where the wilds are fixed."""
    zh, en = get_ruleset(ruleset).zh, get_ruleset(ruleset).en
    shown = repr(name)[1:-1][:20]
    if name == "flip" and fixed_wilds(ruleset):
        wilds = " ".join(trait(ruleset, "WILDS"))
        raise ScoringError(
            f"{zh}不翻财神：财神固定是 {wilds}，请求里不能有 flip",
            f"{en} flips no tile: its wilds are always {wilds}, so a request has no flip",
            "flip",
        )
    raise ScoringError(f"{zh}的算牌没有 {shown} 这一项", f"{en} tile reading takes no {shown}", name)


def _first_round(value, ruleset: str, dealer: bool, self_drawn: bool) -> str | None:
    """tianhu = dealer + self-drawn, dihu = non-dealer + discard, renhu = non-dealer + self-drawn."""
    if value is None:
        return None
    allowed = analyser(ruleset).FIRST_ROUND
    if value not in allowed:
        shown = repr(value)[:20]
        names = "、".join(allowed) or "无"
        raise ScoringError(
            f"first_round {shown} 不适用于 {ruleset}（可用：{names}）",
            f"first_round {shown} is not allowed under {ruleset} (allowed: {', '.join(allowed) or 'none'})",
            "first_round",
        )
    ok = {"tianhu": dealer and self_drawn, "dihu": not dealer and not self_drawn, "renhu": not dealer and self_drawn}
    if not ok[value]:
        rule = {"tianhu": "庄家自摸", "dihu": "闲家放冲", "renhu": "闲家自摸"}[value]
        rule_en = {"tianhu": "dealer, self-drawn", "dihu": "non-dealer, discard", "renhu": "non-dealer, self-drawn"}
        raise ScoringError(f"{value} 须为{rule}", f"{value} needs: {rule_en[value]}", "first_round")
    return value
