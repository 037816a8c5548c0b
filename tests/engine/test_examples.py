import re

import pytest

from scoring.engine import score_game_or_error
from tests.examples import check, example_files, load

# The 义乌 games, and the seatings (people and seats) of every ruleset.
EXAMPLES = [*example_files(), *example_files("people")]


def name(path) -> str:
    return f"{path.parent.name}-{path.stem}"


@pytest.mark.parametrize("path", EXAMPLES, ids=name)
def test_engine_matches_spec_example(path):
    example = load(path)
    ok, body = score_game_or_error(example["game"])
    check(example["expect"], ok, body)


SCORED = [path for path in EXAMPLES if "error" not in load(path)["expect"]]
REFUSED = [path for path in EXAMPLES if "error" in load(path)["expect"]]
HAN = re.compile(r"[\u4e00-\u9fff]")


def test_the_examples_hold_both_kinds():
    assert len(SCORED) >= 10
    assert len(REFUSED) >= 3


@pytest.mark.parametrize("path", SCORED, ids=name)
def test_every_payment_explains_itself_in_chinese(path):
    ok, body = score_game_or_error(load(path)["game"])
    assert ok, body
    payments = [payment for hand in body["hands"] for payment in hand["payments"]]
    assert payments
    for payment in payments:
        # e.g. "西→南 6 = (闲5 + 放铳1) × 1 平胡": payer→payee, the amount, then the formula
        head = payment["explain"].split(" = ")[0]
        assert head.endswith(f" {payment['amount']}")
        assert "→" in head
        assert HAN.search(payment["explain"])
        assert payment["explain_en"].split(" = ")[0].endswith(f" {payment['amount']}")


@pytest.mark.parametrize("path", REFUSED, ids=name)
def test_every_refusal_explains_itself_in_both_languages(path):
    example = load(path)
    ok, body = score_game_or_error(example["game"])
    assert not ok, body
    error = body["error"]
    assert error["hand"] == example["expect"]["error"]["hand"]
    assert HAN.search(error["message"])
    assert error["message_en"]
    assert error["message_en"] != error["message"]
    assert error["field"]
