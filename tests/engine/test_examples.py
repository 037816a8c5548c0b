import pytest

from scoring.engine import score_game_or_error
from tests.examples import check, example_files, load


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.stem)
def test_engine_matches_spec_example(path):
    example = load(path)
    ok, body = score_game_or_error(example["game"])
    check(example["expect"], ok, body)


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.stem)
def test_every_payment_explains_itself_in_chinese(path):
    ok, body = score_game_or_error(load(path)["game"])
    if not ok:
        return
    for hand in body["hands"]:
        for payment in hand["payments"]:
            # e.g. "西→南 6 = (闲5 + 放铳1) × 1 平胡": payer→payee, the amount, then the formula
            head = payment["explain"].split(" = ")[0]
            assert head.endswith(f" {payment['amount']}")
            assert "→" in head
            assert payment["explain_en"]
