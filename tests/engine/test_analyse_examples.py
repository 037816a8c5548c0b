"""Every 算牌 example (tests/data/examples/analyse, and the spec's copy) through the engine."""

import pytest

from scoring.engine.analyse import analyse
from scoring.engine.errors import ScoringError
from tests.examples import example_files, load


@pytest.mark.parametrize("path", example_files("analyse"), ids=lambda p: p.stem)
def test_engine_matches_spec_example(path):
    example = load(path)
    request, expect = example["request"], example["expect"]
    if "error" in expect:
        with pytest.raises(ScoringError) as raised:
            analyse(request)
        assert raised.value.hand is None
        assert raised.value.zh
        assert raised.value.en
    else:
        assert analyse(request) == expect
