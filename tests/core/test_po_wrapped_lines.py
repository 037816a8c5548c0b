"""The English catalogue as makemessages writes it: a wrapped translation opens with an empty
``msgstr ""`` and its lines follow. Text on that first line is glued to the next one by gettext (a
hand edit once left 25 wrapped translations, the catalogue's header among them, reading 「the deal
goes with its dealer」 in front of their own words)."""

import itertools
import re
from pathlib import Path

from django.conf import settings

PO = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.po"


def test_a_wrapped_translation_starts_on_an_empty_line():
    lines = [*PO.read_text(encoding="utf-8").splitlines(), ""]
    glued = [
        f"{number}: {line}"
        for number, (line, nxt) in enumerate(itertools.pairwise(lines), start=1)
        if re.match(r'msg(id|str)(\[\d+\])? "[^"]', line) and nxt.startswith('"')
    ]
    assert glued == []


def test_the_analyse_page_in_english_says_its_wrapped_words_alone(client, game):
    from tests.helpers import game_url

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(game_url(game) + "analyse?flip=5m").content.decode()
    assert "Tap the tiles below to add them one by one" in html
    assert "dealerTap" not in html
