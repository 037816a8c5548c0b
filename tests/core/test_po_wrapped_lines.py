"""The English catalogue says each message's own words: a hand edit once glued one short
translation (「the deal goes with its dealer」) in front of 25 wrapped ones, the catalogue's header
among them, which gettext joined into 「the deal goes with its dealerTap the tiles below…」."""

import re
from pathlib import Path

from django.conf import settings

PO = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.po"


def translations() -> list[str]:
    """Every msgstr of the catalogue, its wrapped lines joined as gettext joins them."""
    out, current = [], None
    for line in [*PO.read_text(encoding="utf-8").splitlines(), ""]:
        if match := re.match(r'msgstr(?:\[\d+\])? "(.*)"$', line):
            current = match[1]
        elif current is not None and line.startswith('"'):
            current += line[1:-1]
        elif current is not None:
            out.append(current)
            current = None
    return out


def test_no_translation_starts_with_another_glued_to_it():
    texts = translations()
    assert len(texts) > 100
    short = {t for t in texts if len(t) >= 8 and re.search(r"[a-z)]$", t)}
    glued = [t for t in texts for s in short if t != s and re.match(re.escape(s) + r"[A-Z]", t)]
    assert glued == []


def test_the_catalogue_header_opens_with_its_version_line():
    header = translations()[0]
    assert header.startswith("Project-Id-Version: ")
    assert "Plural-Forms: nplurals=2; plural=(n != 1);" in header


def test_the_analyse_page_in_english_says_its_wrapped_words_alone(client, game):
    from tests.helpers import game_url

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(game_url(game) + "analyse?flip=5m").content.decode()
    assert "Tap the tiles below to add them one by one" in html
    assert "dealerTap" not in html
