"""Small helpers for the Django client tests: post a hand the way the entry form does."""

import atexit
import difflib
import os
import re
import subprocess
import sys
from contextlib import contextmanager
from html.parser import HTMLParser
from itertools import accumulate
from pathlib import Path

from django.db import transaction

from scoring.engine import DEFAULT_RULESET, all_rulesets, get_ruleset
from scoring.handform import form_side_for
from scoring.models import Game
from scoring.rulesets.yiwu.engine import Rules

# The new-game form as a table fills it in (义乌, every rule set).
NEW_GAME = {
    "name0": "老王",
    "name1": "小李",
    "name2": "阿华",
    "name3": "大刘",
    "first_dealer": "2",
    "preset": "9/7",
    "maizi_points": "2",
    "maizi_buy": "tenure_start",
    "xiazi_points": "1",
    "xiazi_amount": "fixed",
    "discarder_extra": "double",
    "fanpei_factor": "2",
    "shuangpiao_draw_mult": "4",
    "shuangpiao_draw_includes_xiazi": "on",
    "multi_feeder": "shared",
}


def new_game_form(names: list[str], **changes) -> dict:
    """The new-game form as a phone sends it when only the names are typed in (义乌, its default
    house rules and preset, 东 deals, no set length); ``changes`` as further taps."""
    from scoring.rulesets.yiwu.engine import Rules

    defaults = {k: ("on" if v is True else v) for k, v in Rules().to_dict().items() if v not in (None, False)}
    typed = {f"name{seat}": name for seat, name in enumerate(names)}
    return {"ruleset": "yiwu", **typed, "first_dealer": "0", "preset": "7/5", "round_length": "", **defaults, **changes}


def game_url(game: Game, view: bool = False) -> str:
    return f"/g/{game.view_token if view else game.edit_token}/"


def form_fields(entry: dict, game: Game | None = None) -> dict:
    """The entry form's fields for a contract HAND object (as the edit form fills them), in the
    game's ruleset (义乌 when no game is given)."""
    kind = form_side_for(game) if game is not None else get_ruleset(DEFAULT_RULESET).form_side
    return kind.initial(entry, None)


def record(client, game: Game, entry: dict, **extra):
    """Confirm a hand as the form does (next_seq and the version from the current ledger)."""
    game.refresh_from_db()
    next_seq = (game.hands.order_by("-seq").values_list("seq", flat=True).first() or 0) + 1
    data = {**form_fields(entry, game), "confirm": "1", "next_seq": next_seq, "version": game.version, **extra}
    return client.post(game_url(game) + "record", data)


def version_of(game: Game) -> str:
    """The game's version now, as a preview form carries it (a confirm needs it)."""
    game.refresh_from_db(fields=["version"])
    return str(game.version)


# Pages are read with a parser (the standard library's html.parser: the templates are well formed,
# and a test needs no package for it), never with regular expressions over the HTML.
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    """An element of a parsed page: its tag, attributes (entities resolved), children (nodes and
    text) and where it starts and ends in the page's source."""

    def __init__(self, tag: str, attrs: dict, start: int, parent=None):
        self.tag, self.attrs, self.start, self.end, self.parent = tag, attrs, start, None, parent
        self.children: list = []

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def elements(self):
        """Every element below this one, in page order."""
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.elements()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs) -> list["Node"]:
        """The elements below with that tag, that class among theirs, and those attributes (``class_``: the exact class attribute)."""
        attrs = {name.rstrip("_").replace("_", "-"): value for name, value in attrs.items()}
        return [
            e
            for e in self.elements()
            if (tag is None or e.tag == tag)
            and (cls is None or cls in e.classes)
            and all(e.attrs.get(name) == value for name, value in attrs.items())
        ]

    def find(self, *args, **kwargs) -> "Node | None":
        found = self.find_all(*args, **kwargs)
        return found[0] if found else None

    def kids(self) -> list["Node"]:
        return [c for c in self.children if isinstance(c, Node)]

    def pieces(self):
        """The text below, a "" at each tag's edge (where text_of puts a space)."""
        for child in self.children:
            if isinstance(child, Node):
                yield ""
                yield from child.pieces()
                yield ""
            else:
                yield child

    @property
    def text(self) -> str:
        """The text below, with spaces where tags were, runs of white space made one."""
        return " ".join(" ".join(self.pieces()).split())


class TreeBuilder(HTMLParser):
    def __init__(self, source: str):
        super().__init__(convert_charrefs=True)
        self.source = source
        self.lines = [0, *accumulate(len(line) for line in source.splitlines(keepends=True))]
        self.root = Node("", {}, 0)
        self.open = [self.root]

    def at(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {name: value or "" for name, value in attrs}, self.at(), self.open[-1])
        self.open[-1].children.append(node)
        if tag in VOID:
            node.end = self.source.index(">", node.start) + 1
        else:
            self.open.append(node)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.open.pop().end = self.source.index(">", self.at()) + 1

    def handle_endtag(self, tag):
        names = [n.tag for n in self.open]
        if tag not in names[1:]:
            return  # a stray end tag
        end = self.source.index(">", self.at()) + 1
        while True:
            node = self.open.pop()
            node.end = end
            if node.tag == tag:
                return

    def handle_data(self, data):
        self.open[-1].children.append(data)


