"""核对 in one tap: 「到第N局都对」 checks every hand up to the latest I played and have not said, never one I
sat out; a mistaken 对 (or 有误) is taken back with 撤回; a 有误 is a banner on every phone until the hand is
fixed or the flag withdrawn, and the settle page names it; checks spend each person's own budget, never the
game's changes; a refused tap is said in the page (htmx) or on a page with the way back to the game."""

import re

from django.test import Client

from scoring import services
from scoring.models import AccessMiss, Game, Hand, HandCheck
from tests.helpers import form_fields, game_url, messages_of, record

ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}
DRAW = {"outcome": "draw"}
HTMX = {"HTTP_HX_REQUEST": "true"}


def add(game: Game, entry: dict) -> Hand:
    game.refresh_from_db()
    seq = (game.hands.order_by("-seq").values_list("seq", flat=True).first() or 0) + 1
    return services.record_hand(game=game, entry=entry, fix=None, next_seq=seq, form_token="", entered_by="")


def seat(game: Game, players: list[str]) -> Hand:
    return add(game, {"outcome": "seating", "players": players})


def evening(game: Game, hands: int = 17) -> None:
    """``hands`` hands through the write path; 阿明 sits in for 大刘 from the 6th to the 10th."""
    for number in range(1, hands + 1):
        if number == 6:
            seat(game, ["老王", "小李", "阿华", "阿明"])
        if number == 11:
            seat(game, ["老王", "小李", "阿华", "大刘"])
        add(game, ZIMO if number % 3 else DRAW)


def phone_of(game: Game, seat: int | None = None, name: str = "") -> Client:
    phone = Client()
    if name:
        phone.post(game_url(game) + "me", {"name": name})
    else:
        phone.post(game_url(game) + f"me/{seat}")
    return phone


def offered(phone: Client, game: Game) -> dict[str, str]:
    """The hidden fields of this phone's 「到第N局都对」 ({} when it has none)."""
    page = phone.get(game_url(game)).content.decode()
    if 'class="check-up-to' not in page:
        return {}
    form = page[page.index('class="check-up-to') :]
    return dict(re.findall(r'name="(upto|seen)" value="([^"]*)"', form[: form.index("</form>")]))


def tap(phone: Client, game: Game, fields: dict | None = None, **headers):
    return phone.post(game_url(game) + "checks", offered(phone, game) if fields is None else fields, **headers)


def checked(game: Game, person: str) -> list[int]:
    """The 第N局 ``person`` said 对 to."""
    numbers, number = {}, 0
    for hand in game.hands.filter(voided_at__isnull=True).order_by("seq"):
        if hand.entry.get("outcome") != "seating":
            number += 1
            numbers[hand.pk] = number
    return sorted(numbers[c.hand_id] for c in HandCheck.objects.filter(hand__game=game, person=person, verdict="ok"))


def test_one_tap_checks_exactly_my_unchecked_hands_up_to_the_latest_i_played(client, game):
    evening(game, 12)
    aming = phone_of(game, name="阿明")  # sat out hands 1-5 and 11-12
    page = aming.get(game_url(game)).content.decode()
    assert "到第10局都对" in page
    assert "还有 5 局没核对" in page
    assert tap(aming, game).status_code == 302
    assert checked(game, "阿明") == [6, 7, 8, 9, 10]
    assert offered(aming, game) == {}  # nothing left: no button
    laowang = phone_of(game, 0)  # seat 0, at every hand
    hand_3 = Hand.objects.get(game=game, seq=3)
    services.check_hand(game=game, seq=3, revision=hand_3.revision, person="老王", verdict="wrong", note="不对")
    fields = offered(laowang, game)
    add(game, ZIMO)  # a 13th hand, recorded after 老王's page was shown: not his to check yet
    response = tap(laowang, game, fields)
    assert "已核对 11 局。" in messages_of(laowang.get(response.url))
    assert checked(game, "老王") == [1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12]  # his 有误 on hand 3 stands
    assert HandCheck.objects.get(hand=hand_3, person="老王").verdict == "wrong"
    assert "到第13局都对" in laowang.get(game_url(game)).content.decode()


