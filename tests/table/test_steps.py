"""The record flow's questions sent ahead (scoring/table/views/steps.py, static/js/steps.js): the bundle
holds exactly the questions a phone reaches by taps from the game page, each exactly as the
server's own page for its link shows it, for every registered ruleset and the toy one; it is of
the game's version now, and it never takes this phone's flash."""

import html
import importlib
import re
import sys

import pytest
from django.test import Client

from scoring.engine import all_rulesets
from scoring.engine.ruleset import unregister
from scoring.models import Game
from tests.conftest import new_ruleset_game
from tests.factories import add_hand
from tests.helpers import game_url, record

TOY = "tests.rulesets.toy.engine"
NAMES = ["老王", "小李", "阿华", "大刘"]
HREF = re.compile(r'<a [^>]*href="([^"]*/record\?[^"]*)"')
STEP = re.compile(r'<template data-step="([^"]+)">(.*?)</template>', re.S)
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+"')


def codes() -> list[str]:
    return [r.code for r in all_rulesets() if r.code != "toy"] + ["toy"]


@pytest.fixture
def ruleset_game(request, db):
    """A new game of the ruleset ``request.param`` (the toy registered for the test alone)."""
    code = request.param
    if code == "toy":
        module = sys.modules.get(TOY)
        importlib.import_module(TOY) if module is None else importlib.reload(module)
    seats = next(r.seats for r in all_rulesets() if r.code == code)
    yield new_ruleset_game(code, NAMES[:seats])
    if code == "toy":
        unregister("toy")


def links(page: str) -> list[str]:
    """The record flow's links of a page, as the browser reads them."""
    return [html.unescape(href) for href in HREF.findall(page)]


def reachable(client: Client, game: Game) -> dict[str, str]:
    """Each question a phone reaches by taps from the game page, found through the server's own
    pages: a page with no form (neither a sheet nor a preview), linked from one that asks
    another question (a tap that stays on its question, 义乌's 飘 row, is not sent ahead)."""
    start = client.get(game_url(game)).content.decode()
    queue, found = [(link, None) for link in links(start)], {}
    while queue:
        link, came_from = queue.pop(0)
        if link in found:
            continue
        response = client.get(link)
        page = response.content.decode()
        if response.status_code != 200 or 'id="hand-form"' in page or response.context["step"] == came_from:
            continue
        found[link] = page
        queue += [(target, response.context["step"]) for target in links(page)]
    return found


def shown(page: str) -> str:
    """What htmx swaps in from a whole page: its title and its body up to the footer, the CSRF
    token left out (each response masks its own)."""
    title = page[page.index("<title>") : page.index("</title>") + 8]
    body = page[re.search(r"<body[^\n]*>", page).end() : page.rindex("</footer>") + 9]
    return CSRF.sub(r'\1"', title + body)


def bundle(client: Client, game: Game) -> tuple[str, dict[str, str]]:
    response = client.get(game_url(game) + "steps")
    assert response.status_code == 200
    text = response.content.decode()
    version = re.search(r'data-steps-version="(\d+)"', text)[1]
    return version, {html.unescape(link): body for link, body in STEP.findall(text)}


@pytest.mark.parametrize("ruleset_game", codes(), indirect=True)
def test_the_bundle_holds_exactly_the_questions_reachable_each_as_its_page_shows_it(client, ruleset_game):
    game = ruleset_game
    found = reachable(client, game)
    version, steps = bundle(client, game)
    assert version == str(game.version)
    assert set(steps) == set(found)
    if found:
        assert any("winner=0&" in link for link in steps)  # seat 0 too
    else:  # each record button opens a sheet at once (a ruleset of self-drawn wins): seat 0's too
        assert any("winner=0&" in link for link in leaves(client, game))
    assert len(steps) == len({page for page in map(shown, found.values())})  # each question once
    assert all(f"v={version}" in link for link in steps)
    for link, page in found.items():
        assert CSRF.sub(r'\1"', steps[link]) == shown(page), link


def test_in_english_and_signed_in_each_question_is_as_its_page_shows_it(client, game, django_user_model):
    """The questions share one frame (the top bar, the heading, the footer's language switch and
    its return address), rendered once per bundle: in the other language, and with an account's
    name in the top bar, each is still its page byte for byte."""
    client.force_login(django_user_model.objects.create_user("laowang", password="x" * 12))
    client.cookies["django_language"] = "en"
    _version, steps = bundle(client, game)
    assert len(steps) > 10
    for link, body in steps.items():
        page = client.get(link).content.decode()
        assert '<html lang="en">' in page
        assert "laowang" in body
        assert CSRF.sub(r'\1"', body) == shown(page), link


@pytest.mark.parametrize("ruleset_game", codes(), indirect=True)
def test_the_forms_the_walk_only_validates_leave_the_tables_fields_as_they_were(client, ruleset_game):
    """Most of the walk's forms share the table's fields (scoring/handform/base.py ``drawn``): after a
    bundle, and a refused sheet drawn from the same table, each field and widget is as before."""
    from scoring.handform import form_side_of
    from scoring.handform.base import table_fields
    from scoring.replay import table

    game = ruleset_game
    before, _seq = table(game)
    form = form_side_of(game, {}).Form
    fields = table_fields(form, tuple(before.seating), before.streak)

    def looks() -> dict:
        return {
            name: (vars(f).copy(), vars(f.widget).copy(), f.widget.attrs.copy(), f.error_messages.copy())
            for name, f in fields.items()
        }

    seen = looks()
    bundle(client, game)
    assert client.get(game_url(game) + "record?outcome=win&winner=9&discarder=7").status_code in (200, 400)
    assert looks() == seen


