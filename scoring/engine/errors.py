"""The errors the app raises, all with one message in Chinese and one in English; the engine stays
Django-free (``text(zh)`` takes the language, ``scoring.lang.say`` passes the request's)."""

import unicodedata

# Control, format (bidi, zero-width), surrogate, private-use and separator characters: no name holds them.
BAD_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Zl", "Zp"))
SHOWN_LIMIT = 24  # characters of a request a message quotes


def shown(value, limit: int = SHOWN_LIMIT) -> str:
    """``value`` as a message quotes it: cut to ``limit`` characters, unshowable ones escaped (``\\ud800``)."""
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

    ``hand``: the 0-based index of the first bad hand, None for a game-level problem or while one
    hand is judged (``at`` places it); ``field``: the entry field a form shows the message beside.
    """

    def __init__(self, zh: str, en: str, field: str | None = None, hand: int | None = None):
        super().__init__(zh, en, field)
        self.hand = hand

    def at(self, hand: int) -> "ScoringError":
        return ScoringError(self.zh, self.en, self.field, hand)

    def to_dict(self) -> dict:
        return {
            "error": {
                "hand": self.hand,
                "message": self.zh,
                "message_en": self.en,
                "field": self.field,
            }
        }


def validate_object(raw, allowed: frozenset, zh: str, en: str, field: str, error=None) -> dict:
    """``raw`` if a JSON object of only ``allowed`` keys, else the error naming the first unknown one."""
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
