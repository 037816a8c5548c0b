"""The README's module map names every module and folder of the app, so a newcomer finds each."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_map() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("## Module map", 1)[1].split("\n## ", 1)[0]


def test_the_module_map_names_every_module_and_folder():
    table = module_map()
    named = set(re.findall(r"`([^`]+)`", table))
    words = {part for name in named for part in re.split(r"[/, ]+", name) if part}
    missing = []
    for folder in ("scoring", "scoring/engine", "scoring/views"):
        for path in sorted((ROOT / folder).iterdir()):
            name = path.name
            if name.startswith("__") or name in {"migrations"}:
                continue
            if path.is_dir() or path.suffix == ".py":
                stem = name if path.is_dir() else path.stem
                if name not in words and stem not in words and f"{name}/" not in table:
                    missing.append(f"{folder}/{name}")
    assert missing == []
    for folder in ("scoring/rulesets", "scoring/entry", "tests", "docs", "bench", "templates", "static"):
        assert f"`{folder}/" in table or f"`{folder}`" in table or f"`{folder}/`" in table, folder
