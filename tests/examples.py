"""The spec's worked examples (../shared/spec/examples), read from the folder each run."""

import json
import os
from pathlib import Path

SHARED = Path(os.environ.get("YIWU_SHARED", Path(__file__).resolve().parents[2] / "shared"))
EXAMPLES_DIR = SHARED / "spec" / "examples"
CONTRACT_PAYMENT_FIELDS = ("from", "to", "amount")


def example_files() -> list[Path]:
    files = sorted(EXAMPLES_DIR.glob("*.json"))
    assert files, f"no examples found in {EXAMPLES_DIR}"
    return files


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def contract_view(result: dict) -> dict:
    """The result with only the contract's payment fields (extras such as explain dropped)."""
    hands = [
        {**hand, "payments": [{k: p[k] for k in CONTRACT_PAYMENT_FIELDS} for p in hand["payments"]]}
        for hand in result["hands"]
    ]
    return {"hands": hands, "totals": result["totals"]}


def check(expect: dict, ok: bool, body: dict) -> None:
    """Assert that a door's answer matches an example's expectation."""
    if "error" in expect:
        assert not ok, body
        assert body["error"]["hand"] == expect["error"]["hand"]
        assert body["error"]["message"]
    else:
        assert ok, body
        assert contract_view(body) == expect
