"""Seat 0 (东, the first name) is a real seat in every flow: it wins, discards, floats, feeds,
bets, deals next, is edited in, voided and pays the table fee. A test for the truth of a seat
number (``if seat:``) would read it as "nobody"."""

import re
from urllib.parse import parse_qs, urlsplit

from scoring.engine import score_game
from scoring.models import Hand, Settlement
from tests.factories import add_hand
from tests.helpers import FINISH, edit_sheet, game_url, parse, record, version_of, was_links

NINE = "1m,2m,3m,4m,5m,6m,7m,8m,9m"
WAITING = f"{NINE},1s,1s,1s,E"  # 13 tiles: waits on 东 (and on the wild)


def links(html: str) -> list[str]:
    return [e.attrs["href"] for e in parse(html).elements() if "?" in e.attrs.get("href", "")]


def query_of(url: str) -> dict:
    return parse_qs(urlsplit(url).query)


# -- 算牌 ---------------------------------------------------------------------------------------


def test_sanpai_keeps_seat_zero_as_the_winner_in_every_link(client, game):
    base = game_url(game) + "analyse"
    html = client.get(base + "?winner=0").content.decode()
    flips = [u for u in links(html) if "flip=" in u]
    assert flips
    assert all(query_of(u)["winner"] == ["0"] for u in flips)
    html = client.get(base + "?flip=5p&winner=0&tiles=" + WAITING).content.decode()
    keyed = [u for u in links(html) if "/analyse?" in u and "winner=1" not in u]
    keyed = [u for u in keyed if "winner=2" not in u and "winner=3" not in u]
    assert len(keyed) > 30  # the keys, the strip, the toggles, the 副数, 换 and 清空
    assert all(query_of(u).get("winner") == ["0"] for u in keyed), [u for u in keyed if "winner=0" not in u]
    zimo = score_game({"hands": [{"outcome": "win", "winner": 0, "win_type": "zimo"}]})["totals"][0]
    drawn = client.get(base + f"?flip=5p&winner=0&self_drawn=1&tiles={WAITING}").content.decode()
    assert f"老王+{zimo}" in re.sub(r"<[^>]+>", "", drawn)


def test_sanpai_use_links_record_seat_zero_as_winner_and_as_discarder(client, game):
    base = game_url(game) + "analyse"
    html = client.get(base + f"?flip=5p&winner=0&self_drawn=1&tiles={WAITING},E").content.decode()
    (use,) = [u for u in links(html) if "/record?" in u]
    assert query_of(use)["winner"] == ["0"]
    zimo = {"outcome": "win", "winner": 0, "win_type": "zimo", "caishen": 0}
    assert f"老王+{score_game({'hands': [zimo]})['totals'][0]}" in re.sub(r"<[^>]+>", "", html)  # 14 tiles: won
    preview = client.get(use).content.decode()
    assert "老王 自摸" in re.sub(r"<[^>]+>", "", preview)
    html = client.get(base + f"?flip=5p&winner=1&discarder=0&tiles={WAITING},E").content.decode()
    (use,) = [u for u in links(html) if "/record?" in u]
    assert query_of(use)["discarder"] == ["0"]
    assert "discarder=0" in next(u for u in links(html) if "/analyse?" in u and "tiles=" in u)


# -- recording ----------------------------------------------------------------------------------


def test_record_steps_carry_seat_zero_as_winner_and_discarder(client, game, zhuji_game, wuyi2_game):
    for g in (game, zhuji_game, wuyi2_game):
        response = client.get(game_url(g) + "record?winner=0&outcome=win")
        assert response.context["step"] != "winner"
        assert response.context["winner_name"] == g.players[0]
    response = client.get(game_url(game) + "record?winner=1&outcome=win&win_type=pinghu&discarder=0")
    assert response.context["step"] == "preview"
    assert "小李 平胡 ×1 · 老王放铳" in response.content.decode()


def test_record_stores_seat_zero_in_every_ruleset(client, game, zhuji_game, wuyi2_game):
    entries = {
        game: {"outcome": "win", "winner": 0, "win_type": "pinghu", "discarder": 1},
        zhuji_game: {"outcome": "win", "winner": 1, "discarder": 0, "tai": {"shape": "pinghu"}},
        wuyi2_game: {"outcome": "win", "winner": 0, "discarder": 1, "patterns": ["pinghu"]},
    }
    for g, entry in entries.items():
        assert record(client, g, entry).status_code == 302
        assert Hand.objects.get(game=g).entry == entry


# -- bets, 飘 and 承包 ---------------------------------------------------------------------------


