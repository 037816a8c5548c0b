"""An English page holds no Chinese: every page a table reaches, in English, with players whose
names are ASCII, shows no Han character outside the tile faces (``.mj``) and the switch back to
中文 (``lang="zh-…"``). So any Han left is a text that has no English yet.

The games are the worked examples of all three rulesets (every kind of hand: 飘, 反赔, 承包,
逃跑, 下子, 买子, …) imported under ASCII names, with a manual hand, an edit and a void on top;
each is walked through its game page, every step of entering each of its hands, the previews,
edit and void, 算牌, settle (open and settled), summary, share and rules."""

import copy
import json
import re
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from scoring.engine import DEFAULT_RULESET, all_rulesets, get_ruleset
from scoring.engine.seating import is_seating
from scoring.models import AccessMiss, Game
from tests.examples import game_examples, load
from tests.helpers import FINISH, form_fields, kept_for_the_module, version_of

HAN = re.compile(r"[\u2e80-\u2fdf\u3005\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
ASCII_NAMES = ["Ann", "Bob", "Cat", "Dan"]


def manual_net(code: str) -> list[str]:
    """A manual hand's changes at a table of the ruleset: halves where it counts them (诸暨)."""
    ruleset = get_ruleset(code)
    amount = "2.5" if ruleset.halves else "10"
    return [amount, "-" + amount] + ["0"] * (ruleset.seats - 2)


def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


class Reader(HTMLParser):
    """The texts a person reads on a page (and the attributes read aloud), leaving out tile faces
    (class ``mj``), anything marked ``lang="zh…"``, scripts, styles and the ``skip`` elements."""

    VOID = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"))
    READ = ("title", "aria-label", "placeholder", "alt")

    def __init__(self, skip=()):
        super().__init__()
        self.skip, self.open, self.hidden, self.texts = set(skip), [], 0, []

    def handle_starttag(self, tag, attrs):
        attrs = {name: value or "" for name, value in attrs}
        hide = (
            tag in ("script", "style", *self.skip)
            or "mj" in attrs.get("class", "").split()
            or attrs.get("lang", "").startswith("zh")
        )
        if not (self.hidden or hide):
            self.texts += [attrs[name] for name in self.READ if name in attrs]
            if tag == "input" and attrs.get("type") in ("submit", "button"):
                self.texts.append(attrs.get("value", ""))
        if tag not in self.VOID:
            self.open.append((tag, hide))
            self.hidden += hide

    def handle_endtag(self, tag):
        if not any(name == tag for name, _ in self.open):
            return
        while self.open:
            name, hide = self.open.pop()
            self.hidden -= hide
            if name == tag:
                return

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.texts.append(data.strip())


def leaks(page: str, skip=()) -> list[str]:
    """Each text of the page that holds a Han character (see ``Reader`` for what is left out)."""
    reader = Reader(skip)
    reader.feed(page)
    reader.close()
    return sorted({text for text in reader.texts if HAN.search(text)})


def walk(client, urls) -> dict[str, list[str]]:
    found = {}
    for url in dict.fromkeys(urls):  # each page once, in order
        response = client.get(url, follow=True)
        assert response.status_code in (200, 404), (url, response.status_code)
        assert '<html lang="en">' in response.content.decode(), url
        if bad := leaks(response.content.decode()):
            found[url] = bad
    return found


def imported(client, game: dict) -> str:
    """The URL of a new game made from a contract game, under ASCII names."""
    seats = get_ruleset(game.get("ruleset", DEFAULT_RULESET)).seats
    AccessMiss.objects.all().delete()  # dozens of imports from one test client: each under the budget
    response = client.post("/import", {"text": json.dumps({**game, "players": ASCII_NAMES[:seats]})})
    assert response.status_code == 302, response.content.decode()[:300]
    return response["Location"]


def steps(url: str, fields: dict) -> list[str]:
    """The entry page at every step a hand's answers pass through: each first part of them."""
    items = list(fields.items())
    return [f"{url}record?{urlencode(items[:n], doseq=True)}" for n in range(len(items) + 1)]


def examples():
    """Every ruleset's worked examples but those whose seatings bring in names of their own (the
    walk seats ASCII names) and those refused as a whole (their rules: no game to walk)."""
    for path in game_examples():
        example = load(path)
        refused_whole = example["expect"].get("error", {"hand": 0})["hand"] is None
        if not refused_whole and not any(is_seating(hand) for hand in example["game"]["hands"]):
            yield example["game"].get("ruleset", DEFAULT_RULESET), path.stem, example


@pytest.fixture(scope="module")
def imported_tables(django_db_setup, django_db_blocker):
    """The worked examples imported once for this module's tests by one phone: its cookies, and
    (url, game's pk, the example's hands, the refused hand or None) for each."""
    with kept_for_the_module(django_db_blocker):
        with django_db_blocker.unblock():
            phone = english(Client())
            out = []
            for _ruleset, _stem, example in examples():
                game, expect = example["game"], example["expect"]
                refused = None
                if "error" in expect and expect["error"]["hand"] is not None:
                    bad = expect["error"]["hand"]
                    refused = game["hands"][bad]
                    game = {**game, "hands": game["hands"][:bad]}
                url = imported(phone, game)
                out.append((url, Game.objects.get(edit_token=url.split("/")[2]).pk, game["hands"], refused))
        yield phone.cookies, out


@pytest.fixture
def tables(client, db, imported_tables):
    """Every worked example as a game, on this test's client as the phone that imported them:
    (url, Game, the example's hands, the refused hand or None)."""
    cookies, out = imported_tables
    client.cookies = copy.deepcopy(cookies)
    english(client)
    return [(url, Game.objects.get(pk=pk), hands, refused) for url, pk, hands, refused in out]


def test_the_examples_cover_every_kind_of_hand(tables):
    entries = [hand for _url, _game, hands, _refused in tables for hand in hands]
    rulesets = {game.ruleset for _url, game, _hands, _refused in tables}
    assert rulesets == {r.code for r in all_rulesets()}
    assert {hand["outcome"] for hand in entries} >= {"win", "draw", "abandon"}
    assert any(hand.get("piao", {}).get("level") == 2 for hand in entries)
    assert any(hand.get("feeders") for hand in entries)
    assert any("xiazi_join" in hand for hand in entries)
    assert any("maizi" in hand for hand in entries)
    assert sum(refused is not None for *_rest, refused in tables) >= 4


def test_every_entry_step_and_preview_is_english(client, tables):
    """Each hand's preview at its game's table, and each step on the way to it (a step already
    walked in another game of the ruleset is not walked again)."""
    urls, walked = [], set()
    for url, game, hands, refused in tables:
        for hand in [*hands, refused]:
            if hand is not None:
                *way, preview = steps(url, form_fields(hand, game))
                urls += [step for step in way if (game.ruleset, step.split("?")[1]) not in walked] + [preview]
                walked.update((game.ruleset, step.split("?")[1]) for step in way)
        urls.append(f"{url}record?outcome=manual")
    assert len(urls) > 150
    assert walk(client, urls) == {}


def test_every_game_page_and_its_hands_are_english(client, tables):
    urls, walked = [], set()
    for url, game, hands, _refused in tables:
        names = {"net": manual_net(game.ruleset), "note": "fine", "outcome": "manual"}
        data = {**names, "confirm": "1", "next_seq": len(hands) + 1, "version": version_of(game)}
        response = client.post(url + "record", data)
        assert response.status_code == 302
        if game.ruleset == "yiwu":  # a bet placed for the next hand: its badge, or the rule that refuses it
            for bet in ("maizi", "xiazi"):
                client.post(url + "bet", {"bet": bet, "seat": "1", "on": "1"})
        urls += [url, url + "summary", url + "rules"]  # every hand's title and payments; the house rules
        if game.ruleset not in walked:  # pages that depend on the ruleset more than on the hands
            walked.add(game.ruleset)
            urls += [url + "share", url + "settle", url + "undo"]
        urls += [f"{url}hand/{seq}/void" for seq in range(1, len(hands) + 2)]  # what a void would break
        for seq, hand in list(enumerate(hands, start=1))[-1:]:  # an edit's preview (its steps are the record's)
            urls.append(f"{url}hand/{seq}/edit?{urlencode(form_fields(hand, game), doseq=True)}")
    assert walk(client, urls) == {}


def test_edited_voided_and_settled_games_are_english(client, tables):
    urls = []
    for url, game, hands, _refused in tables[:3] + tables[-2:]:
        if len(hands) > 1:
            client.post(f"{url}hand/{len(hands)}/void", {"reason": "wrong", "revision": "0"})
        response = client.post(url + "finish", FINISH)
        assert response.status_code == 302
        assert Game.objects.get(pk=game.pk).status == Game.FINISHED
        urls += [url, url + "settle", url + "summary", url + "share", url + "record", f"{url}hand/1/edit"]
    urls += ["/", "/history", "/stats", "/new", *(f"/new?ruleset={r.code}" for r in all_rulesets()), "/import"]
    urls += ["/accounts/login", "/accounts/signup", "/no-such-page", "/g/no-such-game/"]
    assert walk(client, urls) == {}


ANALYSE = [
    "",
    "?flip=E",
    "?flip=E&tiles=1m,1m,1m,2m,3m,4m,5m,6m,7m,8m,9m,9m,9m",
    "?flip=E&tiles=1m,1m,1m,2m,3m,4m,5m,6m,7m,8m,9m,9m,9m,E",
    "?flip=P&tiles=E,E,E,P,P,1m,2m,3m,4m,5m,6m,9m,9m,9m&self_drawn=1",
    "?flip=E&tiles=2m,3m,4m,6p,7p,8p,3s,3s,3s,C,C,E,E,5s",
    "?flip=1m&tiles=1m,2m",
    "?flip=5p&tiles=1m,1m,1m,1m,1m",  # a refusal: five of a kind
    "?flip=E&tiles=2m3m",  # a refusal: no such tile
    "?flip=E&tiles=2m,3m,4m,6p,7p,8p,3s,3s,3s,C,C,E,E,5s&winner=1&discarder=0",  # 2 wilds: no discard win
    "?flip=E&tiles=2m,3m,4m,6p,7p,8p,3s,3s,3s,C,E,E,E,5s&winner=1&self_drawn=1",  # 3 wilds
    "?flip=E&tiles=2m,3m,4m,6p,7p,8p,3s,3s,3s,C,C,5s,5s",  # 13 tiles: the waits
]


def test_suanpai_is_english_in_every_ruleset(client, tables):
    seen = {}
    for url, game, _hands, _refused in tables:
        seen.setdefault(game.ruleset, url)
    urls = [url + "analyse" + query for url in seen.values() for query in ANALYSE]
    urls += [f"{url}analyse?winner={seat}&flip=E" for url in seen.values() for seat in (0, 1)]
    pages = {url: client.get(url).content.decode() for url in urls}
    assert sum("Win on " in page for page in pages.values()) >= 3  # the waits were read, in each ruleset
    assert sum("A win!" in page for page in pages.values()) >= 3
    assert walk(client, urls) == {}


def test_the_rules_pages_are_english_outside_the_documents(client, db):
    english(client)
    for ruleset in all_rulesets():
        page = client.get(f"/rules/{ruleset.code}").content.decode()
        assert "<article" in page
        # the rules document itself is one text for both languages: Chinese terms beside English
        assert leaks(page, skip=["article"]) == []


@pytest.mark.parametrize("template", ["400.html", "403.html", "404.html", "429.html"])
def test_error_pages_are_english(template):
    with translation.override("en"):
        assert leaks(render_to_string(template, {})) == []


def test_refusals_on_a_preview_are_english(client, tables):
    """A refused hand, posted from its preview, shows the engine's reason in English (the form
    cannot express some refused examples, e.g. dropping a 买子: those preview as a valid hand)."""
    refusals = 0
    for url, game, _hands, refused in tables:
        if refused is None:
            continue
        response = client.post(url + "record", form_fields(refused, game))
        assert response.status_code == 200
        page = response.content.decode()
        assert leaks(page) == []
        refusals += "invalid-feedback" in page or "alert-danger" in page
    assert refusals >= 4
