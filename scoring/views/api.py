"""JSON doors onto the engine (scoring-contract.md): ``POST /api/score``."""

import json

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from scoring.engine import score_game_or_error

JSON_DUMPS = {"ensure_ascii": False}


def json_error(status: int, zh: str, en: str) -> JsonResponse:
    body = {"error": {"hand": None, "message": zh, "message_en": en, "field": None}}
    return JsonResponse(body, status=status, json_dumps_params=JSON_DUMPS)


def read_json(request: HttpRequest):
    """The request's JSON body, or a 400 JsonResponse saying what is wrong with it."""
    try:
        raw = request.body
    except RequestDataTooBig:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
        return json_error(400, f"请求太大（上限 {limit} KB）", f"Request body too large (limit {limit} KB)")
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        return json_error(400, f"JSON 格式错误：{error}", f"Malformed JSON: {error}")


@csrf_exempt
def score(request: HttpRequest) -> JsonResponse:
    """Score a whole game: 200 with the result, 400 with the contract's error."""
    if request.method != "POST":
        return json_error(405, "请用 POST 提交牌局 JSON", "POST the game as JSON")
    game = read_json(request)
    if isinstance(game, JsonResponse):
        return game
    ok, body = score_game_or_error(game)
    return JsonResponse(body, status=200 if ok else 400, json_dumps_params=JSON_DUMPS)
