"""诸暨's sheet greys a 天胡 or 地胡 this winner cannot claim before the tap, with the reason scoring
would give (docs/rules/zhuji.md §4), as 武义二人's sheet greys a chip; 全字 is anyone's."""

import html as entities
import re

import pytest
from django.conf import settings

from tests.helpers import game_url

# 阿强 (seat 0) deals the first hand.


def chips(client, game, query: str) -> dict[str, dict]:
    """Each first-round chip on the sheet: whether it is disabled, and the note that says why."""
    html = client.get(game_url(game) + "record?" + query).content.decode()
    out = {}
    for code in ("tianhu", "dihu", "quanzi"):
        tag = re.search(rf'<input type="radio" class="btn-check" name="special" value="{code}"[^>]*>', html)[0]
        note = re.search(rf'<div class="chip-note" id="why-{code}">([^<]*)</div>', html)
        out[code] = {
            "disabled": " disabled" in tag,
            "why": entities.unescape(note[1]) if note else None,
            "described": "why-" in tag,
        }
    return out


def test_a_non_dealers_zimo_greys_tianhu_and_dihu_with_their_reasons(client, zhuji_game):
    found = chips(client, zhuji_game, "winner=1&zimo=on")
    assert found["tianhu"] == {"disabled": True, "why": "天胡：天胡只有庄家才能胡", "described": True}
    assert found["dihu"] == {
        "disabled": True,
        "why": "地胡：地胡是闲家胡庄家打出的第一张牌：放冲者应为庄家",
        "described": True,
    }
    assert found["quanzi"] == {"disabled": False, "why": None, "described": False}


def test_the_dealers_zimo_leaves_tianhu_and_greys_dihu(client, zhuji_game):
    found = chips(client, zhuji_game, "winner=0&zimo=on")
    assert found["tianhu"]["disabled"] is False
    assert found["dihu"] == {"disabled": True, "why": "地胡：地胡只有闲家才能胡", "described": True}


def test_a_non_dealer_winning_on_the_dealers_discard_may_claim_dihu_not_tianhu(client, zhuji_game):
    found = chips(client, zhuji_game, "winner=2&discarder=0")
    assert found["dihu"]["disabled"] is False
    assert found["tianhu"]["why"] == "天胡：天胡只有庄家才能胡"


@pytest.mark.parametrize("query", ["winner=2&discarder=1", "winner=0&discarder=3"])
def test_a_discard_from_another_than_the_dealer_greys_both(client, zhuji_game, query):
    found = chips(client, zhuji_game, query)
    assert found["tianhu"]["disabled"]
    assert found["dihu"]["disabled"]


def test_a_chip_already_chosen_stays_tappable_and_the_preview_says_why_it_cannot_count(client, zhuji_game):
    """A 天胡 claimed for a 闲 (an edited hand, a typed address) is not locked in: it can be untapped."""
    found = chips(client, zhuji_game, "winner=1&zimo=on&special=tianhu")
    assert found["tianhu"]["disabled"] is False
    html = client.get(game_url(zhuji_game) + "record?winner=1&zimo=on&special=tianhu").content.decode()
    assert "天胡只有庄家才能胡" in html


def test_the_reason_is_in_english_on_the_english_sheet(client, zhuji_game):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    found = chips(client, zhuji_game, "winner=1&zimo=on")
    assert found["tianhu"]["why"] == "Heavenly hand：A heavenly hand (tianhu) is the dealer's only"
