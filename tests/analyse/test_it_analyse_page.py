"""算牌 page (/g/<token>/analyse): the flip and its 财神, the keyboard's counts, the answer for 13
and 14 tiles priced at the table's state, and 「用这个记分」 leading to a filled preview."""

import html as htmllib
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings

from scoring.engine import score_game
from scoring.models import Hand
from tests.factories import add_hand
from tests.helpers import game_url, parse

NINE = "1m,2m,3m,4m,5m,6m,7m,8m,9m"
WAITING = f"{NINE},1s,1s,1s,E"  # 13 tiles: waits on 东 (and on the wild)


def page(client, game, query: str = "", view: bool = False):
    response = client.get(game_url(game, view) + "analyse" + query)
    assert response.status_code == 200
    return response, response.content.decode()


def text(html: str) -> str:
    return parse(html).text


def use_urls(html: str) -> list[str]:
    return [a.attrs["href"] for a in parse(html).find_all("a", class_="btn btn-danger flex-fill btn-center use")]


def totals_of(entries: list[dict]) -> list[int]:
    return score_game({"hands": entries})["totals"]


# -- the flip and its 财神 ---------------------------------------------------------------------


def test_without_a_flip_the_keyboard_asks_for_it(client, game):
    response, html = page(client, game)
    assert "先点翻出的那张牌" in html
    keys = [k["code"] for row in response.context["rows"] for k in row["keys"]]
    assert keys == [*(f"{n}{s}" for s in "mps" for n in range(1, 10)), *"ESWNCFP"]
    assert "flip=5p" in html


@pytest.mark.parametrize(
    ("fixture", "flip", "wilds", "bai"),
    [
        ("game", "5p", ["5p"], True),
        ("game", "P", ["P"], False),
        ("zhuji_game", "9p", ["9p", "1p"], False),
        ("zhuji_game", "N", ["N", "E"], False),
        ("zhuji_game", "P", ["P", "C"], False),
        ("wuyi2_game", "3s", ["3s"], True),
    ],
)
def test_the_flip_shows_the_caishen_of_the_ruleset(client, request, fixture, flip, wilds, bai):
    game = request.getfixturevalue(fixture)
    response, html = page(client, game, f"?flip={flip}")
    assert [w["code"] for w in response.context["wilds"]] == wilds
    assert ("白板代替" in html) is bai
    assert "还差13张" in text(html)


def test_faces_are_chinese(client, game):
    _, html = page(client, game, "?flip=5p&tiles=1m,9m,3p,7s,E,C,F,P")
    shown = text(html)
    for face in ("一 万", "九 万", "3 筒", "7 条", "东", "中", "发", "白"):
        assert face in shown


# -- the keyboard ------------------------------------------------------------------------------


def test_counts_on_keys_and_a_fifth_tile_cannot_be_tapped(client, game):
    response, html = page(client, game, "?flip=5p&tiles=1m,1m,1m,1m,2m")
    keys = {k["code"]: k for row in response.context["rows"] for k in row["keys"]}
    assert keys["1m"]["count"] == 4
    assert keys["1m"]["url"] is None
    assert keys["2m"]["count"] == 1
    assert "tiles=1m%2C1m%2C1m%2C1m%2C2m%2C2m" in keys["2m"]["url"]
    keys_html = html.split('data-key="')[1:]  # each key's own markup, up to the next key
    names = dict(
        re.match(r'([\w-]+)".*?<span class="visually-hidden">([^<]*)</span>', k, re.S).groups()
        for k in keys_html
        if "visually-hidden" in k
    )
    assert names["1m"] == "一万，已有 4 张（满）"  # a key's name is the tile it shows, and its count
    assert names["2m"] == "二万，已有 1 张"
    assert 'aria-disabled="true" data-key="1m"' in html
    assert "还差8张" in text(html)
    assert parse_qs(urlsplit(response.context["undo"]).query)["tiles"] == ["1m,1m,1m,1m"]
    assert parse_qs(urlsplit(response.context["clear"]).query) == {"flip": ["5p"]}


def test_fourteen_tiles_disable_every_key(client, game):
    response, _ = page(client, game, f"?flip=5p&tiles={WAITING},E")
    assert all(k["url"] is None for row in response.context["rows"] for k in row["keys"])


# -- 13 tiles: waits with amounts --------------------------------------------------------------


