import io
import json
from io import StringIO

import pytest
from django.core.management import call_command

from tests.examples import check, game_examples, load


def run_command(path) -> tuple[int, dict]:
    out = StringIO()
    try:
        call_command("score_game", str(path), stdout=out)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    return code, json.loads(out.getvalue())


@pytest.mark.parametrize("path", game_examples(), ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_command_matches_spec_example(path, tmp_path):
    example = load(path)
    game_file = tmp_path / "game.json"
    game_file.write_text(json.dumps(example["game"], ensure_ascii=False), encoding="utf-8")
    code, body = run_command(game_file)
    assert code in (0, 2)
    check(example["expect"], code == 0, body)


def test_command_reads_standard_input(monkeypatch):
    game = {"hands": [{"outcome": "win", "winner": 0, "win_type": "zimo"}]}
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(game).encode())))
    code, body = run_command("-")
    assert code == 0
    assert body["totals"] == [42, -14, -14, -14]


def test_command_exits_2_with_error_json_on_bad_input(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{oops", encoding="utf-8")
    code, body = run_command(bad)
    assert code == 2
    assert body["error"]["hand"] is None
    assert "JSON" in body["error"]["message"]


def test_command_exits_2_for_a_missing_file(tmp_path):
    code, body = run_command(tmp_path / "nope.json")
    assert code == 2
    assert body["error"]["message"]


def test_command_exits_2_for_json_nested_too_deeply(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    code, body = run_command(deep)
    assert code == 2
    assert body["error"]["message_en"] == "Malformed JSON: nested too deeply"
