"""The one error the engine raises: a bad entry, named by hand index and rule."""


class ScoringError(Exception):
    """An entry that breaks a rule of yiwu-rules.md.

    ``hand`` is the 0-based index of the first bad hand, or None for a game-level problem
    (rules, players, first dealer). ``field`` names the offending entry field when there is
    one, so a form can show the message beside it.
    """

    def __init__(self, hand: int | None, zh: str, en: str, field: str | None = None):
        super().__init__(en)
        self.hand = hand
        self.zh = zh
        self.en = en
        self.field = field

    def at(self, hand: int) -> "ScoringError":
        """The same error, placed at a hand index."""
        return ScoringError(hand, self.zh, self.en, self.field)

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
