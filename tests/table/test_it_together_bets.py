"""一起修改 walks the later hand's questions and sheet as 修改 of one hand does; a 下子 the earlier
edit made impossible is shown on that sheet with the reason and an untick, the preview and the
confirm refused until it is unticked, never dropped silently (docs/rules/yiwu.md §8)."""

import re

from scoring import services
from scoring.engine import score_game
from scoring.models import Game, Hand
from scoring.replay import build, stored_replay
from tests.conftest import new_ruleset_game
from tests.helpers import element, game_url, link, messages_of, parse, text_of, version_of, was_links

NO_BET = "第3局：只有庄家胡牌后的下一局才能下子"


def recorded(game: Game, *entries: dict) -> None:
    for seq, entry in enumerate(entries, start=1):
        services.record_hand(game=game, entry=entry, fix=None, next_seq=seq, form_token=f"t{seq}", entered_by="")


def sheet_fields(page: str) -> dict:
    """The sheet's fields as the phone posts them (ticked boxes, chosen options, hidden values)."""
    form = parse(page).find("form", id="hand-form")
    fields: dict = {}
    for tag in form.elements():
        name = tag.attrs.get("name")
        if tag.tag not in ("input", "select") or not name or "disabled" in tag.attrs:
            continue
        if tag.attrs.get("type") in ("checkbox", "radio") and "checked" not in tag.attrs:
            continue
        if tag.tag == "select":
            chosen = [o.attrs.get("value", "") for o in tag.find_all("option") if "selected" in o.attrs]
            if chosen:
                fields[name] = chosen[:1]
        else:
            fields.setdefault(name, []).append(tag.attrs.get("value", ""))
    return fields


def through_questions(client, url: str) -> tuple[list[str], str]:
    """From ``url``, tap each question's 原来 answer: the questions' pages, then the sheet."""
    pages, page = [], client.get(url).content.decode()
    while was := was_links(page):
        assert len(pages) < 8, "no sheet after 8 questions"
        pages.append(page)
        page = client.get(was[0]).content.decode()
    return pages, page


def refused_edit(client, game: Game, winner: str, how: str) -> str:
    """修改第2局 tapped: ``winner``, then ``how``; the refused preview that offers 一起修改第3局."""
    first = client.get(game_url(game) + "hand/2/edit").content.decode()
    assert "谁胡了？" in first
    page = client.get(link(first, winner)).content.decode()
    page = client.get(link(page, how)).content.decode()
    assert "一起修改第3局" in text_of(page)
    assert "确认修改" not in text_of(page)
    return page


def stored(game: Game) -> list[tuple[dict, int]]:
    return [(h.entry, h.revision) for h in Hand.objects.filter(game=game).order_by("seq")]


def engine_totals(game: Game, entries: list[dict]) -> list:
    """What the engine's own door says of ``entries`` played in ``game``."""
    out = score_game({"ruleset": game.ruleset, "rules": game.rules, "first_dealer": 0, "hands": entries})
    return out["totals"]


# 老王 deals. 1: a draw; 2: 老王 自摸 (a dealer win: 下子 open); 3: 阿华 下1, then 大刘 自摸.
DRAW = {"outcome": "draw"}
DEALER_ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}
BET_HAND = {"outcome": "win", "winner": 3, "win_type": "zimo", "xiazi_join": [2]}


