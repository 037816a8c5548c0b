"""A ruleset defined only in the tests (this folder) walks every page of the app end to end, in
both languages: new game, the entry steps, preview, confirm, edit, void, undo, settle, summary,
chart, CSV, JSON export and import, the rules pages, history and stats; none answers a 500, and
none offers 算牌 (the toy has none).

The toy (rules.md): 老王 小李 阿华 大刘 (Ann Bob Cat Dan in English) in seats 东南西北, base 2
(the 「2分」 preset). 自摸: each of the three others pays 2 × 2 = 4. A discard: the discarder
alone pays 2 × 3 = 6. A draw pays nothing. The dealer keeps the deal on a win of their own,
else it passes to the next seat."""

import csv
import io
import json

import pytest
from django.conf import settings

from scoring.engine import all_rulesets, get_ruleset, score_game
from scoring.models import Game, Settlement
from scoring.replay import stored_replay
from scoring.rulesets import INSTALLED
from tests.core.test_it_english_pages import leaks
from tests.helpers import edit_sheet, game_url, record, totals_on_page, version_of

NAMES = {"zh-hans": ["老王", "小李", "阿华", "大刘"], "en": ["Ann", "Bob", "Cat", "Dan"]}
WORDS = {  # what each language's pages say of the toy
    "zh-hans": {
        "void": "记错了",
        "undo": "撤销",
        "no_analyse": "这个玩法没有算牌",
        "too_big": "确保该值小于或等于1000",
        "own_discard": "第2局：放冲的人不能是胡牌者自己",
        "name": "玩具麻将",
        "count": "份数",
        "self_drawn": "自摸",
        "zimo": "底分2 × 2 自摸",
        "discard": "底分2 × 3 放冲",
        "rules": "放冲的人一家付 2 × 3",
    },
    "en": {
        "void": "wrong",
        "undo": "undone",
        "no_analyse": "There is no Read tiles page for this ruleset",
        "too_big": "less than or equal to 1000",
        "own_discard": "Hand 2: The discarder cannot be the winner",
        "name": "Toy",
        "count": "Shares",
        "self_drawn": "self-drawn",
        "zimo": "base 2 × 2 self-drawn",
        "discard": "base 2 × 3 discard",
        "rules": "the discarder alone pays 2 × 3",
    },
}
ANALYSE_WORDS = ("算牌", "算一算", "/analyse")


def shown(points: list[int]) -> list[str]:
    """Totals as the game page prints them: +12, −4, 0."""
    return [f"+{t}" if t > 0 else f"−{-t}" if t < 0 else "0" for t in points]


class Pages:
    """Every page the walk reads: its status checked, each HTML page kept (an English page must
    read English throughout)."""

    def __init__(self):
        self.html: dict[str, str] = {}

    def ok(self, response, status: int = 200) -> str:
        assert response.status_code == status, (response.status_code, response.request["PATH_INFO"])
        text = response.content.decode("utf-8-sig")  # the CSV starts with a BOM
        if response.get("Content-Type", "").startswith("text/html") and text:
            self.html[f"{response.request['PATH_INFO']}?{response.request.get('QUERY_STRING', '')}"] = text
        return text


def no_analyse(html: str) -> None:
    assert not any(word in html for word in ANALYSE_WORDS)


def ledger(game: Game) -> list[int]:
    """The totals the replay holds, after checking that each hand that counts sums to zero and
    that the hands add up to them."""
    game.refresh_from_db()
    view = stored_replay(game, limit=None)
    counted = [row.result for row in view.rows if row.result is not None]
    for result in counted:
        assert sum(result.net) == 0
        paid = [0, 0, 0, 0]
        for p in result.payments:
            paid[p.payer] -= p.amount
            paid[p.payee] += p.amount
        assert paid == result.net
    added = [sum(r.net[s] for r in counted) for s in range(4)]
    assert added == list(view.totals)
    assert sum(view.totals) == 0
    return list(view.totals)


def table(game: Game) -> tuple[int, int]:
    """The dealer and 连庄 the next hand is played at."""
    game.refresh_from_db()
    return game.state["table"]["dealer"], game.state["table"]["streak"]


