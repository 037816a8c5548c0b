"""A backup restores everything a game holds: every hand with its revisions, void reasons, who
entered it and when, the bets placed, the dealer corrections, the settlement with its 已付 marks
and the status; the restored game looks and behaves the same. Backups from earlier versions still
import, and the contract door (``score_game``) reads the same file."""

import json
import re
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from scoring import services
from scoring.models import Game, Hand, Transfer
from tests.factories import add_hand, edit, finish, void
from tests.helpers import game_url, messages_of, record, totals_on_page

OLD_BACKUP = Path(__file__).resolve().parents[1] / "data" / "backups" / "yiwu-old-format.json"

# Per ruleset: the hands (entry, correction before it), the hand to edit and its new entry.
EVENINGS = {
    "yiwu": (
        [
            ({"outcome": "win", "winner": 0, "win_type": "zimo", "maizi": [0, 1, 0, 0]}, None),
            ({"outcome": "win", "winner": 0, "win_type": "pinghu", "discarder": 2, "xiazi_join": [1, 3]}, None),
            ({"outcome": "draw"}, None),
            ({"outcome": "win", "winner": 2, "win_type": "zimo"}, (3, 0)),  # 更正庄家 mid-game
            ({"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 3}, None),
            ({"outcome": "draw"}, None),
            ({"outcome": "win", "winner": 3, "win_type": "zimo"}, None),
        ],
        (5, {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 0}),
    ),
    "zhuji": (
        [
            ({"outcome": "win", "winner": 3, "discarder": 1, "tai": {"no_caishen": True}}, None),  # halves
            ({"outcome": "win", "winner": 1, "tai": {"shape": "pinghu"}}, None),
            ({"outcome": "draw"}, None),
            ({"outcome": "win", "winner": 2, "discarder": 0, "tai": {"no_caishen": True}}, (2, 3)),
            ({"outcome": "win", "winner": 0, "tai": {"dragon_pungs": ["zhong"]}}, None),
            ({"outcome": "draw"}, None),
        ],
        (2, {"outcome": "win", "winner": 1, "discarder": 0, "tai": {"dragon_pungs": ["zhong", "fa"]}}),
    ),
    "wuyi2": (
        [
            ({"outcome": "win", "winner": 0, "patterns": ["pinghu"]}, None),
            ({"outcome": "win", "winner": 1, "discarder": 0, "patterns": ["pengpenghu", "qingyise"]}, None),
            ({"outcome": "draw"}, None),
            ({"outcome": "win", "winner": 0, "discarder": 1, "patterns": ["pinghu"]}, (1, 2)),
            ({"outcome": "draw"}, None),
        ],
        (1, {"outcome": "win", "winner": 0, "patterns": ["pengpenghu"]}),
    ),
}


class _Text(HTMLParser):
    """The text a person sees: no tags, scripts, styles or attributes (tokens, csrf, ids)."""

    def __init__(self):
        super().__init__()
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        self.skip -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.parts.append(data.strip())


def seen(client: Client, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200
    parser = _Text()
    parser.feed(response.content.decode())
    return parser.parts


def play_evening(client: Client, game: Game, *, settle: bool) -> Game:
    """The ruleset's evening, through the write path: recorded by seat 0, one hand voided, one
    edited (by seat 1), a dealer correction; settled with a table fee and one transfer ticked
    已付, or left open."""
    hands, (edit_seq, edit_entry) = EVENINGS[game.ruleset]
    first, second = game.players[0], game.players[1]
    for entry, fix in hands:
        add_hand(game, entry, fix=fix, by=first)
    void(game, len(hands), "记重了", by=second)
    edit(game, edit_seq, edit_entry, by=second)
    if settle:
        finish(game, 50, fee_fen=2000, fee_payee=1)
        transfer = Transfer.objects.filter(settlement__game=game).first()
        services.mark_paid(game=game, transfer_id=transfer.pk, paid=True)
    game.refresh_from_db()
    return game


def restore(client: Client, original: Game) -> Game:
    backup = client.get(game_url(original) + "export.json").content.decode()
    response = client.post("/import", {"text": backup})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.exclude(pk=original.pk).latest("pk")


HAND_FIELDS = (
    "seq",
    "entry",
    "dealer_fix",
    "streak_fix",
    "entered_by",
    "created_at",
    "edited_at",
    "edited_by",
    "revision",
    "voided_at",
    "voided_by",
    "void_reason",
)


def rows(game: Game) -> list[tuple]:
    return [tuple(getattr(h, f) for f in HAND_FIELDS) for h in Hand.objects.filter(game=game).order_by("seq")]


def settlement_of(game: Game):
    s = getattr(game, "settlement", None)
    if s is None:
        return None
    transfers = [(t.payer, t.payee, t.amount_fen, t.paid_at) for t in s.transfers.all()]
    return (s.rate_fen, s.fee_fen, s.fee_mode, s.fee_payee, s.points, s.balances_fen, s.created_at, transfers)


def pages(game: Game) -> list[str]:
    return [game_url(game), game_url(game) + "settle", game_url(game) + "summary", game_url(game) + "rules"]


@pytest.mark.parametrize("settle", [True, False], ids=["settled", "open"])
@pytest.mark.parametrize("ruleset", ["yiwu", "zhuji", "wuyi2"])
def test_a_backup_restores_a_game_that_looks_the_same(client, make_game, zhuji_game, wuyi2_game, ruleset, settle):
    start = {"yiwu": make_game(), "zhuji": zhuji_game, "wuyi2": wuyi2_game}[ruleset]
    original = play_evening(client, start, settle=settle)
    copy = restore(client, original)
    assert rows(copy) == rows(original)
    assert settlement_of(copy) == settlement_of(original)
    assert (copy.status, copy.players, copy.rules, copy.first_dealer, copy.created_at) == (
        original.status,
        original.players,
        original.rules,
        original.first_dealer,
        original.created_at,
    )
    assert copy.edit_token != original.edit_token
    assert copy.view_token != original.view_token
    phone = Client()  # a phone that opened neither: no 「我是」 on either
    for mine, theirs in zip(pages(original), pages(copy), strict=True):
        assert seen(phone, theirs) == seen(phone, mine), theirs


def test_a_restored_settled_game_keeps_its_paid_marks_and_reopens_like_the_original(client, game):
    original = play_evening(client, game, settle=True)
    copy = restore(client, original)
    paid = [t.paid_at is not None for t in Transfer.objects.filter(settlement__game=copy)]
    assert paid.count(True) == 1
    assert "已付" in client.get(game_url(copy) + "settle").content.decode()
    for g in (original, copy):  # finished: a hand is refused alike, then both reopen and take it
        assert record(client, g, {"outcome": "draw"}).url == game_url(g) + "settle"
        assert Hand.objects.filter(game=g).count() == 7
        assert client.post(game_url(g) + "reopen").status_code == 302
        assert record(client, g, {"outcome": "win", "winner": 2, "win_type": "zimo"}).status_code == 302
    assert totals_on_page(client.get(game_url(copy)).content.decode()) == totals_on_page(
        client.get(game_url(original)).content.decode()
    )


def test_restored_bets_placed_for_the_next_hand_are_there(client, game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    client.post(game_url(game) + "bet", {"bet": "maizi", "seat": "2", "on": "1"})
    client.post(game_url(game) + "bet", {"bet": "xiazi", "seat": "1", "on": "1"})
    game.refresh_from_db()
    copy = restore(client, game)
    assert copy.pending == game.pending == {"maizi": [2], "xiazi": {"1": 2}}


def test_a_dealer_correction_mid_game_restores_the_same_totals(client, game):
    """Issue: export → import changed 义乌 totals after a 更正庄家 (+46/−35/−3/−8 became 42/−35/−1/−6)."""
    for entry, fix in EVENINGS["yiwu"][0][:5]:
        add_hand(game, entry, fix=fix)
    before = totals_on_page(client.get(game_url(game)).content.decode())
    copy = restore(client, game)
    assert totals_on_page(client.get(game_url(copy)).content.decode()) == before
    assert Hand.objects.get(game=copy, seq=4).fix() == (3, 0)


@pytest.mark.parametrize("ruleset", ["yiwu", "zhuji", "wuyi2"])
def test_score_game_reads_the_full_backup_and_gives_the_page_totals(
    client, make_game, zhuji_game, wuyi2_game, ruleset, tmp_path
):
    start = {"yiwu": make_game(), "zhuji": zhuji_game, "wuyi2": wuyi2_game}[ruleset]
    game = play_evening(client, start, settle=True)
    path = tmp_path / "backup.json"
    path.write_bytes(client.get(game_url(game) + "export.json").content)
    out = StringIO()
    call_command("score_game", str(path), stdout=out)  # exits 2 (SystemExit) on an error
    totals = json.loads(out.getvalue())["totals"]
    shown = [f"{t:+}".replace("-", "−") if t else "0" for t in totals]
    assert shown == totals_on_page(client.get(game_url(game)).content.decode())


def test_a_backup_from_an_earlier_version_still_imports_and_says_on_the_page_what_may_differ(client, db):
    response = client.post("/import", {"text": OLD_BACKUP.read_text(encoding="utf-8")}, follow=True)
    assert response.status_code == 200
    game = Game.objects.get()
    assert Hand.objects.filter(game=game).count() == 6
    assert game.status == Game.PLAYING
    html = response.content.decode()
    # The file lost the 更正庄家 before hand 4 (the game showed +46/−35/−3/−8): the replay gives other
    # totals, and the page says so rather than passing them off as the game's.
    assert totals_on_page(html) == ["+42", "−35", "−1", "−6"]
    warning = " ".join(messages_of(response))
    assert "旧版本" in warning
    assert "更正庄家" in warning
    assert "老王 +42" in warning


def test_a_backup_whose_totals_no_longer_replay_says_which_differ(client, game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    backup = json.loads(client.get(game_url(game) + "export.json").content)
    backup["backup"]["totals"] = [40, -14, -12, -14]  # as if written under other rules
    response = client.post("/import", {"text": json.dumps(backup, ensure_ascii=False)}, follow=True)
    warning = " ".join(messages_of(response))
    assert "老王 +40 → +42" in warning
    assert "阿华 −12 → −14" in warning
    assert "小李" not in warning


def test_a_voided_hand_that_scores_nowhere_since_an_earlier_edit_still_restores(client, game):
    """Its 下子 needed the dealer win before it, edited into a draw since: the game holds it."""
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "pinghu", "discarder": 2, "xiazi_join": [1]})
    void(game, 2, "记错了")
    edit(game, 1, {"outcome": "draw"})
    copy = restore(client, game)
    assert rows(copy) == rows(game)
    assert "记错了" in client.get(game_url(copy)).content.decode()


@pytest.mark.parametrize(
    "spoil",
    [
        lambda b: b["backup"].update(status="finished", settlement=None),
        lambda b: b["backup"]["hands"].pop(0),
        lambda b: b["backup"]["hands"][0].update(seq="1"),
        lambda b: b["backup"]["hands"][-1].update(entry={"outcome": "flying"}),
        lambda b: b["backup"]["hands"][-1].update(entry={"outcome": "win", "win_type": "zimo"}),
        lambda b: b["backup"]["hands"][0].update(entered_by="\u202e王"),
        lambda b: b["backup"]["hands"][0].update(created_at="yesterday"),
        lambda b: b["backup"].update(created_at="9999-12-31T23:59:59+00:00"),
        lambda b: b["backup"]["hands"][0].update(created_at="0001-01-01T00:00:00+08:00"),
        lambda b: b["backup"].update(pending={"maizi": [9]}),
        lambda b: b["backup"]["settlement"].update(fee_mode="random"),
        lambda b: b["backup"]["settlement"]["transfers"][0].update(payee=[0]),
        lambda b: b["backup"].update(colour="red"),
        lambda b: b["corrections"][0].update(dealer=7),
    ],
    ids=[
        "finished-without-settlement",
        "a-hand-missing",
        "seq-as-text",
        "a-voided-hand-that-is-no-hand",
        "a-voided-win-that-names-no-winner",
        "a-direction-mark-in-a-name",
        "a-time-that-is-no-time",
        "a-time-past-the-years-a-zone-can-write",
        "a-time-before-the-years-a-zone-can-write",
        "a-bet-on-no-seat",
        "an-unknown-fee-mode",
        "a-transfer-to-no-person",
        "an-unknown-key",
        "a-correction-to-no-seat",
    ],
)
def test_a_spoiled_backup_is_refused_with_a_message_and_creates_nothing(client, game, spoil):
    play_evening(client, game, settle=True)
    backup = json.loads(client.get(game_url(game) + "export.json").content)
    spoil(backup)
    response = client.post("/import", {"text": json.dumps(backup, ensure_ascii=False)})
    assert response.status_code == 400
    assert re.search(r'class="alert alert-danger[^"]*"[^>]*>\s*\S', response.content.decode())
    assert Game.objects.count() == 1


def test_the_export_file_name_has_the_date_and_no_game_number(client, game):
    Game.objects.create(players=game.players)  # a second game: ids would count them
    for suffix in ("export.json", "export.csv"):
        name = client.get(game_url(game) + suffix)["Content-Disposition"]
        when = timezone.localtime(game.created_at).strftime("%Y%m%d")
        assert re.fullmatch(rf'attachment; filename="mahjong-yiwu-{when}-\d{{4}}\.(json|csv)"', name), name
        assert f"-{game.pk}." not in name
