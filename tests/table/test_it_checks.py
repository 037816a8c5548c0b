"""核对: each player of a hand says on the game page that its amounts are right (对) or wrong (有误,
with a note); every phone sees who has and who has not; an edit or void takes back the checks of
the hands whose amounts it moves; the settle screen names the hands not checked, and refuses to
finish while any is when the game says 全部核对后才能结算; the checks go into the backup and back."""

import json
import re

import pytest
from django.test import Client

from scoring import services
from scoring.models import Game, Group, Hand, HandCheck
from tests.factories import add_hand
from tests.helpers import FINISH, form_fields, game_url, messages_of, new_game_form, record, text_of

ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}  # 老王 自摸: everyone pays


def phone_of(game: Game, seat: int) -> Client:
    """A phone that said 「我是」 the person at ``seat``."""
    phone = Client()
    phone.post(game_url(game) + f"me/{seat}")
    return phone


def check(phone: Client, game: Game, seq: int, verdict: str = "ok", note: str = "", token: str | None = None):
    hand = Hand.objects.get(game=game, seq=seq)
    data = {"verdict": verdict, "note": note, "revision": str(hand.revision)}
    return phone.post(f"/g/{token or game.edit_token}/hand/{seq}/check", data)


def up_to(phone: Client, game: Game):
    """「到第N局都对」 as this phone's page offers it (its hidden fields, posted)."""
    page = phone.get(game_url(game)).content.decode()
    form = page[page.index('class="check-up-to') :]
    fields = dict(re.findall(r'name="(upto|seen)" value="([^"]*)"', form[: form.index("</form>")]))
    return phone.post(game_url(game) + "checks", fields)


def said(game: Game, seq: int) -> dict[str, tuple[str, str]]:
    return {c.person: (c.verdict, c.note) for c in HandCheck.objects.filter(hand__game=game, hand__seq=seq)}


def checks_all(game: Game, seq: int) -> None:
    """Everyone at the table says 对 to hand ``seq`` (through the write path)."""
    for name in game.seating:
        services.check_hand(
            game=game, seq=seq, revision=Hand.objects.get(game=game, seq=seq).revision, person=name, verdict="ok"
        )


def strip(html: str, seq: int) -> str:
    """The 核对 strip under hand ``seq`` ("" when it has none): up to the next row or the list's end."""
    start = html.find(f'id="checks-{seq}"')
    if start < 0:
        return ""
    ends = [i for i in (html.find('<details class="hand-row', start), html.find("</section>", start)) if i >= 0]
    return html[start : min(ends)]


def test_a_player_checks_a_hand_with_one_tap_and_everyone_sees_the_tick(client, game):
    add_hand(game, ZIMO)
    xiaoli = phone_of(game, 1)
    page = xiaoli.get(game_url(game)).content.decode()
    assert "✓0/4" in strip(page, 1)
    assert "到第1局都对" in page
    assert 'name="verdict" value="ok"' not in page  # the one-tap button replaces each row's 对
    assert 'name="verdict" value="wrong"' in strip(page, 1)  # 有误 stays on the row
    version = Game.objects.get().version
    assert up_to(xiaoli, game).status_code == 302
    assert said(game, 1) == {"小李": ("ok", "")}
    assert Game.objects.get().version == version + 1  # every phone's poll sees it
    page = xiaoli.get(game_url(game)).content.decode()
    assert '<bdi>小李</bdi><span class="checked">✓' in page
    assert "到第1局都对" not in page  # nothing left for 小李
    assert "撤回我的对" in strip(page, 1)
    other = phone_of(game, 2).get(game_url(game)).content.decode()
    assert '<bdi>小李</bdi><span class="checked">✓' in other
    assert "✓1/4" in strip(other, 1)
    assert "到第1局都对" in other  # 阿华 is still to check


def test_wrong_with_a_note_flags_the_hand_on_every_phone_with_a_link_to_fix_it(client, game):
    add_hand(game, ZIMO)
    laowang = phone_of(game, 0)
    laowang.get(game_url(game))
    polled = Game.objects.get().version
    check(phone_of(game, 3), game, 1, "wrong", "应该是平胡，阿华放的")
    assert said(game, 1) == {"大刘": ("wrong", "应该是平胡，阿华放的")}
    poll = laowang.get(game_url(game) + f"poll?v={polled}")  # the other phone's next poll
    assert poll.status_code == 200
    flag = strip(poll.content.decode(), 1)
    assert "有误</span> · <bdi>大刘</bdi>：「应该是平胡，阿华放的」" in flag
    assert f'href="/g/{game.edit_token}/hand/1/edit"' in strip(poll.content.decode(), 1)
    viewer = Client().get(game_url(game, view=True)).content.decode()
    assert "应该是平胡，阿华放的" in viewer  # the view link sees the flag
    assert "/hand/1/edit" not in viewer
    assert 'name="verdict"' not in viewer