def test_a_yiwu_bundle_sends_every_winner_and_discard_type_ahead_but_not_the_float_row(client, game):
    _version, steps = bundle(client, game)
    questions = {re.sub(r"/g/[^/]+/record\?", "", link) for link in steps}
    assert {f"v={game.version}&winner={s}&outcome=win" for s in range(4)} <= questions
    assert f"v={game.version}&winner=0&outcome=win&win_type=qidui" in questions  # then who discarded
    assert f"v={game.version}" in questions  # 「改胡牌者」: the winner step itself
    assert not any("piao_player" in link for link in questions)  # refines its question: asked of the server
    assert not any("win_type=zimo" in link for link in questions)  # the preview: asked of the server
    kept = bundle(client, game)[1]  # from the cache this time: the same steps
    assert {link: CSRF.sub(r'\1"', body) for link, body in kept.items()} == {
        link: CSRF.sub(r'\1"', body) for link, body in steps.items()
    }


def test_with_a_buy_in_placed_on_the_game_page_each_question_carries_it_as_its_page_does(client, game):
    client.post(game_url(game) + "bet", {"bet": "maizi", "seat": 0, "on": "1"})  # 买子 before the hand
    game.refresh_from_db()
    _version, steps = bundle(client, game)
    winners = [link for link in links(client.get(game_url(game)).content.decode()) if "winner=" in link]
    assert len(winners) == 4
    assert set(winners) <= set(steps)
    assert any("maizi=0" in link for link in steps)  # the win-type step's links carry it (prefilled)
    for link, body in steps.items():
        assert CSRF.sub(r'\1"', body) == shown(client.get(link).content.decode()), link


def test_a_hand_recorded_elsewhere_makes_a_new_bundle_the_old_pages_links_miss(client, game):
    old_page = client.get(game_url(game)).content.decode()
    old_version, _steps = bundle(client, game)
    record(Client(), game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    version, steps = bundle(client, game)
    assert int(version) > int(old_version)
    assert not set(links(old_page)) & set(steps)  # an old page's tap asks the server
    assert client.get(links(old_page)[0]).status_code == 200  # which answers it at the table now


def test_the_bundle_never_takes_this_phones_flash(client, game):
    record(client, game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    bundle(client, game)
    assert "已记录第1局" in client.get(game_url(game)).content.decode()


def test_a_finished_game_sends_no_steps_and_a_view_link_none_at_all(client, game):
    assert client.get(game_url(game, view=True) + "steps").status_code == 403
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)
    game.refresh_from_db()
    assert bundle(client, game)[1] == {}


LEAF = re.compile(r'<template data-leaf="([^"]+)" data-facts="([^"]*)"></template>')
FACTS = re.compile(r'<button [^>]*name="confirm"[^>]*data-facts="([^"]*)"')


def leaves(client: Client, game: Game) -> dict[str, str]:
    """The bundle's links past the questions, each with the title it names ("" : no whole hand)."""
    text = client.get(game_url(game) + "steps").content.decode()
    return {html.unescape(link): html.unescape(facts) for link, facts in LEAF.findall(text)}


@pytest.mark.parametrize("ruleset_game", codes(), indirect=True)
def test_each_link_past_the_questions_is_named_with_its_previews_title_or_none(client, ruleset_game):
    """Offline, the phone keeps a hand from such a link (static/js/offline.js) with this title: the
    one its preview's 确认 carries, when the preview has one; a page with no 确认 as it opens
    (a sheet still to fill, a form to type in) has none."""
    game = ruleset_game
    found, steps = leaves(client, game), bundle(client, game)[1]
    assert found
    assert not set(found) & set(steps)
    assert any(facts for facts in found.values())  # 流局 at least
    for link, facts in found.items():
        button = FACTS.search(client.get(link).content.decode())
        assert facts == html.unescape(button[1] if button else ""), link


def test_zhuji_asks_for_the_network_where_its_sheet_needs_a_tai_and_wuyi2_names_its_sheet_as_it_opens(db):
    from tests.conftest import new_ruleset_game

    client = Client()
    zhuji = leaves(client, new_ruleset_game("zhuji", NAMES))
    assert zhuji[f"{game_url(Game.objects.last())}record?v=0&winner=0&outcome=win&zimo=on"] == ""  # 「至少要1台」
    assert set(zhuji.values()) == {"", "流局"}
    wuyi2 = new_ruleset_game("wuyi2", NAMES[:2])
    assert leaves(client, wuyi2)[f"{game_url(wuyi2)}record?v=0&winner=1&outcome=win&zimo=on"] == "小李 自摸 1番"


def test_the_bundle_names_the_next_hands_seq(client, game):
    add_hand(game, {"outcome": "draw"})
    text = client.get(game_url(game) + "steps").content.decode()
    assert 'data-next-seq="2"' in text


def test_the_bundle_opened_as_a_page_goes_to_the_game_page(client, db):
    """Nobody links the bundle, but an address typed or reopened is a navigation: it lands on the
    game page, a whole page, not on a blank one of templates."""
    game = new_ruleset_game("yiwu", NAMES)
    opened = client.get(game_url(game) + "steps", HTTP_SEC_FETCH_MODE="navigate")
    assert opened.status_code == 302
    assert opened["Location"] == game_url(game)
    fetched = client.get(game_url(game) + "steps", HTTP_SEC_FETCH_MODE="cors")
    assert b"data-steps-version" in fetched.content
