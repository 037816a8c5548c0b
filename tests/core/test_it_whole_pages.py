"""A navigation gets the whole page: a boosted link or form (``HX-Boosted``) and htmx's history
restore (the back gesture, ``HX-History-Restore-Request``) swap the whole body, so only a request
that targets a part of the page (a plain ``HX-Request``) may get that part.

The last test walks, in English, every page tests/browser/test_whole_pages.py's browser walk taps
through in Chinese (the Django client parses the pages for their links and buttons as that walk's
TARGETS does)."""

import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.conf import settings

from scoring.models import Hand
from tests.factories import add_hand
from tests.helpers import WALKED_PAGES, form_fields, game_url, version_of, walked_game

PART = {"HX-Request": "true"}
BOOSTED = {"HX-Request": "true", "HX-Boosted": "true"}
RESTORE = {"HX-Request": "true", "HX-History-Restore-Request": "true"}
ZIMO = {"outcome": "win", "winner": 1, "win_type": "zimo"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
MANUAL = {"outcome": "manual", "n0": "-10", "n1": "6", "n2": "4", "n3": "0", "note": "罚分"}


def whole(html: str) -> bool:
    """The whole document, with its top bar."""
    return html.lstrip().startswith("<!doctype html>") and '<nav class="navbar topbar">' in html


@pytest.mark.parametrize("headers", [BOOSTED, RESTORE], ids=["boosted", "history-restore"])
def test_a_navigation_to_the_settle_screen_gets_the_whole_page(client, game, headers):
    add_hand(game, ZIMO)
    for query in ("settle", "settle?rate=100&fee_yuan=10&fee_mode=equal&fee_payee=0"):
        html = client.get(game_url(game) + query, headers=headers).content.decode()
        assert whole(html), query
        assert 'id="settle-form"' in html


def test_only_the_settle_forms_own_refresh_gets_the_preview_alone(client, game):
    html = client.get(game_url(game) + "settle?rate=100&fee_yuan=10&fee_mode=equal&fee_payee=0", headers=PART)
    assert html.content.decode().startswith('<div id="settle-preview"')


@pytest.mark.parametrize("answers", [form_fields(ZIMO), MANUAL], ids=["zimo", "manual"])
@pytest.mark.parametrize("headers", [BOOSTED, RESTORE], ids=["boosted", "history-restore"])
def test_the_update_preview_button_gets_the_whole_page_and_its_address(client, game, answers, headers):
    """「更新预览」 is the form's own submit (boosted): the whole page, at an address a reload shows again."""
    response = client.post(game_url(game) + "record", {**answers, "next_seq": "1", "form_token": "t1"}, headers=headers)
    html = response.content.decode()
    assert whole(html)
    assert 'id="hand-form"' in html
    assert "确认记录" in html
    assert "取消" in html
    again = client.get(response["HX-Push-Url"]).content.decode()
    assert 'id="hand-form"' in again
    assert "确认记录" in again
    assert "form_token=t1" not in response["HX-Push-Url"]  # a one-time token is never in an address


def test_a_confirm_after_the_refresh_records_one_hand(client, game):
    data = {**form_fields(ZIMO), "next_seq": "1", "form_token": "t1", "version": version_of(game)}
    client.post(game_url(game) + "record", data, headers=BOOSTED)
    response = client.post(game_url(game) + "record", {**data, "confirm": "1"}, headers=BOOSTED)
    html = response.content.decode()
    assert whole(html)
    assert 'id="tiles"' in html
    assert response["HX-Push-Url"] == game_url(game)
    client.post(game_url(game) + "record", {**data, "confirm": "1"}, headers=BOOSTED)  # a second tap
    assert [h.entry for h in Hand.objects.all()] == [ZIMO]


def test_the_previews_own_refresh_still_gets_the_panel_alone(client, game):
    data = {**form_fields(ZIMO), "next_seq": "1"}
    html = client.post(game_url(game) + "record", data, headers=PART).content.decode()
    assert html.lstrip().startswith('<div id="preview-panel">')


class Node:
    """An element of a page: its tag, attributes, parent, children and own text (a textarea's, an option's)."""

    def __init__(self, tag: str, attrs: dict, parent: "Node | None"):
        self.tag, self.attrs, self.parent, self.children, self.text = tag, attrs, parent, [], ""
        if parent is not None:
            parent.children.append(self)

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def all(self):
        for child in self.children:
            yield child
            yield from child.all()


class Tree(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.at = Node("#document", {}, None)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {name: value or "" for name, value in attrs}, self.at)
        if tag not in VOID:
            self.at = node

    def handle_endtag(self, tag):
        node = self.at
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.at = node.parent

    def handle_data(self, data):
        self.at.text += data


def tree(html: str) -> Node:
    parser = Tree()
    parser.feed(html)
    parser.close()
    return parser.root


def whole_in_english(response, game, what: str) -> None:
    """What the browser walk checks of every page a tap or the back gesture lands on, and that it
    is in English: the whole document, its top bar with the way home once, its footer and, on a
    page of the game other than the game page, a link back to the game page."""
    assert response.status_code == 200, (what, response.status_code)
    html = response.content.decode()
    assert whole(html), what
    assert '<html lang="en">' in html, what
    root = tree(html)
    brands = [
        n for n in root.all() if "navbar-brand" in classes(n) and any("topbar" in classes(a) for a in n.ancestors())
    ]
    assert len(brands) == 1, what
    assert any(n.tag == "footer" for n in root.all()), what
    where = urlsplit(response.get("HX-Push-Url") or response.request["PATH_INFO"]).path
    if where.startswith(game_url(game)) and where != game_url(game):
        back = [n for n in root.all() if n.tag == "a" and n.attrs.get("href") == game_url(game) and inside(n, "main")]
        assert back, f"{what}: no way back to the game page"


def classes(node: Node) -> list[str]:
    return node.attrs.get("class", "").split()


def inside(node: Node, tag: str) -> bool:
    return any(a.tag == tag for a in node.ancestors())


def shown(node: Node) -> bool:
    """Not hidden by the page itself (``hidden``, Bootstrap's ``d-none``, a ``<template>``)."""
    return not any(
        "hidden" in n.attrs or "d-none" in classes(n) or n.tag == "template" for n in (node, *node.ancestors())
    )


def kind(path: str) -> str:
    return re.sub(r"/\d+", "/N", path)


def form_of(button: Node, root: Node) -> Node | None:
    if "form" in button.attrs:
        return next((n for n in root.all() if n.tag == "form" and n.attrs.get("id") == button.attrs["form"]), None)
    return next((a for a in button.ancestors() if a.tag == "form"), None)


def fields(form: Node, root: Node, button: Node) -> list[tuple[str, str]]:
    """What a browser sends for ``form`` submitted by ``button`` (HTML's form data set, the kinds of
    control the app's forms use)."""
    out = []
    for node in root.all():
        name = node.attrs.get("name")
        if node.tag not in ("input", "select", "textarea", "button") or not name or "disabled" in node.attrs:
            continue
        if form_of(node, root) is not form:
            continue
        kind_ = node.attrs.get("type", "text" if node.tag == "input" else "submit").lower()
        if node.tag == "input":
            if kind_ in ("checkbox", "radio"):
                if "checked" in node.attrs:
                    out.append((name, node.attrs.get("value", "on")))
            elif kind_ not in ("submit", "button", "image", "reset", "file"):
                out.append((name, node.attrs.get("value", "")))
        elif node.tag == "select":
            options = [o for o in node.all() if o.tag == "option"]
            chosen = [o for o in options if "selected" in o.attrs] or options[:1]
            out += [(name, o.attrs.get("value", o.text.strip())) for o in chosen]
        elif node.tag == "textarea":
            out.append((name, node.text.lstrip("\n")))
        elif node.tag == "button" and node is button:
            out.append((name, node.attrs.get("value", "")))
    return out


def targets(html: str, url: str):
    """Every link and button a person can tap, as tests/browser/test_whole_pages.py's TARGETS finds
    them (the browser's own visibility aside: an element the page hides is tapped here too), with
    its kind: (kind, the element, its form or None)."""
    root = tree(html)
    for node in root.all():
        if node.tag == "a" and "href" in node.attrs and (inside(node, "main") or inside(node, "nav")):
            pass
        elif node.tag == "button" and inside(node, "main"):
            pass
        else:
            continue
        if any(n.attrs.get("hx-boost") == "false" for n in (node, *node.ancestors())) or not shown(node):
            continue
        if node.attrs.get("type") == "button" or "disabled" in node.attrs:
            continue
        if node.tag == "a":
            address = urlsplit(urljoin("http://testserver" + url, node.attrs["href"]))
            if address.netloc != "testserver" or "export" in address.path:
                continue
            yield f"GET {kind(address.path)}", node, None, root
        elif (form := form_of(node, root)) is not None:
            action = urlsplit(urljoin("http://testserver" + url, form.attrs.get("action") or url)).path
            method = form.attrs.get("method", "get").lower()
            yield f"{method} {kind(action)} {node.attrs.get('name', '')}", node, form, root


def tap(client, url: str, node: Node, form: Node | None, root: Node, game, what: str) -> str:
    """What the tap asks the server, in English: a link as a boosted navigation and as a plain one
    (a reload, or the same link opened in a new tab); a form as htmx sends it. Returns where it
    leads."""
    if form is None:
        href = urljoin(url, node.attrs["href"])
        whole_in_english(client.get(href, headers=BOOSTED, follow=True), game, what)
        whole_in_english(client.get(href, follow=True), game, f"{what} (plain)")
        return href
    method = (node.attrs.get("formmethod") or form.attrs.get("method") or "get").lower()
    action = urljoin(url, node.attrs.get("formaction") or form.attrs.get("action") or url)
    data = {}
    for name, value in fields(form, root, node):
        data.setdefault(name, []).append(value)
    send = client.post if method == "post" else client.get
    if target := form.attrs.get("hx-target", "").removeprefix("#"):  # the form asks for a part of its page
        response = send(action, data, headers={**PART, "HX-Target": target})
        assert response.status_code == 200, what
        assert f'id="{target}"' in response.content.decode(), what
        return url
    response = send(action, data, headers=BOOSTED, follow=True)
    whole_in_english(response, game, what)
    return urlsplit(response.get("HX-Push-Url") or response.request["PATH_INFO"]).path


def test_every_tap_and_every_back_of_the_walk_lands_on_a_whole_page_in_english(client, db):
    """tests/browser/test_whole_pages.py walks the game's pages in Chinese: every kind of link and
    button tapped, the back gesture from each. htmx's choice of a whole page or a part, its
    history restore and the back gesture are the same code in every language; what an English
    page adds is its own text, so here every page that walk reaches, in English: as the tap asks
    for it (boosted, or a part where the form asks for one), as a plain navigation, and as the
    back gesture asks the server for it (a history restore)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    game = walked_game(client)
    seen, taps = set(), 0
    for path, _has_part in WALKED_PAGES:
        url = game_url(game) + path
        page = client.get(url)
        whole_in_english(page, game, path or "game")
        whole_in_english(client.get(url, headers=RESTORE), game, f"back to {path or 'game'}")
        found = list(targets(page.content.decode(), url))
        for key in dict.fromkeys(k for k, *_ in found):
            if key in seen:
                continue
            # the first element of that kind on the page as it now is (after the writes before it)
            node, form, root = next(rest for k, *rest in found if k == key)
            what = f"{path or 'game'} → {key}"
            tap(client, url, node, form, root, game, what)
            taps += 1
            if key.startswith("GET"):
                seen.add(key)
            elif form is not None:
                page = client.get(url)  # a write: the page again, as it now is
                found = list(targets(page.content.decode(), url))
    assert taps > 20  # every kind once: the game page alone has 14
