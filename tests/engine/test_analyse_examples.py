"""Every 算牌 example (tests/data/examples/analyse, and docs/analysis.md's worked example) through the engine."""

import json
import re
from pathlib import Path

import pytest

from scoring.engine.analyse import analyse, analyse_or_error
from scoring.engine.errors import ScoringError
from tests.examples import analyse_examples, example_id, load


@pytest.mark.parametrize("path", analyse_examples(), ids=example_id)
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


def documented_examples():
    """The (request, answer) pairs of docs/analysis.md "Worked example", in the order written."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "analysis.md").read_text(encoding="utf-8")
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text.split("## Worked example")[1], re.S)]
    return list(zip(blocks[::2], blocks[1::2], strict=True))


def test_the_documented_worked_example_is_what_the_doors_answer():
    pairs = documented_examples()
    assert len(pairs) == 4
    assert any("waits" in answer for _, answer in pairs)
    assert any("error" in answer for _, answer in pairs)
    for request, answer in pairs:
        assert analyse_or_error(request) == ("error" not in answer, answer)