def test_thirteen_tiles_list_waits_with_what_they_pay(client, game):
    _, html = page(client, game, f"?flip=5p&tiles={WAITING}&winner=1&self_drawn=1")
    zimo = totals_of([{"outcome": "win", "winner": 1, "win_type": "zimo"}])[1]
    shown = text(html)
    assert "听 2 种" in shown
    assert f"胡 东：自摸 ×2 · 小李+{zimo}" in shown
    assert f"胡 5筒：自摸 ×2 · 小李+{zimo}" in shown


def test_thirteen_tiles_on_a_discard_price_the_discarders(client, game):
    _, html = page(client, game, f"?flip=5p&tiles={WAITING}&winner=1")
    nets = {
        totals_of([{"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": seat}])[1] for seat in (0, 2, 3)
    }
    assert len(nets) == 1  # 义乌: whoever discards, the winner gains the same, so it is said once
    assert f"胡 东：平胡 ×1 · 谁放铳都是 小李+{nets.pop()}" in text(html)


@pytest.mark.parametrize(
    ("fixture", "query", "wilds", "plain", "discard_word"),
    [
        ("game", f"?flip=5p&tiles={WAITING}&winner=1", ["5筒"], ["东"], "放铳"),
        ("zhuji_game", "?flip=3s&tiles=E,E,E,C,C,C,1m,1m,1m,5m,5m,5m,9m&winner=1", ["3条", "4条"], ["九万"], "放冲"),
        ("wuyi2_game", "?flip=E&tiles=1m,1m,1m,2m,3m,4m,5m,6m,7m,7m,8m,9m,9m&winner=1", ["东"], ["六万", "九万"], "放"),
    ],
)
def test_a_wait_on_the_caishen_is_self_drawn_only(client, request, fixture, query, wilds, plain, discard_word):
    """Nobody wins on a discarded 财神: on a discard, a wait on the 财神 is priced self-drawn and says so."""
    game = request.getfixturevalue(fixture)
    response, html = page(client, game, query)
    waits = {w["name"]: w for w in response.context["answer"]["waits"]}
    for name in wilds:
        line = text(html).split(f"胡 {name}：")[1].split(" 胡 ")[0]
        assert "只能自摸：打出的财神不能胡" in line
        assert discard_word not in line
        tiles = parse_qs(urlsplit(query).query)["tiles"][0].split(",")
        code = waits[name]["code"]
        drawn = page(
            client,
            game,
            f"?flip={query.split('flip=')[1].split('&')[0]}&tiles={','.join([*tiles, code])}&winner=1&self_drawn=1",
        )[0]
        assert waits[name]["prices"] == drawn.context["answer"]["prices"]
    for name in plain:
        assert waits[name]["note"] == ""
        assert any(discard_word in p for p in waits[name]["prices"])


def test_fourteen_tiles_won_on_a_discarded_caishen_read_as_self_drawn(client, game):
    _, html = page(client, game, f"?flip=5p&tiles={WAITING},5p&winner=1")
    zimo = totals_of([{"outcome": "win", "winner": 1, "win_type": "zimo", "caishen": 1}])[1]
    shown = text(html)
    assert "只能自摸：打出的财神不能胡" in shown
    assert f"小李+{zimo}" in shown
    (url,) = use_urls(html)
    assert "discarder" not in parse_qs(urlsplit(url).query)


def test_waits_are_priced_at_the_current_table_state(client, game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})  # 老王 stays dealer, 连庄
    before = {"outcome": "win", "winner": 0, "win_type": "zimo"}
    now = {"outcome": "win", "winner": 1, "win_type": "zimo"}
    expected = totals_of([before, now])[1] - totals_of([before])[1]
    _, html = page(client, game, f"?flip=5p&tiles={WAITING}&winner=1&self_drawn=1")
    assert f"小李+{expected}" in text(html)


def test_no_wait_says_so(client, game):
    _, html = page(client, game, "?flip=5p&tiles=1m,4m,7m,2p,8p,3s,6s,9s,E,S,W,N,1m")
    assert "不听" in text(html)


# -- 14 tiles ----------------------------------------------------------------------------------


def test_fourteen_tiles_show_the_zhuji_breakdown(client, zhuji_game):
    tiles = "E,E,E,C,C,C,1m,1m,1m,5m,5m,5m,9m,9m"
    _, html = page(client, zhuji_game, f"?flip=3s&tiles={tiles}&winner=0&self_drawn=1")
    shown = text(html)
    assert "胡了！" in shown
    assert "5 台：东风 2 · 中 1 · 对对胡 1 · 混一色 1" in shown


