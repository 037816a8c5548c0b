"""Which of the engine's two texts (Chinese, English) the current request reads."""

import re

from django.utils import translation


def chinese() -> bool:
    return not (translation.get_language() or "zh").startswith("en")


def pick(zh: str, en: str) -> str:
    return zh if chinese() else en


def say(error) -> str:
    """A ``BilingualError`` (scoring/engine/errors.py) in the request's language."""
    return error.text(chinese())


_SECTION = re.compile(r"§\d+(?:\.\d+)?\s*")


def table_words(text: str) -> str:
    """A refusal as the table reads it: the engine's rule references (§9, §8.2) are for the
    contract and the docs, not for a player at the table."""
    return _SECTION.sub("", text)
