"""What every ruleset offers the contract and the app (docs/contract.md, a section per ruleset's hand).

A ruleset is one package under ``scoring/engine/`` (``yiwu``, ``zhuji``, ``wuyi2``) that builds a
``Ruleset``. Code outside the engine asks the ruleset instead of branching on its code.

The parts of a ruleset, all plain Python:
- ``Rules``: a frozen dataclass of its house rules with ``to_dict()``; ``rule_info`` describes each
  rule for the new-game form (``houserules.RuleInfo``); ``parse_rules(raw)`` checks the contract's
  ``rules`` object (a game-level ``ScoringError`` on anything unknown or of the wrong kind).
- ``parse_hand(raw)``: one contract HAND object → the ruleset's hand value (``ScoringError`` with
  hand=None and the offending ``field``).
- ``new_state(first_dealer)`` / ``state_from_dict(data)``: the table state the next hand is played
  in, with ``dealer``, ``streak``, ``totals`` (a list, one per seat), ``to_dict()`` and
  ``correct(dealer, streak)`` (a table's correction of the dealer/连庄).
- ``score_hand(rules, state, hand)``: judges and settles one hand played in ``state`` without
  changing it; returns a result with ``dealer``, ``streak``, ``net`` (per seat, sums to 0),
  ``payments`` (``Payment``s sorted by (payer, payee)) and ``to_dict()`` (the contract's hand
  output, payments with ``explain``/``explain_en``), and ``count``: what the hand is paid on
  (yiwu's multiplier 倍, zhuji's 台, wuyi2's 番). Each ``Payment`` has ``payer``, ``payee``,
  ``amount`` and ``why``: the data its explanation is made from, plain enough for JSON.
- ``advance(rules, state, hand, result)``: moves ``state`` to the next hand (totals included).
- ``formula(why, zh, names)``: the right-hand side of a payment's explanation, from its ``why``
  as the replay made it or as JSON gave it back (lists for tuples); ``why_to_json(why)``: that
  JSON form (tuples become lists; the default, ``plain``, suits a why of codes and numbers).
Every ruleset also takes the manual hand (手动记分, ``manual.py``): ``register`` wraps the three.
A package laid out by these names (``rules.py``, ``hands.py``, ``replay.py``, ``explain.py``)
registers itself with ``register_package``, stating only its names, seats and what differs.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import ScoringError


def plain(value):
    """A why as JSON gives it back: tuples (at any depth) become lists."""
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Ruleset:
    code: str  # "yiwu" | "zhuji" | "wuyi2", as in the contract's "ruleset"
    zh: str  # 义乌麻将
    en: str  # Yiwu
    seats: int  # 4, or 2 for wuyi2
    rules_class: type
    rule_info: dict  # name -> houserules.RuleInfo, in the order the form shows them
    presets: dict  # preset name -> dict of rule overrides
    default_preset: str
    parse_rules: Callable[[Any], Any]
    parse_hand: Callable[[Any], Any]
    new_state: Callable[[int], Any]
    state_from_dict: Callable[[dict], Any]
    score_hand: Callable[[Any, Any, Any], Any]
    advance: Callable[[Any, Any, Any, Any], None]
    formula: Callable[..., str]
    why_to_json: Callable[[Any], list] = plain
    halves: bool = False  # amounts may be halves (诸暨): a manual hand may be typed in halves

    def rules_from_dict(self, data: dict):
        """A game's stored rules (every value, as ``Rules.to_dict`` wrote them)."""
        return self.rules_class(**data)

    def preset_rules(self, name: str):
        return self.parse_rules(self.presets[name])


_REGISTRY: dict[str, Ruleset] = {}
DEFAULT_RULESET = "yiwu"


def register(ruleset: Ruleset) -> Ruleset:
    """Add ``ruleset``; its parse/score/advance also take a manual hand (manual.py), for all."""
    from .manual import with_manual

    ruleset = with_manual(ruleset)
    _REGISTRY[ruleset.code] = ruleset
    return ruleset


def register_package(code: str, zh: str, en: str, seats: int, *, rules, hands, replay, explain, halves=False):
    """Build and ``register`` the ``Ruleset`` of a package from its modules' conventional names:
    ``rules`` (Rules, RULE_INFO, PRESETS, DEFAULT_PRESET, parse_rules), ``hands`` (parse_hand),
    ``replay`` (TableState, score_hand, advance), ``explain`` (formula, and why_to_json where a
    why holds more than codes and numbers)."""
    ruleset = Ruleset(
        code=code,
        zh=zh,
        en=en,
        seats=seats,
        rules_class=rules.Rules,
        rule_info=rules.RULE_INFO,
        presets=rules.PRESETS,
        default_preset=rules.DEFAULT_PRESET,
        parse_rules=rules.parse_rules,
        parse_hand=hands.parse_hand,
        new_state=_new_state(replay.TableState),
        state_from_dict=replay.TableState.from_dict,
        score_hand=replay.score_hand,
        advance=replay.advance,
        formula=explain.formula,
        why_to_json=getattr(explain, "why_to_json", plain),
        halves=halves,
    )
    return register(ruleset)


def _new_state(state_class: type) -> Callable[[int], Any]:
    """A new game's state: the first dealer deals, everything else at its default."""

    def new_state(first_dealer: int):
        return state_class(dealer=first_dealer)

    return new_state


def get_ruleset(code) -> Ruleset:
    """The ruleset named ``code``; a game-level ``ScoringError`` for an unknown one."""
    ruleset = _REGISTRY.get(code) if isinstance(code, str) else None
    if ruleset is None:
        known = " / ".join(_REGISTRY)
        raise ScoringError(f"未知的规则体系：应为 {known}", f"Unknown ruleset: must be one of {known}", "ruleset")
    return ruleset


ORDER = ("yiwu", "zhuji", "wuyi2")  # how the app lists them: 义乌 first, the home ruleset


def all_rulesets() -> list[Ruleset]:
    return sorted(_REGISTRY.values(), key=lambda r: ORDER.index(r.code) if r.code in ORDER else len(ORDER))
