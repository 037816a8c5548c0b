"""The English half of every bilingual text holds no Chinese (an English page would show it).

Two views of it: every (Chinese, English) pair written in the code — a refusal's two messages,
``pick(zh, en)`` — read from the source, so refusals no page walk reaches are covered too; and
every payment's ``explain_en`` of many random games and of the worked examples."""

import ast
import re
from pathlib import Path

import pytest

from scoring.engine import DEFAULT_RULESET, all_rulesets, score_game_or_error
from tests.examples import game_examples, load
from tests.factories import random_game

ROOT = Path(__file__).resolve().parents[2]
HAN = re.compile(r"[\u2e80-\u2fdf\u3005\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
PAIRS = re.compile(r"(Error|Refused|^pick)$")  # callables taking (zh, en, …)


def literal(node) -> str | None:
    """A string literal's text, an f-string's literal parts; None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(literal(part) or "{}" for part in node.values)
    return None


def bilingual_pairs():
    """(where, Chinese, English) for each call of a bilingual callable with two literal texts."""
    for path in sorted((ROOT / "scoring").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or len(node.args) < 2:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
            zh, en = literal(node.args[0]), literal(node.args[1])
            if PAIRS.search(name) and zh and en is not None and HAN.search(zh):
                yield f"{path.relative_to(ROOT)}:{node.lineno}", zh, en


def test_the_source_has_bilingual_texts_to_check():
    pairs = list(bilingual_pairs())
    assert len(pairs) > 100
    assert any("买子" in zh for _, zh, _ in pairs)
    assert any(where.startswith("scoring/rulesets/zhuji/engine/") for where, _, _ in pairs)


def test_no_english_text_in_the_code_holds_chinese():
    assert [(where, en) for where, _zh, en in bilingual_pairs() if HAN.search(en)] == []


@pytest.mark.parametrize("seed", range(8))
def test_every_random_payment_explains_itself_in_english(seed):
    ok, body = score_game_or_error(random_game(150, seed=seed))
    assert ok, body
    texts = [p["explain_en"] for hand in body["hands"] for p in hand["payments"]]
    assert len(texts) > 150
    assert [text for text in texts if HAN.search(text)] == []


@pytest.mark.parametrize("code", [r.code for r in all_rulesets()])
def test_every_example_payment_explains_itself_in_english(code):
    texts = []
    for path in game_examples():
        game = load(path)["game"]
        if game.get("ruleset", DEFAULT_RULESET) != code or "players" in game:
            continue  # another ruleset's; or a game of names, which a message may quote as typed
        ok, body = score_game_or_error(game)
        if ok:
            texts += [p["explain_en"] for hand in body["hands"] for p in hand["payments"]]
        else:
            texts.append(body["error"]["message_en"])
    assert len(texts) > 5
    assert [text for text in texts if HAN.search(text)] == []
