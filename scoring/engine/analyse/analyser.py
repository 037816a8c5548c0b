"""A ruleset's 算牌 as the registry holds it: what the request's checks and the wild rules ask."""

from types import ModuleType

from ..errors import ScoringError
from ..ruleset import get_ruleset


def analyser(ruleset: str) -> ModuleType:
    """The ruleset's 算牌 (its ``engine/analyse.py``), as the registry holds it; ScoringError when
    the ruleset is unknown or has none."""
    try:
        found = get_ruleset(ruleset).analyser
    except ScoringError:
        shown = repr(ruleset)[:20]
        raise ScoringError(f"未知规则：{shown}", f"Unknown ruleset: {shown}", "ruleset") from None
    if found is None:
        shown = repr(ruleset)[:20]
        raise ScoringError(f"玩法 {shown} 没有算牌", f"Ruleset {shown} has no tile reading", "ruleset")
    return found