def test_a_view_link_checks_nothing_and_a_phone_must_say_who_it_is(client, game):
    add_hand(game, ZIMO)
    viewer = phone_of(game, 1)
    assert check(viewer, game, 1, token=game.view_token).status_code == 403
    nobody = Client()
    response = check(nobody, game, 1)
    assert "先在页面下方选「我是」，再核对。" in messages_of(nobody.get(response.url))
    assert not HandCheck.objects.exists()


def test_only_who_played_the_hand_checks_it(client, game):
    add_hand(game, ZIMO)
    services.record_hand(
        game=game,
        entry={"outcome": "seating", "players": ["老王", "小李", "阿华", "阿明"]},
        fix=None,
        next_seq=2,
        form_token="",
        entered_by="",
    )
    add_hand(game, ZIMO)
    aming = phone_of(game, 3)
    page = aming.get(game_url(game)).content.decode()
    assert 'name="verdict"' in strip(page, 3)
    assert strip(page, 1) == ""  # 阿明 sat out hand 1: nothing of his to tap there
    assert 'name="seen" value="3.0"' in page  # his one-tap 核对 is hand 3's alone
    response = check(aming, game, 1)
    assert "第1局没有你（阿明）：只有打这一局的人核对。" in messages_of(aming.get(response.url))
    assert said(game, 1) == {}


def test_a_second_tap_or_another_tab_records_the_check_once(client, game):
    add_hand(game, ZIMO)
    xiaoli = phone_of(game, 1)
    check(xiaoli, game, 1)
    version = Game.objects.get().version
    check(xiaoli, game, 1)
    assert HandCheck.objects.count() == 1
    assert Game.objects.get().version == version  # nothing new for the other phones
    check(xiaoli, game, 1, "wrong", "少算了一番")  # changing one's mind changes the one check
    assert said(game, 1) == {"小李": ("wrong", "少算了一番")}
    assert HandCheck.objects.count() == 1


def test_a_check_of_a_hand_changed_since_the_page_was_shown_is_refused(client, game):
    add_hand(game, ZIMO)
    xiaoli = phone_of(game, 1)
    hand = Hand.objects.get(game=game, seq=1)
    Hand.objects.filter(pk=hand.pk).update(revision=1)  # another phone's edit
    response = xiaoli.post(game_url(game) + "hand/1/check", {"verdict": "ok", "revision": "0"})
    assert "第1局刚被改过，请看新的金额再核对。" in messages_of(xiaoli.get(response.url))
    response = xiaoli.post(game_url(game) + "hand/1/check", {"verdict": "maybe", "revision": "1"})
    assert "请选「对」或「有误」。" in messages_of(xiaoli.get(response.url))
    assert not HandCheck.objects.exists()


def test_a_check_leaves_an_open_preview_confirmable(client, game):
    add_hand(game, ZIMO)
    version = Game.objects.get().version  # the next hand's preview, shown on 老王's phone
    check(phone_of(game, 1), game, 1)
    response = record(client, game, {"outcome": "draw"}, version=version)
    assert response.status_code == 302
    assert Hand.objects.filter(game=game).count() == 2


def test_an_edit_or_a_void_takes_back_the_checks_of_the_hands_whose_amounts_it_moves_only(client, game):
    add_hand(game, ZIMO)  # 老王 deals and wins
    add_hand(game, {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 2})  # the deal passes
    add_hand(game, {"outcome": "win", "winner": 1, "win_type": "zimo"})  # 小李 wins as dealer: 7 a pair
    for seq in (1, 2, 3):
        checks_all(game, seq)
    game.refresh_from_db()
    before = {h.seq: h.result["net"] for h in game.hands.all()}
    entry = {"outcome": "win", "winner": 0, "win_type": "pinghu", "discarder": 2}  # 老王 won hand 2: he deals on
    response = client.post(
        game_url(game) + "hand/2/edit",
        {**form_fields(entry, game), "revision": "0", "confirm": "1", "version": game.version},
    )
    assert response.status_code == 302
    after = {h.seq: h.result["net"] for h in game.hands.all()}
    assert after[1] == before[1]
    assert after[3] != before[3]
    assert [len(said(game, seq)) for seq in (1, 2, 3)] == [4, 0, 0]
    page = phone_of(game, 0).get(game_url(game)).content.decode()
    assert "✓0/4" in strip(page, 2)
    assert "✓0/4" in strip(page, 3)
    assert "✓4/4" in strip(page, 1)
    assert re.search(r'name="seen" value="2\.\d+,3\.\d+"', page)  # the moved hands are offered again
    checks_all(game, 2)
    game.refresh_from_db()
    client.post(game_url(game) + "hand/3/void", {"reason": "记错了", "revision": "0", "version": game.version})
    assert [len(said(game, seq)) for seq in (1, 2, 3)] == [4, 4, 0]


