"""Every 武义二人麻将 example (tests/data/examples/wuyi2, and the spec's copy when present)."""

import pytest

from scoring.engine import score_game_or_error
from tests.examples import check, example_files, load


@pytest.mark.parametrize("path", example_files("wuyi2"), ids=lambda p: p.stem)
def test_engine_matches_wuyi2_example(path):
    example = load(path)
    ok, body = score_game_or_error(example["game"])
    check(example["expect"], ok, body)


@pytest.mark.parametrize("path", example_files("wuyi2"), ids=lambda p: p.stem)
def test_every_wuyi2_payment_explains_itself(path):
    ok, body = score_game_or_error(load(path)["game"])
    if not ok:
        assert body["error"]["message_en"]
        return
    for hand in body["hands"]:
        for payment in hand["payments"]:
            # e.g. "闲→庄 32 = 2^3 番（七对子爆头）× 2 放铳 × 2 庄"
            head, formula = payment["explain"].split(" = ", 1)
            assert head.endswith(f" {payment['amount']}")
            assert "→" in head
            assert f"2^{hand['fan']} 番" in formula
            assert f"2^{hand['fan']} fan" in payment["explain_en"]
