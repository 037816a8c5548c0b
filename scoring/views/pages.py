"""Pages for people at the table."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.engine import COMMON_ORDER, PRESETS, RULE_INFO, WIN_TYPES, Rules


def home(request: HttpRequest) -> HttpResponse:
    defaults = Rules().to_dict()
    rules = [(info, defaults[name]) for name, info in RULE_INFO.items()]
    win_types = [WIN_TYPES[code] for code in COMMON_ORDER]
    return render(request, "scoring/home.html", {"rules": rules, "win_types": win_types, "presets": PRESETS})
