"""诸暨's whole evening (the one tests/browser/evenings/zhuji.py began with), sheet by sheet
through the Django client: what each sheet previews (its title and the winner's net), the notes
and refusals its panel says, the links that carry the chips, the stored hands, and the game page's
totals against score_game. The browser test keeps what needs a phone: the taps themselves."""

import re
from fractions import Fraction

from scoring.engine import score_game
from scoring.models import Hand
from tests.conftest import new_ruleset_game
from tests.helpers import (
    after_of,
    dealer_tile,
    edit_sheet,
    element,
    form_fields,
    game_url,
    link,
    next_seq_of,
    panel_note,
    preview_of,
    record,
    sheet_tap,
    totals_on_page,
    version_of,
)

NAMES = ["老王", "小李", "阿华", "大刘"]  # seats 0-3; 老王 deals first
NEED_ONE_TAI = "至少要1台才能胡（无财、杠开除外）"


def win(winner: int, discarder: int | None = None, **tai) -> dict:
    entry = {"outcome": "win", "winner": winner}
    if discarder is not None:
        entry["discarder"] = discarder
    return {**entry, "tai": tai}


def previews(html: str, title: str, winner: str, net: str) -> None:
    """The panel previews ``title`` with ``net`` for the winner, and offers 确认."""
    shown, nets = preview_of(html)
    assert (shown, nets[winner]) == (title, net)
    assert panel_note(html) == ("", "", True)


