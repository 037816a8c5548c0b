"""The largest game the app holds exports to a backup its import takes back whole: every bound the
app keeps, at its most (docs/contract.md "A backup")."""

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from scoring.engine import score_game
from scoring.engine.contract import MAX_STREAK
from scoring.engine.hygiene import MAX_NAME
from scoring.engine.manual import MAX_AMOUNT, MAX_NOTE
from scoring.forms import MAX_FEE_YUAN, MAX_RATE_YUAN, VOID_REASON_LIMIT
from scoring.models import Game, Hand, Transfer
from scoring.records.backup_reader import MAX_RECORDS, MAX_REVISION, MAX_SEQ
from scoring.records.exports import import_game
from scoring.records.views.records import MAX_IMPORT_BYTES
from scoring.replay import table
from tests.helpers import game_url, kept_for_the_module

WIDE = chr(0x20000)  # CJK Extension B: four bytes in UTF-8, the most any character takes
WHEN = "1900-01-01T00:00:00.000001+00:00"  # Asia/Shanghai's offset then is +08:05:43: the longest time written
LARGEST = 9_050_000  # bytes, within 0.2 % of the most a backup can be (docs/contract.md "A backup")


def name(i: int) -> str:
    """The ``i``-th person: MAX_NAME wide characters."""
    return WIDE * (MAX_NAME - 2) + chr(0x20001 + i % 1024) + chr(0x20001 + i // 1024)


def seating(first: int) -> dict:
    """The largest entry there is: a seating of four newcomers, each with the longest name."""
    return {"outcome": "seating", "players": [name(first + s) for s in range(4)], "dealer": 3}


def record(seq: int, voided: dict | None = None) -> dict:
    by = {"entered_by": name(0), "created_at": WHEN, "revision": MAX_REVISION, "edited_at": WHEN, "edited_by": name(1)}
    if voided is None:
        return {"seq": seq, **by}
    void = {"voided_at": WHEN, "voided_by": name(2), "void_reason": WIDE * VOID_REASON_LIMIT}
    return {"seq": seq, **by, **void, "entry": voided, "dealer_fix": 3, "streak_fix": MAX_STREAK}


STANDING = [
    {"outcome": "manual", "net": [MAX_AMOUNT, -MAX_AMOUNT, MAX_AMOUNT, -MAX_AMOUNT], "note": WIDE * MAX_NOTE},
    seating(4),
    {"outcome": "win", "winner": 0, "win_type": "zimo"},
]


def largest_backup() -> dict:
    """As many records as a game holds, all voided seatings but a few hands that stand and move
    every total (a voided record is the largest: its entry, its reason and three names)."""
    first = MAX_SEQ - MAX_RECORDS + 1
    records = [record(first + i) for i in range(len(STANDING))]
    records += [record(seq, seating(8)) for seq in range(first + len(STANDING), MAX_SEQ + 1)]
    data = {
        "players": [name(s) for s in range(4)],
        "corrections": [{"hand": i, "dealer": 3, "streak": MAX_STREAK} for i in range(len(STANDING))],
        "hands": STANDING,
    }
    settlement = {"rate_fen": MAX_RATE_YUAN * 100, "fee_fen": MAX_FEE_YUAN * 100, "fee_mode": "equal"}
    data["backup"] = {
        "format": 2,
        "status": "finished",
        "created_at": WHEN,
        "totals": score_game(data)["totals"],
        "pending": {},
        "hands": records,
        "settlement": {**settlement, "fee_payee": 7, "created_at": WHEN, "transfers": []},
        "round_length": 99,
    }
    return data


HAND_FIELDS = ("seq", "entry", "dealer_fix", "streak_fix", "entered_by", "created_at", "edited_at", "edited_by")
VOID_FIELDS = ("revision", "voided_at", "voided_by", "void_reason")


def rows(game: Game) -> list[tuple]:
    return list(Hand.objects.filter(game=game).order_by("seq").values_list(*HAND_FIELDS, *VOID_FIELDS))


def money(game: Game) -> tuple:
    s = game.settlement
    transfers = list(s.transfers.order_by("pk").values_list("payer", "payee", "amount_fen", "paid_at"))
    return s.rate_fen, s.fee_fen, s.fee_payee, s.names, s.points, s.balances_fen, transfers


@pytest.fixture(scope="module")
def round_trip(django_db_setup, django_db_blocker):
    """The largest game (every transfer 已付), exported through the export view and that file
    imported through the import view, once for the module: (the game, its copy, the file, the
    seconds the import took)."""
    with kept_for_the_module(django_db_blocker):
        with django_db_blocker.unblock():
            game = import_game(largest_backup())
            Transfer.objects.filter(settlement__game=game).update(paid_at=timezone.now())
            client = Client()
            exported = client.get(game_url(game) + "export.json").content
            started = time.perf_counter()
            response = client.post("/import", {"file": SimpleUploadedFile("largest.json", exported)})
            took = time.perf_counter() - started
            assert response.status_code == 302
            copy = Game.objects.exclude(pk=game.pk).get()
        yield game.pk, copy.pk, exported, took


@pytest.fixture
def games(round_trip, db) -> tuple[Game, Game]:
    return Game.objects.get(pk=round_trip[0]), Game.objects.get(pk=round_trip[1])


def test_the_largest_backup_is_under_the_import_limit(round_trip):
    exported, took = round_trip[2], round_trip[3]
    assert LARGEST < len(exported) < MAX_IMPORT_BYTES
    print(f"\nthe largest backup: {len(exported):,} bytes, imported in {took:.2f} s")


def test_its_import_keeps_every_hand_and_every_voided_record(games):
    game, copy = games
    assert rows(copy) == rows(game)
    assert len(rows(copy)) == MAX_RECORDS
    assert copy.hands.filter(voided_at__isnull=True).count() == len(STANDING)


def test_its_import_keeps_every_total_and_the_settlement_with_its_paid_marks(games):
    game, copy = games
    assert table(copy)[0].people() == table(game)[0].people()
    assert [total for _name, total in table(copy)[0].people()][:4] != [0, 0, 0, 0]
    assert money(copy) == money(game)
    assert len(money(copy)[-1]) == 7  # eight people, each paying a share of the fee
    assert all(paid_at is not None for *_transfer, paid_at in money(copy)[-1])
    assert (copy.status, copy.round_length, copy.created_at) == (game.status, game.round_length, game.created_at)


def test_a_pasted_backup_is_read_up_to_the_import_limit(client, db):
    """A pasted backup is form data: Django's own bound on it must not refuse it first."""
    pasted = client.post("/import", {"text": " " * (MAX_IMPORT_BYTES - 2) + "{}"})
    assert pasted.status_code == 400
    assert "文件太大" not in pasted.content.decode()
    assert "文件太大" in client.post("/import", {"text": " " * MAX_IMPORT_BYTES + "{}"}).content.decode()
