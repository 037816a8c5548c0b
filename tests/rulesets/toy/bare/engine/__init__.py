"""The toy's engine registered from this folder, whose ``form_side.py`` overrides nothing: the same
code, rules and document as the toy, none of its templates."""

from scoring.engine.ruleset import register_package
from tests.rulesets.toy.engine import TOY, explain, hands, rules, score

BARE = register_package(
    "toy",
    "玩具麻将",
    "Toy",
    4,
    package=__name__,
    rules=rules,
    hands=hands,
    score=score,
    explain=explain,
    count_word=("份数", "Shares"),
    field_terms={"discarder": "放冲的人"},
    document=TOY.rules_document,
)