@pytest.fixture(params=["zh-hans", "en"])
def lang(request, client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = request.param
    return request.param


def test_the_toy_registers_last_after_the_installed_rulesets(toy):
    codes = [r.code for r in all_rulesets()]
    assert codes[-1] == "toy"
    assert codes[:-1] == list(INSTALLED)
    assert get_ruleset("toy") is not None
    assert toy.analyser is None


@pytest.fixture(params=["toy", "bare_toy"])
def walked(request):
    """The toy, and the toy whose form side overrides nothing (its rules lines are the toy's own)."""
    return request.getfixturevalue(request.param), request.param == "toy"


def test_a_toy_game_walks_every_page(client, db, walked, lang):
    """The same walk with a form side that overrides nothing: the plug-in class alone gets every page."""
    _ruleset, own_rules = walked
    words, names, pages = WORDS[lang], NAMES[lang], Pages()
    ok = pages.ok
    new_toy = {"ruleset": "toy", "first_dealer": "0", "preset": "2分", **{f"name{s}": n for s, n in enumerate(names)}}

    # 开新牌局: the chooser offers the toy; its form takes the names and the 「2分」 preset.
    chooser = ok(client.get("/new"))
    assert 'href="?ruleset=toy"' in chooser
    form = ok(client.get("/new?ruleset=toy"))
    assert 'value="2分"' in form
    assert 'name="name3"' in form
    too_big = ok(client.post("/new", {**new_toy, "preset": "custom", "base": "1001"}))  # base is 1..1000
    assert words["too_big"] in too_big
    assert not Game.objects.exists()
    response = client.post("/new", new_toy)
    game = Game.objects.get(ruleset="toy")
    assert response.status_code == 302
    assert response.url == game_url(game)
    assert game.players == names
    assert game.rules == {"base": 2}
    url = game_url(game)
    page = ok(client.get(url))
    no_analyse(page)
    assert totals_on_page(page) == shown([0, 0, 0, 0])

    # Hand 1, tap by tap: 老王 (the dealer) 自摸. Each other pays 2 × 2 = 4: 老王 +12.
    winner_step = ok(client.get(url + "record"))
    no_analyse(winner_step)
    how = client.get(url + "record?winner=0")
    assert how.context["step"] == "how"
    assert how.context["others"] == [(s, names[s]) for s in (1, 2, 3)]  # who may have discarded
    no_analyse(ok(how))
    preview = client.get(url + "record?winner=0&zimo=on")
    assert preview.context["step"] == "preview"
    assert [c[1:] for c in preview.context["change"]] == [(0, 12, 12), (0, -4, -4), (0, -4, -4), (0, -4, -4)]
    assert words["zimo"] in ok(preview)
    no_analyse(preview.content.decode())
    title = f"<bdi>{names[0]} {words['self_drawn']} ×2</bdi>"  # what the hand is paid on: 2 shares
    assert title in preview.content.decode()
    refresh = {"winner": "0", "zimo": "on", "next_seq": "1", "version": version_of(game)}
    part = ok(client.post(url + "record", refresh, HTTP_HX_REQUEST="true"))  # the form's own refresh
    assert part.lstrip().startswith('<div id="sheet">')
    assert title in part
    confirm = {"outcome": "win", "winner": "0", "zimo": "on", "confirm": "1", "next_seq": "1"}
    ok(client.post(url + "record", {**confirm, "version": version_of(game)}), 302)
    assert ledger(game) == [12, -4, -4, -4]
    assert table(game) == (0, 1)  # the dealer won: 连庄 1

    # A win on one's own discard is refused, in the page's language, and changes nothing.
    mine = {"outcome": "win", "winner": "2", "discarder": "2", "confirm": "1", "next_seq": "2"}
    assert words["own_discard"] in ok(client.post(url + "record", {**mine, "version": version_of(game)}))
    assert ledger(game) == [12, -4, -4, -4]

    # Hand 2: 阿华 wins on 小李's discard; 小李 alone pays 2 × 3 = 6. The deal passes to 小李.
    preview = client.get(url + "record?winner=2&discarder=1")
    assert [c[1:] for c in preview.context["change"]] == [(12, 12, 0), (-4, -10, -6), (-4, 2, 6), (-4, -4, 0)]
    assert words["discard"] in ok(preview)
    confirm = {"outcome": "win", "winner": "2", "discarder": "1", "confirm": "1", "next_seq": "2"}
    ok(client.post(url + "record", {**confirm, "version": version_of(game)}), 302)
    assert ledger(game) == [12, -10, 2, -4]
    assert table(game) == (1, 0)

    # Hand 3, a draw: nothing paid, the deal passes on. Hand 4: 大刘 自摸, 4 from each.
    ok(client.get(url + "record?outcome=draw"))
    ok(record(client, game, {"outcome": "draw"}), 302)
    assert ledger(game) == [12, -10, 2, -4]
    assert table(game) == (2, 0)
    ok(record(client, game, {"outcome": "win", "winner": 3}), 302)
    assert ledger(game) == [8, -14, -2, 8]
    assert table(game) == (3, 0)
    page = ok(client.get(url))
    assert totals_on_page(page) == shown([8, -14, -2, 8])
    no_analyse(page)

    # The manual hand's page (every ruleset has one) opens too.
    ok(client.get(url + "record?outcome=manual"))

    # Edit hand 4: it was 老王's discard, not a 自摸. 老王 pays 6: 12 − 6 = 6; 大刘 −4 + 6 = 2.
    edit = edit_sheet(client, url + "hand/4/edit")
    assert edit.context["form"]["zimo"].value()
    assert all(c[3] == 0 for c in edit.context["change"])
    no_analyse(ok(edit))
    changed = {"outcome": "win", "winner": "3", "discarder": "0", "revision": "0", "confirm": "1"}
    ok(client.post(url + "hand/4/edit", {**changed, "version": version_of(game)}), 302)
    assert ledger(game) == [6, -10, 2, 2]

    # Void hand 2: 小李 gets back 6, 阿华 gives back 6; the later hands replay.
    void = client.get(url + "hand/2/void")
    assert [c[2] for c in void.context["change"]] == [6, -4, -4, 2]
    ok(void)
    ok(client.post(url + "hand/2/void", {"reason": words["void"], "revision": "0", "version": version_of(game)}), 302)
    assert ledger(game) == [6, -4, -4, 2]

    # 撤销上一局: the void page of hand 4, then its confirm. Only hand 1 is left standing.
    undo = client.get(url + "undo")
    assert undo.status_code == 302
    assert "/hand/4/void" in undo.url
    ok(client.get(undo.url))
    revision = str(game.hands.get(seq=4).revision)
    ok(
        client.post(url + "hand/4/void", {"reason": words["undo"], "revision": revision, "version": version_of(game)}),
        302,
    )
    assert ledger(game) == [12, -4, -4, -4]
    page = ok(client.get(url))
    assert totals_on_page(page) == shown([12, -4, -4, -4])

    # The pages a game has while it is played.
    for path in ("?all=1", "poll?v=0", "share", "chart", "rules", "summary", "picture", "picture.svg", "settle"):
        ok(client.get(url + path))
    assert "<svg" in ok(client.get(url + "chart"))
    rules = ok(client.get(url + "rules"))
    assert (words["rules"] in rules) == own_rules
    assert "/rules/toy" in rules
    ok(client.get(game_url(game, view=True)))
    assert words["no_analyse"] in ok(client.get(url + "analyse"), 404)  # no 算牌: a 404 page saying so

    # 结算 at 1 元 a point: 小李, 阿华 and 大刘 each pay 老王 4 元.
    ok(client.get(url + "settle?rate=100&fee_mode=equal&fee_payee=0"))
    finish = {"rate": "100", "fee_yuan": "", "fee_mode": "equal", "fee_payee": "0", "version": version_of(game)}
    ok(client.post(url + "finish", finish), 302)
    settlement = Settlement.objects.get(game=game)
    assert settlement.points == [12, -4, -4, -4]
    assert sorted((t.payer, t.payee, t.amount_fen) for t in settlement.transfers.all()) == [
        (1, 0, 400),
        (2, 0, 400),
        (3, 0, 400),
    ]
    for path in ("settle", "summary", "picture", "picture.svg", "chart"):
        ok(client.get(url + path))

    # CSV: one row per payment of each hand that counts (the draw, 第2局 now, pays nothing), the
    # count column in the toy's word.
    rows = list(csv.reader(io.StringIO(ok(client.get(url + "export.csv")))))
    assert rows[0][5] == words["count"]
    counted = [r for r in rows[1:] if r[0]]
    paid = [(r[0], r[5], r[6], r[7], r[8]) for r in counted]
    assert paid == [*(("1", "2", n, names[0], "4") for n in names[1:]), ("2", "0", "", "", "")]

    # JSON export is the contract: the engine and a restore give the same totals.
    exported = client.get(url + "export.json")
    backup = json.loads(ok(exported))
    assert backup["ruleset"] == "toy"
    assert score_game(backup)["totals"] == [12, -4, -4, -4]
    ok(client.get("/import"))
    ok(client.post("/import", {"text": json.dumps(backup, ensure_ascii=False)}), 302)
    copy = Game.objects.exclude(pk=game.pk).get()
    assert copy.ruleset == "toy"
    assert ledger(copy) == [12, -4, -4, -4]
    assert totals_on_page(ok(client.get(game_url(copy)))) == shown([12, -4, -4, -4])

    # The rules document, and the lists that name the game's ruleset.
    document = ok(client.get("/rules/toy"))
    assert "<article" in document
    assert "base × 3" in document
    for path in ("/", "/history"):
        assert words["name"] in ok(client.get(path))
    assert names[0] in ok(client.get("/stats"))

    if lang == "en":  # every page in English: no Chinese outside tile faces and the rules document
        found = {url: leaks(html, skip=["article"]) for url, html in pages.html.items()}
        assert {url: bad for url, bad in found.items() if bad} == {}
