"""An evening on a phone (390×844) for each ruleset: create the game, tap in its hands, fix
mistakes, check the totals (each ruleset's taps and checks: tests/browser/evenings/<ruleset>.py).
On the way, the pages it passes are checked as tests/browser/test_accessibility.py checks its
states, and for 44 px tap targets (tests/browser/looks.py, tests/browser/tours.py): the audit leaves
these states to the evenings rather than build a game and open them again."""

import pytest

from tests.browser.evenings import hangzhou, wuyi2, yiwu, zhuji
from tests.browser.looks import Looks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EVENINGS = {"yiwu": yiwu, "zhuji": zhuji, "wuyi2": wuyi2, "hangzhou": hangzhou}
# The pages each evening checks (tests/browser/looks.py), named as the tests that left them to it.
LOOKED = {
    "yiwu": ["new-game", "how-step", "preview", "piao-step", "void-draw", "edit"],
    "zhuji": ["zhuji-sheet", "zhuji-how"],
    "wuyi2": ["wuyi2-how", "wuyi2-sheet"],
    "hangzhou": [
        "hangzhou-sheet-caipiao",
        "hangzhou-draw",
        "hangzhou-game",
        "hangzhou-sheet-chengbao",
        "seating-menu",
        "seating-preview",
        "hangzhou-sheet-shifeng",
        "hangzhou-sheet-chengbao-lower",
        "settle",
        "settled",
        "picture",
        "hangzhou-rules",
    ],
}


@pytest.mark.parametrize("ruleset", list(EVENINGS))
def test_an_evening_on_a_phone(live_server, phone, shot, ruleset):
    look = Looks(phone, shot)
    EVENINGS[ruleset].evening(phone, live_server, shot, look)
    assert look.names == LOOKED[ruleset]  # every check the other tests left to this evening was made
    assert look.found == {}
