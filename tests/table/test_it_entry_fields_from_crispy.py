"""The entry sheets' selects and inputs are drawn by crispy from the form classes: labels, limits
and the refusal marking come from the forms, and a change still refreshes only the preview."""

import re
from pathlib import Path

from django.conf import settings

from scoring.engine.manual import MAX_NOTE
from scoring.rulesets.zhuji.form_side import MAX_EXTRA
from tests.factories import add_hand
from tests.helpers import game_url, template_dirs

FORM_SIDE = Path(settings.BASE_DIR) / "templates" / "scoring" / "entry"
CSS = Path(settings.BASE_DIR) / "static" / "css" / "app.css"
YIWU_FIELDS = ["outcome", "winner", "win_type", "discarder", "piao_player", "piao_level", "feeder1", "caishen"]


def tag(html: str, name: str) -> str:
    return re.search(rf'<(?:select|input)[^>]*name="{name}"[^>]*>', html)[0]


def test_the_yiwu_sheet_draws_its_selects_with_crispy(client, game):
    html = client.get(game_url(game) + "record?outcome=win&winner=1&win_type=pinghu&discarder=0").content.decode()
    for name in [*YIWU_FIELDS, "dealer_fix"]:
        assert f'id="div_id_{name}" class="mb-3 sheet-field"' in html, name  # crispy's wrapper
        assert "form-select" in tag(html, name), name
    assert re.search(r'<label\s+for="id_winner" class="form-label small mb-0">\s*谁胡了\s*</label>', html)
    assert re.search(r'<option value="1" selected>小李</option>', html)


def test_the_selects_sit_in_the_form_whose_changes_refresh_the_preview(client, game):
    html = client.get(game_url(game) + "record?outcome=win&winner=1&win_type=pinghu&discarder=0").content.decode()
    form = html[html.index('<form id="hand-form"') : html.index("</form>", html.index('<form id="hand-form"'))]
    assert 'hx-trigger="change from:#hand-form" hx-include="#hand-form" hx-target="#preview-panel"' in form
    for name in [*YIWU_FIELDS, "dealer_fix", "streak_fix"]:
        assert f'name="{name}"' in form, name
    more = form[form.index('<details class="more') :]
    assert "hx-" not in more  # nothing in 更多 swaps itself: the form's change trigger does


def test_the_limits_and_the_placeholder_come_from_the_forms(client, game, zhuji_game):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})  # the dealer stays: 连1
    streak = tag(client.get(game_url(game) + "record?outcome=draw").content.decode(), "streak_fix")
    assert 'min="0"' in streak
    assert 'max="999"' in streak
    assert 'placeholder="1"' in streak
    assert 'inputmode="numeric"' in streak
    note = tag(client.get(game_url(game) + "record?outcome=manual").content.decode(), "note")
    assert f'maxlength="{MAX_NOTE}"' in note
    assert 'placeholder="例如：罚分、另外的赌注、手算的一局"' in note
    extra = tag(client.get(game_url(zhuji_game) + "record?outcome=win&winner=1&zimo=on").content.decode(), "extra")
    assert f'max="{MAX_EXTRA}"' in extra


def test_no_entry_template_repeats_a_limit_or_draws_a_field_select_by_hand():
    ruleset_templates = [p for d in template_dirs()[1:] for p in d.rglob("*.html")]
    assert len(ruleset_templates) >= 6  # each ruleset's entry and rules sheets
    for path in [*FORM_SIDE.glob("*.html"), *ruleset_templates]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r'(maxlength|min|max)="\d', text), path
        assert not re.search(r'<select name="(?!xz)', text), path  # only 下子's amounts, built per seat
    assert not (FORM_SIDE.parent / "_select.html").exists()


def test_a_refused_field_is_marked_but_not_told_twice(client, game):
    data = {"outcome": "win", "winner": "1", "win_type": "pinghu", "discarder": "1", "next_seq": "1"}
    html = client.post(game_url(game) + "record", data).content.decode()
    assert html.count("放铳者不能是胡牌者自己") == 1
    assert "invalid-feedback" not in html


def test_every_field_class_crispy_gives_the_sheet_is_44_px_tall_in_app_css():
    css = CSS.read_text(encoding="utf-8")
    rule = re.search(r"^([^{}\n]*\.form-select[^{}\n]*)\{[^}]*min-height: 44px", css, re.M)
    assert rule
    for cls in (".form-select", ".form-control", ".form-select-sm", ".form-control-sm"):
        assert cls in rule[1].replace(",", " ").split(), cls
    assert re.search(r"\.sheet-field\.mb-3 \{ margin-bottom: 0 !important; \}", css)
