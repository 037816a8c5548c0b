"""The evening of tests/browser/test_seating_evening.py as it was first written (2 圈, a substitute
before hand 5, a swap when the first round ends, a fifth friend rotating back in, the settle-up by
person), replayed through the Django client: every amount and message that browser test used to
read off the phone's screen is read here off the pages the server sends for the same taps (the
same links and forms, followed). The browser test keeps what needs a phone: the taps themselves,
the htmx swaps, that every page fits 390 px; its hands are set up through services.record_hand
(the write 确认 calls) and its substitute comes at the round's end, so its amounts differ."""

import json
import re

from scoring.engine import score_game
from scoring.models import Game, Settlement
from scoring.rulesets.yiwu.engine import Rules
from tests.helpers import game_url, messages_of, new_game_form, record
from tests.table.test_it_seating_page import confirm, text, tiles

NAMES = ["老王", "小李", "阿华", "大刘"]  # 东南西北; 老王 deals first
# 义乌 at 7/5 (the new-game form as it opens), every hand a 自摸 (×2):
#   1  小李 wins                 老王 (庄) −14, 小李 +34, 阿华 −10, 大刘 −10   → 小李 deals
#   2  阿华 wins                 老王 −10, 小李 (庄) −14, 阿华 +34, 大刘 −10   → 阿华 deals
#   3  阿华 (庄) wins, ×2 each    老王 −14, 小李 −14, 阿华 +42, 大刘 −14       → 阿华 deals on
#   4  大刘 wins                 老王 −10, 小李 −10, 阿华 (庄) −14, 大刘 +34   → 大刘 deals
#      小周 takes 阿华's seat (西)
#   5  老王 wins                 老王 +34, 小李 −10, 小周 −10, 大刘 (庄) −14   → 东 deals: 东风圈 is over
#      老王 and 小李 swap seats; then 阿华 comes back for 大刘 (北)
#   6  阿华 wins                 小李 (庄, 东) −14, 老王 −10, 小周 −10, 阿华 +34
# Each person over the seats they sat in:
#   老王 −14 − 10 − 14 − 10 + 34 − 10 = −24;  小李 +34 − 14 − 14 − 10 − 10 − 14 = −28
#   阿华 −10 + 34 + 42 − 14 + 34 = +86;        大刘 −10 − 10 − 14 + 34 − 14 = −14 (sitting out)
#   小周 −10 − 10 = −20;                        −24 − 28 + 86 − 14 − 20 = 0
PEOPLE = {"老王": -28, "小李": -24, "阿华": 86, "大刘": -14, "小周": -20}


def zimo(client, game: Game, winner: int) -> None:
    response = record(client, game, {"outcome": "win", "winner": winner, "win_type": "zimo"})
    assert response.status_code == 302


