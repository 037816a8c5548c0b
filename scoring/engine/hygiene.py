"""Input hygiene, shared by every door: JSON read strictly, and one check for the names and notes a table types.

Python's parser takes ``NaN``, ``Infinity``, ``1e400``, repeated keys and lone surrogates;
``loads`` refuses all of them before anything reads the request. Names and notes hold no control,
format, surrogate, private-use or separator character, and are not only spaces (docs/contract.md).
"""

import json
import math
import re
import unicodedata

from .errors import BAD_CATEGORIES, ScoringError, shown

MAX_NAME = 40  # the contract's bound on a player's name; the new-game form keeps to 20
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")  # \ud800-\udfff in the JSON text


def bad_character(text: str) -> str | None:
    """The first character of ``text`` no name or note may hold, as its code point ("U+202E")."""
    if text.isprintable():  # holds none of BAD_CATEGORIES (every one is unprintable), at C speed
        return None
    for char in text:
        if unicodedata.category(char) in BAD_CATEGORIES:
            return f"U+{ord(char):04X}"
    return None


def _no_constant(name: str):
    raise ScoringError(
        f"JSON 里的数应为有限的数，不能是 {name}",
        f"Numbers in the JSON must be finite, not {name}",
    )


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ScoringError(
            f"JSON 里的数应为有限的数：{shown(text)} 超出范围",
            f"Numbers in the JSON must be finite: {shown(text)} is out of range",
        )
    return value


def _unique(pairs: list) -> dict:
    obj = dict(pairs)
    if len(obj) < len(pairs):
        seen = set()
        name = next(k for k, _v in pairs if k in seen or seen.add(k))
        raise ScoringError(f"JSON 里有重复的字段：{shown(name)}", f"A field is repeated in the JSON: {shown(name)}")
    return obj


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _no_surrogates(data) -> None:
    """Every key and string in ``data`` is text (no lone surrogate), walked without recursion."""
    stack = [data]
    while stack:
        item = stack.pop()
        strings = []
        if isinstance(item, dict):
            strings = list(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            strings = [item]
        for text in strings:
            if not _is_text(text):
                raise ScoringError(
                    f"JSON 里有不成对的 UTF-16 代理字符，不是文字：{shown(text)}",
                    f"The JSON holds a lone UTF-16 surrogate, which is not text: {shown(text)}",
                )


def loads(raw: bytes):
    """The JSON in ``raw`` (UTF-8), or ``ScoringError`` (game-level, no field) saying what is wrong."""
    try:
        data = json.loads(
            raw.decode("utf-8"), parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_unique
        )
    except RecursionError:
        raise ScoringError("JSON 嵌套太深", "Malformed JSON: nested too deeply") from None
    except (UnicodeDecodeError, ValueError) as error:  # ValueError: also integers over 4,300 digits
        raise ScoringError(f"JSON 格式错误：{error}", f"Malformed JSON: {error}") from None
    if SURROGATE_ESCAPE.search(raw):  # UTF-8 cannot hold a surrogate: only an escape makes one
        _no_surrogates(data)
    return data


def validate_text(text, *, limit: int, field: str, what: tuple[str, str]) -> str:
    """``text`` if a string of 1–``limit`` characters, not only spaces, with no bad character; else ``ScoringError``."""
    zh, en = what
    if not isinstance(text, str) or not text.strip() or len(text) > limit:
        raise ScoringError(
            f"{zh}应为 1-{limit} 个字（不能只有空格）", f"{en} must be 1-{limit} characters, not only spaces", field
        )
    if code := bad_character(text):
        raise ScoringError(
            f"{zh}不能包含控制字符或文字方向字符等特殊字符（{code}）",
            f"{en} may not contain control, text-direction or other special characters ({code})",
            field,
        )
    return text


def validate_names(names: list, *, field: str = "players") -> list[str]:
    seen = set()
    for name in names:
        validate_text(name, limit=MAX_NAME, field=field, what=("名字", "Names"))
        if name.strip() in seen:
            raise ScoringError(
                f"玩家的名字不能重复：{shown(name)}", f"Two players have the same name: {shown(name)}", field
            )
        seen.add(name.strip())
    return names
