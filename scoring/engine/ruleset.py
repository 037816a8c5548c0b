"""What every ruleset offers the contract and the app (docs/contract.md; its folder: README's "A new ruleset").

Code outside a ruleset's folder asks its ``Ruleset`` and never names its code; the registry fills on
first use, so importing the engine imports no ruleset. A package offers, by conventional names:
- ``rules.py``: ``Rules`` (frozen, ``to_dict()``), ``RULE_INFO``, ``parse_rules(raw)`` (a game-level ``ScoringError``);
- ``hands.py``: ``parse_hand(raw)`` (``ScoringError`` with the offending ``field``);
- ``score.py``: ``TableState`` (``new_state``, ``state_from_dict``), ``score_hand(rules, state, hand)``
  (leaves ``state`` alone) and ``advance(rules, state, hand, result)``;
- ``explain.py``: ``formula(why, zh, names)``, ``why`` as ``score_hand`` made it or as JSON gave it back (lists);
- optionally ``analyser`` (its 算牌, docs/analysis.md) and ``after_seating`` (its bets end on a
  change of people, docs/contract.md "People and seats").
``register`` adds the manual hand (``manual.py``) and the seating entry (``seating.py``) to every one.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from .errors import ScoringError

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"  # the rules documents a clone carries


class Payment(Protocol):
    payer: int
    payee: int
    amount: Any  # int, or a Fraction of halves (诸暨)
    why: Any  # the data its explanation is made from (``Ruleset.formula``)


class Result(Protocol):
    """What ``score_hand`` returns: ``net`` sums to 0, ``payments`` sorted by (payer, payee)."""

    dealer: int
    streak: int
    net: list
    payments: list

    @property
    def paid_on(self) -> Any: ...

    def to_dict(self, names=None) -> dict: ...


class State(Protocol):
    dealer: int
    streak: int
    totals: list

    def to_dict(self) -> dict: ...

    def correct(self, dealer: int, streak: int) -> None: ...


def plain(value):
    """A why as JSON gives it back (tuples become lists)."""
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Ruleset:
    code: str  # as in the contract's "ruleset"
    zh: str  # 义乌麻将
    en: str  # Yiwu
    seats: int  # 4, or 2 (武义二人)
    rules_class: type
    rule_info: dict  # name -> houserules.RuleInfo, in the order the form shows them
    presets: dict  # preset name -> dict of rule overrides
    default_preset: str
    parse_rules: Callable[[Any], Any]
    parse_hand: Callable[[Any], Any]
    new_state: Callable[[int], State]
    state_from_dict: Callable[[dict], State]
    score_hand: Callable[[Any, State, Any], Result]
    advance: Callable[[Any, State, Any, Result], None]
    formula: Callable[..., str]
    why_to_json: Callable[[Any], list] = plain
    halves: bool = False  # amounts may be halves (诸暨): a manual hand may be typed in halves
    package: str = ""  # the ruleset's folder as a package ("scoring.rulesets.<code>")
    analyser: ModuleType | None = None  # its 算牌 (engine/analyse.py), or None: no 算牌
    count_word: tuple[str, str] = ("倍数", "Multiplier")  # what a hand is paid on (zh, en), the CSV's column
    field_terms: dict = field(default_factory=dict)  # its contract fields as the table says them (zh)
    document: Path | None = None  # its rules document (None: docs/rules/<code>.md)
    after_seating: Callable[[Any], None] | None = None  # a change of people: its bets end (None: none)

    def rules_from_dict(self, data: dict):
        return self.rules_class(**data)

    @property
    def form_side(self) -> Any:
        """Its ``form_side.py``'s ``FORM_SIDE``, imported on first ask so the engine never imports Django."""
        return import_module(f"{self.package}.form_side").FORM_SIDE

    @property
    def folder(self) -> Path:
        return Path(import_module(self.package).__file__).parent

    @property
    def rules_document(self) -> Path:
        return self.document or DOCS / f"{self.code}.md"


_REGISTRY: dict[str, Ruleset] = {}
_LOADED: list[bool] = []
DEFAULT_RULESET = "yiwu"  # the home ruleset: what a new game and a contract without "ruleset" get


def register(ruleset: Ruleset) -> Ruleset:
    """Add ``ruleset``, wrapped to take a manual hand and a seating entry."""
    from .manual import with_manual
    from .seating import with_seating

    ruleset = with_seating(with_manual(ruleset))
    _REGISTRY[ruleset.code] = ruleset
    return ruleset


def unregister(code: str) -> None:
    _REGISTRY.pop(code, None)


def register_package(
    code: str,
    zh: str,
    en: str,
    seats: int,
    *,
    package: str,
    rules,
    hands,
    score,
    explain,
    analyser=None,
    halves=False,
    count_word=("倍数", "Multiplier"),
    field_terms=None,
    document=None,
    why_to_json=plain,
    after_seating=None,
):
    """Build and ``register`` a package's ``Ruleset`` from its modules' conventional names (module doc)."""
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
        new_state=_new_state(score.TableState),
        state_from_dict=score.TableState.from_dict,
        score_hand=score.score_hand,
        advance=score.advance,
        formula=explain.formula,
        why_to_json=why_to_json,
        halves=halves,
        package=package.rpartition(".")[0],
        analyser=analyser,
        count_word=count_word,
        field_terms=field_terms or {},
        document=document,
        after_seating=after_seating,
    )
    return register(ruleset)


def _new_state(state_class: type) -> Callable[[int], Any]:

    def new_state(first_dealer: int):
        return state_class(dealer=first_dealer)

    return new_state


def _load() -> None:
    if not _LOADED:
        _LOADED.append(True)
        from scoring.rulesets import load

        load()


def get_ruleset(code) -> Ruleset:
    _load()
    ruleset = _REGISTRY.get(code) if isinstance(code, str) else None
    if ruleset is None:
        known = " / ".join(r.code for r in all_rulesets())
        raise ScoringError(f"未知的规则体系：应为 {known}", f"Unknown ruleset: must be one of {known}", "ruleset")
    return ruleset


def all_rulesets() -> list[Ruleset]:
    """Every registered ruleset, in the order the app lists them (``INSTALLED``, the home one first)."""
    _load()
    from scoring.rulesets import INSTALLED

    return sorted(_REGISTRY.values(), key=lambda r: INSTALLED.index(r.code) if r.code in INSTALLED else len(INSTALLED))
