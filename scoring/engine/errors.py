"""The errors the app raises, all with one message in Chinese and one in English.

``BilingualError`` is the base of every refusal a person reads (the engine's ``ScoringError``
here; a hand's number, a phone that got there first, a bad settle or import request on the
Django side). The engine stays Django-free: ``text(zh)`` takes the language, and the app's
``scoring.lang.say(error)`` passes the request's.
"""

import unicodedata

# Cc control, Cf format (bidi marks, zero-width), Cs surrogate, Co private use, Zl/Zp separators:
# what no name or note may hold (scoring/engine/hygiene.py), and what ``shown`` escapes.
BAD_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Zl", "Zp"))
SHOWN_LIMIT = 24  # characters of a request a message quotes


def shown(value, limit: int = SHOWN_LIMIT) -> str:
    """``value`` as a message quotes it: cut to ``limit`` characters, every character a page
    could not show (or that would reorder it) written as its escape, e.g. ``\\ud800``."""
    text = value if isinstance(value, str) else repr(value)
    out = "".join(
        char if unicodedata.category(char) not in BAD_CATEGORIES else char.encode("unicode_escape").decode("ascii")
        for char in text[:limit]
    )
    return out + "…" if len(text) > limit else out


class BilingualError(Exception):
    """A refusal with its Chinese and English text, and the entry ``field`` it points at."""

    def __init__(self, zh: str, en: str, field: str | None = None):
        super().__init__(en)
        self.zh = zh
        self.en = en
        self.field = field

    def text(self, zh: bool = True) -> str:
        return self.zh if zh else self.en


class ScoringError(BilingualError):
    """An entry that breaks a rule of the ruleset's rules document.

    ``hand`` is the 0-based index of the first bad hand, or None for a game-level problem
    (rules, players, first dealer) and while a single hand is judged (``at`` places it).
    ``field`` names the offending entry field when there is one, so a form can show the
    message beside it.
    """

    def __init__(self, zh: str, en: str, field: str | None = None, hand: int | None = None):
        super().__init__(zh, en, field)
        self.hand = hand

    def at(self, hand: int) -> "ScoringError":
        """The same error, placed at a hand index."""
        return ScoringError(self.zh, self.en, self.field, hand)

    def to_dict(self) -> dict:
        """The contract's error object, with the English text and the field beside it."""
        return {
            "error": {
                "hand": self.hand,
                "message": self.zh,
                "message_en": self.en,
                "field": self.field,
            }
        }


def check_object(raw, allowed: frozenset, zh: str, en: str, field: str, error=None) -> dict:
    """``raw`` if it is a JSON object holding only ``allowed`` keys; otherwise the error (the
    first unknown key, in sorted order, is named). ``zh``/``en`` say what the object should be."""
    error = error or ScoringError
    if not isinstance(raw, dict):
        raise error(zh, en, field)
    unknown = raw.keys() - allowed
    if unknown:
        raise unknown_field(sorted(unknown)[0], error)
    return raw


def unknown_field(name: str, error=None) -> Exception:
    """「未知字段：x」, with x quoted as ``shown`` quotes it (never raw input in a message)."""
    quoted = shown(name)
    return (error or ScoringError)(f"未知字段：{quoted}", f"Unknown field: {quoted}", quoted)


def win_or_draw(raw: dict, win_fields: tuple[str, ...]) -> str:
    """A win-or-draw hand's outcome: "win", or "draw" holding none of ``win_fields``."""
    outcome = raw.get("outcome")
    if outcome == "draw":
        for name in win_fields:
            if name in raw:
                raise ScoringError(f"流局不应填写 {name}", f"A draw has no {name}", name)
        return outcome
    if outcome != "win":
        raise ScoringError("outcome 应为 win（胡）或 draw（流局）", "outcome must be win or draw", "outcome")
    return outcome


def required(raw: dict, name: str, zh: str, en: str):
    """``raw[name]``, or the error ``zh``/``en`` pointing at the missing field (a win's winner)."""
    if name not in raw:
        raise ScoringError(zh, en, name)
    return raw[name]
