"""What a write would do, read without writing: a hand's preview, an edit's or a void's, several changes together."""

from contextlib import contextmanager
from copy import deepcopy
from dataclasses import dataclass, field

from django.conf import settings
from django.utils import timezone

from scoring.engine import ScoringError, score
from scoring.engine.points import from_json
from scoring.engine.seating import is_seating
from scoring.handform import form_side_for, form_side_of
from scoring.models import Game, Hand
from scoring.people import Seatings, people_in_order
from scoring.replay import Replay, ReplayError, build, number_in, numbers, table
from scoring.services.locks import Conflict


@dataclass
class OtherHand:
    """Another hand an edit or void changes: its 第N局, entry, and each seat's amount and person before → after."""

    hand: Hand
    number: int
    before: list
    after: list
    names_before: list = field(default_factory=list)
    names_after: list = field(default_factory=list)


@dataclass
class Preview:
    """What a write would do: the hand's result (None for a void), totals before/after, other hands changed, the table after."""

    result: object
    before: list
    after: list
    others: list[OtherHand] = field(default_factory=list)
    people_before: list = field(default_factory=list)
    people_after: list = field(default_factory=list)
    state: object = None


def people_limit(game: Game, hands: list[Hand]) -> int:
    """The most people an edit may bring ``game`` to: the limit, or as many as it holds if the limit was lowered."""
    seatings = [h.entry["players"] for h in hands if not h.voided and is_seating(h.entry)]
    return max(settings.MAX_PEOPLE_PER_GAME, len(people_in_order(game.players, seatings)))


def preview_record(*, game: Game, state, entry: dict) -> Preview:
    """The next hand scored at ``state`` without a replay. Raises ``ReplayError``."""
    after = deepcopy(state)
    number = game.state["active"] + 1
    try:
        hand = game.plugin.parse_hand(entry)
        result = score(game.plugin, game.house_rules(), after, hand, settings.MAX_PEOPLE_PER_GAME)
    except ScoringError as error:
        raise ReplayError(game.state["last_seq"] + 1, error, number) from None
    return Preview(result, list(state.totals), after.totals, [], state.people(), after.people(), after)


@dataclass
class MovedBets:
    """Where a void's bets go (docs/rules/yiwu.md §7, §8): the next standing hand (``target``), else ``pending``."""

    bets: dict
    target: Hand | None = None
    pending: dict | None = None


def moved_bets(*, game: Game, hands: list[Hand], hand: Hand, before) -> MovedBets | None:
    """The bets placed before ``hand`` and where a void keeps them; None when none, or a seating ends them first."""
    rules = game.house_rules()
    bets = form_side_of(game, hand.entry).placed_bets(hand.entry, before, rules)
    if not bets:
        return None
    for later in hands:
        if later.seq > hand.seq and not later.voided:
            if is_seating(later.entry):
                return None
            entry = form_side_of(game, later.entry).move_bets(later.entry, bets, before, rules)
            if entry is not None:  # a manual hand takes no bets: the next one does
                target = copy_hand(later)
                target.entry = entry
                return MovedBets(bets, target=target)
    return MovedBets(bets, pending=form_side_for(game).merge_pending(game.pending or {}, bets))


def preview_change(*, game: Game, hands: list[Hand], changed: Hand, before, moved: MovedBets | None = None) -> Preview:
    """An edit or void of ``changed`` replayed from ``before`` on only. Raises ``ReplayError``."""
    target = moved.target if moved else None
    tail = [changed, *(target if target and h.seq == target.seq else h for h in hands if h.seq > changed.seq)]
    with numbered_now(hands):
        ledger = build(
            game, tail, start=before, first=number_in(hands, changed.seq), max_people=people_limit(game, hands)
        )
    now = table(game)[0]
    row = ledger.row(changed.seq)
    others = other_changes(game, hands, ledger, changed.seq)
    result = row.result if row else None
    return Preview(result, now.totals, ledger.totals, others, now.people(), ledger.state.people(), ledger.state)


