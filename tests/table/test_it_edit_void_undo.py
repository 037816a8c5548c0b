from scoring.engine import score_game
from scoring.models import Hand
from tests.helpers import edit_sheet, game_url, messages_of, record, totals_on_page, version_of

DEALER_ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}
SOUTH_ZIMO = {"outcome": "win", "winner": 1, "win_type": "zimo"}


def play(client, game, *entries):
    for entry in entries:
        assert record(client, game, entry).status_code == 302


def engine_totals(*entries) -> list[str]:
    totals = score_game({"hands": list(entries)})["totals"]
    return [f"+{t}" if t > 0 else f"−{-t}" if t < 0 else "0" for t in totals]


def test_edit_form_starts_from_the_stored_hand_and_previews_total_changes(client, game):
    play(client, game, DEALER_ZIMO, SOUTH_ZIMO)
    response = edit_sheet(client, game_url(game) + "hand/1/edit")
    assert response.status_code == 200
    assert "确认修改" in response.content.decode()
    assert response.context["form"]["win_type"].value() == "zimo"
    # unchanged: every total stays
    assert all(diff == 0 for *_, diff in response.context["change"])


def test_editing_a_hand_replays_every_later_hand(client, game):
    play(client, game, DEALER_ZIMO, SOUTH_ZIMO, DEALER_ZIMO)
    hand = Hand.objects.get(seq=1)
    # 东's 自摸 was really 南's: the deal passes after hand 1, so hand 2 is now 南 winning as dealer
    response = client.post(
        game_url(game) + "hand/1/edit",
        {
            "outcome": "win",
            "winner": "1",
            "win_type": "zimo",
            "revision": hand.revision,
            "version": version_of(game),
            "confirm": "1",
        },
    )
    assert response.status_code == 302
    html = client.get(game_url(game)).content.decode()
    assert totals_on_page(html) == engine_totals(SOUTH_ZIMO, SOUTH_ZIMO, DEALER_ZIMO)
    hand.refresh_from_db()
    assert hand.entry["winner"] == 1
    assert hand.revision == 1
    assert hand.edited_at is not None


def test_an_edit_from_a_stale_version_is_refused(client, game):
    play(client, game, DEALER_ZIMO)
    stale = {"outcome": "win", "winner": "2", "win_type": "zimo", "revision": "0", "confirm": "1"}
    stale["version"] = version_of(game)
    client.post(game_url(game) + "hand/1/edit", {**stale, "winner": "3"})
    response = client.post(game_url(game) + "hand/1/edit", stale, follow=True)
    assert any("刚被别人改过" in m for m in messages_of(response))
    assert Hand.objects.get().entry["winner"] == 3


def test_an_edit_that_breaks_a_later_hand_is_refused_naming_that_hand(client, game):
    play(client, game, DEALER_ZIMO, {"outcome": "win", "winner": 0, "win_type": "zimo", "xiazi_join": [2]})
    # if hand 1 were 南's win, hand 2's 下子 would not follow a dealer win
    response = client.post(
        game_url(game) + "hand/1/edit",
        {"outcome": "win", "winner": "1", "win_type": "zimo", "revision": "0", "confirm": "1"},
    )
    assert response.status_code == 200
    assert "第2局" in response.content.decode()
    assert Hand.objects.get(seq=1).entry["winner"] == 0


def test_voiding_a_hand_keeps_it_marked_and_replays_the_rest(client, game):
    play(client, game, DEALER_ZIMO, SOUTH_ZIMO)
    preview = client.get(game_url(game) + "hand/1/void")
    # without hand 1, 东 is still dealer when 南 self-draws: 东 pays 7 × 2, the others 5 × 2
    assert [after for _, _, after, _ in preview.context["change"]] == [-14, 34, -10, -10]
    response = client.post(
        game_url(game) + "hand/1/void", {"version": version_of(game), "reason": "算错了", "revision": "0"}
    )
    assert response.status_code == 302
    hand = Hand.objects.get(seq=1)
    assert hand.voided
    assert hand.void_reason == "算错了"
    html = client.get(game_url(game)).content.decode()
    assert totals_on_page(html) == engine_totals(SOUTH_ZIMO)
    assert "作废" in html
    assert Hand.objects.count() == 2


def test_a_void_that_breaks_a_later_hand_is_blocked(client, game):
    play(client, game, DEALER_ZIMO, {"outcome": "draw", "xiazi_join": [1]})
    response = client.get(game_url(game) + "hand/1/void")
    assert "作废后对不上" in response.content.decode()
    response = client.post(
        game_url(game) + "hand/1/void", {"version": version_of(game), "reason": "x", "revision": "0"}
    )
    assert not Hand.objects.get(seq=1).voided


def test_undo_is_one_tap_to_the_void_page_of_the_last_hand(client, game):
    play(client, game, DEALER_ZIMO, SOUTH_ZIMO)
    response = client.get(game_url(game) + "undo")
    assert response.status_code == 302
    assert response["Location"].startswith(game_url(game) + "hand/2/void")
    page = client.get(response["Location"])
    assert "撤销上一局" in page.content.decode()
    client.post(response["Location"], {"reason": "撤销上一局", "revision": "0", "version": version_of(game)})
    assert Hand.objects.get(seq=2).voided
    # the next hand's id (seq) is 3: ids are never reused, though it is shown as 第2局
    play(client, game, DEALER_ZIMO)
    assert Hand.objects.filter(voided_at__isnull=True).values_list("seq", flat=True).last() == 3


def test_undo_with_nothing_to_undo_says_so(client, game):
    response = client.get(game_url(game) + "undo", follow=True)
    assert any("没有可以撤销" in m for m in messages_of(response))


def test_the_view_link_cannot_edit_void_or_undo(client, game):
    play(client, game, DEALER_ZIMO)
    view = game_url(game, view=True)
    assert client.post(view + "hand/1/edit", {"outcome": "draw", "revision": "0", "confirm": "1"}).status_code == 403
    assert client.post(view + "hand/1/void", {"reason": "x", "revision": "0"}).status_code == 403
    assert client.get(view + "undo").status_code == 403
    assert not Hand.objects.get().voided


def test_editing_or_voiding_a_missing_hand_is_404(client, game):
    assert client.get(game_url(game) + "hand/7/edit").status_code == 404
    assert client.get(game_url(game) + "hand/7/void").status_code == 404
