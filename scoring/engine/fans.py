"""A 番 table, for the rulesets whose wins add up 番 (武义二人, 杭州): each declares its patterns and
which go together; this holds the lookups, the validation, the sum, the cap and the result."""

from collections.abc import Callable
from dataclasses import dataclass
from math import prod

from .errors import ScoringError, shown
from .houserules import RuleInfo
from .payment import BaseResult

Problem = tuple[str, str]  # (zh, en) naming the broken rule
MAX_PATTERNS = 20  # far more than any hand can list validly; bounds the work on bad input
_VALID_MAX = 4096  # bounds a table's memo of valid lists against odd input


@dataclass(frozen=True, slots=True)
class Pattern:
    code: str
    zh: str
    en: str
    fan: int  # the rulebook's 番; a game's own in ``Rules.fan_table``
    group: str  # a key of the table's ``groups``


@dataclass(slots=True)
class FanResult(BaseResult):
    PAID_ON = "fan"  # paid on the 番

    fan: int  # the 番 paid on, after the cap; 0 for a draw


class FanTable:
    """A ruleset's patterns in its order and its rules of which go together.

    Two codes of one group never count together (``twice`` and ``same_group`` say why, the first
    for a code listed twice); ``pair(x, y)`` any other reason, asked both ways round; ``alone(code,
    *context)`` why one code cannot count in this hand; ``unlisted`` the codes a hand never lists,
    each with the reason given when one is.
    """

    def __init__(
        self,
        patterns: tuple[Pattern, ...],
        groups: dict[str, tuple[str, str]],
        *,
        twice: Callable[[Pattern], Problem],
        same_group: Callable[[Pattern, Pattern], Problem],
        pair: Callable[[Pattern, Pattern], Problem | None],
        alone: Callable[..., Problem | None] | None = None,
        unlisted: dict[str, Problem] | None = None,
    ):
        self.patterns = patterns
        self.groups = groups  # group -> (中文, English), in the order the sheet shows them
        self.by_code: dict[str, Pattern] = {p.code: p for p in patterns}
        self.codes: tuple[str, ...] = tuple(self.by_code)  # the ``fan`` rule's keys
        self.unlisted = unlisted or {}
        self.listable: tuple[str, ...] = tuple(c for c in self.codes if c not in self.unlisted)
        self._twice, self._same_group, self._pair, self._alone = twice, same_group, pair, alone
        self._valid: set[tuple] = set()

    def fans(self, overrides: dict) -> dict:
        """Every code's 番 with a game's ``overrides`` applied."""
        table = {code: p.fan for code, p in self.by_code.items()}
        table.update(overrides)
        return table

    def in_group(self, group: str) -> frozenset[str]:
        return frozenset(c for c, p in self.by_code.items() if p.group == group)

    def tie_bits(self) -> dict[str, int]:
        """Each listable code's tie bit: an earlier one outweighs all later ones together."""
        order = self.listable
        return {code: 1 << (len(order) - 1 - place) for place, code in enumerate(order)}

    def fan_rule(self, zh_help: str, maximum: int) -> RuleInfo:
        """The house rule ``fan``: each code's 番 at the table, starting at the rulebook's."""
        entries = tuple((p.code, p.zh, p.en, p.fan) for p in self.patterns)
        return RuleInfo("fan", "map", "番数表", zh_help, "Fan table", maximum=maximum, keys=self.codes, entries=entries)

    def _pair_problem(self, a: str, b: str) -> Problem | None:
        pa, pb = self.by_code[a], self.by_code[b]
        if a == b:
            return self._twice(pa)
        if pa.group == pb.group:
            return self._same_group(pa, pb)
        return self._pair(pa, pb) or self._pair(pb, pa)

    def problem(self, code, chosen, *context) -> Problem | None:
        """Why ``code`` cannot be added to the codes ``chosen`` (already valid together), or None."""
        if not isinstance(code, str) or code not in self.by_code:
            return (f"§4 未知的番型：{shown(code)}", f"§4 Unknown pattern: {shown(code)}")
        if self._alone is not None and (found := self._alone(code, *context)):
            return found
        for other in chosen:
            if found := self._pair_problem(code, other):
                return found
        return None

    def validate(self, codes: tuple, *context, memo=None) -> None:
        """A hand's listed codes, in order; ``ScoringError`` (field ``patterns``). ``memo``: a key
        standing for ``context``, to remember the lists found valid."""
        key = None if memo is None else (codes, memo)
        if key is not None and key in self._valid:
            return
        for i, code in enumerate(codes):
            found = self.unlisted.get(code) if isinstance(code, str) else None
            found = found or self.problem(code, codes[:i], *context)
            if found:
                raise ScoringError(found[0], found[1], field="patterns")
        if key is not None and len(self._valid) < _VALID_MAX:
            self._valid.add(key)

    def conflicts(self, codes, *context, among: tuple[str, ...] | None = None) -> dict[str, Problem]:
        """code -> reason for every code of ``among`` (the listable) that cannot join the valid ``codes``."""
        chosen = tuple(c for c in codes if c in self.by_code)  # an unknown code is refused where it is entered
        return {
            code: found
            for code in (self.listable if among is None else among)
            if code not in chosen and (found := self.problem(code, chosen, *context))
        }


def parse_patterns(value) -> tuple[str, ...]:
    """A hand's ``patterns``: a list of codes (checked against the table later)."""
    if value.__class__ is not list or any(c.__class__ is not str for c in value):
        raise ScoringError("patterns 应为番型代码的列表", "patterns must be a list of pattern codes", "patterns")
    if len(value) > MAX_PATTERNS:
        raise ScoringError(f"番型最多 {MAX_PATTERNS} 个", f"At most {MAX_PATTERNS} patterns", "patterns")
    return tuple(value)


def added(items) -> int:
    """The 番 of ``items``, each a code then its factors: (code, 番) or (code, 番 each, times)."""
    return sum(prod(item[1:]) for item in items)


def capped(raw: int, cap: int | None) -> int:
    """The 番 paid on: ``raw`` at most ``cap`` (None: no cap)."""
    return raw if cap is None or raw <= cap else cap


def power(inner: str, raw: int, fan: int, base: int, zh: bool) -> str:
    """``2^3 番（…）``, the cap said inside, ``base ×`` before it unless 1."""
    if raw != fan:
        inner += f" = {raw}，封顶{fan}" if zh else f" = {raw}, capped at {fan}"
    text = f"2^{fan} 番（{inner}）" if zh else f"2^{fan} fan ({inner})"
    return text if base == 1 else f"{base} × {text}"
