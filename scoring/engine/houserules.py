"""House rules (约定), for every ruleset: how a rule is described, checked and parsed (a game-level
``ScoringError`` for anything unknown or of the wrong kind)."""

from dataclasses import dataclass, replace

from .errors import ScoringError, shown

MAX_POINTS = 1_000_000  # the contract's bound on any numeric rule


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """How a rule is checked and shown: kind, allowed values, Chinese and English text.

    kind: ``int`` | ``choice`` | ``bool`` | ``cap`` (an int or null) | ``map`` (``keys`` to ints) |
    ``list`` (one int per ``entries``: 杭州's 老庄 factors).
    """

    name: str
    kind: str
    zh: str
    zh_help: str
    en: str
    choices: tuple[tuple[str, str, str], ...] = ()  # (value, zh, en)
    minimum: int = 0
    en_help: str = ""
    maximum: int = MAX_POINTS
    keys: tuple[str, ...] = ()  # for kind "map"
    # For kind "map" and "list": each key's (key, zh, en, standard value), in the order a form asks them.
    entries: tuple[tuple[str, str, str, int], ...] = ()


def rule_table(*infos: RuleInfo, en_help: dict[str, str] | None = None) -> dict[str, RuleInfo]:
    """A ruleset's rules by name, in the form's order; ``en_help`` keeps long English help apart."""
    if en_help is None:
        return {r.name: r for r in infos}
    return {r.name: replace(r, en_help=en_help[r.name]) for r in infos}


def _bad(name: str, zh: str, en: str) -> ScoringError:
    return ScoringError(f"规则 {name}：{zh}", f"Rule {name}: {en}", field=name)


def _validate_int(info: RuleInfo, value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(name, "应为整数", "must be a whole number")
    if not info.minimum <= value <= info.maximum:
        raise _bad(
            name, f"应在 {info.minimum} 到 {info.maximum} 之间", f"must be between {info.minimum} and {info.maximum}"
        )
    return value


def validate_value(info: RuleInfo, value):
    """``value`` if it suits ``info``, else a ``ScoringError`` naming the rule."""
    if info.kind == "bool":
        if not isinstance(value, bool):
            raise _bad(info.name, "应为 true 或 false", "must be true or false")
        return value
    if info.kind == "choice":
        allowed = [c[0] for c in info.choices]
        if value not in allowed:
            raise _bad(info.name, f"应为 {' / '.join(allowed)} 之一", f"must be one of {', '.join(allowed)}")
        return value
    if info.kind == "map":
        if not isinstance(value, dict):
            raise _bad(info.name, "应为对象", "must be an object")
        for key, number in value.items():
            if key not in info.keys:
                raise _bad(info.name, f"未知的项：{shown(key)}", f"unknown entry: {shown(key)}")
            _validate_int(info, number, f"{info.name}.{key}")
        return dict(value)
    if info.kind == "list":
        count = len(info.entries)
        if not isinstance(value, list | tuple) or len(value) != count:
            raise _bad(info.name, f"应为 {count} 个整数的列表", f"must be a list of {count} whole numbers")
        return tuple(
            _validate_int(info, number, f"{info.name}.{key}")
            for (key, *_), number in zip(info.entries, value, strict=True)
        )
    if info.kind == "cap" and value is None:
        return None
    return _validate_int(info, value, info.name)


def parse_rules(raw, defaults, rule_info: dict[str, RuleInfo]):
    """``defaults`` (a frozen ``Rules``) with the overrides of the contract's ``rules`` object."""
    if not isinstance(raw, dict):
        raise ScoringError("rules 应为对象", "rules must be an object", field="rules")
    overrides = {}
    for name, value in raw.items():
        info = rule_info.get(name)
        if info is None:
            raise ScoringError(f"未知的规则：{shown(name)}", f"Unknown rule: {shown(name)}", field=shown(name))
        overrides[name] = validate_value(info, value)
    return replace(defaults, **overrides)