def test_seat_zero_buys_maizi_and_places_xiazi(client, make_game):
    game = make_game(first_dealer=1)
    client.post(game_url(game) + "bet", {"bet": "maizi", "seat": "0", "on": "1"})
    game.refresh_from_db()
    assert game.pending["maizi"] == [0]
    html = client.get(game_url(game) + "record?winner=1&outcome=win&win_type=zimo").content.decode()
    assert re.search(r'name="maizi" value="0"[^>]*checked', html)
    add_hand(game, {"outcome": "win", "winner": 1, "win_type": "zimo", "maizi": [1, 0, 0, 0]})
    client.post(game_url(game) + "bet", {"bet": "xiazi", "seat": "0", "on": "1"})
    game.refresh_from_db()
    assert game.pending["xiazi"] == {"0": 2}
    response = client.get(game_url(game) + "record?winner=1&outcome=win&win_type=zimo")
    assert response.context["form"].cleaned_data["xz0"] == 2


def test_seat_zero_floats_and_feeds(client, game):
    html = client.get(game_url(game) + "record?winner=1&outcome=win&piao_player=0&piao_level=1").content.decode()
    assert "老王</bdi> 飘了" in html
    entry = {
        "outcome": "win",
        "winner": 1,
        "win_type": "zimo",
        "piao": {"player": 0, "level": 1},
        "feeders": [1],
    }
    assert record(client, game, entry).status_code == 302
    assert Hand.objects.get().entry == {**entry, "win_type": "zimo"}
    own = "record?winner=1&outcome=win&win_type=danpiao&feeder1=0"  # 小李 floated, 老王 fed
    html = client.get(game_url(game) + own).content.decode()
    assert "承包" in html
    body = {"winner": "1", "outcome": "win", "win_type": "danpiao", "feeder1": "0", "confirm": "1", "next_seq": "2"}
    body["version"] = version_of(game)
    assert client.post(game_url(game) + "record", body).status_code == 302
    assert Hand.objects.get(seq=2).entry["feeders"] == [0]


# -- manual, edit, void --------------------------------------------------------------------------


def test_a_manual_hand_passes_the_deal_to_seat_zero(client, make_game):
    game = make_game(first_dealer=2)
    body = {"outcome": "manual", "n0": "3", "n1": "-3", "n2": "0", "n3": "0", "note": "罚分"}
    client.post(
        game_url(game) + "record", {**body, "next_dealer": "0", "confirm": "1", "next_seq": "1", "version": "0"}
    )
    assert Hand.objects.get().entry["dealer"] == 0
    html = edit_sheet(client, game_url(game) + "hand/1/edit").content.decode()
    assert re.search(r'name="next_dealer"[^>]*>.*?<option value="0" selected', html, re.S)


def test_an_edit_makes_seat_zero_the_winner_and_starts_from_it(client, game):
    add_hand(game, {"outcome": "win", "winner": 1, "win_type": "zimo"})
    edit = game_url(game) + "hand/1/edit"
    body = {"outcome": "win", "winner": "0", "win_type": "pinghu", "discarder": "2", "revision": "0"}
    client.post(edit, {**body, "confirm": "1", "version": version_of(game)})
    assert Hand.objects.get().entry == {"outcome": "win", "winner": 0, "win_type": "pinghu", "discarder": 2}
    assert "winner=0&outcome=win" in was_links(client.get(edit).content.decode())[0]  # 老王's button says 原来
    form = edit_sheet(client, edit).context["form"]
    assert form.cleaned_data["winner"] == 0


def test_voiding_a_hand_seat_zero_won_previews_and_clears_its_gain(client, game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    response = client.get(game_url(game) + "hand/1/void")
    name, before, after, change = response.context["change"][0]
    assert (name, after) == ("老王", 0)
    assert before > 0
    assert change == -before
    client.post(game_url(game) + "hand/1/void", {"reason": "记错", "revision": "0", "version": version_of(game)})
    assert Hand.objects.get().voided


# -- settle ---------------------------------------------------------------------------------------


def test_seat_zero_pays_the_table_fee(client, game):
    entry = {"outcome": "win", "winner": 1, "win_type": "zimo"}
    add_hand(game, entry)
    client.post(game_url(game) + "finish", {**FINISH, "fee_yuan": "4", "fee_payee": "0"})
    settlement = Settlement.objects.get()
    assert settlement.fee_payee == 0
    points = score_game({"hands": [entry]})["totals"]
    assert settlement.balances_fen == [points[0] * 100 - 100 + 400, *(p * 100 - 100 for p in points[1:])]