def test_a_zhuji_evening_sheet_by_sheet(client, db):
    game = new_ruleset_game("zhuji", NAMES)
    record_url = game_url(game) + "record"
    expected = []

    # 1. 小李 自摸 平胡: the sheet opens saying what it needs, plainly; 平胡 is 1台
    opened = client.get(record_url + "?outcome=win&winner=1&zimo=on").content.decode()
    assert panel_note(opened) == (NEED_ONE_TAI, "", False)
    previews(sheet_tap(client, game, win(1, shape="pinghu")), "小李 自摸 1台", "小李", "+6")
    expected.append(win(1, shape="pinghu"))
    record(client, game, expected[-1])
    assert "小李" in dealer_tile(client, game)

    # 2. 小李 deals. 大刘's question, and the way back to 谁胡了; 阿华 自摸 中 发, then 「改」 to
    #    老王's discard carries both chips; her own wind 南, 对对胡, 混一色, and 1 其他台
    how = client.get(record_url + "?outcome=win&winner=3").content.decode()
    assert "大刘 胡了 — 自摸，还是谁放冲？" in how
    assert "谁胡了？" in client.get(link(how, "←改胡牌者")).content.decode()
    sheet = client.get(record_url + "?outcome=win&winner=2&zimo=on").content.decode()
    assert "阿华 · 自摸" in sheet
    assert "{#" not in element(sheet, '<main class="container-sm py-2" id="main"')  # no template comment leaks
    own = re.search(r'<label class="([^"]*)" for="wd-nan">(.*?)</label>', sheet)
    assert "own-wind" in own[1].split()
    assert "阿华 · 自己" in own[2]
    head = sheet_tap(client, game, win(2, dragon_pungs=["zhong", "fa"]))
    previews(head, "阿华 自摸 2台", "阿华", "+12")
    how = client.get(link(head, "改")).content.decode()
    assert "阿华 胡了 — 自摸，还是谁放冲？" in how
    sheet = client.get(link(how, "老王放冲")).content.decode()
    assert "阿华 · 老王放冲" in sheet
    assert re.search(r'id="dr-zhong" checked', sheet)
    assert re.search(r'id="dr-fa" checked', sheet)
    previews(sheet, "阿华 2台 · 老王放冲", "阿华", "+8")
    pungs = {"dragon_pungs": ["zhong", "fa"], "wind_pungs": ["nan"], "shape": "duiduihu", "hunyise": True}
    previews(sheet_tap(client, game, win(2, 0, **pungs)), "阿华 5台 · 老王放冲", "阿华", "+64")
    previews(sheet_tap(client, game, win(2, 0, **pungs, extra=2)), "阿华 7台 · 老王放冲", "阿华", "+256")
    head = sheet_tap(client, game, win(2, 0, **pungs, extra=1))
    previews(head, "阿华 6台 · 老王放冲", "阿华", "+128")  # 老王 64, 小李 and 大刘 32 each
    assert preview_of(head)[1] == {"老王": "−64", "小李": "−32", "阿华": "+128", "大刘": "−32"}
    assert after_of(head)["阿华"] == "+126"  # 阿华 −2 → +126
    expected.append(win(2, 0, **pungs, extra=1))
    record(client, game, expected[-1])

    # 3. 阿华 deals. 大刘 on 小李's discard: 北 (小李's wind) is 0台 for 大刘, so still a note;
    #    无财 at 0台 pays halves
    head = sheet_tap(client, game, win(3, 1, wind_pungs=["bei"]))
    assert panel_note(head) == (NEED_ONE_TAI, "", False)
    head = sheet_tap(client, game, win(3, 1, wind_pungs=["bei"], no_caishen=True))
    previews(head, "大刘 0台 · 小李放冲", "大刘", "+2")
    assert "0.5" in element(head, '<ul class="list-unstyled small mb-0 why"')
    expected.append(win(3, 1, wind_pungs=["bei"], no_caishen=True))
    record(client, game, expected[-1])

    # 4. 大刘 deals (东 is worth 2 to the dealer): 杠开 自摸 with 东, 白 and 西; 平胡 with pungs
    #    is refused, 其他 is not
    sheet = {"dragon_pungs": ["bai"], "wind_pungs": ["dong", "xi"], "gangkai": True}
    requirement, refusal, offers = panel_note(sheet_tap(client, game, win(3, **sheet, shape="pinghu")))
    assert "平胡四副都是顺子" in refusal
    assert (requirement, offers) == ("", False)
    previews(sheet_tap(client, game, win(3, **sheet)), "大刘 自摸 3台", "大刘", "+24")
    expected.append(win(3, **sheet))
    record(client, game, expected[-1])

    # 5. 大刘 deals on; 老王 robs his kong: 平胡 + 抢杠 = 2台
    assert "连1" in dealer_tile(client, game)
    previews(sheet_tap(client, game, win(0, 3, shape="pinghu", qianggang=True)), "老王 2台 · 大刘放冲", "老王", "+8")
    expected.append(win(0, 3, shape="pinghu", qianggang=True))
    record(client, game, expected[-1])

    # 6. 老王 deals: 全字, then 天胡 instead (one special at a time): a flat 8台
    previews(sheet_tap(client, game, win(0, special="quanzi")), "老王 自摸 8台", "老王", "+768")
    previews(sheet_tap(client, game, win(0, special="tianhu")), "老王 自摸 8台", "老王", "+768")
    expected.append(win(0, special="tianhu"))
    record(client, game, expected[-1])

    # 7. 小李 地胡 on the dealer 老王's first discard; 全字 then — (no special) is a note again
    previews(sheet_tap(client, game, win(1, 0, special="quanzi")), "小李 8台 · 老王放冲", "小李", "+512")
    assert panel_note(sheet_tap(client, game, win(1, 0))) == (NEED_ONE_TAI, "", False)
    previews(sheet_tap(client, game, win(1, 0, special="dihu")), "小李 8台 · 老王放冲", "小李", "+512")
    expected.append(win(1, 0, special="dihu"))
    record(client, game, expected[-1])

    # 8. a draw
    draw = client.get(record_url + "?outcome=draw").content.decode()
    assert "流局" in element(draw, '<div id="preview-panel"')
    expected.append({"outcome": "draw"})
    record(client, game, expected[-1])

    # 9. 阿华 自摸 全字
    previews(sheet_tap(client, game, win(2, special="quanzi")), "阿华 自摸 8台", "阿华", "+768")
    expected.append(win(2, special="quanzi"))
    record(client, game, expected[-1])
    assert next_seq_of(game) == "10"

    # edit hand 2: no 混一色 and no 其他台 after all (4台)
    edit = edit_sheet(client, game_url(game) + "hand/2/edit").content.decode()
    assert "修改第2局" in edit
    assert re.search(r'id="fl-hunyise" checked', edit)
    assert re.search(r'name="extra" id="id_extra" [^>]*value="1"', edit)
    fixed = win(2, 0, dragon_pungs=["zhong", "fa"], wind_pungs=["nan"], shape="duiduihu")
    previews(sheet_tap(client, game, fixed, "hand/2/edit", revision="0"), "阿华 4台 · 老王放冲", "阿华", "+32")
    confirmed = {**form_fields(fixed, game), "revision": "0", "version": version_of(game), "confirm": "1"}
    assert client.post(game_url(game) + "hand/2/edit", confirmed).status_code == 302
    expected[1] = fixed

    # void hand 4 (大刘's 杠开 自摸; he deals on either way)
    assert "作废第4局？" in client.get(game_url(game) + "hand/4/void").content.decode()
    voiding = {"version": version_of(game), "reason": "记错了", "revision": "0"}
    assert client.post(game_url(game) + "hand/4/void", voiding).status_code == 302
    voided = expected.pop(3)
    assert voided["tai"]["gangkai"]

    # the stored hands are the ones previewed, and the game page agrees with score_game, halves and all
    stored = [h.entry for h in Hand.objects.filter(game=game, voided_at__isnull=True).order_by("seq")]
    assert stored == expected
    game.refresh_from_db()
    result = score_game({"ruleset": "zhuji", "rules": game.rules, "first_dealer": game.first_dealer, "hands": stored})
    totals = [Fraction(str(t)) for t in result["totals"]]
    assert sum(totals) == 0
    assert any(t.denominator == 2 for t in totals)  # hand 3's halves
    page = client.get(game_url(game)).content.decode()
    assert [Fraction(t.replace("\u2212", "-")) for t in totals_on_page(page)] == totals
    assert re.fullmatch(r"[+\u2212]\d+\.5", totals_on_page(page)[0])  # 老王's half, written as .5
    assert "voided" in re.search(r'<details class="([^"]*)" id="hand-4"', page)[1].split()