def test_the_later_hands_bet_is_shown_invalid_and_the_edit_waits_for_its_untick(client, game):
    recorded(game, DRAW, DEALER_ZIMO, BET_HAND)
    before = stored(game)
    refused = refused_edit(client, game, "小李", "自摸")  # 小李 won hand 2: no dealer win, no 下子
    assert NO_BET in text_of(refused)
    questions, sheet = through_questions(client, link(refused, "一起修改第3局"))
    # the same questions as recording and as 修改 of one hand, each with its 原来 answer
    assert "谁胡了？" in questions[0]
    assert "修改第3局" in questions[0]
    assert "连同第2局的修改" in text_of(questions[0])
    assert "怎么胡？" in questions[1]
    # the sheet: 阿华's 下子 still ticked, marked with the reason and the way to untick it
    assert re.search(r'name="xz2" value="1" id="xz2" checked', sheet)
    note = text_of(element(sheet, '<div class="form-text text-danger mt-0 bet-invalid-note"'))
    assert note == "阿华 · " + NO_BET
    untick = element(
        sheet, '<label class="small text-danger text-decoration-underline tap-target bet-untick" for="xz2"'
    )
    assert text_of(untick) == "← 点掉它，才能预览"
    assert '<details class="more mt-2 border rounded p-2" open>' in sheet
    assert NO_BET in text_of(element(sheet, '<div id="preview-panel"'))
    assert "确认修改" not in text_of(sheet)

    fields = sheet_fields(sheet)
    assert fields["xz2"] == ["1"]
    # 更新预览 with the bet still ticked: refused again, the bet still there
    again = client.post(game_url(game) + "hand/3/edit", fields).content.decode()
    assert NO_BET in text_of(element(again, '<div id="preview-panel"'))
    assert 'id="xz2" checked' in again
    # 确认修改 without unticking: refused on the page, nothing changed
    forced = client.post(game_url(game) + "hand/3/edit", {**fields, "confirm": "1", "version": version_of(game)})
    assert forced.status_code == 200
    assert NO_BET in text_of(element(forced.content.decode(), '<div id="preview-panel"'))
    assert stored(game) == before

    # unticked: one preview of both, then one 确认修改
    unticked = {k: v for k, v in fields.items() if k != "xz2"}
    preview = client.post(game_url(game) + "hand/3/edit", unticked).content.decode()
    assert "确认修改" in text_of(preview)
    assert NO_BET not in text_of(preview)
    done = client.post(game_url(game) + "hand/3/edit", sheet_fields(preview) | {"confirm": "1"})
    assert done.status_code == 302, text_of(done.content.decode())
    assert "已一起修改第2、3局" in " ".join(messages_of(client.get(done["Location"])))
    hands = list(Hand.objects.filter(game=game).order_by("seq"))
    assert [h.revision for h in hands] == [0, 1, 1]
    assert hands[1].entry == {"outcome": "win", "winner": 1, "win_type": "zimo"}
    assert hands[2].entry == {"outcome": "win", "winner": 3, "win_type": "zimo"}
    game.refresh_from_db()
    engine = score_game({"ruleset": "yiwu", "rules": game.rules, "first_dealer": 0, "hands": [h.entry for h in hands]})
    assert stored_replay(game, None).totals == build(game).totals == engine["totals"]
    assert [h.result["net"] for h in hands] == [r["net"] for r in engine["hands"]]


def test_a_buy_in_the_edit_made_impossible_is_shown_to_untick_too(client, make_game):
    """买子 only on a dealer's first hand (§7, house rule tenure_start): 小李's 自摸 in hand 2 made
    hand 3 the first of 小李's deal; as a draw it is 老王's third, and 大刘's 买子 there cannot stand."""
    game = make_game(maizi_buy="tenure_start")
    recorded(
        game, DRAW, {"outcome": "win", "winner": 1, "win_type": "zimo"}, {"outcome": "draw", "maizi": [0, 0, 0, 1]}
    )
    first = client.get(game_url(game) + "hand/2/edit").content.decode()
    refused = client.get(link(first, "流局")).content.decode()
    _questions, sheet = through_questions(client, link(refused, "一起修改第3局"))
    tag = re.search(r'<input type="checkbox" class="btn-check" name="maizi" value="3"[^>]*>', sheet)[0]
    assert re.search(r"\schecked\b", tag)
    assert "disabled" not in tag  # it can be unticked
    note = text_of(element(sheet, '<div class="form-text text-danger mt-0 bet-invalid-note"'))
    assert note == "大刘 · 第3局：连庄后不可买子"
    assert 'class="small text-danger text-decoration-underline tap-target bet-untick" for="mz3"' in sheet
    fields = sheet_fields(sheet)
    assert fields["maizi"] == ["3"]
    assert "确认修改" not in text_of(client.post(game_url(game) + "hand/3/edit", fields).content.decode())
    preview = client.post(game_url(game) + "hand/3/edit", {k: v for k, v in fields.items() if k != "maizi"})
    assert "确认修改" in text_of(preview.content.decode())


