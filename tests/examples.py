"""The spec's worked examples: the copy kept in ``tests/data/examples`` (the repo stands alone),
and also the spec's own folder ``../shared/spec/examples`` when it is there (``YIWU_SHARED``
overrides where to look), so a newer example there is run too.

``example_files(sub)``: ``""`` for the 义乌 games, ``"zhuji"``, ``"wuyi2"`` or ``"analyse"``.
"""

import json
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent / "data" / "examples"
SHARED = Path(os.environ.get("YIWU_SHARED", Path(__file__).resolve().parents[2] / "shared"))
SHARED_EXAMPLES = SHARED / "spec" / "examples"
CONTRACT_PAYMENT_FIELDS = ("from", "to", "amount")


def example_files(sub: str = "") -> list[Path]:
    """Every example of a folder: the repo's copy, plus the spec's where it exists (same names
    are run once each, from the spec's copy, which is the newer truth)."""
    files = {path.name: path for path in sorted((HERE / sub).glob("*.json"))}
    assert files, f"no examples found in {HERE / sub}"
    if (SHARED_EXAMPLES / sub).is_dir():
        files.update({path.name: path for path in sorted((SHARED_EXAMPLES / sub).glob("*.json"))})
    return [files[name] for name in sorted(files)]


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
