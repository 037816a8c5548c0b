"""What every ruleset offers the contract and the app (docs/contract.md, a section per ruleset's hand).

A ruleset is one folder, ``scoring/rulesets/<code>/``, and one line in ``scoring/rulesets/__init__.py``
(``INSTALLED``). The folder holds everything the ruleset needs: ``engine/`` (plain Python, no
Django), which builds and registers its ``Ruleset``; ``form_side.py``, the table's side (how a hand
is entered, titled and marked: ``FORM_SIDE``, an instance of its subclass of ``scoring.handform.base.FormSide``,
which overrides only what differs; docs in ``scoring/handform/__init__.py``); ``templates/<code>/``; and
its tests live in ``tests/rulesets/<code>/``. Code outside the folder asks the ``Ruleset`` and
never names a ruleset's code; the registry is filled on first use (``get_ruleset``,
``all_rulesets``), so importing the engine imports no ruleset and no ruleset imports Django.

The engine parts of a ruleset, all plain Python:
- ``Rules``: a frozen dataclass of its house rules with ``to_dict()``; ``rule_info`` describes each
  rule for the new-game form (``houserules.RuleInfo``); ``parse_rules(raw)`` checks the contract's
  ``rules`` object (a game-level ``ScoringError`` on anything unknown or of the wrong kind).
- ``parse_hand(raw)``: one contract HAND object → the ruleset's hand value (``ScoringError`` with
  hand=None and the offending ``field``).
- ``new_state(first_dealer)`` / ``state_from_dict(data)``: the table state the next hand is played
  in (a ``State``).
- ``score_hand(rules, state, hand)``: judges and settles one hand played in ``state`` without
  changing it; returns a ``Result``.
- ``advance(rules, state, hand, result)``: moves ``state`` to the next hand (totals included).
- ``formula(why, zh, names)``: the right-hand side of a payment's explanation, from its ``why``
  as the replay made it or as JSON gave it back (lists for tuples); ``why_to_json(why)``: that
  JSON form (tuples become lists; the default, ``plain``, suits a why of codes and numbers;
  another is given to ``register_package``).
- ``analyser``: its 算牌 module (``engine/analyse.py``, docs/analysis.md) or None, and then the app
  offers no 算牌 for it anywhere.
- ``after_seating(state)`` (optional, given to ``register_package``): what a change of people does to its
  own state beyond the dealer (docs/contract.md "People and seats": every bet ends, e.g. 义乌's
  买子 and 下子); None when it carries no bets.
- Words the app says about it: ``count_word`` (what a hand is paid on: 倍数 / 台 / 番, for the
  CSV), ``field_terms`` (its contract fields as the table says them, for an import's refusal).
Every ruleset also takes the manual hand (手动记分, ``manual.py``) and the seating entry (换人/换位,
``seating.py``): ``register`` wraps its parse, score and advance (and ``state_from_dict``).
A package laid out by these names (``rules.py``, ``hands.py``, ``replay.py``, ``explain.py``)
registers itself with ``register_package``, stating only its names, seats and what differs.
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
    """What ``score_hand`` returns, in every ruleset: ``net`` per seat sums to 0, ``payments``
    sorted by (payer, payee), ``paid_on`` what the hand is paid on (义乌's 倍, 诸暨's 台, 武义's
    番, or None), ``to_dict()`` the contract's hand output."""

    dealer: int
    streak: int
    net: list
    payments: list

    @property
    def paid_on(self) -> Any: ...

    def to_dict(self, names=None) -> dict: ...


class State(Protocol):
    """The table state the next hand is played in, in every ruleset."""

    dealer: int
    streak: int
    totals: list

    def to_dict(self) -> dict: ...

    def correct(self, dealer: int, streak: int) -> None: ...


def plain(value):
    """A why as JSON gives it back: tuples (at any depth) become lists."""
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
        """A game's stored rules (every value, as ``Rules.to_dict`` wrote them)."""
        return self.rules_class(**data)

    @property
    def form_side(self) -> Any:
        """The table's side of the ruleset: its ``form_side.py``'s ``FORM_SIDE``, an instance of a subclass
        of ``scoring.handform.base.FormSide`` (Django), imported when the app first asks, so the engine
        never imports it."""
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
    """Add ``ruleset``; its parse/score/advance also take a manual hand (manual.py) and a seating
    entry (seating.py), for all."""
    from .manual import with_manual
    from .seating import with_seating

    ruleset = with_seating(with_manual(ruleset))
    _REGISTRY[ruleset.code] = ruleset
    return ruleset


def unregister(code: str) -> None:
    """Take a ruleset out again (a test's own ruleset, once the test is done)."""
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
    replay,
    explain,
    analyser=None,
    halves=False,
    count_word=("倍数", "Multiplier"),
    field_terms=None,
    document=None,
    why_to_json=plain,
    after_seating=None,
):
    """Build and ``register`` the ``Ruleset`` of a package from its modules' conventional names:
    ``rules`` (Rules, RULE_INFO, PRESETS, DEFAULT_PRESET, parse_rules), ``hands`` (parse_hand),
    ``replay`` (TableState, score_hand, advance), ``explain`` (formula); the rest is stated where it
    differs from the ``Ruleset``'s default (``why_to_json``, ``after_seating``...). ``package``: the
    engine package's ``__name__``; the ruleset's folder is its parent."""
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
    """A new game's state: the first dealer deals, everything else at its default."""

    def new_state(first_dealer: int):
        return state_class(dealer=first_dealer)

    return new_state


def _load() -> None:
    """Import every installed ruleset once (each registers itself)."""
    if not _LOADED:
        _LOADED.append(True)
        from scoring.rulesets import load

        load()


def get_ruleset(code) -> Ruleset:
    """The ruleset named ``code``; a game-level ``ScoringError`` for an unknown one."""
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
