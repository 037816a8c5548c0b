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


_REF = r"(?:[\w/-]+\.md\s*)?§\s*\d+(?:\.\d+)?(?:\s*[-–,、/]\s*§?\s*\d+(?:\.\d+)?)*"
_BRACKETED = re.compile(rf"\s*[(（]\s*(?:see\s+|见)?{_REF}\s*[)）]")  # " (docs/rules/yiwu.md §9)", "（§4）"
_SECTION = re.compile(rf"{_REF}\s*[:：]?\s*")  # "§4 放铳者…", "§2-§4 …"


def table_words(text: str) -> str:
    """A refusal as the table reads it: the rule references (§9, docs/rules/yiwu.md §9) are for the docs."""
    return _SECTION.sub("", _BRACKETED.sub("", text)).strip()
