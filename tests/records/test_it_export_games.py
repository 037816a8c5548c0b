"""``manage.py export_games`` and ``import_games``: the server's nightly JSON of every game
(yiwu_site/host/backup.py) is each game's 「导出 JSON」, and reads back as new games."""

import io

import pytest
from django.core.management import call_command

from scoring.models import Game
from tests.helpers import game_url, totals_on_page
from tests.records.test_it_export_import import record_hands_and_void_the_third


def test_every_game_is_written_as_its_page_exports_it_and_comes_back_with_the_same_totals(client, game, tmp_path):
    record_hands_and_void_the_third(client, game)
    archived = Game.objects.create(players=["甲", "乙", "丙", "丁"], rules=game.rules)
    Game.objects.filter(pk=archived.pk).update(archived_at=game.created_at)
    call_command("export_games", str(tmp_path), verbosity=0)
    files = sorted(tmp_path.iterdir(), key=lambda path: int(path.name.split("-")[0]))  # by game, 9 before 10
    assert [path.name.split("-")[:2] for path in files] == [[str(game.pk), "yiwu"], [str(archived.pk), "yiwu"]]
    assert files[0].read_bytes() == client.get(game_url(game) + "export.json").content

    out = io.StringIO()
    call_command("import_games", *map(str, files), stdout=out)
    assert out.getvalue().endswith("2 imported, 0 refused\n")
    copy = Game.objects.exclude(pk__in=[game.pk, archived.pk]).get(players=game.players)
    assert f"edit /g/{copy.edit_token}/  view /g/{copy.view_token}/" in out.getvalue()
    original = totals_on_page(client.get(game_url(game)).content.decode())
    assert totals_on_page(client.get(game_url(copy)).content.decode()) == original


def test_a_file_refused_says_why_and_the_others_still_come_in(game, tmp_path, capsys):
    call_command("export_games", str(tmp_path), verbosity=0)
    (good,) = tmp_path.iterdir()
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": ["甲", "乙"], "hands": []}')
    with pytest.raises(SystemExit) as stopped:
        call_command("import_games", str(bad), str(good))
    assert stopped.value.code == 1
    said = capsys.readouterr()
    assert said.err.startswith("bad.json: not imported: ")
    assert said.out.endswith("1 imported, 1 refused\n")
    assert Game.objects.count() == 2
