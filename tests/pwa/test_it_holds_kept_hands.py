"""A hand kept on a phone offline that another phone recorded meanwhile, or that would score
differently now than the phone showed, is held, nothing recorded: the answer is a card the phone
shows (scoring/table/kept.py, scoring/table/held.py), and the phone's answer to it is applied
once. Only a hand that scores the same as shown goes in by itself."""

import re

from django.test import Client

from scoring.models import Game, Hand
from tests.helpers import form_fields, game_url, parse, record

ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}  # 老王, the first dealer
AHUA_ZIMO = {"outcome": "win", "winner": 2, "win_type": "zimo"}
XIAOLI_ZIMO = {"outcome": "win", "winner": 1, "win_type": "zimo"}
DRAW = {"outcome": "draw"}


def me(client: Client, game: Game, seat: int) -> Client:
    client.post(game_url(game) + f"me/{seat}")  # 我是: what this phone records is signed
    return client


def phone(game: Game, seat: int) -> Client:
    return me(Client(), game, seat)


def kept_preview(client: Client, game: Game, entry: dict) -> dict:
    """The preview's form as offline.js keeps it when 确认 is tapped without network: its answers,
    its hidden fields (the server's stamp of what it shows among them) and 确认."""
    query = {k: v for k, v in form_fields(entry, game).items()}
    html = client.get(game_url(game) + "record", query).content.decode()
    hidden = {i.attrs["name"]: i.attrs.get("value", "") for i in parse(html).find_all("input", type="hidden")}
    assert hidden.get("kept"), "the preview carries the stamp of what it shows"
    return {**query, **{k: hidden[k] for k in ("kept", "next_seq", "version", "form_token")}, "confirm": "1"}


def send(client: Client, game: Game, fields: dict, **extra):
    return client.post(game_url(game) + "record", {**fields, "queued": "1", **extra})


def amounts(card: str) -> list[tuple[str, ...]]:
    """The card's rows: (name, before, after) when it shows a change, else (name, amount)."""
    rows = []
    for row in parse(card).find("tbody").find_all("tr"):
        cells = [c.text for c in row.find_all("td") if c.attrs.get("class", "").startswith("text-end")]
        rows.append((row.find("bdi").text, *cells))
    return rows