def test_hands_changed_together_take_back_the_checks_of_every_hand_whose_amounts_move(client, game):
    add_hand(game, ZIMO)
    add_hand(game, {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 2})
    add_hand(game, {"outcome": "win", "winner": 1, "win_type": "zimo"})
    add_hand(game, {"outcome": "draw"})
    for seq in (1, 2, 3, 4):
        checks_all(game, seq)
    game.refresh_from_db()
    changes = [  # 一起修改: 老王 won hand 2 as well (he deals on), and hand 3 is voided with it
        services.Change(seq=2, revision=0, entry={"outcome": "win", "winner": 0, "win_type": "pinghu", "discarder": 2}),
        services.Change(seq=3, revision=0, reason="记错了"),
    ]
    services.change_hands(game=game, changes=changes, by="", version=game.version)
    assert [len(said(game, seq)) for seq in (1, 2, 3, 4)] == [4, 0, 0, 4]  # a draw pays nobody: it stands checked


def test_the_settle_screen_names_the_hands_not_checked_and_still_finishes(client, game):
    add_hand(game, ZIMO)
    add_hand(game, {"outcome": "draw"})
    checks_all(game, 1)
    check(phone_of(game, 2), game, 2, "wrong", "其实阿华听了")
    page = client.get(game_url(game) + "settle", FINISH).content.decode()
    start = page.index("not-checked")
    note = text_of(page[start : page.index('action="/g/', start)])
    assert "这些局还没有每个人都核对（仍可结算）" in note
    assert "第2局 · 有误： 阿华 「其实阿华听了」 · 待核对： 老王 、 小李 、 大刘" in note
    assert "第1局" not in note
    assert client.post(game_url(game) + "finish", FINISH).status_code == 302
    assert Game.objects.get().status == Game.FINISHED


def test_all_checked_before_settling_refuses_to_finish_until_every_hand_is(client, game):
    Game.objects.filter(pk=game.pk).update(checks_required=True)
    add_hand(game, ZIMO)
    add_hand(game, {"outcome": "draw"})
    checks_all(game, 1)
    page = client.get(game_url(game) + "settle", FINISH).content.decode()
    assert "这一场要全部核对后才能结算" in page
    assert 'type="submit" disabled>结束并结算' in page
    response = client.post(game_url(game) + "finish", FINISH)
    assert "这一场要全部核对后才能结算：第2局还没核对完（或有人标了有误）。" in messages_of(client.get(response.url))
    assert Game.objects.get().status == Game.PLAYING
    checks_all(game, 2)
    assert client.post(game_url(game) + "finish", FINISH).status_code == 302
    assert Game.objects.get().status == Game.FINISHED


def test_the_setting_is_the_new_games_and_a_groups_new_games_start_with_it(client, db):
    client.post("/new", new_game_form(["老王", "小李", "阿华", "大刘"], checks_required="on"))
    assert Game.objects.get().checks_required is True
    client.post("/group/new", {"name": "周五", "roster": "老王\n小李", "checks_required": "on"})
    group = Group.objects.get()
    assert group.checks_required is True
    form = client.get(f"/new?group={group.edit_token}").content.decode()
    assert 'id="id_checks_required" checked' in form


@pytest.mark.parametrize("required", [True, False])
def test_the_checks_and_the_setting_go_into_the_backup_and_come_back(client, game, required):
    Game.objects.filter(pk=game.pk).update(checks_required=required)
    add_hand(game, ZIMO)
    add_hand(game, {"outcome": "draw"})
    checks_all(game, 1)
    check(phone_of(game, 2), game, 2, "wrong", "其实阿华听了")
    backup = json.loads(client.get(game_url(game) + "export.json").content)
    assert backup["backup"]["format"] == 4
    assert backup["backup"]["checks_required"] is required
    assert client.post("/import", {"text": json.dumps(backup)}).status_code == 302
    copy = Game.objects.exclude(pk=game.pk).get()
    assert copy.checks_required is required
    for seq in (1, 2):
        assert said(copy, seq) == said(game, seq)
    kept = {(c.hand.seq, c.person, c.at) for c in HandCheck.objects.filter(hand__game=copy)}
    assert kept == {(c.hand.seq, c.person, c.at) for c in HandCheck.objects.filter(hand__game=game)}
    old = {**backup, "backup": {**backup["backup"], "format": 3}}  # a file of the version before checks
    del old["backup"]["checks_required"]
    old["backup"]["hands"] = [{k: v for k, v in h.items() if k != "checks"} for h in old["backup"]["hands"]]
    assert client.post("/import", {"text": json.dumps(old)}).status_code == 302
    assert not HandCheck.objects.filter(hand__game=Game.objects.latest("pk")).exists()
