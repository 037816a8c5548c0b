"""A confirmed preview stores what it showed: a preview made before another phone changed an
earlier hand is refused and shown again, fresh; each request scores or replays only once."""

import scoring.replay
from scoring.models import Hand
from tests.factories import add_hand
from tests.helpers import form_fields, game_url, messages_of, version_of

DEALER_ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}
SOUTH_ZIMO = {"outcome": "win", "winner": 1, "win_type": "zimo"}


def confirm_post(client, game, path: str, entry: dict, **extra):
    data = {**form_fields(entry, game), "confirm": "1", **extra}
    return client.post(game_url(game) + path, data, follow=True)


def test_a_preview_made_before_an_earlier_hand_changed_is_refused_with_the_new_preview(client, game):
    add_hand(game, DEALER_ZIMO)
    game.refresh_from_db()
    seen = game.version  # phone A previews hand 2 now: 东 deals, so 南's 自摸 pays 闲 5 from 西 and 北
    edit = {**form_fields(SOUTH_ZIMO, game), "revision": "0", "confirm": "1", "version": str(seen)}
    client.post(game_url(game) + "hand/1/edit", edit)  # phone B: 南 won hand 1, so 南 deals hand 2
    response = confirm_post(
        client, game, "record", {"outcome": "win", "winner": 1, "win_type": "zimo"}, next_seq="2", version=str(seen)
    )
    assert "第1局刚被修改，金额变了，请看新的预览。" in messages_of(response)
    assert Hand.objects.filter(seq=2).count() == 0  # nothing stored with amounts nobody saw
    assert "确认记录" in response.content.decode()  # the new preview, ready to confirm again
    assert [row[3] for row in response.context["change"]] == [-14, 42, -14, -14]  # 南 now deals: 7 × 2 each


def test_edits_and_voids_from_a_stale_preview_are_refused_too(client, game):
    add_hand(game, DEALER_ZIMO)
    add_hand(game, DEALER_ZIMO)
    game.refresh_from_db()
    seen = game.version
    client.post(game_url(game) + "hand/1/void", {"version": version_of(game), "reason": "记错了", "revision": "0"})
    edited = confirm_post(client, game, "hand/2/edit", SOUTH_ZIMO, revision="0", version=str(seen))
    assert "第1局刚被作废，金额变了，请看新的预览。" in messages_of(edited)
    assert Hand.objects.get(seq=2).entry == DEALER_ZIMO
    voided = client.post(
        game_url(game) + "hand/2/void", {"reason": "x", "revision": "0", "version": str(seen)}, follow=True
    )
    assert "第1局刚被作废，金额变了，请看新的预览。" in messages_of(voided)
    assert not Hand.objects.get(seq=2).voided


def test_a_current_preview_confirms_normally(client, game):
    add_hand(game, DEALER_ZIMO)
    game.refresh_from_db()
    response = confirm_post(client, game, "record", SOUTH_ZIMO, next_seq="2", version=str(game.version))
    assert "已记录第2局。" in messages_of(response)


def test_an_htmx_refresh_of_the_preview_gets_only_the_panel(client, game):
    data = {**form_fields({"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 0}, game), "next_seq": "1"}
    full = client.post(game_url(game) + "record", data)
    part = client.post(game_url(game) + "record", data, headers={"HX-Request": "true"})
    html = part.content.decode()
    assert html.lstrip().startswith('<div id="preview-panel">')
    assert "<html" not in html
    assert "确认记录" in html
    assert 'name="version"' in html
    assert len(part.content) * 3 < len(full.content)


def test_an_edit_preview_replays_the_game_once(client, game, monkeypatch):
    for _ in range(6):
        add_hand(game, DEALER_ZIMO)
    scored = []
    real = scoring.replay.replay
    monkeypatch.setattr(scoring.replay, "replay", lambda *a, **k: scored.append(len(a[2])) or real(*a, **k))
    client.get(game_url(game) + "hand/3/edit?outcome=win&winner=0&win_type=zimo")
    assert sum(scored) == 6  # hands 1-2 to reach the table of hand 3, then hands 3-6 from there


UNSTAMPED = "这个表单缺少版本信息"


def test_a_confirm_without_the_games_version_records_nothing_and_says_why(client, game):
    data = {**form_fields(DEALER_ZIMO, game), "confirm": "1", "next_seq": "1"}
    response = client.post(game_url(game) + "record", data)
    assert response.status_code == 200
    assert UNSTAMPED in response.content.decode()
    assert "确认记录" in response.content.decode()  # the fresh preview, with its version, to confirm again
    assert not Hand.objects.exists()


def test_an_edit_or_void_without_version_or_revision_changes_nothing(client, game):
    add_hand(game, DEALER_ZIMO)
    game.refresh_from_db()
    stamps = {"version": str(game.version), "revision": "0"}
    for missing in stamps:
        sent = {k: v for k, v in stamps.items() if k != missing}
        edited = client.post(game_url(game) + "hand/1/edit", {**form_fields(SOUTH_ZIMO, game), "confirm": "1", **sent})
        assert UNSTAMPED in edited.content.decode()
        voided = client.post(game_url(game) + "hand/1/void", {"reason": "x", **sent})
        assert UNSTAMPED in voided.content.decode()
    hand = Hand.objects.get()
    assert hand.entry == DEALER_ZIMO
    assert hand.revision == 0
    assert not hand.voided


def test_a_preview_made_stale_by_another_phones_bet_says_whose_bet(client, game):
    add_hand(game, DEALER_ZIMO)
    game.refresh_from_db()
    seen = game.version  # phone A previews hand 2
    client.post(game_url(game) + "bet", {"bet": "maizi", "seat": "1", "on": "1"})  # phone B: 小李 buys 买子
    response = confirm_post(client, game, "record", SOUTH_ZIMO, next_seq="2", version=str(seen))
    assert "小李刚买了子，金额变了，请看新的预览。" in messages_of(response)
    assert Hand.objects.count() == 1


def test_a_stale_preview_names_who_changed_which_hand(client, game):
    add_hand(game, DEALER_ZIMO)
    add_hand(game, DEALER_ZIMO)
    game.refresh_from_db()
    seen = game.version
    client.post(game_url(game) + "me/2")  # this phone is 阿华
    client.post(game_url(game) + "hand/1/void", {"reason": "x", "revision": "0", "version": str(seen)})
    edited = confirm_post(client, game, "hand/2/edit", SOUTH_ZIMO, revision="0", version=str(seen))
    assert "阿华刚作废了第1局，金额变了，请看新的预览。" in messages_of(edited)
