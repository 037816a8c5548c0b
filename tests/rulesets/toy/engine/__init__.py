"""玩具麻将 (tests/rulesets/toy/rules.md): 4 players; a win pays base × 2 from each loser on a
自摸, base × 3 from the discarder alone; a draw pays nothing. Its one registration."""

from pathlib import Path

from scoring.engine.ruleset import register_package

from . import explain, hands, rules, score

TOY = register_package(
    "toy",
    "玩具麻将",
    "Toy",
    4,
    package=__name__,
    rules=rules,
    hands=hands,
    score=score,
    explain=explain,
    analyser=None,  # no 算牌
    count_word=("份数", "Shares"),
    field_terms={"discarder": "放冲的人"},
    document=Path(__file__).resolve().parents[1] / "rules.md",
)