def test_fourteen_tiles_show_the_wuyi2_fan(client, wuyi2_game):
    tiles = "1m,1m,1m,2m,3m,4m,5m,6m,7m,7m,8m,9m,9m,9m"
    _, html = page(client, wuyi2_game, f"?flip=E&tiles={tiles}&winner=1&self_drawn=1")
    assert "番：清一色" in text(html)


def test_wuyi2_reads_the_fan_table_of_the_game(client, wuyi2_game):
    """With 清一色 worth 5 at this table, 算牌 says 6 番 beside the amount 6 番 pays (not the standard 3)."""
    wuyi2_game.rules = {**wuyi2_game.rules, "fan": {"qingyise": 5}}
    wuyi2_game.save()
    tiles = "1m,1m,1m,2m,3m,4m,5m,6m,7m,7m,8m,9m,9m,9m"
    _, html = page(client, wuyi2_game, f"?flip=E&tiles={tiles}&winner=1&self_drawn=1")
    entry = {"outcome": "win", "winner": 1, "patterns": ["pinghu", "qingyise"]}
    won = score_game({"ruleset": "wuyi2", "rules": wuyi2_game.rules, "hands": [entry]})["totals"][1]
    shown = text(html)
    assert "6 番：清一色 5 · 自摸 1" in shown
    assert f"阿芳+{won}" in shown


def test_an_incomplete_hand_says_not_complete(client, game):
    _, html = page(client, game, f"?flip=5p&tiles={WAITING},S&winner=1")
    assert "没胡" in text(html)
    assert not use_urls(html)


def test_yiwu_refusal_shows_the_caishen_reason_and_no_record_link(client, game):
    # two wilds (5筒) and a discard: §9 forbids it
    tiles = "1m,2m,3m,4m,5m,6m,7m,8m,9m,1s,1s,5p,5p,E"
    _, html = page(client, game, f"?flip=5p&tiles={tiles}&winner=1")
    shown = text(html)
    assert "不能胡别人放的铳" in shown
    assert "用这个记分" not in shown


# -- 用这个记分 --------------------------------------------------------------------------------


def test_use_link_leads_to_the_filled_preview_and_records_after_confirm(client, game):
    _, html = page(client, game, f"?flip=5p&tiles={WAITING},E&winner=1&self_drawn=1")
    urls = use_urls(html)
    assert len(urls) == 1
    assert "用这个记分" in text(html)
    preview = client.get(urls[0])
    assert preview.context["step"] == "preview"
    assert "确认记录" in preview.content.decode()
    data = {k: v[0] for k, v in parse_qs(urlsplit(urls[0]).query).items()}
    client.post(urls[0].split("?")[0], {**data, "confirm": "1", "next_seq": 1, "version": 0})
    assert Hand.objects.get().entry == {"outcome": "win", "winner": 1, "win_type": "zimo", "caishen": 0}


def test_use_link_on_a_discard_asks_who_discarded(client, game):
    _, html = page(client, game, f"?flip=5p&tiles={WAITING},E&winner=1")
    assert "谁放铳" in text(html)
    urls = use_urls(html)
    assert len(urls) == 3
    preview = client.get(urls[1])  # 阿华
    form = preview.context["form"]
    assert form.cleaned_data["discarder"] == 2
    assert form.cleaned_data["win_type"] == "pinghu"
    assert "阿华放铳" in text(preview.content.decode())


def test_zhuji_use_link_fills_the_tai_sheet(client, zhuji_game):
    tiles = "E,E,E,C,C,C,1m,1m,1m,5m,5m,5m,9m,9m"
    _, html = page(client, zhuji_game, f"?flip=3s&tiles={tiles}&winner=0&self_drawn=1")
    (url,) = use_urls(html)
    query = parse_qs(urlsplit(url).query)
    assert query["winds"] == ["dong"]
    assert query["dragons"] == ["zhong"]
    assert query["shape"] == ["duiduihu"]
    assert query["hunyise"] == ["on"]
    assert query["zimo"] == ["on"]
    preview = client.get(url)
    assert preview.context["step"] == "preview"
    assert "5台" in text(preview.content.decode())


def test_wuyi2_use_link_fills_the_pattern_chips(client, wuyi2_game):
    tiles = "1m,1m,1m,2m,3m,4m,5m,6m,7m,7m,8m,9m,9m,9m"
    _, html = page(client, wuyi2_game, f"?flip=E&tiles={tiles}&winner=1")
    (url,) = use_urls(html)  # two players: the discarder is the other one
    query = parse_qs(urlsplit(url).query)
    assert query["discarder"] == ["0"]
    assert "qingyise" in query["patterns"]
    assert client.get(url).context["step"] == "preview"


