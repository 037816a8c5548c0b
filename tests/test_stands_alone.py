"""The repository depends on itself only: no file names the spec folder that once sat beside it,
or that folder's file names. Rules and contracts are cited from docs/ (docs/rules/*.md,
docs/contract.md, docs/analysis.md), which a clone carries."""

import re
from pathlib import Path

from scoring.rulesets import INSTALLED

ROOT = Path(__file__).resolve().parent.parent
SKIP = {".git", ".venv", "__pycache__", "staticfiles", ".hypothesis", ".ruff_cache", "screenshots", "node_modules"}
# Spelt in pieces so that this file does not name them itself.
FOREIGN = [
    "." + "./shared",
    "shared" + "/spec",
    *(name + "-rules" + ".md" for name in INSTALLED),
    "scoring" + "-contract.md",
    "hand" + "-analysis.md",
]


def repository_texts():
    for path in sorted(ROOT.rglob("*")):
        if SKIP.intersection(path.relative_to(ROOT).parts) or not path.is_file():
            continue
        if path.suffix in {".mo", ".sqlite3", ".png", ".svg", ".map"} or path.name.startswith("db.sqlite3"):
            continue
        yield path.relative_to(ROOT), path.read_text(encoding="utf-8")


def test_no_file_names_the_spec_folder_or_its_files():
    texts = dict(repository_texts())
    assert Path("docs/contract.md") in texts  # the walk reads the repository
    assert len(texts) > 200
    found = [f"{path}: {name}" for path, text in texts.items() for name in FOREIGN if name in text]
    assert found == []


def test_every_document_the_code_cites_is_in_the_repository():
    texts = dict(repository_texts())
    cited = {name for path, text in texts.items() if path.parts[0] != "tests" for name in _docs_cited(text)}
    assert {"docs/rules/yiwu.md", "docs/contract.md", "docs/analysis.md"} <= cited
    assert {name for name in cited if not (ROOT / name).is_file()} == set()


def _docs_cited(text: str):
    return re.findall(r"\bdocs/(?:rules/)?[\w-]+\.md\b", text)
