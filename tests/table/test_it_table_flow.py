"""The evening of tests/browser/evenings/yiwu.py as it was first written (six hands of every kind,
an edit, a void), replayed through the Django client: every amount and message that browser test
read off the phone (each preview's, the dealer's 连庄 mark, the edit's prompts, the voided row) is
read here off the pages the server sends for the same inputs, and the totals and stored hands
agree with score_game. The browser test keeps the taps, the swaps and the form's own behaviour,
with the hands that only repeat a path it has tapped recorded as setup."""

import re

from scoring.engine import score_game
from scoring.models import Game, Hand
from tests.helpers import edit_sheet, form_fields, game_url, new_game_form, record, totals_on_page, version_of

NAMES = ["老王", "小李", "阿华", "大刘"]
HANDS = [
    {"outcome": "win", "winner": 0, "win_type": "zimo"},  # 1. the dealer 老王 自摸
    {"outcome": "win", "winner": 0, "win_type": "pinghu", "discarder": 2, "xiazi_join": [1]},  # 2. 下子 2
    {"outcome": "win", "winner": 0, "win_type": "caishentou"},  # 3. 连庄 again: 小李's bet doubles
    {"outcome": "win", "winner": 2, "win_type": "danpiao", "piao": {"player": 2, "level": 1}, "feeders": [1]},
    {"outcome": "draw"},  # 5.
    {"outcome": "win", "winner": 3, "win_type": "zimo"},  # 6., really 平胡 off 小李
]


def preview(client, game: Game, entry: dict) -> str:
    """The preview the entry form shows for ``entry`` (its fields posted without 确认, as htmx
    does when a field of the form changes)."""
    fields = {**form_fields(entry, game), "next_seq": game.hands.count() + 1, "version": version_of(game)}
    response = client.post(game_url(game) + "record", fields)
    assert response.status_code == 200
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def confirmed(client, game: Game, entry: dict) -> None:
    assert record(client, game, entry).status_code == 302


def test_the_evening_on_a_phone_says_every_amount_and_message_it_showed(client, db):
    client.post("/new", new_game_form(NAMES))
    game = Game.objects.get()
    assert "记一局：谁胡了？" in client.get(game_url(game)).content.decode()

    assert "+42" in preview(client, game, HANDS[0])
    confirmed(client, game, HANDS[0])
    assert "下子2" in preview(client, game, HANDS[1])  # 小李 ticked under 「更多」: the preview says so
    confirmed(client, game, HANDS[1])
    caishentou = client.get(game_url(game) + "record?winner=0&outcome=win&win_type=caishentou").content.decode()
    assert "下子4" in caishentou  # the form starts with the bet, doubled after another dealer win
    confirmed(client, game, HANDS[2])
    assert re.search(r'class="[^"]*tile-dealer.*?庄·连3', client.get(game_url(game)).content.decode(), re.S)
    assert "承包全赔" in preview(client, game, HANDS[3])  # 小李 fed 阿华's 单飘
    for entry in HANDS[3:]:
        confirmed(client, game, entry)

    # 6. was really 平胡 off 小李: the edit form starts from the stored hand and previews each change.
    edit = game_url(game) + "hand/6/edit"
    assert "大刘 自摸" in re.sub(r"<[^>]+>", "", edit_sheet(client, edit).content.decode())
    fields = {"outcome": "win", "winner": "3", "revision": "0", "version": version_of(game)}
    asked = client.post(edit, {**fields, "win_type": "pinghu"}).content.decode()
    assert "请选择谁放铳" in asked
    said = re.sub(
        r"<[^>]+>", "", client.post(edit, {**fields, "win_type": "pinghu", "discarder": "1"}).content.decode()
    )
    assert "小李放铳" in said
    assert client.post(edit, {**fields, "win_type": "pinghu", "discarder": "1", "confirm": "1"}).status_code == 302
    # 5. the draw was never played: void it.
    void = {"reason": "没打", "revision": "0", "version": version_of(game)}
    assert client.post(game_url(game) + "hand/5/void", void).status_code == 302
    page = client.get(game_url(game)).content.decode()
    assert re.search(r'<details class="[^"]*\bvoided\b[^"]*" id="hand-5"', page)

    expected = [*HANDS[:4], {"outcome": "win", "winner": 3, "win_type": "pinghu", "discarder": 1}]
    totals = score_game({"hands": expected})["totals"]
    assert totals_on_page(page) == [f"+{t}" if t > 0 else f"−{-t}" if t < 0 else "0" for t in totals]
    assert [h.entry for h in Hand.objects.filter(game=game, voided_at__isnull=True)] == expected
