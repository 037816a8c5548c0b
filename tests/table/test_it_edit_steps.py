"""修改 is the record flow again: its questions from the first, each marking the stored hand's
answer 原来, then the sheet filled in as the hand was, the preview and 确认修改. An edit that
breaks a later hand names it and offers to fix or void that hand too, confirmed together."""

import html as entities
import re

import pytest

from scoring.models import Hand
from scoring.replay import build, stored_replay
from tests.conftest import new_ruleset_game
from tests.helpers import game_url, messages_of, record, text_of, version_of

DEALER_ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}
SOUTH_ZIMO = {"outcome": "win", "winner": 1, "win_type": "zimo"}
LINK = re.compile(r'<a [^>]*href="([^"]+)"[^>]*>((?:(?!</a>).)*)</a>', re.S)


def marked(page: str) -> list[str]:
    """The links of a question that carry 「原来」."""
    return [entities.unescape(href) for href, inner in LINK.findall(page) if "was-mark" in inner]


def link_to(page: str, words: str) -> str:
    return next(entities.unescape(href) for href, inner in LINK.findall(page) if words in text_of(inner))


def through_originals(client, url: str) -> tuple[list[str], str]:
    """Tap each question's 原来 answer from ``url`` until the sheet: the questions' pages, the sheet."""
    pages = []
    page = client.get(url).content.decode()
    for _question in range(8):
        was = marked(page)
        if not was:
            return pages, page
        assert len(was) == 1, was  # one old answer per question
        pages.append(page)
        page = client.get(was[0]).content.decode()
    raise AssertionError("no sheet after 8 questions")


