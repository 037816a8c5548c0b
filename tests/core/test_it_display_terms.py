"""Numbers and words as the table reads them: money colours in the chart legend, one minus sign,
import errors in Chinese terms, one limit on a name."""

import json
import re

from django.conf import settings

from scoring.charts import running_totals_svg
from scoring.engine.contract import MAX_NAME
from scoring.forms import NAME_LIMIT
from scoring.models import Game
from tests.helpers import NEW_GAME, game_url, record, record_settle_hands

RED, GREEN = "#c62828", "#2e7d32"


def legend_totals(svg: str) -> dict[str, str]:
    return dict(
        (text, colour) for colour, text in re.findall(r'<tspan class="total" fill="([^"]+)"[^>]*>([^<]+)<', svg)
    )


def test_the_legend_totals_take_the_money_colours_in_chinese(db):
    svg = running_totals_svg(["a", "b", "c", "d"], [[30, -10, -10, -10]], "t")
    assert legend_totals(svg) == {"+30": RED, "\u221210": GREEN}
    assert svg.count('stroke="#c62828"') == 1  # the lines keep one colour per seat


def test_the_legend_totals_take_the_money_colours_in_english(client, game):
    record(client, game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    svg = client.get(game_url(game) + "chart").content.decode()
    assert legend_totals(svg) == {"+42": GREEN, "\u221214": RED}


def test_pages_show_one_minus_sign(client, game):
    record_settle_hands(client, game)
    client.get(game_url(game))
    for url in (
        game_url(game) + "summary",
        game_url(game) + "settle?rate=50&fee_mode=equal&fee_payee=0",
        "/stats",
        "/history",
    ):
        text = re.sub(r"<[^>]+>", " ", client.get(url).content.decode())  # the words shown, not the markup
        text = re.sub(r"(?s)<script.*?</script>", "", text)
        assert not re.search(r"(?<![\w-])-\d", text), url
        assert "\u2212" in text, url


def test_import_errors_speak_chinese_terms_not_field_paths(client, db):
    bad = {"hands": [{"outcome": "win", "winner": 7, "win_type": "zimo"}]}
    html = client.post("/import", {"text": json.dumps(bad)}).content.decode()
    assert "第1局：谁胡了 应为座位号" in html
    assert "winner" not in html
    rules = client.post("/import", {"text": json.dumps({"rules": {"base_dealer": "x"}, "hands": []})}).content.decode()
    assert "庄家底分" in rules
    assert "base_dealer" not in rules
    discard = {"hands": [{"outcome": "win", "winner": 0, "win_type": "pinghu"}]}
    assert "§" not in client.post("/import", {"text": json.dumps(discard)}).content.decode()


def test_names_typed_at_the_table_keep_to_20_and_imports_to_the_contracts_40(client, db):
    assert (NAME_LIMIT, MAX_NAME) == (20, 40)  # what a tile shows; the contract's bound (Input hygiene)
    response = client.post("/new", {**NEW_GAME, "name0": "长" * (NAME_LIMIT + 1)})
    assert "name0" in response.context["form"].errors
    too_long = {"players": ["长" * (MAX_NAME + 1), "b", "c", "d"], "hands": []}
    html = client.post("/import", {"text": json.dumps(too_long)}).content.decode()
    assert "玩家名字 应为 4 个名字（每个 1-40 字）" in html
    client.post("/import", {"text": json.dumps({"players": ["长" * MAX_NAME, "b", "c", "d"], "hands": []})})
    assert Game.objects.get().players[0] == "长" * MAX_NAME
