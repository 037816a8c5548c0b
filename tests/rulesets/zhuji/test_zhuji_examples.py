"""Every 诸暨 example of the spec (tests/data/examples/zhuji, and the spec's own copy) through the contract."""

import pytest

from scoring.engine import score_game_or_error
from tests.examples import check, example_files, load


@pytest.mark.parametrize("path", example_files("zhuji"), ids=lambda p: p.stem)
def test_zhuji_example_gives_the_expected_result(path):
    example = load(path)
    assert example["game"]["ruleset"] == "zhuji"
    ok, body = score_game_or_error(example["game"])
    check(example["expect"], ok, body)
