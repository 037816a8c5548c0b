import re

from tests.factories import add_hand, finish
from tests.helpers import game_url, record, totals_on_page


def test_game_page_shows_four_tiles_in_seat_order_with_the_dealer(client, game):
    html = client.get(game_url(game)).content.decode()
    assert totals_on_page(html) == ["0", "0", "0", "0"]
    assert html.index("老王") < html.index("小李") < html.index("阿华") < html.index("大刘")
    assert "谁胡了" in html


def test_hands_are_listed_newest_first_with_nets_and_explanations(client, game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    add_hand(game, {"outcome": "win", "winner": 3, "win_type": "caishentou"})
    html = client.get(game_url(game)).content.decode()
    assert html.index('id="hand-2"') < html.index('id="hand-1"')
    assert "大刘 财神头 ×4" in html
    assert "<bdi>老王</bdi> → <bdi>大刘</bdi> <b>36</b> = 庄9 × 4 财神头" not in html  # 连庄一直按基数算: 7, not 9
    assert "<bdi>老王</bdi> → <bdi>大刘</bdi> <b>28</b> = 庄7 × 4 财神头" in html
    assert "庄·连1" not in html  # 大刘 won: the deal passed to 小李


def test_gains_and_losses_carry_colour_classes(client, game):
    add_hand(game, {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 0})
    html = client.get(game_url(game)).content.decode()
    assert 'class="total gain" data-seat="1">+18<' in html
    assert 'class="total loss" data-seat="0">−8<' in html


def test_view_link_shows_the_ledger_without_entry_buttons(client, game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    html = client.get(game_url(game, view=True)).content.decode()
    assert "只读链接" in html
    assert "+42" in html
    assert "谁胡了" not in html
    assert "修改</a>" not in html


def test_an_unknown_token_is_404(client, db):
    assert client.get("/g/not-a-real-token/").status_code == 404


def test_rules_page_shows_this_games_house_rules_and_the_win_types(client, make_game):
    game = make_game(base_dealer=9, base_other=7, discarder_extra="double")
    html = client.get(game_url(game) + "rules").content.decode()
    assert "多付一倍" in html
    assert "有庄家参与 9，两个闲家之间 7" in html
    assert "双飘" in html
    assert "×16" in html
    assert "不能胡这张财神" in html


def test_me_marks_who_records_from_this_phone(client, game):
    client.post(game_url(game) + "me/2")
    record(client, game, {"outcome": "draw"})
    html = client.get(game_url(game)).content.decode()
    assert "<bdi>阿华</bdi> 记于" in html


def test_each_hands_edit_and_void_links_open_that_hand(client, game):
    import re

    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    html = client.get(game_url(game)).content.decode()
    links = re.findall(r'href="([^"]+/hand/1/(?:edit|void))"', html)
    assert links == [game_url(game) + "hand/1/edit", game_url(game) + "hand/1/void"]
    assert all(client.get(link).status_code == 200 for link in links)


def test_a_long_game_shows_the_latest_hands_and_a_link_to_the_rest(client, game):
    for _ in range(17):
        add_hand(game, {"outcome": "draw"})
    html = client.get(game_url(game)).content.decode()
    assert 'id="hand-17"' in html
    assert 'id="hand-3"' in html
    assert 'id="hand-2"' not in html
    assert "更早的 2 局" in html
    assert 'id="hand-1"' in client.get(game_url(game) + "?all=1").content.decode()


def test_the_whole_list_comes_in_pages_of_100_and_a_poll_keeps_the_page(client, db):
    from tests.factories import seeded_game

    game = seeded_game(250)
    first = client.get(game_url(game) + "?page=1").content.decode()
    assert first.count('class="hand-row') == 100
    assert 'id="hand-250"' in first
    assert 'id="hand-151"' in first
    assert 'id="hand-150"' not in first
    assert "第 1 / 3 页" in first
    last = client.get(game_url(game) + "?page=3").content.decode()
    assert last.count('class="hand-row') == 50
    assert 'id="hand-1"' in last
    assert client.get(game_url(game) + "?all=1").content.decode().count('class="hand-row') == 100  # no longer all
    polled = client.get(game_url(game) + "poll?v=-1&page=2").content.decode()  # another phone changed the game
    assert polled.count('class="hand-row') == 100
    assert 'id="hand-150"' in polled
    assert 'id="hand-51"' in polled
    assert "page=2" in polled  # the next poll asks for the same page
    assert client.get(game_url(game) + "?page=²").content.decode().count('class="hand-row') == 15  # not a page


def test_the_game_page_offers_a_manual_hand(client, game, zhuji_game):
    """手动记分 (fines, side bets, a penalty) is one tap from the game page, in every ruleset."""
    for g in (game, zhuji_game):
        html = client.get(game_url(g)).content.decode()
        assert f'href="{game_url(g)}record?outcome=manual&amp;v={g.version}"' in html
        assert "手动记分" in html
    assert "record?outcome=manual" not in client.get(game_url(game, view=True)).content.decode()


def test_a_ruleset_without_bets_draws_no_bets_box(client, zhuji_game, wuyi2_game):
    for g in (zhuji_game, wuyi2_game):
        html = client.get(game_url(g)).content.decode()
        box = re.search(r'<[a-z]+ [^>]*id="bets"[^>]*>', html)[0]
        assert "hidden" in box
        assert "border" not in box


def test_a_finished_game_has_no_write_control_and_a_poll_takes_the_bets_away(client, game):
    """Another phone settled the game: the next poll leaves no 买子/下子 button on this one, and
    the page itself offers nothing to write (a tap would only be refused)."""
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    assert 'action="/g/' in client.get(game_url(game)).content.decode().split('id="bets"')[1].split("</section>")[0]
    finish(game)
    live = client.get(game_url(game) + "poll?v=0").content.decode()
    box = re.search(r'<[a-z]+ [^>]*id="bets"[^>]*>.*?</[a-z]+>', live, re.S)[0]
    assert 'hx-swap-oob="true"' in box
    assert "<button" not in box
    html = client.get(game_url(game)).content.decode()
    assert "bet" not in html.split('id="bets"')[1].split("</")[0]
    assert 'method="post"' not in html.split("<main")[1].split("</main>")[0]  # no write control, not even 我是
