"""杭州's 算牌 page (/g/<token>/analyse, docs/analysis.md "杭州"): no flip to choose, the answer priced
at the table now (the dealer's 老庄 level, the cap), 「摸任何一张都能胡（爆头）」 for a 可爆头 hand, the
chips of what the tiles cannot show (财飘, 十风, 承包 by name), and 「用这个记分」 leading to the
entry form filled with them, recorded after the usual confirm."""

import html as htmllib
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings

from scoring.engine import score_game
from scoring.models import Hand
from tests.conftest import new_ruleset_game
from tests.helpers import game_url, record

NAMES = ["老王", "小李", "阿华", "大刘"]  # seats 0-3; 老王 deals first
STANDARD = "1m,2m,3m,4p,5p,6p,7s,8s,9s,E,E,E"
BAOTOU = f"{STANDARD},P,5m"  # 爆头: the 5m drawn, the lone 白 its pair
ANY_TILE = f"{STANDARD},P"  # 13 tiles, 可爆头
TEN = "1m,4m,7m,E,S,W,N,C,F,9s,2p,5p,8p,1s"  # no winning shape: a 十风 is declared, not read


@pytest.fixture
def hangzhou_game(db):
    return new_ruleset_game("hangzhou", NAMES)


def page(client, game, query: str = "", **headers):
    response = client.get(game_url(game) + "analyse" + query, **headers)
    assert response.status_code == 200
    return response, response.content.decode()


def text(html: str) -> str:
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", html)))


def use_urls(html: str) -> list[str]:
    found = re.findall(r'class="btn btn-danger flex-fill btn-center use" href="([^"]+)"', html)
    return [htmllib.unescape(u) for u in found]


def chips(html: str) -> dict[str, str]:
    """Each question chip's label -> its link (or "" when greyed), from the answer's question rows."""
    out = {}
    for row in re.findall(r'<div class="sheet-row questions"[^>]*>(.*?)</div>', html, re.S):
        for tag, label in re.findall(r'(<(?:a|span) class="btn btn-sm chip[^>]*>)([^<]+)<', row):
            href = re.search(r'href="([^"]+)"', tag)
            out[label.replace("✓ ", "").strip()] = htmllib.unescape(href[1]) if href else ""
    return out


def paid(entry: dict, before: list[dict] = ()) -> list[int]:
    """The totals the scorer gives this entry after ``before``: the amounts the page must show."""
    return score_game({"ruleset": "hangzhou", "hands": [*before, entry]})["totals"]


def confirm(client, game, url: str):
    """「确认记录」 on the preview a 「用这个记分」 link opens."""
    preview = client.get(url)
    assert preview.context["step"] == "preview"
    data = {k: v if len(v) > 1 else v[0] for k, v in parse_qs(urlsplit(url).query).items()}
    game.refresh_from_db()
    seq = game.hands.count() + 1
    client.post(url.split("?")[0], {**data, "confirm": "1", "next_seq": seq, "version": game.version})
    return Hand.objects.filter(game=game).order_by("-seq").first().entry


# -- no flip -----------------------------------------------------------------------------------


def test_the_page_opens_on_the_tiles_with_bai_the_caishen_and_no_flip_to_choose(client, hangzhou_game):
    response, html = page(client, hangzhou_game)
    assert response.context["stage"] == "hand"
    assert "先点翻出的那张牌" not in html
    assert "改翻牌" not in html
    assert [t["code"] for t in response.context["wilds"]] == ["P"]
    assert 'data-tiles=""' in html  # the tiles stay on the phone from the first tap
    assert htmllib.unescape(re.search(r'data-link="([^"]+)"', html)[1]).endswith("/analyse")
    assert [t["label"] for t in response.context["toggles"]] == ["杠开"]  # no 自摸: every win is one


def test_a_flip_in_the_address_is_a_message(client, hangzhou_game):
    _, html = page(client, hangzhou_game, "?flip=3m")
    assert 'id="sanpai-error"' in html
    assert "财神固定是白" in text(html)


# -- 14 tiles, priced at the table now ---------------------------------------------------------


def test_baotou_is_read_priced_and_recorded_through_the_entry_form(client, hangzhou_game):
    _, html = page(client, hangzhou_game, f"?tiles={BAOTOU}&winner=2")
    shown = text(html)
    entry = {"outcome": "win", "winner": 2, "patterns": ["baotou"]}
    assert "胡了！" in shown
    assert "1 番：爆头 1" in shown
    assert f"阿华+{paid(entry)[2]}" in shown  # +8: the dealer pays 4, the others 2
    (url,) = use_urls(html)
    assert "用这个记分" in shown
    assert parse_qs(urlsplit(url).query)["patterns"] == ["baotou"]
    assert confirm(client, hangzhou_game, url) == entry