def link(page: str, label: str) -> str:
    """The address of the page's link whose text (tags dropped) is ``label`` (a regular
    expression, whole), as the browser test taps it by its accessible name."""
    for href, inner in re.findall(r'<a [^>]*href="([^"]+)"[^>]*>(.*?)</a>', page, re.S):
        if re.fullmatch(label, re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", inner)).strip()):
            return href.replace("&amp;", "&")
    raise AssertionError(f"no link {label!r}")


def test_the_seating_evening_says_every_amount_and_message_the_phone_showed(client, db):
    response = client.post("/new", new_game_form(NAMES, round_length="2"))
    game = Game.objects.get()
    assert response["Location"] == game_url(game)
    assert (game.round_length, game.rules) == (2, Rules().to_dict())  # the form's own defaults but 2 圈
    assert "东风圈 第1局 · 共 2 圈" in text(client.get(game_url(game)))
    for winner in (1, 2, 2, 3):
        zimo(client, game, winner)
    assert "东风圈 第4局 · 共 2 圈" in text(client.get(game_url(game)))

    # 换人: who leaves (西 阿华), then a new name; the preview, then 确认.
    menu = client.get(game_url(game) + "seating").content.decode()
    who = client.get(link(menu, "换人.*")).content.decode()
    assert 'href="' + game_url(game) + 'seating?how=sub&amp;seat=2"' in who
    preview = game_url(game) + "seating?how=sub&seat=2&name=小周"
    assert "轮空（不在桌上）: 阿华 +52" in text(client.get(preview))
    seated = confirm(client, preview)
    assert "已换人/换位。" in messages_of(client.get(seated["Location"]))
    assert [name for name, _total in tiles(client, game)] == ["老王", "小李", "小周", "大刘"]
    assert "轮空（不在桌上）: 阿华 +52" in text(client.get(game_url(game)))

    zimo(client, game, 0)  # 大刘 dealt and lost: the deal is back at 东, and the first round is over
    page = client.get(game_url(game)).content.decode()
    card = page[page.find('class="round-end') : page.find("</section>", page.find('class="round-end'))]
    assert "东风圈打完了" in card
    assert link(card, "换位") == game_url(game) + "seating"
    assert "南风圈 第1局 · 共 2 圈" in text(client.get(game_url(game)))

    # 两人换位: 东 老王, then 南 小李.
    first = link(client.get(game_url(game) + "seating?how=swap").content.decode(), "东 老王")
    assert first == game_url(game) + "seating?how=swap&a=0"
    assert "老王和谁换位？" in text(client.get(game_url(game) + "seating?how=swap&a=0"))
    swap = link(client.get(game_url(game) + "seating?how=swap&a=0").content.decode(), "南 小李")
    preview = client.get(swap).content.decode()
    # 老王 dealt at 东: the deal follows him to 南 (the seat does not keep it).
    assert re.search(r'class="small mb-1 new-dealer">下一局: <bdi>老王</bdi> 坐庄', preview)
    assert confirm(client, swap).status_code == 302
    assert 'class="round-end' not in client.get(game_url(game)).content.decode()
    assert [name for name, _total in tiles(client, game)] == ["小李", "老王", "小周", "大刘"]

    # The fifth friend rotates back in for 大刘: offered by name, one tap.
    step = client.get(game_url(game) + "seating?how=sub&seat=3")
    assert "谁坐北，换下大刘？" in text(step)
    back = link(step.content.decode(), "阿华")
    assert "轮空（不在桌上）: 大刘 −14" in text(client.get(back))
    assert confirm(client, back).status_code == 302
    zimo(client, game, 3)  # 阿华, in 北: 老王 (庄, in 南) pays 14, the others 10

    assert dict(tiles(client, game)) == {"小李": "−24", "老王": "−28", "小周": "−20", "阿华": "+86"}
    page = text(client.get(game_url(game)))
    assert "轮空（不在桌上）: 大刘 −14" in page
    assert "谁打的: 东 老王 · 南 小李 · 西 阿华 · 北 大刘" in page  # hand 4, as it was played
    assert "共 6 局" in page  # seatings are no hands

    # Settle-up by person: all five, in 元, the fewest transfers; the money sums to zero.
    terms = {"rate": "100", "custom_yuan": "", "fee_yuan": "", "fee_mode": "equal", "fee_payee": "0"}
    settle = client.get(game_url(game) + "settle", terms)
    assert [name for name, *_rest in settle.context["balances"]] == list(PEOPLE)
    client.post(game_url(game) + "finish", terms)
    settled = client.get(game_url(game) + "settle")
    assert {name: points for name, points, _yuan, _fen in settled.context["balances"]} == PEOPLE
    assert sum(fen for *_rest, fen in settled.context["balances"]) == 0
    transfers = settled.context["transfers"]
    assert len(transfers) == 4
    assert all(payee == "阿华" for _t, _payer, payee, _amount in transfers)  # four people owe the one who won
    assert "大刘 −14 · 输 14 元" in settled.context["share"]  # sitting out: no seat beside the name
    settlement = Settlement.objects.get(game=game)
    assert dict(zip(settlement.names, settlement.balances_fen, strict=True)) == {n: t * 100 for n, t in PEOPLE.items()}
    backup = json.loads(client.get(game_url(game) + "export.json").content)
    assert {p["name"]: p["total"] for p in score_game(backup)["people"]} == PEOPLE