def confirm_fields(page: str) -> dict:
    """The preview form's fields as the phone posts them with 确认修改."""
    start = page.index('<form id="hand-form"')
    form = page[start : page.index("</form>", start)]
    fields: dict = {}
    for tag in re.findall(r"<(?:input|select)[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or (('type="checkbox"' in tag or 'type="radio"' in tag) and "checked" not in tag):
            continue
        value = re.search(r'value="([^"]*)"', tag)
        fields.setdefault(name[1], []).append(entities.unescape(value[1]) if value else "")
    for name, value in re.findall(r'<select name="([^"]+)".*?<option value="([^"]*)" selected', form, re.S):
        fields[name] = [value]
    return {**fields, "confirm": "1"}


def ledger_is_the_replay(game) -> None:
    game.refresh_from_db()
    assert stored_replay(game, None).totals == build(game).totals


def test_edit_starts_at_the_first_question_with_the_old_answers_marked(client, game):
    record(client, game, {**DEALER_ZIMO, "maizi": [False, True, False, False]})
    record(client, game, SOUTH_ZIMO)
    questions, sheet = through_originals(client, game_url(game) + "hand/1/edit")
    assert "谁胡了？" in questions[0]
    assert "修改第1局" in questions[0]
    assert "怎么胡？" in questions[1]
    assert "原来" in text_of(questions[0])
    assert "确认修改" not in questions[0]
    assert re.search(r'id="mz1" checked', sheet)  # the 买子 stored with the hand
    assert "确认修改" in sheet
    assert "原来" not in text_of(sheet)
    # every question is a plain link back: 「改胡牌者」 returns to the first, 买子 kept
    back = client.get(link_to(questions[1], "改胡牌者")).content.decode()
    assert "谁胡了？" in back
    assert "maizi=1" in entities.unescape(back)


def test_an_edit_confirmed_through_the_steps_changes_the_amounts(client, game):
    record(client, game, DEALER_ZIMO)
    record(client, game, SOUTH_ZIMO)
    first = client.get(game_url(game) + "hand/1/edit").content.decode()
    how = client.get(link_to(first, "阿华")).content.decode()  # 阿华 won it, not the dealer
    assert "阿华 胡了" in text_of(how)
    assert marked(how) == [link_to(how, "自摸")]
    sheet = client.get(link_to(how, "自摸")).content.decode()
    response = client.post(game_url(game) + "hand/1/edit", confirm_fields(sheet))
    assert response.status_code == 302
    assert Hand.objects.get(seq=1).entry["winner"] == 2
    ledger_is_the_replay(game)
    assert stored_replay(game, None).totals != [0, 0, 0, 0]


@pytest.mark.parametrize(
    ("code", "names", "entry", "checked"),
    [
        (
            "zhuji",
            ["阿强", "阿芳", "老周", "小陈"],
            {"outcome": "win", "winner": 1, "discarder": 0, "tai": {"dragon_pungs": ["zhong"], "shape": "duiduihu"}},
            ['id="dr-zhong" checked', 'id="sh-duiduihu" checked'],
        ),
        (
            "wuyi2",
            ["老王", "阿芳"],
            {"outcome": "win", "winner": 1, "patterns": ["pengpenghu"]},
            ['id="pt-pengpenghu" checked'],
        ),
        (
            "hangzhou",
            ["老王", "小李", "阿华", "大刘"],
            {"outcome": "win", "winner": 2, "patterns": ["qidui"]},
            ['id="pt-qidui"'],
        ),
    ],
)
def test_each_ruleset_edits_from_the_stored_answers(client, db, code, names, entry, checked):
    game = new_ruleset_game(code, names)
    assert record(client, game, entry).status_code == 302
    questions, sheet = through_originals(client, game_url(game) + "hand/1/edit")
    assert questions
    assert "谁胡了？" in questions[0]
    for mark in checked:
        assert re.search(mark + r"[^>]*checked" if "checked" not in mark else mark, sheet), mark
    before, stored = stored_replay(game, None).totals, Hand.objects.get().entry
    assert client.post(game_url(game) + "hand/1/edit", confirm_fields(sheet)).status_code == 302
    assert (Hand.objects.get().entry, Hand.objects.get().revision) == (stored, 1)
    assert stored_replay(game, None).totals == before  # the same answers: the same amounts
    ledger_is_the_replay(game)


def test_a_manual_hand_opens_its_form_filled_in(client, game):
    manual = {"outcome": "manual", "n0": "-10", "n1": "5", "n2": "3", "n3": "2", "note": "诈胡罚分"}
    client.post(game_url(game) + "record", {**manual, "next_seq": "1", "version": version_of(game), "confirm": "1"})
    assert Hand.objects.get().entry["note"] == "诈胡罚分"
    page = client.get(game_url(game) + "hand/1/edit").content.decode()
    assert 'value="诈胡罚分"' in page
    assert "确认修改" in page


def broken_later_hand(client, game) -> str:
    """东 自摸, then a draw with 小李 下子 (allowed after a dealer win); the edit page of hand 1
    made 小李 自摸, which leaves that 下子 impossible."""
    record(client, game, DEALER_ZIMO)
    record(client, game, {"outcome": "draw", "xiazi_join": [1]})
    first = client.get(game_url(game) + "hand/1/edit").content.decode()
    how = client.get(link_to(first, "小李")).content.decode()
    return client.get(link_to(how, "自摸")).content.decode()


def test_an_edit_that_breaks_a_later_hand_offers_both_ways(client, game):
    refused = broken_later_hand(client, game)
    said = text_of(refused)
    assert "第2局：" in said
    assert "一起修改第2局" in said
    assert "作废第2局" in said
    assert "确认修改" not in said
    # confirming it anyway changes nothing and offers the same
    again = client.post(game_url(game) + "hand/1/edit", {**confirm_fields(refused), "version": version_of(game)})
    assert "一起修改第2局" in text_of(again.content.decode())
    assert Hand.objects.get(seq=1).revision == 0


def draw_without_the_bet(client, game, first: str) -> dict:
    """Hand 2's questions: 流局; its sheet no longer offers 小李 下子 (refused there), so 更新预览
    previews both changes; the fields its 确认修改 posts."""
    sheet = client.get(link_to(first, "流局")).content.decode()
    assert "只有庄家胡牌后的下一局才能下子" in sheet
    fields = {k: v for k, v in confirm_fields(sheet).items() if k != "confirm"}
    preview = client.post(game_url(game) + "hand/2/edit", fields).content.decode()
    assert "第1局" in text_of(preview)
    assert "确认修改" in preview
    return confirm_fields(preview)


def test_fixing_the_later_hand_too_confirms_both_once(client, game):
    refused = broken_later_hand(client, game)
    first = client.get(link_to(refused, "一起修改第2局")).content.decode()
    assert "修改第2局" in first
    assert "连同第1局的修改" in text_of(first)
    fields = draw_without_the_bet(client, game, first)
    response = client.post(game_url(game) + "hand/2/edit", fields)
    assert response.status_code == 302, text_of(response.content.decode())
    assert "已一起修改第1、2局" in " ".join(messages_of(client.get(response["Location"])))
    one, two = Hand.objects.order_by("seq")
    assert (one.entry["winner"], one.revision, two.revision) == (1, 1, 1)
    assert "xiazi_join" not in two.entry
    again = client.post(game_url(game) + "hand/2/edit", fields, follow=True)  # the same confirm again
    assert any("刚被别人改过" in m for m in messages_of(again))  # nothing twice
    assert [h.revision for h in Hand.objects.order_by("seq")] == [1, 1]
    ledger_is_the_replay(game)


def test_voiding_the_later_hand_with_the_edit_confirms_both_once(client, game):
    refused = broken_later_hand(client, game)
    page = client.get(link_to(refused, "作废第2局")).content.decode()
    assert "作废第2局？" in page
    assert "连同第1局的修改" in text_of(page)
    posted = {
        "reason": "记错了",
        "revision": "0",
        "version": version_of(game),
        "keep_bets": "1",
        "with": entities.unescape(re.search(r'name="with" value="([^"]+)"', page)[1]),
    }
    response = client.post(game_url(game) + "hand/2/void", posted)
    assert response.status_code == 302
    one, two = Hand.objects.order_by("seq")
    assert one.entry["winner"] == 1
    assert two.voided
    assert (one.revision, two.revision) == (1, 1)
    client.post(game_url(game) + "hand/2/void", posted)  # again: nothing twice
    assert [h.revision for h in Hand.objects.order_by("seq")] == [1, 1]
    ledger_is_the_replay(game)


def test_a_stale_preview_of_both_is_refused(client, game):
    refused = broken_later_hand(client, game)
    first = client.get(link_to(refused, "一起修改第2局")).content.decode()
    fields = draw_without_the_bet(client, game, first)
    record(client, game, SOUTH_ZIMO)  # another phone records a hand meanwhile
    response = client.post(game_url(game) + "hand/2/edit", fields, follow=True)
    assert any("请看新的预览" in m for m in messages_of(response))
    assert [h.revision for h in Hand.objects.order_by("seq")] == [0, 0, 0]


def test_a_broken_link_of_changes_changes_nothing(client, game):
    record(client, game, DEALER_ZIMO)
    response = client.get(game_url(game) + "hand/1/edit?with=forged&outcome=draw", follow=True)
    assert any("链接已损坏" in m for m in messages_of(response))
    response = client.post(
        game_url(game) + "hand/1/void",
        {"with": "forged", "reason": "x", "revision": "0", "version": version_of(game)},
        follow=True,
    )
    assert any("链接已损坏" in m for m in messages_of(response))
    assert Hand.objects.get().revision == 0
    assert not Hand.objects.get().voided
