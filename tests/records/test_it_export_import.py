import csv
import io
import json

from scoring.engine import score_game
from scoring.models import Game, Hand
from tests.factories import add_hand, void
from tests.helpers import game_url, totals_on_page

HANDS = [
    {"outcome": "win", "winner": 0, "win_type": "zimo", "maizi": [0, 1, 0, 0]},
    {"outcome": "win", "winner": 0, "win_type": "pinghu", "discarder": 2, "xiazi_join": [1, 3]},
    {"outcome": "draw"},
    {"outcome": "win", "winner": 2, "win_type": "danpiao", "piao": {"player": 2, "level": 1}, "feeders": [3]},
]


def record_hands_and_void_the_third(client, game):
    for entry in HANDS:
        add_hand(game, entry)
    void(game, 3, "记重了")
    return game


def test_json_export_is_the_scoring_contract_and_reproduces_the_totals(client, game):
    record_hands_and_void_the_third(client, game)
    response = client.get(game_url(game) + "export.json")
    assert response["Content-Disposition"].startswith("attachment;")
    exported = json.loads(response.content)
    assert exported["players"] == ["老王", "小李", "阿华", "大刘"]
    assert len(exported["hands"]) == 3  # the voided hand is left out
    totals = score_game(exported)["totals"]
    page = client.get(game_url(game)).content.decode()
    assert [f"{t:+d}".replace("-", "−") if t else "0" for t in totals] == totals_on_page(page)


def test_export_then_import_gives_a_new_game_with_identical_totals(client, game):
    record_hands_and_void_the_third(client, game)
    exported = client.get(game_url(game) + "export.json").content
    response = client.post("/import", {"text": exported.decode("utf-8")})
    assert response.status_code == 302
    copy = Game.objects.exclude(pk=game.pk).get()
    assert copy.players == game.players
    assert copy.rules == game.rules
    assert copy.edit_token != game.edit_token
    original = totals_on_page(client.get(game_url(game)).content.decode())
    assert totals_on_page(client.get(game_url(copy)).content.decode()) == original


def test_import_takes_an_uploaded_file(client, db):
    from django.core.files.uploadedfile import SimpleUploadedFile

    backup = json.dumps({"players": ["甲", "乙", "丙", "丁"], "hands": HANDS}, ensure_ascii=False).encode()
    response = client.post("/import", {"file": SimpleUploadedFile("backup.json", backup, "application/json")})
    assert response.status_code == 302
    assert Hand.objects.count() == 4


def test_a_bad_backup_is_refused_with_a_message_and_creates_nothing(client, db):
    bad = {"hands": [{"outcome": "win", "winner": 1, "win_type": "pinghu"}]}
    response = client.post("/import", {"text": json.dumps(bad)})
    assert response.status_code == 400
    assert "第1局" in response.content.decode()
    assert "放铳" in response.content.decode()
    response = client.post("/import", {"text": "{not json"})
    assert response.status_code == 400
    assert "JSON" in response.content.decode()
    assert not Game.objects.exists()


def test_csv_opens_in_excel_with_chinese_headers(client, game):
    record_hands_and_void_the_third(client, game)
    response = client.get(game_url(game) + "export.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    raw = response.content
    assert raw.startswith("\ufeff".encode())  # UTF-8 with BOM: Excel and WPS keep the Chinese
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert rows[0][:10] == ["局", "状态", "庄家", "连庄", "结果", "倍数", "付款人", "收款人", "分数", "说明"]
    assert rows[0][10:] == [
        "老王输赢",
        "小李输赢",
        "阿华输赢",
        "大刘输赢",
        "老王累计",
        "小李累计",
        "阿华累计",
        "大刘累计",
    ]
    first = rows[1]
    assert first[:8] == ["1", "有效", "老王", "0", "老王 自摸 ×2", "2", "小李", "老王"]
    assert first[8:10] == ["18", "(庄7 + 买子2) × 2 自摸"]
    assert any(row[1] == "作废：记重了" for row in rows)
    last = rows[-1]
    assert [int(x) for x in last[-4:]] == score_game({"hands": [HANDS[0], HANDS[1], HANDS[3]]})["totals"]


def test_summary_has_a_share_text_and_prints_cleanly(client, game):
    record_hands_and_void_the_third(client, game)
    html = client.get(game_url(game) + "summary").content.decode()
    assert "共3局" in html
    assert 'data-copy="#share-text"' in html
    assert 'class="no-print' in html


def test_csv_text_cells_that_a_spreadsheet_would_run_as_formulas_are_quoted_but_numbers_stay_numbers(client, db):
    names = ['=HYPERLINK("http://x")', "+1", "-2", "@SUM(A1)"]
    game = Game.objects.create(players=names, first_dealer=0)
    add_hand(game, {"outcome": "win", "winner": 1, "win_type": "zimo"})
    raw = client.get(game_url(game) + "export.csv").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(raw)))
    assert rows[0][10:14] == ['\'=HYPERLINK("http://x")输赢', "'+1输赢", "'-2输赢", "'@SUM(A1)输赢"]
    text_cells = [cell for row in rows for cell in row if cell and not cell.lstrip("-").isdigit()]
    assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in text_cells)
    first = rows[1]
    assert first[6:8] == ['\'=HYPERLINK("http://x")', "'+1"]
    assert first[2] == '\'=HYPERLINK("http://x")'  # the dealer's name
    assert [int(x) for x in first[10:14]] == [-14, 34, -10, -10]  # losses stay plain negative numbers
