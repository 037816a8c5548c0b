"""The worked examples of docs/contract.md, kept in ``tests/data/examples``: the repository's
tests read only the repository.

``example_files(sub)``: ``""`` for the 义乌 games, ``"zhuji"``, ``"wuyi2"``, ``"people"`` (seatings,
every ruleset) or ``"analyse"``; ``analyse_examples()``: every 算牌 example, a ruleset's own
folder under ``analyse/`` included.
"""

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent / "data" / "examples"
CONTRACT_PAYMENT_FIELDS = ("from", "to", "amount")


def example_files(sub: str = "") -> list[Path]:
    """Every example of a folder, in name order."""
    files = sorted((HERE / sub).glob("*.json"))
    assert files, f"no examples found in {HERE / sub}"
    return files


def analyse_examples() -> list[Path]:
    """Every 算牌 request with its answer: ``analyse/`` and its folders (``analyse/<code>/``), in path order."""
    files = sorted((HERE / "analyse").rglob("*.json"))
    assert files, f"no examples found in {HERE / 'analyse'}"
    return files


def example_id(path: Path) -> str:
    """A test id for an example: its name, after its folder below ``analyse/`` when it has one."""
    folder = path.parent.name
    return path.stem if folder == "analyse" else f"{folder}-{path.stem}"


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def contract_view(result: dict) -> dict:
    """The result with only the contract's payment fields (extras such as explain dropped), and
    each person's total when the game names its players."""
    hands = [
        {**hand, "payments": [{k: p[k] for k in CONTRACT_PAYMENT_FIELDS} for p in hand["payments"]]}
        for hand in result["hands"]
    ]
    people = {"people": result["people"]} if "people" in result else {}
    return {"hands": hands, "totals": result["totals"], **people}


def check(expect: dict, ok: bool, body: dict) -> None:
    """Assert that a door's answer matches an example's expectation."""
    if "error" in expect:
        assert not ok, body
        assert body["error"]["hand"] == expect["error"]["hand"]
        assert body["error"]["message"]
    else:
        assert ok, body
        assert contract_view(body) == expect


def game_examples() -> list[Path]:
    """Every worked example that is a game of a registered ruleset (whatever its folder), in
    path order: the tests that run over every ruleset take a new ruleset's examples too."""
    from scoring.engine import DEFAULT_RULESET, all_rulesets

    codes = {r.code for r in all_rulesets()}
    found = []
    for path in sorted(HERE.rglob("*.json")):
        game = load(path).get("game")
        if isinstance(game, dict) and "hands" in game and game.get("ruleset", DEFAULT_RULESET) in codes:
            found.append(path)
    assert {load(p)["game"].get("ruleset", DEFAULT_RULESET) for p in found} == codes, "a ruleset without examples"
    return found
