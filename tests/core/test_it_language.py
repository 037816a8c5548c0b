import itertools
import re
from pathlib import Path

from django.conf import settings

from tests.factories import add_hand
from tests.helpers import game_url

PO = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.po"


def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_chinese_is_the_default_even_for_an_english_browser(client, game):
    html = client.get(game_url(game), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert '<html lang="zh-hans">' in html
    assert "记一局：谁胡了？" in html


def test_english_when_the_player_picks_it(client, game):
    add_hand(game, {"outcome": "win", "winner": 1, "win_type": "pinghu", "discarder": 2})
    html = english(client).get(game_url(game)).content.decode()
    assert '<html lang="en">' in html
    assert "Record a hand: who won?" in html
    assert "小李 Plain win ×1 · 阿华 discarded" in html
    assert "(base 5 + discard 1) × 1 Plain win" in html


def test_engine_messages_follow_the_language(client, game):
    url = game_url(game) + "record?winner=1&win_type=pinghu&discarder=0&caishen=2"
    assert "两个财神" in client.get(url).content.decode()
    assert "With 2 wilds (caishen) the winner must self-draw" in english(client).get(url).content.decode()


def test_the_language_switch_sets_the_cookie(client, game):
    response = client.post("/i18n/setlang/", {"language": "en", "next": game_url(game)})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"


def test_every_message_has_an_english_translation():
    text = PO.read_text(encoding="utf-8")
    blocks = [b for b in text.split("\n\n")[1:] if "msgid" in b and "\n#~ " not in "\n" + b]

    def empty(block: str) -> bool:  # a msgstr "" (or msgstr[N] "") that no wrapped line continues
        lines = [*block.splitlines(), ""]
        return any(
            re.fullmatch(r'msgstr(\[\d+\])? ""', line) and not nxt.startswith('"')
            for line, nxt in itertools.pairwise(lines)
        )

    untranslated = [b for b in blocks if empty(b)]
    assert blocks
    assert untranslated == []
    assert "#, fuzzy" not in "\n\n".join(blocks)  # a guessed translation is no translation


def test_the_new_game_presets_read_in_english_too(client, db):
    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get("/new?ruleset=zhuji").content.decode()
    assert "2 pt" in html
    assert ">2分<" not in html  # the value stays the preset code