def parse(html: str) -> Node:
    """The page as a tree of ``Node``: its root holds the top elements."""
    builder = TreeBuilder(html)
    builder.feed(html)
    builder.close()
    return builder.root


def totals_on_page(html: str) -> list[str]:
    """The game page's running totals, by seat, as written."""
    return [e.text for e in parse(html).elements() if "data-seat" in e.attrs]


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


# A tap on a sheet refreshes part of it: htmx posts the whole form with this header.
TAP = {"HX-Request": "true"}


def next_seq_of(game: Game) -> str:
    """The next hand's number, as the entry form carries it."""
    return str((game.hands.order_by("-seq").values_list("seq", flat=True).first() or 0) + 1)


def sheet_tap(client, game: Game, entry: dict, path: str = "record", **extra) -> str:
    """What a tap on the sheet brings back: the sheet's fields for ``entry`` (a contract HAND
    object, as far as the sheet has it) posted as htmx posts them, the part of the page it swaps."""
    data = {**form_fields(entry, game), **extra}
    if path == "record":
        data.setdefault("next_seq", next_seq_of(game))
    return client.post(game_url(game) + path, data, headers=TAP).content.decode()


def preview_of(html: str) -> tuple[str, dict[str, str]]:
    """A preview's title and each player's net as the panel writes them (+128, −2, 0)."""
    page = parse(html)
    title = next(e for e in page.find_all("div", class_="fw-semibold") if [k.tag for k in e.kids()] == ["bdi"])
    nets = {}
    for net in page.find_all("div", class_="col preview-net"):
        name, amount = net.kids()
        nets[name.find("bdi").text] = amount.text
    return title.text, nets


def after_of(html: str) -> dict[str, str]:
    """The preview's 之后 column: each player's total after the hand, as written."""
    after = {}
    for row in parse(html).find_all("tr"):
        cells = row.kids()
        if [(c.tag, c.attrs.get("class")) for c in cells] == [
            ("th", "fw-normal"),
            ("td", "text-end"),
            ("td", "text-end fw-bold"),
        ]:
            if cells[0].attrs.get("scope") == "row" and all(c.find("span") for c in cells[1:]):
                after[cells[0].find("bdi").text] = cells[2].find("span").text
    return after


def element(html: str, opening: str) -> str:
    """The element that starts with ``opening`` (e.g. ``<div id="preview-panel"``), through its
    own closing tag; "" when there is none."""
    start = html.find(opening)
    if start < 0:
        return ""
    tail = html[start:]
    first = parse(tail).kids()[0]
    if first.end is None:
        raise AssertionError(f"{opening} is never closed")
    return tail[: first.end]


def text_of(html: str) -> str:
    return parse(html).text


def panel_note(html: str) -> tuple[str, str, bool]:
    """What the preview panel says besides a preview: its grey requirement and its red refusal
    (as text, "" when it has none), and whether it offers 确认."""
    panel = parse(html).find("div", id="preview-panel")
    if panel is None:
        return "", "", False
    requirement = next((e for e in panel.find_all("div", cls="requirement") if "alert-secondary" in e.classes), None)
    refusal = next((e for e in panel.find_all("div", cls="alert") if "alert-danger" in e.classes), None)
    offers = any(e.attrs.get("name") == "confirm" for e in panel.elements())
    return (requirement.text if requirement else ""), (refusal.text if refusal else ""), offers


def link(page: str, words: str) -> str:
    """The href of the page's link whose text (tags and spaces left out) starts with ``words``."""
    for a in parse(page).find_all("a"):
        if "href" in a.attrs and "".join(a.text.split()).startswith(words):
            return a.attrs["href"]
    raise AssertionError(f"no link {words}")


def dealer_tile(client, game: Game) -> str:
    """The game page's dealer tile, as text (e.g. 「南 小李 庄 0」)."""
    return text_of(element(client.get(game_url(game)).content.decode(), '<div class="tile tile-dealer'))


# 老王 (dealer) 自摸: +42, others −14; then 小李 平胡 off 老王: 老王 −8, 小李 +18, the others −5
SETTLE_HANDS = [
    {"outcome": "win", "winner": 0, "win_type": "zimo"},
    {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 0},
]
FINISH = {"rate": "100", "fee_yuan": "", "fee_mode": "equal", "fee_payee": "0"}


