"""The record flow's questions sent ahead: one bundle per game that static/js/steps.js shows at a tap.

The walk follows step links from the game page's record buttons, keyed by each link as the pages write
it (``v`` included); links past the questions ("leaves") carry the hand's title for keeping a hand
offline (docs/offline.md). The bundle is cached like the game page (scoring/pagecache.py)."""

import re
import zlib
from collections import deque

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, QueryDict
from django.middleware.csrf import get_token
from django.shortcuts import redirect
from django.template import Template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe

from scoring import services
from scoring.access import writable_game
from scoring.handform import form_side_of, hand_title
from scoring.models import Game
from scoring.pagecache import CSRF_MARK, PAGE_SECONDS, game_stamp, page_key
from scoring.replay import ReplayError, table
from scoring.table import kept
from scoring.table.handpage import HandPage, prefilled, record_page
from scoring.templatetags.table import other_outcomes

HERE_MARK = "here-0b6c9f2e"  # where the language switch's return address goes in a walk's frame
ENTRY_MARK = Template("entry-0b6c9f2e")  # where the question's entry template goes (an {% include %} takes a template)
MAX_STEPS = 200  # a bound on any walk (义乌 has about 30 steps, 诸暨 9)
BODY_TAG = re.compile(
    r"""<body(?:\s+[^\s=>]+(?:=(?:"[^"]*"|'[^']*'|[^\s>]+))?)*\s*>"""
)  # its attributes may hold a ">"


def start_links(game: Game, token: str) -> list[str]:
    """The game page's record buttons (templates/table/game.html), the winner step's own links, so both share steps."""
    url, version = reverse("record", args=[token]), game.version
    links = [f"{url}?v={version}&winner={seat}&outcome=win" for seat in range(game.plugin.seats)]
    outcomes = ["draw", *(outcome for outcome, _label in other_outcomes(game))]
    return links + [f"{url}?v={version}&outcome={outcome}" for outcome in outcomes]


class Walk:
    """What the walk found: ``steps`` (link, page), ``leaves`` (link, hand title or ""), ``seq`` the next hand's."""

    def __init__(self, steps: list[tuple[str, str]], leaves: list[tuple[str, str]], seq: int):
        self.steps, self.leaves, self.seq = steps, leaves, seq


def walk(request: HttpRequest, game: Game, token: str) -> Walk:
    """Each question reachable from the game page, and each link past them, with its title."""
    before, seq = table(game)
    pages: dict[str, tuple] = {}  # a question's link → (its step, its answers, their form side)
    shown: dict[str, str] = {}
    leaves: dict[str, str] = {}
    frame: list[str] = []  # body()'s, the same for every question of the walk
    form_url = reverse("record", args=[token])
    queue = deque((link, None) for link in start_links(game, token))
    while queue and len(shown) < MAX_STEPS:
        link, came_from = queue.popleft()
        if link in shown or link in leaves:
            continue
        if link not in pages:
            query = QueryDict(link.partition("?")[2])
            form_side = form_side_of(game, query)  # once per link
            answers = prefilled(game, before, query, form_side)
            page = record_page(request, game, token, before, seq, answers, form_side, form_url, drawn=False)
            if not page.choice():
                leaves[link] = whole_hand(game, page)
                continue
            pages[link] = (page.form.step(), answers, form_side)
        if pages[link][0] == came_from:
            continue
        step, answers, form_side = pages[link]
        page = record_page(request, game, token, before, seq, answers, form_side, form_url)  # drawn: fields of its own
        links: list[str] = []
        shown[link] = body(request, page, link, links, frame)
        queue.extend((target, step) for target in links)
    return Walk(list(shown.items()), list(leaves.items()), seq)


def whole_hand(game: Game, page: HandPage) -> str:
    """The title a leaf's answers make when the server takes them as they are, else ""."""
    if not page.form.is_valid() or page.form.step() != "preview":
        return ""
    try:
        entry = page.entry()
        preview = services.preview_record(game=game, state=page.state, entry=entry)
    except ReplayError:
        return ""
    return hand_title(game, entry, preview.result, page.names, page.form_side)


def body(request: HttpRequest, page: HandPage, link: str, links: list[str], frame: list[str]) -> str:
    """What htmx swaps in for ``link``, its step links added to ``links``; never this request's flash.

    The shared frame is rendered once with marks and each question renders its entry template alone
    (tests/table/test_steps.py checks each byte for byte against its page)."""
    page.fill()
    context = {**page.context, "here": link, "messages": (), "step_links": links, "csrf_token": CSRF_MARK}
    if not frame:
        marked = {**context, "here": HERE_MARK, "entry_template": ENTRY_MARK}
        html = render_to_string("table/hand_form.html", marked, request)
        title = html[html.index("<title>") : html.index("</title>") + len("</title>")]
        start = BODY_TAG.search(html).end()
        frame.append(title + html[start : html.rindex("</footer>") + len("</footer>")])
    entry = render_to_string(page.context["entry_template"], context, request)
    return mark_safe(frame[0].replace(HERE_MARK, escape(link)).replace(ENTRY_MARK.source, entry))  # rendered


def kept_stamp(game: Game) -> str:
    """The table a hand kept from a leaf is kept at, for the server to compare (scoring/table/kept.py)."""
    before, seq = table(game)
    return kept.stamp(game, seq, before, pending=game.pending or {})


def steps(request: HttpRequest, token: str) -> HttpResponse:
    """The bundle: a ``<template data-step>`` per question and ``<template data-leaf>`` per link past them."""
    game = writable_game(request, token)
    if request.headers.get("Sec-Fetch-Mode") == "navigate":  # its address typed or opened: no page of its own
        return redirect("game", token=token)
    key = page_key(request, "steps", [game_stamp(game)])
    kept = cache.get(key)  # compressed: 义乌's 65 KB of steps and leaves take 4 KB of the shared cache
    if kept is None:
        found = walk(request, game, token) if game.status == Game.PLAYING else Walk([], [], 0)
        context = {"version": game.version, "steps": found.steps, "leaves": found.leaves, "next_seq": found.seq}
        context["kept"] = kept_stamp(game) if found.seq else ""
        html = render_to_string("table/steps.html", context, request)
        cache.set(key, zlib.compress(html.encode()), PAGE_SECONDS)
    else:
        html = zlib.decompress(kept).decode()
    return HttpResponse(html.replace(CSRF_MARK, get_token(request)))