def test_a_hand_changed_since_the_page_was_shown_is_offered_again(client, game):
    evening(game, 3)
    xiaoli = phone_of(game, 1)
    fields = offered(xiaoli, game)
    Hand.objects.filter(game=game, seq=2).update(revision=5)  # another phone's edit, as the write path bumps it
    response = tap(xiaoli, game, fields)
    assert "第2局刚被改过，请看新的金额再核对。" in messages_of(xiaoli.get(response.url))
    assert checked(game, "小李") == [1, 3]
    assert offered(xiaoli, game)["seen"] == "2.5"


def test_a_double_tap_and_two_phones_write_each_check_once(client, game):
    evening(game, 5)
    first, second = phone_of(game, 2), phone_of(game, 2)  # 阿华's phone and tablet
    fields = offered(first, game)
    tap(first, game, fields)
    version = Game.objects.get().version
    tap(first, game, fields)  # the double tap
    tap(second, game, fields)  # the other device, same page
    assert HandCheck.objects.filter(person="阿华").count() == 5
    assert Game.objects.get().version == version  # nothing new: no phone redraws
    tap(phone_of(game, 3), game)
    assert HandCheck.objects.count() == 10
    assert Game.objects.get().version == version + 1  # one bump for 大刘's five


def test_a_mistaken_ok_or_a_flag_is_taken_back_with_one_tap_by_who_said_it(client, game):
    evening(game, 3)
    xiaoli = phone_of(game, 1)
    tap(xiaoli, game)
    page = xiaoli.get(game_url(game)).content.decode()
    assert page.count("撤回我的对") == 3
    back = game_url(game) + "hand/2/check/back"
    version = Game.objects.get().version
    assert xiaoli.post(back).status_code == 302
    assert checked(game, "小李") == [1, 3]
    assert Game.objects.get().version == version + 1
    xiaoli.post(back)  # a second tap: nothing to take back
    assert Game.objects.get().version == version + 1
    assert "到第2局都对" in xiaoli.get(game_url(game)).content.decode()  # offered again
    phone_of(game, 2).post(game_url(game) + "hand/1/check/back")  # 阿华 takes back only his own
    assert checked(game, "小李") == [1, 3]
    assert xiaoli.get(back).status_code == 302  # a reload of the address: the game page, never 405


def test_a_flag_is_a_banner_on_every_phone_until_the_hand_is_fixed(client, game):
    evening(game, 17)
    hand_1 = Hand.objects.get(game=game, seq=1)  # behind 「更早的 N 局」 on the game page
    daliu = phone_of(game, 3)
    daliu.post(game_url(game) + "hand/1/check", {"verdict": "wrong", "note": "是平胡", "revision": hand_1.revision})
    others = [phone_of(game, 0), phone_of(game, name="阿明"), Client()]
    for phone in [daliu, *others]:
        page = phone.get(game_url(game)).content.decode()
        banner = page[page.index('id="flags"') : page.index("</div></div>", page.index('id="flags"'))]
        assert "第1局有误" in banner
        assert "大刘" in banner
        assert "是平胡" in banner
        assert f'href="/g/{game.edit_token}/?page=1#hand-1"' in banner  # the row, on the whole list
        assert f'href="/g/{game.edit_token}/hand/1/edit"' in banner
    viewer = Client().get(game_url(game, view=True)).content.decode()
    assert "第1局有误" in viewer
    assert "/hand/1/edit" not in viewer
    polled = Game.objects.get().version - 1
    poll = others[0].get(game_url(game) + f"poll?v={polled}").content.decode()
    assert 'id="flags" hx-swap-oob="true"' in poll
    assert "第1局有误" in poll
    services.edit_hand(game=game, seq=1, revision=hand_1.revision, entry=DRAW, fix=None, edited_by="老王")
    assert "有误" not in others[0].get(game_url(game)).content.decode().split('id="flags"')[1][:200]