def text(card: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", card))


# ---- item 3: a hand that would score differently ----


def test_a_kept_dealer_win_that_another_hand_made_a_non_dealer_win_is_held_with_before_and_after(game):
    laowang = phone(game, 0)
    kept = kept_preview(laowang, game, ZIMO)  # 老王 deals: +42 as the preview showed (7/5, 自摸 ×2)
    record(phone(game, 1), game, XIAOLI_ZIMO)  # meanwhile 小李 won: the deal passed to 小李
    version = Game.objects.get(pk=game.pk).version

    answer = send(laowang, game, kept)
    assert answer.status_code == 409
    body = answer.json()
    assert (body["ok"], body["held"]) == (False, "changed")
    assert Hand.objects.filter(game=game).count() == 1  # nothing recorded
    assert Game.objects.get(pk=game.pk).version == version  # nothing changed, no phone refreshes
    card = body["card"]
    assert "存在这台手机上的这一局，现在算出来不一样了" in text(card)
    assert "老王 记下时按老王坐庄：+42；排在第1局后：+34" in text(card)
    assert amounts(card) == [
        ("老王", "+42", "+34"),
        ("小李", "−14", "−14"),
        ("阿华", "−14", "−10"),
        ("大刘", "−14", "−10"),
    ]
    assert "确认，记为第2局" in card
    assert "修改" in card
    assert "丢掉" in card
    edit = parse(card).find(data_held_answer="edit").attrs["href"]
    assert edit.startswith(game_url(game) + "record?")
    assert "winner=0" in edit
    assert "kept=" not in edit

    done = send(laowang, game, kept, answer="confirm", agreed=body["agreed"])  # 确认
    assert done.status_code == 200
    assert done.json()["ok"]
    assert done.json()["seq"] == 2
    hand = Hand.objects.get(game=game, seq=2)
    assert (hand.entered_by, hand.result["net"]) == ("老王", [34, -14, -10, -10])  # as the card said
    again = send(laowang, game, kept, answer="confirm", agreed=body["agreed"])  # the answer sent twice
    assert again.json()["already"] is True
    assert Hand.objects.filter(game=game).count() == 2


def test_a_kept_hand_that_scores_the_same_goes_in_by_itself(game):
    laowang = phone(game, 0)
    kept = kept_preview(laowang, game, ZIMO)
    record(phone(game, 1), game, DRAW)  # a 流局: 老王 still deals, the same +42
    answer = send(laowang, game, kept)
    assert answer.status_code == 200
    assert answer.json()["message"] == "这一局存在你手机上时，小李记了第1局；你记的已排在第2局。"
    assert Hand.objects.get(game=game, seq=2).result["net"] == [42, -14, -14, -14]


def test_a_kept_hand_whose_table_did_not_move_goes_in_by_itself(game):
    laowang = phone(game, 0)
    answer = send(laowang, game, kept_preview(laowang, game, ZIMO))
    assert answer.status_code == 200
    assert answer.json()["message"] == "存在这台手机上的一局已记上，是第1局。"


def test_the_amounts_changing_again_before_the_confirm_are_shown_again_and_nothing_recorded(game):
    laowang = phone(game, 0)
    kept = kept_preview(laowang, game, ZIMO)
    record(phone(game, 1), game, XIAOLI_ZIMO)
    held = send(laowang, game, kept).json()
    record(phone(game, 1), game, AHUA_ZIMO)  # while the card was on screen the deal passed again
    again = send(laowang, game, kept, answer="confirm", agreed=held["agreed"])
    assert again.status_code == 409
    assert again.json()["held"] == "changed"
    assert "排在第2局后" in text(again.json()["card"])
    assert "记下时按老王坐庄：+42" in text(again.json()["card"])  # still what was played
    assert Hand.objects.filter(game=game).count() == 2
    done = send(laowang, game, kept, answer="confirm", agreed=again.json()["agreed"])
    assert done.json()["seq"] == 3


def test_a_hand_kept_from_a_link_is_held_when_the_deal_passed_and_when_the_bets_changed(client, game):
    """A link's hand was never previewed: its amounts are worked out at the table of the bundle's
    stamp (scoring/table/views/steps.py), with the bets placed then."""
    client.post(game_url(game) + "bet", {"bet": "maizi", "seat": 2, "on": "1"})  # 阿华 买子
    bundle = client.get(game_url(game) + "steps").content.decode()
    stamp = re.search(r'data-kept="([^"]+)"', bundle)[1]
    link = {"outcome": "win", "winner": "0", "win_type": "zimo", "confirm": "1", "next_seq": "1", "from_link": "1"}
    client.post(game_url(game) + "bet", {"bet": "maizi", "seat": 2, "on": "0"})  # withdrawn meanwhile
    held = send(client, game, {**link, "form_token": "link-bets", "kept": stamp})
    assert held.status_code == 409
    assert held.json()["held"] == "changed"
    assert "记下时：" in text(held.json()["card"])  # the same dealer: other bets
    assert not Hand.objects.filter(game=game).exists()

    other = Client()
    record(other, game, XIAOLI_ZIMO)
    held = send(client, game, {**link, "form_token": "link-deal", "kept": stamp})
    assert held.json()["held"] == "changed"
    assert "记下时按老王坐庄" in text(held.json()["card"])


def test_a_phones_later_kept_hand_is_compared_with_the_table_after_its_own(game):
    """Two hands kept one after the other on one phone: the second was played after the first,
    whose seq the phone moved it past (``next_seq``), and the first is its own (``mine``)."""
    laowang = phone(game, 0)
    bundle = laowang.get(game_url(game) + "steps").content.decode()
    stamp = re.search(r'data-kept="([^"]+)"', bundle)[1]
    link = {**form_fields(AHUA_ZIMO, game), "confirm": "1", "from_link": "1", "kept": stamp}
    first = send(laowang, game, {**link, "next_seq": "1", "form_token": "first"}).json()
    assert first["seq"] == 1
    second = send(laowang, game, {**link, "next_seq": "2", "form_token": "second", "mine": "1"})
    assert second.status_code == 200, second.json()
    assert Hand.objects.filter(game=game).count() == 2


def test_three_previews_kept_at_one_table_land_in_order_unasked_though_the_first_passed_the_deal(game):
    """Issue 42: three hands confirmed on previews of one table (the server failing under them), each
    with the amounts that table showed; the first passes the deal. The table the phone knew for the
    later ones is the stamp's with its own landed hands (``mine``): no card, no question, 1, 2, 3."""
    laowang = phone(game, 0)
    kept = [kept_preview(laowang, game, entry) for entry in (XIAOLI_ZIMO, AHUA_ZIMO, ZIMO)]
    mine = []
    for n, fields in enumerate(kept, start=1):
        answer = send(laowang, game, {**fields, "next_seq": str(n), "mine": ",".join(mine)})
        assert answer.status_code == 200, answer.json()
        assert answer.json()["seq"] == n
        mine.append(str(n))
    assert [h.entry["winner"] for h in Hand.objects.filter(game=game).order_by("seq")] == [1, 2, 0]


def test_a_kept_preview_behind_its_own_hand_and_another_phones_is_held_when_the_other_moved_it(game):
    """The phone's own hands are what it knew; another phone's hand in between still holds the hand."""
    laowang = phone(game, 0)
    first, second = (kept_preview(laowang, game, entry) for entry in (XIAOLI_ZIMO, ZIMO))
    assert send(laowang, game, first).json()["seq"] == 1  # the deal passes to 小李
    record(phone(game, 1), game, {"outcome": "win", "winner": 3, "win_type": "zimo"})  # another phone's: to 阿华
    answer = send(laowang, game, {**second, "next_seq": "2", "mine": "1"})
    assert answer.status_code == 409
    assert answer.json()["held"] == "changed"


def test_a_queued_hand_past_the_tables_writes_a_minute_is_refused_in_json_with_the_reason(game, settings):
    laowang = phone(game, 0)
    first, second = (kept_preview(laowang, game, entry) for entry in (ZIMO, AHUA_ZIMO))
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "hands": 1}
    assert send(laowang, game, first).status_code == 200
    answer = send(laowang, game, {**second, "next_seq": "2", "mine": "1"})
    assert answer.status_code == 429
    assert answer.json() == {"ok": False, "reason": "这一桌一分钟内记了太多局，请过一会儿再确认。", "budget": True}
    assert Hand.objects.filter(game=game).count() == 1


