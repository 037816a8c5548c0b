"""The toy is a whole ruleset by the registry's own account: its rules document, its templates,
every name a form side offers (scoring/handform/__init__.py), and no 算牌 at any door."""

import json
import re

import pytest
from django.template.loader import get_template

import scoring.handform
from scoring.handform.base import FormSide
from scoring.models import Game
from scoring.records.exports import import_game
from tests.rulesets import test_every_ruleset as whole

# The names the form side docs define: ``name`` or ``name(args)`` followed by its description (":"),
# or by the next name ("," / " and ").
BULLETS = re.compile(r"^- .*?(?=^- |^The views)", re.MULTILINE | re.DOTALL)
DEFINED = re.compile(r"``([A-Za-z_]\w*)(?:\([^`]*\))?``(?=:|,|\s+and\s)")


def required_names() -> set[str]:
    bullets = "".join(BULLETS.findall(scoring.handform.__doc__))
    return set(DEFINED.findall(bullets))


def test_the_entry_docs_name_what_the_views_ask():
    assert required_names() == {
        *(
            "Form",
            "MISSING",
            "REQUIREMENTS",
            "initial",
            "STEP_FIELDS",
            "edit_start",
            "TEMPLATE",
            "PARTIAL",
            "context",
            "title",
            "wind",
        ),
        *("marks", "streak_text", "bets", "prefill", "change_bet", "placed_bets", "move_bets", "merge_pending"),
        *("RULES_TEMPLATE", "rules_context"),
        *("FIELD_OF", "other_outcomes", "PRESET_LABEL", "ANALYSE_WORDS", "analyse_text"),
    }


def test_the_plug_in_class_has_each_documented_name_and_no_other():
    assert {name for name in vars(FormSide) if not name.startswith("_")} == required_names()


def test_the_toy_offers_every_name_of_an_entry_module(toy):
    missing = sorted(name for name in required_names() if not hasattr(toy.form_side, name))
    assert missing == []


def test_the_toy_overrides_only_its_part_of_the_rules_page(toy):
    """Everything else (the entry steps and sheet, titles, winds, no bets) is the plug-in's own."""
    assert isinstance(toy.form_side, FormSide)
    own = {name for name in vars(type(toy.form_side)) if not name.startswith("_")}
    assert own == {"RULES_TEMPLATE", "rules_context"}


# The checks every registered ruleset passes (tests/rulesets/test_every_ruleset.py), which see the
# toy only while it is registered: each run here on the toy.
CHECKS = sorted(name for name in dir(whole) if name.startswith("test_its_"))


@pytest.mark.parametrize("check", CHECKS)
def test_the_toy_passes_every_rulesets_checks(toy, check):
    getattr(whole, check)(toy)


def test_with_the_toy_registered_the_installed_come_first_and_no_app_code_names_it(toy):
    whole.test_the_installed_rulesets_are_registered_in_their_order_home_first()
    whole.test_no_app_code_names_a_ruleset_outside_its_own_folder()


def test_the_toy_document_and_templates_are_in_its_folder(toy):
    assert toy.rules_document == toy.folder / "rules.md"
    assert toy.rules_document.read_text(encoding="utf-8").startswith("# 玩具麻将")
    for name in (toy.form_side.TEMPLATE, toy.form_side.RULES_TEMPLATE, toy.form_side.PARTIAL):
        assert get_template(name) is not None
    assert toy.analyser is None


def test_the_api_scores_a_toy_game_and_refuses_its_analysis(client, db, toy):
    game = {"ruleset": "toy", "rules": {"base": 2}, "hands": [{"outcome": "win", "winner": 1}]}
    scored = client.post("/api/score", json.dumps(game), content_type="application/json").json()
    assert scored["totals"] == [-4, 12, -4, -4]  # 南 自摸: 2 × 2 from each of the three others
    assert scored["hands"][0]["payments"][0]["explain_en"] == "E→S 4 = base 2 × 2 self-drawn"
    request = {"ruleset": "toy", "tiles": ["1m", "1m"], "flip": "E"}
    refused = client.post("/api/analyse", json.dumps(request), content_type="application/json")
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert (error["message"], error["message_en"]) == ("玩法 'toy' 没有算牌", "Ruleset 'toy' has no tile reading")


def test_an_import_refusal_says_the_fields_in_its_own_rulesets_terms(db, toy):
    """The toy calls the discarder 放冲的人; a 义乌 backup's refusal still says 谁放铳."""
    refusals = {}
    for code, hand in (("yiwu", {"win_type": "pinghu"}), ("toy", {})):
        backup = {"ruleset": code, "hands": [{"outcome": "win", "winner": 1, "discarder": 9, **hand}]}
        try:
            import_game(backup)
        except Exception as error:  # ImportRefused
            refusals[code] = error.zh
    assert refusals["yiwu"].startswith("第1局：谁放铳 应为座位号")
    assert refusals["toy"] == "第1局：放冲的人 应为座位号 0-3"
    assert not Game.objects.exists()