def test_a_flag_withdrawn_leaves_every_phone(client, game):
    evening(game, 2)
    hand = Hand.objects.get(game=game, seq=2)
    daliu = phone_of(game, 3)
    daliu.post(game_url(game) + "hand/2/check", {"verdict": "wrong", "note": "", "revision": hand.revision})
    assert "第2局有误" in Client().get(game_url(game)).content.decode()
    assert "撤回有误" in daliu.get(game_url(game)).content.decode()
    daliu.post(game_url(game) + "hand/2/check/back")
    assert "第2局有误" not in Client().get(game_url(game)).content.decode()
    assert not HandCheck.objects.exists()


def test_the_settle_page_names_the_flagged_hand(client, game):
    evening(game, 3)
    hand = Hand.objects.get(game=game, seq=3)
    services.check_hand(game=game, seq=3, revision=hand.revision, person="阿华", verdict="wrong", note="少算一番")
    page = client.get(game_url(game) + "settle").content.decode()
    flag = page[page.index("flagged-hand") :]
    assert "第3局有误" in flag[:600]
    assert "少算一番" in flag[:600]
    assert f"/g/{game.edit_token}/hand/3/edit" in flag[:800]


def test_four_people_checking_17_hands_at_pace_never_meet_a_budget_nor_spend_the_changes(client, game, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "changes": 1}  # one change would spend it all
    evening(game, 17)
    phones = [phone_of(game, s) for s in range(4)] + [phone_of(game, name="阿明")]
    for phone in phones:  # every tap of the evening's checking in one minute: more than any table's pace
        assert tap(phone, game).status_code == 302
    for phone, seat in zip(phones[:4], range(4), strict=True):  # a tap every 2 s for the minute: 30 taps each
        for seq in (1, 2, 3, 4, 5, 13, 14, 15, 16, 17, 18, 19, 3, 14):  # 14 mistaken 对 taken back, each checked again
            assert phone.post(game_url(game) + f"hand/{seq}/check/back").status_code == 302
            assert tap(phone, game).status_code == 302, seat
    for person in ("老王", "小李", "阿华"):
        assert checked(game, person) == list(range(1, 18))
    assert checked(game, "大刘") == [1, 2, 3, 4, 5, 11, 12, 13, 14, 15, 16, 17]
    assert checked(game, "阿明") == [6, 7, 8, 9, 10]
    assert not AccessMiss.objects.filter(kind="changes").exists()
    assert AccessMiss.objects.filter(kind="checks").count() == 5  # one count per person


def test_a_refusal_is_said_in_the_page_with_htmx_and_is_reloadable_without(client, game, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "checks": 1}
    evening(game, 3)
    xiaoli = phone_of(game, 1)
    fields = offered(xiaoli, game)
    xiaoli.post(game_url(game) + "hand/3/check/back")  # spends the one
    response = tap(xiaoli, game, fields, **HTMX)
    assert response.status_code == 429
    assert response["HX-Reswap"] == "none"
    assert response["HX-Push-Url"] == "false"
    body = response.content.decode()
    assert 'id="flash"' in body
    assert 'hx-swap-oob="true"' in body
    seconds = int(re.search(r"(\d+) 秒后可以再试", body).group(1))
    assert 1 <= seconds <= 60
    assert response["Retry-After"] == str(seconds)
    assert "<html" not in body
    plain = tap(xiaoli, game, fields)
    assert plain.status_code == 429
    page = plain.content.decode()
    assert "一分钟内核对的次数太多了" in page
    assert "秒后可以再试" in page
    assert f'href="/g/{game.edit_token}/"' in page  # 返回牌局
    assert xiaoli.get(game_url(game) + "checks").status_code == 302  # the address reloaded: the game, not 405
    assert not HandCheck.objects.exists()


def test_a_hands_refusal_is_said_in_the_page_too(client, game, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "hands": 1}
    assert record(client, game, DRAW).status_code == 302
    game.refresh_from_db()
    data = {**form_fields(DRAW, game), "confirm": "1", "next_seq": 2, "version": game.version}
    response = client.post(game_url(game) + "record", data, **HTMX)
    assert response.status_code == 429
    assert response["HX-Reswap"] == "none"
    assert "这一桌一分钟内记了太多局" in response.content.decode()
    assert Hand.objects.filter(game=game).count() == 1