# ---- item 2: the same hand from two phones ----


def test_the_same_hand_kept_on_two_phones_is_asked_about_and_dropped_or_recorded_once(game):
    xiaoli, laowang = phone(game, 1), phone(game, 0)
    mine, theirs = kept_preview(laowang, game, AHUA_ZIMO), kept_preview(xiaoli, game, AHUA_ZIMO)
    assert send(xiaoli, game, theirs).json()["seq"] == 1  # 小李's came back first: 第1局
    version = Game.objects.get(pk=game.pk).version

    held = send(laowang, game, mine)
    assert held.status_code == 409
    body = held.json()
    assert body["held"] == "same"
    assert text(body["card"]).startswith(" 小李已经记了第1局：阿华 自摸 ×2。是同一局吗？")
    assert "是，丢掉我的" in body["card"]
    assert "不是，再记一局" in body["card"]
    assert "不是同一局的话，记为第2局" in text(body["card"])
    assert Hand.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).version == version

    dropped = send(laowang, game, mine, answer="drop", agreed=body["agreed"])
    assert dropped.status_code == 200
    assert dropped.json() == {"ok": True, "dropped": True, "seq": 1, "message": "丢掉了你离线记的这一局，第1局照旧。"}
    assert Hand.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).version == version


def test_not_the_same_records_it_once_at_the_end_with_the_amounts_the_card_showed(game):
    xiaoli, laowang = phone(game, 1), phone(game, 0)
    mine, theirs = kept_preview(laowang, game, AHUA_ZIMO), kept_preview(xiaoli, game, AHUA_ZIMO)
    send(xiaoli, game, theirs)
    body = send(laowang, game, mine).json()
    shown = amounts(body["card"])  # 阿华's win passed the deal to 小李: before → after, 第2局
    assert [row[0] for row in shown] == ["老王", "小李", "阿华", "大刘"]
    assert shown[1] == ("小李", "−10", "−14")  # 小李 pays as the dealer now
    done = send(laowang, game, mine, answer="again", agreed=body["agreed"])
    assert done.status_code == 200
    assert done.json()["seq"] == 2
    hand = Hand.objects.get(game=game, seq=2)
    assert [f"{n:+d}".replace("-", "−") for n in hand.result["net"]] == [row[2] for row in shown]
    assert send(laowang, game, mine, answer="again", agreed=body["agreed"]).json()["already"] is True
    dropped_late = send(laowang, game, mine, answer="drop", agreed=body["agreed"]).json()
    assert dropped_late["already"] is True  # another tab said 不是 first: it stays, and is named
    assert "第2局" in dropped_late["message"]
    assert Hand.objects.filter(game=game).count() == 2


