"""JSON doors onto the engine (docs/contract.md): ``POST /api/score``, ``POST /api/settle`` and
``POST /api/analyse`` (docs/analysis.md)."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from scoring.access import TooManyAttempts, throttle
from scoring.engine import ScoringError, score_game_or_error, settle_balances
from scoring.engine.analyse import analyse_or_error
from scoring.engine.errors import BilingualError, validate_object
from scoring.engine.hygiene import loads, validate_names

JSON_DUMPS = {"ensure_ascii": False}


SETTLE_FIELDS = frozenset(("balances", "rate_fen"))
MIN_PLAYERS = 2  # and at most an evening's people (DJANGO_MAX_PEOPLE_PER_GAME)
MAX_RATE_FEN = 1_000_000
MAX_ANALYSE_BYTES = 16 * 1024  # a hand request is a few hundred bytes
MAX_POINTS = 10**12  # |balance| below this: transfers × rate stay far inside 64 bits


def json_error(status: int, zh: str, en: str, field: str | None = None) -> JsonResponse:
    return JsonResponse(ScoringError(zh, en, field).to_dict(), status=status, json_dumps_params=JSON_DUMPS)


def read_json(request: HttpRequest):
    """The request's JSON body, or a 400 (429 past an anonymous client's budget) saying what is wrong."""
    try:
        throttle(request, "anon")
    except TooManyAttempts:
        return json_error(429, "请求太多，请稍后再试。", "Too many requests: try again in a few minutes.")
    try:
        raw = request.body
    except RequestDataTooBig:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
        return json_error(400, f"请求太大（上限 {limit} KB）", f"Request body too large (limit {limit} KB)")
    try:
        return loads(raw)  # no NaN, Infinity, repeated key or lone surrogate (scoring/engine/hygiene.py)
    except ScoringError as error:
        return json_error(400, error.zh, error.en)


@csrf_exempt
def score(request: HttpRequest) -> JsonResponse:
    """Score a whole game: 200 with the result, 400 with the contract's error."""
    if request.method != "POST":
        return json_error(405, "请用 POST 提交牌局 JSON", "POST the game as JSON")
    game = read_json(request)
    if isinstance(game, JsonResponse):
        return game
    ok, body = score_game_or_error(game, settings.MAX_PEOPLE_PER_GAME)
    return JsonResponse(body, status=200 if ok else 400, json_dumps_params=JSON_DUMPS)


class SettleInputError(BilingualError):
    """A bad settle request: Chinese and English messages and the field they point at."""


def _is_int(value) -> bool:
    """JSON integers only: bool is an int subclass in Python but never a score."""
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_balances(balances) -> dict[str, int]:
    most = settings.MAX_PEOPLE_PER_GAME
    if not isinstance(balances, dict) or not MIN_PLAYERS <= len(balances) <= most:
        raise SettleInputError(
            f"balances 应为 {MIN_PLAYERS}-{most} 个 名字: 分数 的对象",
            f"balances must be an object of {MIN_PLAYERS}-{most} name: points entries",
            "balances",
        )
    try:  # names show up on every transfer line: the contract's check for players' names
        validate_names(list(balances), field="balances")
    except ScoringError as error:
        raise SettleInputError(error.zh, error.en, "balances") from None
    for name, points in balances.items():
        if not _is_int(points):
            raise SettleInputError(f"{name} 的分数应为整数", f"Points for {name} must be an integer", "balances")
        if abs(points) >= MAX_POINTS:
            raise SettleInputError(
                f"{name} 的分数超出范围（绝对值应小于 10^12）",
                f"Points for {name} out of range (must be below 10^12 in size)",
                "balances",
            )
    total = sum(balances.values())
    if total != 0:
        raise SettleInputError(f"分数合计应为 0，现为 {total}", f"Points must sum to 0, not {total}", "balances")
    return balances


def _parse_settle(body) -> tuple[dict[str, int], int]:
    validate_object(
        body, SETTLE_FIELDS, "请求应为 JSON 对象", "The request must be a JSON object", "body", SettleInputError
    )
    if "balances" not in body:
        raise SettleInputError("缺少 balances", "balances is missing", "balances")
    balances = _parse_balances(body["balances"])
    rate = body.get("rate_fen")
    if not _is_int(rate) or not 0 < rate <= MAX_RATE_FEN:
        raise SettleInputError(
            f"rate_fen（每分几分钱）应为 1-{MAX_RATE_FEN} 的整数",
            f"rate_fen (fen per point) must be an integer 1-{MAX_RATE_FEN}",
            "rate_fen",
        )
    return balances, rate


@csrf_exempt
def settle_api(request: HttpRequest) -> JsonResponse:
    """Who pays whom at the end, in fen: transfers found on the points, then × rate, so each adds up exactly."""
    if request.method != "POST":
        return json_error(405, "请用 POST 提交分数 JSON", "POST the balances as JSON")
    body = read_json(request)
    if isinstance(body, JsonResponse):
        return body
    try:
        balances, rate = _parse_settle(body)
    except SettleInputError as error:
        return json_error(400, error.zh, error.en, error.field)
    settling = settle_balances(balances)
    transfers = [
        {"from": payer, "to": payee, "amount_fen": points * rate} for payer, payee, points in settling.transfers
    ]
    return JsonResponse({"transfers": transfers, "fewest": settling.fewest}, json_dumps_params=JSON_DUMPS)


@csrf_exempt
def analyse(request: HttpRequest) -> JsonResponse:
    """算牌 (docs/analysis.md): 200 with the answer, 400 with ``{"error": {...}}``; a body over 16 KB is refused."""
    if request.method != "POST":
        return json_error(405, "请用 POST 提交手牌 JSON", "POST the hand as JSON")
    limit = MAX_ANALYSE_BYTES // 1024
    too_big = json_error(400, f"请求太大（上限 {limit} KB）", f"Request body too large (limit {limit} KB)")
    length = request.headers.get("Content-Length", "")
    if length.isascii() and length.isdigit() and int(length) > MAX_ANALYSE_BYTES:
        return too_big
    body = read_json(request)
    if isinstance(body, JsonResponse):
        return body
    if len(request.body) > MAX_ANALYSE_BYTES:  # no Content-Length (chunked)
        return too_big
    ok, answer = analyse_or_error(body)
    return JsonResponse(answer, status=200 if ok else 400, json_dumps_params=JSON_DUMPS)