def test_the_price_follows_the_dealers_laozhuang(client, hangzhou_game):
    first = {"outcome": "win", "winner": 0}  # 老王 deals and wins: next hand he is 二老庄 (×4)
    record(client, hangzhou_game, first)
    _, html = page(client, hangzhou_game, f"?tiles={BAOTOU}&winner=0")
    won = paid({"outcome": "win", "winner": 0, "patterns": ["baotou"]}, [first])[0] - paid(first)[0]
    assert won == 3 * 4 * 2
    assert f"老王+{won}" in text(html)


def test_a_capped_hand_says_its_cap_and_pays_the_cap(client, hangzhou_game):
    tiles = "1m,1m,1m,1m,3m,3m,4p,4p,5p,5p,6s,6s,9s,9s"  # 豪华七对 + 无财神: 5 番, paid on 4
    _, html = page(client, hangzhou_game, f"?tiles={tiles}&winner=1")
    entry = {"outcome": "win", "winner": 1, "patterns": ["haohua_qidui", "no_caishen"]}
    shown = text(html)
    assert "5 番（封顶 4）：豪华七对 4 · 无财神 1" in shown
    assert f"小李+{paid(entry)[1]}" in shown
    assert paid(entry)[1] == 64


def test_gangkai_is_the_one_toggle_and_needs_the_kong_melded(client, hangzhou_game):
    tiles = "E,E,E,2m,3m,4m,5p,6p,7p,7s,8s,9s,P,1m"
    _, html = page(client, hangzhou_game, f"?tiles={tiles}&winner=1&after_kong=1&melded=1")
    assert "2 番：爆头 1 · 杠开 1" in text(html)
    (url,) = use_urls(html)
    assert parse_qs(urlsplit(url).query)["patterns"] == ["baotou", "gangkai"]
    _, html = page(client, hangzhou_game, f"?tiles={tiles}&winner=1&after_kong=1")
    assert "杠开要先有杠" in text(html)


# -- 13 tiles ----------------------------------------------------------------------------------


def test_a_hand_any_tile_completes_says_so_once_with_its_price(client, hangzhou_game):
    response, html = page(client, hangzhou_game, f"?tiles={ANY_TILE}&winner=1")
    shown = text(html)
    won = paid({"outcome": "win", "winner": 1, "patterns": ["baotou"]})[1]
    assert "摸任何一张都能胡（爆头）" in shown
    assert f"胡任何一张：1 番：爆头 1 · 小李+{won}" in shown
    assert len(response.context["answer"]["waits"]) == 34
    assert shown.count("小李+") == 1  # one line, not 34


def test_a_hand_with_two_waits_lists_them(client, hangzhou_game):
    _, html = page(client, hangzhou_game, "?tiles=1m,2m,3m,4p,5p,6p,7s,8s,9s,E,E,5m,5m&winner=1")
    shown = text(html)
    assert "摸任何一张" not in shown
    assert "听 3 种" in shown
    assert "胡 五万：1 番：无财神 1" in shown
    assert "胡 白：0 番：平和" in shown


# -- what the tiles cannot show ----------------------------------------------------------------


def test_caipiao_adds_its_fan_and_fills_the_entry(client, hangzhou_game):
    _, html = page(client, hangzhou_game, f"?tiles={BAOTOU}&winner=2")
    url = chips(html)["×2"]
    assert "caipiao=2" in url
    _, html = page(client, hangzhou_game, url.split("analyse", 1)[1])
    entry = {"outcome": "win", "winner": 2, "patterns": ["baotou"], "caipiao": 2}
    shown = text(html)
    assert "3 番：爆头 1 · 财飘 ×2 2" in shown
    assert f"阿华+{paid(entry)[2]}" in shown
    (use,) = use_urls(html)
    assert confirm(client, hangzhou_game, use) == entry


def test_caipiao_is_greyed_with_the_reason_where_the_tiles_are_no_baotou(client, hangzhou_game):
    _, html = page(client, hangzhou_game, f"?tiles={STANDARD},5m,5m&winner=2")
    assert chips(html)["×1"] == ""
    assert "财飘：财飘一定也是爆头，这副牌不是爆头" in text(html)