def test_an_up_to_bet_is_shown_as_it_was_placed(client, make_game):
    """下子 up to the dealer's multiplier (house rule up_to): the impossible bet keeps its amount."""
    game = make_game(xiazi_amount="up_to")
    recorded(game, DRAW, DEALER_ZIMO, {**BET_HAND, "xiazi_join": {"2": 2}})
    refused = refused_edit(client, game, "小李", "自摸")
    _questions, sheet = through_questions(client, link(refused, "一起修改第3局"))
    assert re.search(r'name="xz2" value="2" id="xz2" checked', sheet)
    assert not re.search(r'<select name="xz2"', sheet)
    assert "阿华 下2" in text_of(sheet)


# 诸暨, no bets: 阿强 deals and wins hand 2 (so deals hand 3); 3: 阿强 天胡.
ZHUJI = ["阿强", "阿芳", "老周", "小陈"]
ZJ_WIN = {"outcome": "win", "winner": 0, "tai": {"dragon_pungs": ["zhong"]}}
ZJ_TIANHU = {"outcome": "win", "winner": 0, "tai": {"special": "tianhu"}}
NOT_DEALER = "第3局：天胡只有庄家才能胡"


def test_a_ruleset_without_bets_walks_the_same_taps(client, db):
    game = new_ruleset_game("zhuji", ZHUJI)
    recorded(game, {"outcome": "draw"}, ZJ_WIN, ZJ_TIANHU)
    before = stored(game)
    refused = refused_edit(client, game, "阿芳", "自摸")  # 阿芳 won hand 2: she deals hand 3
    assert NOT_DEALER in text_of(refused)
    questions, sheet = through_questions(client, link(refused, "一起修改第3局"))
    assert "谁胡了？" in questions[0]
    assert "修改第3局" in questions[0]
    assert "连同第2局的修改" in text_of(questions[0])
    # 天胡 still chosen on the sheet, with its reason; no 确认修改 until it is changed
    assert re.search(r'value="tianhu" id="sp-tianhu" checked', sheet)
    assert "天胡只有庄家才能胡" in text_of(sheet)
    assert "确认修改" not in text_of(sheet)
    fields = sheet_fields(sheet)
    forced = client.post(game_url(game) + "hand/3/edit", {**fields, "confirm": "1", "version": version_of(game)})
    assert NOT_DEALER in text_of(forced.content.decode())
    assert stored(game) == before
    # 天胡 taken off, 红中 tapped instead: one preview of both, one 确认修改
    changed = {**fields, "special": [""], "dragons": ["zhong"]}
    preview = client.post(game_url(game) + "hand/3/edit", changed).content.decode()
    assert "确认修改" in text_of(preview), text_of(preview)
    done = client.post(game_url(game) + "hand/3/edit", sheet_fields(preview) | {"confirm": "1"})
    assert done.status_code == 302, text_of(done.content.decode())
    assert "已一起修改第2、3局" in " ".join(messages_of(client.get(done["Location"])))
    hands = list(Hand.objects.filter(game=game).order_by("seq"))
    assert [h.revision for h in hands] == [0, 1, 1]
    assert hands[1].entry["winner"] == 1
    assert hands[2].entry["tai"] == {"dragon_pungs": ["zhong"]}
    game.refresh_from_db()
    assert stored_replay(game, None).totals == build(game).totals == engine_totals(game, [h.entry for h in hands])
