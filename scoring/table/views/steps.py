"""The record flow's questions sent ahead: every step a tap answers, rendered as the server
answers its link, in one bundle per game that static/js/steps.js shows at a tap, no request.

The walk is generic: it starts from the game page's record buttons (``start_links``), renders
each page that is a question (``HandPage.choice``: its form's step is none of ``FORM_STEPS``)
and follows the step links that render gave (the ``step_url`` tag adds each to ``step_links``).
A link to another question is followed; a link that stays on the same question (义乌's 飘 names,
单/双 and 喂家 chips refine the win-type step) is not: those and every link to a sheet or a
preview go to the server as before. Each step is keyed by its link exactly as the pages write it,
with the game's version (``v``) in it: a page of another version finds no step here.

Every link of the walk that is not a question (a preview, a sheet: the "leaves") is named in the
bundle with the hand's title as its preview's 确认 button would say it (「老王 自摸 ×2」), or none
when the server would not take its answers as a whole hand yet (a sheet still to fill, 诸暨's
「至少要1台」, 手动记分). With no network the phone offers to keep such a hand from the link
alone (static/js/offline.js, docs/offline.md). The titles are the server's, once per game
version: a preview per leaf (义乌: 81) costs the bundle's build, never a step page.

The bundle is kept rendered like the game page (scoring/pagecache.py: the release, the game's
row, the address, the language and the account), compressed, with the CSRF token put in per
response.
"""

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
from scoring.models import Game
from scoring.pagecache import CSRF_MARK, PAGE_SECONDS, game_stamp, page_key
from scoring.replay import ReplayError, table
from scoring.table import kept
from scoring.table.presenters import hand_title
from scoring.table.views.hands import HandPage, prefilled, record_page
from scoring.templatetags.table import other_outcomes

HERE_MARK = "here-0b6c9f2e"  # where the language switch's return address goes in a walk's frame
ENTRY_MARK = Template("entry-0b6c9f2e")  # where the question's entry template goes (an {% include %} takes a template)
MAX_STEPS = 200  # a bound on any walk (义乌 has about 30 steps, 诸暨 9)
BODY_TAG = re.compile(
    r"""<body(?:\s+[^\s=>]+(?:=(?:"[^"]*"|'[^']*'|[^\s>]+))?)*\s*>"""
)  # its attributes may hold a ">"


def start_links(game: Game, token: str) -> list[str]:
    """The record buttons of the game page (templates/table/game.html, section.record), as it
    writes them: each winner, 流局, the ruleset's own outcomes (逃跑). They are the winner step's
    own links (``step_url`` on ``?v=``), so the two share their steps."""
    url, version = reverse("record", args=[token]), game.version
    links = [f"{url}?v={version}&winner={seat}&outcome=win" for seat in range(game.plugin.seats)]
    outcomes = ["draw", *(outcome for outcome, _label in other_outcomes(game))]
    return links + [f"{url}?v={version}&outcome={outcome}" for outcome in outcomes]


class Walk:
    """What the walk found: ``steps``, (link, what the page shows for it) for each question
    reachable from the game page; ``leaves``, (link, the hand's title or "") for each link to a
    page that is no question; ``seq``, the next hand's seq."""

    def __init__(self, steps: list[tuple[str, str]], leaves: list[tuple[str, str]], seq: int):
        self.steps, self.leaves, self.seq = steps, leaves, seq


def walk(request: HttpRequest, game: Game, token: str) -> Walk:
    """Each question reachable from the game page, and each link past them, with its title."""
    before, seq = table(game)
    pages: dict[str, tuple[str, QueryDict]] = {}  # a question's link → (its step, its answers)
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
            answers = prefilled(game, before, QueryDict(link.partition("?")[2]))
            page = record_page(request, game, token, before, seq, answers, form_url, drawn=False)
            if not page.choice():
                leaves[link] = whole_hand(game, page)
                continue
            pages[link] = (page.form.step(), answers)
        if pages[link][0] == came_from:
            continue
        step, answers = pages[link]
        page = record_page(request, game, token, before, seq, answers, form_url)  # drawn: fields of its own
        links: list[str] = []
        shown[link] = body(request, page, link, links, frame)
        queue.extend((target, step) for target in links)
    return Walk(list(shown.items()), list(leaves.items()), seq)


def whole_hand(game: Game, page: HandPage) -> str:
    """The title of the hand a leaf's answers make, as its preview's 确认 says it, when the
    server takes them as they are (its sheet left as it opens); "" when they need more (a sheet's
    台, a form to type in) or the rules refuse them."""
    if not page.form.is_valid() or page.form.step() != "preview":
        return ""
    try:
        entry = page.entry()
        preview = services.preview_record(game=game, state=page.state, entry=entry)
    except ReplayError:
        return ""
    return hand_title(game, entry, preview.result, page.names)


def body(request: HttpRequest, page: HandPage, link: str, links: list[str], frame: list[str]) -> str:
    """What htmx swaps in for ``link`` (the page's title and its body, without the scripts, which
    htmx drops), each step link of it added to ``links``. Never this request's flash.

    Every question of a walk sits in the same frame: the top bar, the hand's heading and dealer,
    the footer (everything but the entry template, and the address the language switch returns
    to). ``frame`` keeps it, rendered once with marks where those go; each question then renders
    its entry template alone, as the page's ``{% include %}`` does. The frame was half of each
    question's time (tests/table/test_steps.py checks every question byte for byte against its page)."""
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
    """The table a hand kept from a leaf is kept at, with the bets placed on the game page: the
    server compares it with the table the hand lands on (scoring/table/kept.py)."""
    before, seq = table(game)
    return kept.stamp(game, seq, before, pending=game.pending or {})


def steps(request: HttpRequest, token: str) -> HttpResponse:
    """The bundle: ``<template data-step="link">`` for each question and ``<template
    data-leaf="link" data-facts="title">`` for each link past them, in a root that names the
    game's version and the next hand's seq (a finished game has none), with the screen the phone
    shows offline to keep a hand from a leaf."""
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
