"""The scoring engine: plain Python, no Django (docs/contract.md).

Each ruleset's own engine lives in its folder (``scoring/rulesets/<code>/engine/``), found through
the registry (``ruleset.py``).
"""

from .contract import score_game, score_game_or_error
from .errors import ScoringError
from .game import replay, score
from .ruleset import DEFAULT_RULESET, Ruleset, all_rulesets, get_ruleset
from .seats import SEATS_EN, SEATS_ZH
from .transfers import min_transfers, settle_balances

__all__ = [
    "DEFAULT_RULESET",
    "SEATS_EN",
    "SEATS_ZH",
    "Ruleset",
    "ScoringError",
    "all_rulesets",
    "get_ruleset",
    "min_transfers",
    "replay",
    "score",
    "score_game",
    "score_game_or_error",
    "settle_balances",
]
