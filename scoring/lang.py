"""Which of the engine's two texts (Chinese, English) the current request reads."""

from django.utils import translation


def chinese() -> bool:
    return not (translation.get_language() or "zh").startswith("en")


def pick(zh: str, en: str) -> str:
    return zh if chinese() else en