# The pages of a game the whole-page walks go through: tests/browser/test_whole_pages.py taps
# every kind of link and button on them in Chinese, tests/core/test_it_whole_pages.py requests the
# same in English. In an order where the writes (a hand, a bet, 结束) never hide a later page.
# True: a page with a part of its own (the entry and settle previews), brought back from the
# server by the back gesture even when none of its links is a new kind.
WALKED_PAGES = [
    ("", False),
    ("record?outcome=win&winner=1", False),
    ("record?outcome=win&winner=1&win_type=zimo", True),
    ("record?outcome=manual", True),
    ("summary", False),
    ("settle", True),
    ("settle?rate=100&fee_yuan=40&fee_mode=equal&fee_payee=0", True),
    ("settle", False),  # settled
]


WALKED_HANDS = [
    {"outcome": "win", "winner": 0, "win_type": "zimo"},
    {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 2},
]


def walked_game(client=None) -> Game:
    """The game the whole-page walks start from: 义乌, two hands (a 自摸, a 平胡 off 阿华), recorded
    through the write path (``client``, which the browser walk passes, is not needed)."""
    from tests.factories import add_hands

    game = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules().to_dict())
    return add_hands(game, WALKED_HANDS)


def record_settle_hands(game):
    """The two settle-up hands (SETTLE_HANDS) recorded in ``game`` through the write path."""
    from tests.factories import add_hands

    return add_hands(game, SETTLE_HANDS)  # totals 老王 +34, 小李 +4, 阿华 −19, 大刘 −19


ROOT = Path(__file__).resolve().parents[1]
PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "a-long-random-production-secret-key-0123456789-abcdefghijklmnop",
    "DJANGO_ALLOWED_HOSTS": "mj.example.com",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://mj.example.com",
}


def manage(*args: str, env: dict) -> subprocess.CompletedProcess:
    """``manage.py ARGS`` in a fresh process whose environment is this one's less Django's and pytest's, plus ``env``:
    a child of this test process's fork server (tests/forkserver.py), which is what a real run is, or a real run where
    the server cannot give that. ``MANAGE_COMPARE=1``: both, and a failure if they differ."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))}
    full = {**clean, **env}
    server = fork_server(clean)
    if not server.serves(full):
        return real_manage(args, full)
    served = server.run(args, full)
    if os.environ.get("MANAGE_COMPARE"):
        compare(served, real_manage(args, full))
    return served


def real_manage(args, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )


# What differs between any two runs of one command: the time a log line is written at, the
# address of an object printed.
RUN_TO_RUN = [(re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}"), "<asctime>"), (re.compile(r"0x[0-9a-f]+"), "0x…")]


def run_to_run(text: str) -> str:
    for pattern, replacement in RUN_TO_RUN:
        text = pattern.sub(replacement, text)
    return text


def compare(served: subprocess.CompletedProcess, real: subprocess.CompletedProcess) -> None:
    """Fail unless the two runs' status, stdout and stderr are the same, less RUN_TO_RUN."""
    differ = [
        "".join(difflib.unified_diff(run_to_run(r).splitlines(True), run_to_run(s).splitlines(True), "real", "served"))
        for r, s in zip((real.stdout, real.stderr), (served.stdout, served.stderr), strict=True)
        if run_to_run(r) != run_to_run(s)
    ]
    assert served.returncode == real.returncode, (served.returncode, real.returncode, real.stderr)
    assert not differ, "the fork server's run differs from a real one:\n" + "\n".join(differ)


_servers: list = []


def fork_server(env: dict):
    """This process's fork server, started on the first call with ``env``. If it refused to serve, every call is a
    real run, and tests/core/test_it_forkserver.py fails saying why."""
    if not _servers:
        from tests.forkserver import ForkServer

        server = ForkServer(ROOT, env)
        atexit.register(server.close)
        _servers.append(server)
    return _servers[0]


def template_dirs() -> list[Path]:
    """Where the app's templates are: the project's and each registered ruleset's own."""
    from django.conf import settings

    return [Path(settings.BASE_DIR) / "templates", *(r.folder / "templates" for r in all_rulesets())]


@contextmanager
def kept_for_the_module(django_db_blocker):
    """Rows written inside the ``with`` (under ``django_db_blocker.unblock()``) stay for every test
    of a module and are gone when it ends: one transaction around the module's tests, each of
    which runs in a savepoint of its own (pytest-django's ``db``), starts from those rows and
    leaves them as they were. For a module-scoped fixture whose rows cost much to write; give each
    test fresh instances (``Game.objects.get``), not the fixture's own objects."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def was_links(page: str) -> list[str]:
    """The links of an edit's question that carry 「原来」: the stored hand's answer."""
    return [a.attrs["href"] for a in parse(page).find_all("a") if a.attrs.get("href") and a.find(cls="was-mark")]


def edit_sheet(client, url: str, **extra):
    """修改 tapped through: from ``url`` (a hand's edit page) each question's 原来 answer, up to
    the sheet; its response."""
    response = client.get(url, **extra)
    for _question in range(8):
        was = was_links(response.content.decode())
        if not was:
            return response
        response = client.get(was[0], **extra)
    raise AssertionError("no sheet after 8 questions")