def test_two_phones_answering_not_the_same_about_one_hand_record_one_and_ask_the_other_again(game):
    """Three phones kept 阿华 自摸; 大刘's came back first. 老王's and 小李's both ask about it; 老王
    answers 不是 first: his is 第2局. 小李's 不是 was about 第1局 only: it is asked about 老王's now."""
    laowang, xiaoli, daliu = phone(game, 0), phone(game, 1), phone(game, 3)
    kept = {who: kept_preview(client, game, AHUA_ZIMO) for who, client in (("w", laowang), ("l", xiaoli), ("d", daliu))}
    send(daliu, game, kept["d"])
    held_w, held_l = send(laowang, game, kept["w"]).json(), send(xiaoli, game, kept["l"]).json()
    assert "大刘已经记了第1局" in text(held_w["card"])
    assert "大刘已经记了第1局" in text(held_l["card"])
    assert send(laowang, game, kept["w"], answer="again", agreed=held_w["agreed"]).json()["seq"] == 2
    again = send(xiaoli, game, kept["l"], answer="again", agreed=held_l["agreed"])
    assert again.status_code == 409
    assert "老王已经记了第2局：阿华 自摸 ×2。是同一局吗？" in text(again.json()["card"])
    assert Hand.objects.filter(game=game).count() == 2
    assert send(xiaoli, game, kept["l"], answer="drop", agreed=again.json()["agreed"]).json()["seq"] == 2


def test_a_hand_of_other_people_or_another_result_is_not_asked_about(game):
    laowang = phone(game, 0)
    mine = kept_preview(laowang, game, AHUA_ZIMO)
    record(phone(game, 1), game, {"outcome": "win", "winner": 2, "win_type": "pinghu", "discarder": 1})
    answer = send(laowang, game, mine)
    assert answer.json().get("held") != "same"  # 阿华 平胡 is another result: at most its amounts are asked


def test_an_unsigned_phones_hand_is_named_as_another_phones(game):
    laowang = phone(game, 0)
    mine = kept_preview(laowang, game, AHUA_ZIMO)
    record(Client(), game, AHUA_ZIMO)
    body = send(laowang, game, mine).json()
    assert "别的手机已经记了第1局：阿华 自摸 ×2。是同一局吗？" in text(body["card"])


