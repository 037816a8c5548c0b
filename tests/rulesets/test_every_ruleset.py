"""Every registered ruleset is whole: what the app asks of it is there (scoring/engine/ruleset.py,
scoring/handform/__init__.py), and no app code outside a ruleset's folder names it.

The tests loop over the registry, so a new ruleset (one folder and one line in
scoring/rulesets/__init__.py) is checked without touching them."""

import re
from pathlib import Path

import pytest
from django.template.loader import get_template

from scoring.engine import DEFAULT_RULESET, all_rulesets
from scoring.engine.analyse.analyser import trait
from scoring.handform.base import FormSide
from scoring.rulesets import INSTALLED

ROOT = Path(__file__).resolve().parents[2]
# What every ruleset's entry offers the views (scoring/handform/__init__.py): its own or the
# plug-in class's default (scoring/handform/base.py FormSide).
ENTRY_NAMES = (
    "Form",
    "MISSING",
    "REQUIREMENTS",
    "initial",
    "TEMPLATE",
    "PARTIAL",
    "context",
    "title",
    "wind",
    "marks",
    "streak_text",
    "placed_bets",
    "move_bets",
    "merge_pending",
    "bets",
    "prefill",
    "change_bet",
    "RULES_TEMPLATE",
    "rules_context",
    "FIELD_OF",
    "other_outcomes",
    "PRESET_LABEL",
    "ANALYSE_WORDS",
    "analyse_text",
)
# What the 算牌 page asks of a ruleset's analyser (scoring/analyse/sheet.py, scoring/engine/analyse/).
ANALYSER_NAMES = (
    "answer",
    "breakdown",
    "FLAGS",
    "FIRST_ROUND",
    "NEXT_IS_WILD",
    "BAI_STANDS_IN",
    "SEAT_WIND",
    "can_win",
    "is_discard",
    "hand_entry",
)
HAN = re.compile(r"[\u4e00-\u9fff]")


def rulesets():
    return pytest.mark.parametrize("ruleset", all_rulesets(), ids=lambda r: r.code)


def test_the_installed_rulesets_are_registered_in_their_order_home_first():
    codes = [r.code for r in all_rulesets()]
    assert codes[: len(INSTALLED)] == list(INSTALLED)
    assert codes[0] == DEFAULT_RULESET


@rulesets()
def test_its_folder_holds_its_engine_and_form_side(ruleset):
    assert (ruleset.folder / "engine" / "__init__.py").is_file()
    assert (ruleset.folder / "form_side.py").is_file()
    assert ruleset.package.endswith(ruleset.code)
    assert ruleset.seats in (2, 3, 4)
    assert ruleset.default_preset in ruleset.presets
    assert HAN.search(ruleset.zh)
    assert ruleset.en
    assert not HAN.search(ruleset.en)


@rulesets()
def test_its_rules_document_exists_and_has_a_title(ruleset):
    text = ruleset.rules_document.read_text(encoding="utf-8")
    assert text.startswith("# ")


@rulesets()
def test_its_entry_offers_every_name_the_views_ask(ruleset):
    entry = ruleset.form_side
    missing = [name for name in ENTRY_NAMES if not hasattr(entry, name)]
    assert missing == []
    assert isinstance(entry, FormSide)


@rulesets()
def test_its_templates_load(ruleset):
    entry = ruleset.form_side
    for name in (entry.TEMPLATE, entry.RULES_TEMPLATE, entry.PARTIAL):
        assert get_template(name) is not None  # "x.html#part" loads the partial


@rulesets()
def test_its_words_are_said_in_both_languages(ruleset):
    zh, en = ruleset.count_word
    assert HAN.search(zh)
    assert en
    assert not HAN.search(en)
    assert all(HAN.search(term) for term in ruleset.field_terms.values())


@rulesets()
def test_its_analysis_is_whole_or_absent(ruleset):
    if ruleset.analyser is None:
        return  # no 算牌: the pages hide it (the toy ruleset's walk checks that)
    missing = [name for name in ANALYSER_NAMES if not hasattr(ruleset.analyser, name)]
    assert missing == []
    if trait(ruleset.code, "SELF_DRAWN_ONLY"):  # every win self-drawn: no 自摸 toggle that could be off
        assert "self_drawn" not in ruleset.analyser.FLAGS
        assert trait(ruleset.code, "FIELDS") is None or "self_drawn" in trait(ruleset.code, "FIELDS")
    else:
        assert set(ruleset.analyser.FLAGS) >= {"self_drawn"}
    if trait(ruleset.code, "questions") is not None:  # the page's questions come with what applies them
        assert trait(ruleset.code, "QUESTIONS")
        assert trait(ruleset.code, "with_answers") is not None


# App code that may name a ruleset: the registry line, the home default, and migrations (history).
ALLOWED = {
    "scoring/rulesets/__init__.py": "INSTALLED",
    "scoring/engine/ruleset.py": "DEFAULT_RULESET",
    "yiwu_site/host/config.py": "APP_NAME = ",  # the project's name on a server, no ruleset's
}


def app_files():
    for folder in ("scoring", "templates", "yiwu_site", "static/js", "static/css"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in {".py", ".html", ".js", ".css"} and "migrations" not in path.parts:
                yield path


def test_no_app_code_names_a_ruleset_outside_its_own_folder():
    """The goal of the restructuring: code outside a ruleset's folder asks the ruleset. A citation
    of a rules document (docs/rules/<code>.md) is a reference, not a branch."""
    found = []
    for ruleset in all_rulesets():
        code = re.compile(rf"(?<![\w/-]){re.escape(ruleset.code)}(?![\w-])(?!\.md)")
        for path in app_files():
            where = path.relative_to(ROOT).as_posix()
            if where.startswith(f"scoring/rulesets/{ruleset.code}/"):
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if code.search(line) and ALLOWED.get(where, "\0") not in line:
                    found.append(f"{where}:{n}: {line.strip()}")
    assert found == []
