"""Forms are drawn from their form classes (crispy-forms): every limit lives once, in the form."""

import re
from pathlib import Path

from django.conf import settings

from scoring.forms import MAX_FEE_YUAN, NAME_LIMIT, VOID_REASON_LIMIT
from tests.factories import add_hand
from tests.helpers import game_url

TEMPLATES = Path(settings.BASE_DIR) / "templates"


# The entry sheets (templates/table/handform/) draw their steppers by hand on purpose.
FORM_PAGES = ["table/new_game.html", "table/void.html", "settle/settle.html", "records/import.html"]


def test_no_template_repeats_a_forms_limit_by_hand():
    for path in [TEMPLATES / name for name in FORM_PAGES] + list((TEMPLATES / "registration").glob("*.html")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r'maxlength="\d', text), path
        assert not re.search(r'<input[^>]*type="number"[^>]*min="\d', text), path


def test_the_limits_reach_the_pages_from_the_forms(client, game):
    assert f'maxlength="{NAME_LIMIT}"' in client.get("/new").content.decode()
    add_hand(game, {"outcome": "draw"})
    assert f'maxlength="{VOID_REASON_LIMIT}"' in client.get(game_url(game) + "hand/1/void").content.decode()
    settle = client.get(game_url(game) + "settle").content.decode()
    assert f'max="{MAX_FEE_YUAN}"' in settle
    assert 'name="fee_payee" class="select form-select' in settle


def test_the_account_and_import_forms_come_from_crispy(client, db):
    login = client.get("/accounts/login").content.decode()
    assert 'autocomplete="username"' in login
    assert 'autocomplete="current-password"' in login
    assert 'id="div_id_username"' in login  # crispy's field wrapper
    assert 'id="div_id_password1"' in client.get("/accounts/signup").content.decode()
    imported = client.get("/import").content.decode()
    assert 'id="div_id_file"' in imported
    assert 'accept="application/json,.json"' in imported