def test_chengbao_names_the_winners_upper_and_lower_seat_and_fills_the_entry(client, hangzhou_game):
    _, html = page(client, hangzhou_game, f"?tiles={BAOTOU}&winner=2")
    labels = chips(html)
    up, down = "上家小李包（胡家吃了他三次）", "下家大刘包双倍（他吃了胡家三次）"
    assert up in labels
    assert down in labels
    _, html = page(client, hangzhou_game, labels[down].split("analyse", 1)[1])
    entry = {"outcome": "win", "winner": 2, "patterns": ["baotou"], "chengbao": [3]}
    assert f"阿华+{paid(entry)[2]}" in text(html)
    assert paid(entry) == [0, 0, 16, -16]
    (use,) = use_urls(html)
    assert parse_qs(urlsplit(use).query)["chengbao"] == ["lower"]
    assert confirm(client, hangzhou_game, use) == entry


def test_chengbao_is_asked_once_the_winner_is_known(client, hangzhou_game):
    _, html = page(client, hangzhou_game, f"?tiles={BAOTOU}")
    assert "承包" not in text(html)
    assert "财飘" in text(html)


def test_shifeng_is_declared_whatever_the_tiles_and_recorded(client, hangzhou_game):
    _, html = page(client, hangzhou_game, f"?tiles={TEN}&winner=3")
    assert "没胡" in text(html)
    _, html = page(client, hangzhou_game, chips(html)["十风"].split("analyse", 1)[1])
    entry = {"outcome": "win", "winner": 3, "patterns": ["shifeng", "no_caishen"]}
    shown = text(html)
    assert "4 番：十风 3 · 无财神 1" in shown
    assert f"大刘+{paid(entry)[3]}" in shown
    (use,) = use_urls(html)
    assert confirm(client, hangzhou_game, use) == entry


def test_a_chosen_chip_the_tiles_refuse_is_said_and_not_recorded(client, hangzhou_game):
    tiles = "1m,1m,1m,1m,3m,3m,4p,4p,5p,5p,6s,6s,9s,9s"  # 豪华七对: its winner chowed nothing
    _, html = page(client, hangzhou_game, f"?tiles={tiles}&winner=1&chengbao=up")
    shown = text(html)
    assert "胡型成了，但不能胡" in shown
    assert "豪华七对没有吃牌" in shown
    assert not use_urls(html)


@pytest.mark.parametrize(
    ("query", "says"),
    [("?caipiao=4", "不认识的选项"), ("?shifeng=shifeng,shifeng_bai", "选多了"), ("?chengbao=up,up", "选多了")],
)
def test_a_bad_chip_in_the_address_is_a_message(client, hangzhou_game, query, says):
    _, html = page(client, hangzhou_game, query)
    assert 'id="sanpai-error"' in html
    assert says in text(html)


# -- the answer alone, and in English ----------------------------------------------------------


def test_the_answer_alone_carries_the_chips_and_the_record_link(client, hangzhou_game):
    query = f"?tiles={BAOTOU}&winner=2"
    _, whole = page(client, hangzhou_game, query)
    _, part = page(client, hangzhou_game, query, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="answer")
    assert part.strip().startswith('<div class="answer" id="answer"')
    assert chips(part) == chips(whole)
    assert use_urls(part) == use_urls(whole)


CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
FACE = re.compile(r'<span class="mj-[tb]">[^<]*</span>')


@pytest.mark.parametrize(
    ("query", "says"),
    [
        (f"?tiles={BAOTOU}&winner=2", "1 fan: Wild head 1"),
        (f"?tiles={BAOTOU}&winner=2&caipiao=1", "Wild float ×1"),
        (f"?tiles={ANY_TILE}&winner=2", "Any tile drawn wins (wild head)"),
        (f"?tiles={TEN}&winner=2&shifeng=shifeng", "Ten honours 3"),
        (f"?tiles={STANDARD},5m,5m&winner=2", "Wild float: A wild float is always a wild head too"),
        ("?flip=3m", "wilds are always White"),
    ],
)
def test_the_page_in_english_says_no_chinese_but_the_tiles_and_names(client, hangzhou_game, query, says):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    _, html = page(client, hangzhou_game, query)
    said = text(FACE.sub("", html)) + " " + " ".join(re.findall(r'aria-label="([^"]*)"', html))
    said = said.replace("简体中文", "")
    for name in NAMES:
        said = said.replace(name, "")
    assert says in text(html)
    assert sorted(set(CJK.findall(said))) == []