def other_changes(game: Game, hands: list[Hand], ledger: Replay, seq: int) -> list[OtherHand]:
    """The hands after ``seq`` whose stored amounts differ in ``ledger``."""
    number = numbers(hands)
    stored = {h.seq: h for h in hands}
    seated_before = Seatings.of_hands(game.players, hands)
    seated_after = Seatings.of_hands(game.players, [*(h for h in hands if h.seq < seq), *(r.hand for r in ledger.rows)])
    others = []
    for row in ledger.rows:
        old = stored[row.hand.seq]
        if row.hand.seq == seq or old.voided or old.result is None or is_seating(old.entry):
            continue
        before = [from_json(n) for n in old.result["net"]]
        after = list(row.result.net) if row.result is not None else [0] * len(before)
        if before != after:
            names = seated_before.at(old.seq), seated_after.at(old.seq)
            others.append(OtherHand(old, number[old.seq], before, after, *names))
    return others


@contextmanager
def numbered_now(hands: list[Hand]):
    """第N局 as the table numbers it now: a void renumbers later hands only once confirmed."""
    try:
        yield
    except ReplayError as error:
        raise ReplayError(error.seq, error.error, numbers(hands).get(error.seq, error.number)) from None


def copy_hand(hand: Hand) -> Hand:
    """An unsaved copy with the same primary key: what-if previews change it freely."""
    return Hand(**{f.attname: getattr(hand, f.attname) for f in Hand._meta.concrete_fields})


@dataclass
class Change:
    """One hand's edit (``entry``, ``fix``) or void (``entry`` None) at the ``revision`` the phone saw."""

    seq: int
    revision: int
    entry: dict | None = None
    fix: tuple[int, int] | None = None
    reason: str = ""
    keep_bets: bool = True


def changed_hands(
    game: Game, hands: list[Hand], changes: list[Change], *, by: str = ""
) -> tuple[list, set, dict | None]:
    """``hands`` with ``changes`` applied to copies in order. Raises ``Conflict`` for a hand changed since ``revision``."""
    now, touched, pending = list(hands), set(), None
    for change in changes:
        hand = next((h for h in now if h.seq == change.seq and not h.voided), None)
        stored = next((h for h in hands if h.seq == change.seq), None)
        if hand is None or stored is None or stored.revision != change.revision:
            number = number_in(hands, change.seq)
            raise Conflict(
                f"第{number}局刚被别人改过，请看最新的再改。",
                f"Hand {number} was just changed on another phone: check it and try again.",
            )
        changed, moved = copy_hand(hand), None
        if change.entry is None:
            changed.voided_at, changed.voided_by, changed.void_reason = timezone.now(), by, change.reason
            if change.keep_bets:
                before = build(game, [h for h in now if h.seq < hand.seq]).state
                moved = moved_bets(game=game, hands=now, hand=hand, before=before)
        else:
            changed.entry = change.entry
            changed.dealer_fix, changed.streak_fix = change.fix or (None, None)
            changed.edited_at, changed.edited_by = timezone.now(), by
        replaced = {changed.seq: changed}
        if moved and moved.target:
            replaced[moved.target.seq] = moved.target
        elif moved:
            pending = moved.pending
        now = [replaced.get(h.seq, h) for h in now]
        touched.update(replaced)
    return now, touched, pending


def preview_changes(*, game: Game, hands: list[Hand], changes: list[Change]) -> Preview:
    """Several changes shown together. Raises ``ReplayError`` and ``Conflict``."""
    now, _touched, _pending = changed_hands(game, hands, changes)
    with numbered_now(hands):
        ledger = build(game, now, max_people=people_limit(game, hands))
    before = table(game)[0]
    row = ledger.row(changes[-1].seq)
    others = other_changes(game, hands, ledger, changes[-1].seq)
    result = row.result if row else None
    return Preview(result, before.totals, ledger.totals, others, before.people(), ledger.state.people(), ledger.state)