def test_a_view_link_can_look_but_not_record(client, game):
    _, html = page(client, game, f"?flip=5p&tiles={WAITING},E&winner=1&self_drawn=1", view=True)
    shown = text(html)
    assert "胡了！" in shown
    assert "用这个记分" not in shown
    assert "只读链接" in shown
    assert f"/g/{game.edit_token}/" not in html


# -- links into the page, bad queries ----------------------------------------------------------


def test_links_from_the_game_page_and_the_win_type_steps(client, game, zhuji_game, wuyi2_game):
    assert f"/g/{game.edit_token}/analyse" in client.get(game_url(game)).content.decode()
    assert f"/g/{game.edit_token}/analyse?winner=2" in client.get(game_url(game) + "record?winner=2").content.decode()
    for g in (zhuji_game, wuyi2_game):
        html = client.get(game_url(g) + "record?winner=1").content.decode()
        assert f"/g/{g.edit_token}/analyse?winner=1" in html


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("?flip=5p&tiles=1m,2x", "不认识的牌：2x"),
        ("?flip=Q", "不认识翻的牌"),
        ("?flip=5p&tiles=1m,1m,1m,1m,1m", "最多 4 张"),
        (f"?flip=5p&tiles={WAITING},E,S", "最多 14 张"),
        ("?flip=5p&winner=7", "没有这个座位"),
        ("?flip=5p&melded=9", "0-4"),
        ("?flip=5p&first_round=renhu", "这套规则没有「人胡」"),
    ],
)
def test_bad_query_shows_a_chinese_message(client, game, query, message):
    _, html = page(client, game, query)
    assert 'id="sanpai-error"' in html
    assert message in text(html)


def test_an_impossible_context_is_a_message_not_a_500(client, zhuji_game):
    # 天胡 is the dealer's: claimed by a non-dealer the engine refuses it
    response, html = page(client, zhuji_game, f"?flip=3s&tiles={WAITING},E&winner=1&first_round=tianhu&self_drawn=1")
    answer = response.context["answer"]
    assert answer["kind"] == "error"
    assert "天胡" in answer["text"]
    assert answer["text"] in text(html)


# -- in English --------------------------------------------------------------------------------

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
FACE = re.compile(r'<span class="mj-[tb]">[^<]*</span>')  # the drawn faces (_mj.html)


def chinese_left(html: str, players: list[str]) -> list[str]:
    """What Chinese the page still says outside the tile faces and the player names (and the
    language switch's own 「简体中文」), in its text and its aria labels."""
    said = text(FACE.sub("", html)) + " " + " ".join(re.findall(r'aria-label="([^"]*)"', html))
    said = said.replace("简体中文", "")
    for name in players:
        said = said.replace(name, "")
    return sorted(set(CJK.findall(said)))


