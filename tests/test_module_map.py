"""The README's module map names every app and every module of the core, so a newcomer finds each."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_map() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("## Module map", 1)[1].split("\n## ", 1)[0]


def test_the_module_map_names_every_app_and_every_core_module():
    table = module_map()
    words = {part for name in re.findall(r"`([^`]+)`", table) for part in re.split(r"[/, ()]+", name) if part}
    missing = []
    for path in sorted((ROOT / "scoring").iterdir()):
        if path.name.startswith(("__", ".")):
            continue
        if path.is_dir() and f"`scoring/{path.name}/`" not in table and path.name not in words:
            missing.append(f"scoring/{path.name}/")
        if path.suffix == ".py" and path.name not in words:
            missing.append(f"scoring/{path.name}")
    assert missing == []
    for folder in ("tests", "docs", "bench", "templates", "static"):
        assert f"`{folder}/`" in table, folder


def test_the_map_is_about_ten_rows_one_per_app_not_one_per_module():
    rows = [line for line in module_map().splitlines() if line.startswith("| `")]
    assert len(rows) <= 20
