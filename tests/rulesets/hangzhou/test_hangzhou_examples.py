"""Every 杭州麻将 example (tests/data/examples/hangzhou): the engine's answer, and each payment's
explanation naming the 番 it is paid on, in both languages."""

import pytest

import scoring.rulesets.hangzhou.engine  # noqa: F401  (registers the ruleset)
from scoring.engine import score_game_or_error
from tests.examples import check, example_files, load

EXAMPLES = example_files("hangzhou")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_engine_matches_hangzhou_example(path):
    example = load(path)
    assert example["game"]["ruleset"] == "hangzhou"
    ok, body = score_game_or_error(example["game"])
    check(example["expect"], ok, body)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_hangzhou_payment_explains_itself(path):
    ok, body = score_game_or_error(load(path)["game"])
    if not ok:
        assert body["error"]["message_en"]
        if body["error"]["hand"] is not None:  # a hand's refusal names its rule (docs/rules/hangzhou.md §4)
            assert "§4" in body["error"]["message"]
            assert "§4" in body["error"]["message_en"]
        return
    for hand in body["hands"]:
        for payment in hand["payments"]:
            # e.g. "北→东 16 = 2^2 番（爆头1 + 财飘1）× 2 庄·一老庄"
            head, formula = payment["explain"].split(" = ", 1)
            assert head.endswith(f" {payment['amount']}")
            assert "→" in head
            assert f"2^{hand['fan']} 番" in formula
            assert f"2^{hand['fan']} fan" in payment["explain_en"]


def test_the_examples_hold_every_kind_of_hand():
    hands = [h for path in EXAMPLES for h in load(path)["game"]["hands"]]
    codes = {code for h in hands for code in h.get("patterns", [])}
    assert codes == {"baotou", "gangkai", "qidui", "haohua_qidui", "shifeng", "shifeng_bai", "no_caishen"}
    assert {h.get("caipiao", 0) for h in hands} >= {1, 2, 3}
    assert any(h.get("chengbao") for h in hands)
    assert {h["outcome"] for h in hands} == {"win", "draw", "seating"}