def test_the_page_in_english(client, game):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    nets = totals_of([{"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 0}])
    _, html = page(client, game, f"?flip=5p&tiles={WAITING}&winner=1")
    shown = text(html)
    assert '<html lang="en">' in html
    assert "Read tiles Yiwu" in shown
    assert "Undo" in shown
    assert "Clear" in shown
    assert "2 waits" in shown
    assert f"Win on East: Plain win ×1 · Whoever discards: 小李 +{nets[1]}" in shown
    assert "Self-drawn" in shown
    assert "Who won?" in shown
    assert chinese_left(html, game.players) == []

    _, html = page(client, game, f"?flip=5p&tiles={WAITING},E&winner=1&self_drawn=1")
    shown = text(html)
    assert "A win! Self-drawn ×2" in shown
    assert "Record this hand" in shown
    assert "14 tiles, full" in shown
    assert '<span class="visually-hidden">5 Dots (full)</span>' in html
    assert chinese_left(html, game.players) == []


@pytest.mark.parametrize(
    ("fixture", "query", "says"),
    [
        ("game", "", "First tap the flipped tile"),
        ("game", "?flip=5p&tiles=1m,2m", "2 tiles · 11 more needed"),
        ("game", f"?flip=5p&tiles={WAITING},E&winner=1", "Record this hand — who discarded?"),
        ("game", f"?flip=5p&tiles={WAITING},S", "No win: these 14 tiles make no winning hand"),
        ("game", "?flip=5p&tiles=1m,4m,7m,2p,8p,3s,6s,9s,E,S,W,N,1m", "No waits"),
        ("game", "?flip=5p&tiles=1m,2m,3m,4m,5m,6m,7m,8m,9m,1s,1s,5p,5p,E&winner=1", "2 wilds in hand"),
        ("game", "?flip=5p&tiles=1m,1m,1m,1m,1m", "5 × 1 Characters: at most 4 of a kind"),
        ("game", "?flip=5p&first_round=renhu", "This ruleset has no Human win"),
        ("zhuji_game", "?flip=3s&tiles=E,E,E,C,C,C,1m,1m,1m,5m,5m,5m,9m,9m&winner=0&self_drawn=1", "5 tai:"),
        ("zhuji_game", f"?flip=3s&tiles={WAITING},E&winner=1&first_round=tianhu&self_drawn=1", "Heavenly win"),
        ("wuyi2_game", "?flip=E&tiles=1m,1m,1m,2m,3m,4m,5m,6m,7m,7m,8m,9m,9m,9m&winner=1", "2 fan:"),
    ],
)
def test_english_pages_say_no_chinese_but_the_tiles_and_names(client, request, fixture, query, says):
    game = request.getfixturevalue(fixture)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    _, html = page(client, game, query)
    assert says in text(html)
    assert chinese_left(html, game.players) == []


# -- the tiles on the phone (static/js/analyse.js) ----------------------------------------------

ASK = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "answer"}


def test_the_page_names_its_script_and_the_hand_stage_its_tiles_and_its_address_without_them(client, game):
    _response, html = page(client, game, "?flip=5p&tiles=1m,2m&winner=0")
    assert 'data-tiles="1m,2m"' in html
    assert htmllib.unescape(re.search(r'data-link="([^"]+)"', html)[1]).endswith("/analyse?flip=5p&winner=0")
    assert re.search(r'data-script="/static/js/analyse(\.[0-9a-f]+)?\.js"', html)
    said = json.loads(htmllib.unescape(re.search(r'data-words="([^"]+)"', html)[1]))
    assert said["has"] == "{name}，已有 {n} 张"
    assert said["count"] == ["{n} 张", "{n} 张"]
    assert 'data-op="undo"' in html
    assert 'data-op="clear"' in html
    assert 'data-name="一万"' in html
    _, flip_stage = page(client, game)
    assert "data-tiles" not in flip_stage  # the script, loaded already, leaves the flip's keys alone
    assert "data-script" in flip_stage


def test_the_words_of_the_script_in_english(client, game):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    _, html = page(client, game, "?flip=5p")
    said = json.loads(htmllib.unescape(re.search(r'data-words="([^"]+)"', html)[1]))
    assert said["count"] == ["{n} tile", "{n} tiles"]
    assert said["full"] == "{name} (full)"
    assert said["reading"] == "Reading the tiles…"
    assert not CJK.search(json.dumps(said, ensure_ascii=False))


def test_the_script_asks_for_the_answer_alone(client, game):
    """HX-Target: answer gets #answer, for the tiles asked, priced and with 「用这个记分」, as the page has it."""
    query = f"?flip=5p&tiles={WAITING},E&winner=1&self_drawn=1"
    whole = page(client, game, query)[1]
    response = client.get(game_url(game) + "analyse" + query, **ASK)
    part = response.content.decode()
    assert response.status_code == 200
    assert part.strip().startswith('<div class="answer" id="answer"')
    assert "keyboard" not in part
    assert "<html" not in part
    assert use_urls(part) == use_urls(whole)
    assert len(use_urls(part)) == 1
    assert text(part).strip() in text(whole)


def test_a_boosted_link_still_gets_the_whole_page(client, game):
    response = client.get(
        game_url(game) + f"analyse?flip=5p&tiles={WAITING}", HTTP_HX_REQUEST="true", HTTP_HX_BOOSTED="true"
    )
    assert 'id="sanpai"' in response.content.decode()


@pytest.mark.parametrize(
    ("query", "message"), [("?flip=5p&tiles=1m,2x", "不认识的牌：2x"), ("?tiles=1m", "先点翻出的那张牌")]
)
def test_a_bad_query_for_the_answer_alone_says_why_there(client, game, query, message):
    response = client.get(game_url(game) + "analyse" + query, **ASK)
    part = response.content.decode()
    assert response.status_code == 200
    assert part.strip().startswith('<div class="answer" id="answer"')
    assert message in text(part)