def test_the_card_speaks_english(game):
    laowang = phone(game, 0)
    laowang.cookies["django_language"] = "en"
    kept = kept_preview(laowang, game, ZIMO)
    record(phone(game, 1), game, XIAOLI_ZIMO)
    card = text(send(laowang, game, kept).json()["card"])
    assert "When kept with 老王 dealing: +42; placed after hand 1: +34" in card
    assert "Confirm as hand 2" in card


# ---- answers that are none ----


def test_a_bad_or_forged_answer_changes_nothing_and_says_so(game):
    xiaoli, laowang = phone(game, 1), phone(game, 0)
    mine, theirs = kept_preview(laowang, game, AHUA_ZIMO), kept_preview(xiaoli, game, AHUA_ZIMO)
    send(xiaoli, game, theirs)
    body = send(laowang, game, mine).json()
    other = send(xiaoli, game, {**theirs, "form_token": "another"}).json()  # 小李's own card: another hand
    version = Game.objects.get(pk=game.pk).version
    for extra in (
        {"answer": "again", "agreed": "forged"},
        {"answer": "again", "agreed": body["agreed"][:-3] + "abc"},
        {"answer": "again", "agreed": other["agreed"]},  # the answer to another kept hand's card
        {"answer": "confirm", "agreed": body["agreed"]},  # 确认 is no answer to 「是同一局吗？」
        {"answer": "again"},
        {"answer": "sure", "agreed": body["agreed"]},
    ):
        refused = send(laowang, game, mine, **extra)
        assert refused.status_code == 409, extra
        assert refused.json() == {
            "ok": False,
            "answer_refused": True,
            "reason": "这个回答对不上这一局（可能是旧的页面），什么都没有改。请再看一下再回答。",
        }, extra
    assert Hand.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).version == version


def test_a_forged_stamp_is_read_as_none(game):
    laowang = phone(game, 0)
    kept = kept_preview(laowang, game, ZIMO)
    answer = send(laowang, game, {**kept, "kept": kept["kept"][:-2] + "zz"})
    assert answer.status_code == 200  # nothing moved: the table at its next_seq, the same amounts
    other_game = Game.objects.create(players=game.players, rules=game.rules)
    foreign = send(laowang, other_game, {**kept, "form_token": "foreign"})  # a stamp of another game
    assert foreign.status_code == 200


def test_every_ruleset_asks_about_the_same_hand(game, zhuji_game, wuyi2_game):
    for each in (game, zhuji_game, wuyi2_game):
        first, second = phone(each, 0), phone(each, 1)
        mine, theirs = kept_preview(first, each, DRAW), kept_preview(second, each, DRAW)
        assert send(second, each, theirs).status_code == 200
        held = send(first, each, mine)
        assert held.status_code == 409, each.ruleset
        assert f"{each.players[1]}已经记了第1局：流局。是同一局吗？" in text(held.json()["card"]), each.ruleset
        assert Hand.objects.filter(game=each).count() == 1


def test_a_seating_meanwhile_holds_the_hand_with_each_persons_amount_and_asks_nothing(game):
    """Other people at the table are no "same hand"; each person's amount says who it pays now."""
    from tests.table.test_it_seating_page import seat

    laowang = phone(game, 0)
    kept = kept_preview(laowang, game, AHUA_ZIMO)
    other = phone(game, 1)
    seat(other, game, "老王", "小李", "阿华", "小陈")  # 大刘 went home, 小陈 sat down
    record(other, game, AHUA_ZIMO)  # then 阿华 自摸: the same result, other people
    body = send(laowang, game, kept).json()
    assert body["held"] == "changed"
    rows = amounts(body["card"])
    assert [row[0] for row in rows] == ["老王", "小李", "阿华", "大刘", "小陈"]
    assert rows[3][2] == "—"  # 大刘 pays nothing where it lands
    assert rows[4][1] == "—"  # 小陈 was not at the table it was kept at
    assert Hand.objects.filter(game=game).count() == 2
