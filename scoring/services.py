"""The write path: every create, update and delete of a game's or a 牌友圈's rows.

A game's writes hold its row lock, keep the replay cache in step and bump its version; a group's
writes hold the group's lock, then its games' in one order (``_lock_games``)."""

import secrets
from collections import defaultdict, deque
from contextlib import contextmanager
from copy import deepcopy
from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from scoring import circle, handchecks, live
from scoring.circle import CHANGED, GroupConflict
from scoring.engine import ScoringError, score
from scoring.engine.contract import MAX_HANDS
from scoring.engine.errors import BilingualError
from scoring.engine.money import settlement_plan
from scoring.engine.points import from_json, to_json
from scoring.engine.seating import is_seating, key
from scoring.engine.seating import seat as seated
from scoring.handform import form_side_for, form_side_of
from scoring.models import (
    MAX_RECORDS,
    MAX_REVISION,
    MAX_SEQ,
    Game,
    Group,
    Hand,
    HandCheck,
    PayCode,
    Settlement,
    SettleUp,
    SettleUpPart,
    SettleUpTransfer,
    Transfer,
)
from scoring.people import Seatings, people_in_order
from scoring.replay import (
    Replay,
    ReplayError,
    after_hand,
    build,
    cached_state,
    ensure,
    number_in,
    numbers,
    result_json,
    state_json,
    store,
    table,
    who_played,
)


class Conflict(BilingualError):
    """Another phone got there first; the message says what happened, in Chinese and English."""

    def __init__(self, zh: str, en: str, hand: Hand | None = None):
        super().__init__(zh, en)
        self.hand = hand


class AlreadyRecorded(Conflict):
    """The form token was already spent on ``hand`` (a resubmitted form or a resent queued hand)."""


class StalePreview(Conflict):
    """Another phone changed the game since the preview; the message names what (``Game.changes``)."""

    def __init__(self, changes: list[tuple[str, str]] | None = None):
        changes = (changes or [])[-3:]
        what_zh = "；".join(zh for zh, _en in changes) or "牌局刚被别的手机修改"
        what_en = "; ".join(en for _zh, en in changes) or "The game was just changed on another phone"
        super().__init__(f"{what_zh}，金额变了，请看新的预览。", f"{what_en}: check the new preview.")


def _check_version(game: Game, version: int | None) -> None:
    """``version``: the game's version at the preview; None is an internal caller with no preview."""
    if version is not None and version != game.version and not game.amounts_same_since(version):
        raise StalePreview(game.changes_since(version))


def _by(name: str) -> tuple[str, str]:
    """「老王」 before a change's verb, or nothing when the phone did not say who it is."""
    return (name, f"{name} ") if name else ("", "")


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
class Carry:
    """Where a void's bets go (docs/rules/yiwu.md §7, §8): the next standing hand (``target``), else ``pending``."""

    bets: dict
    target: Hand | None = None
    pending: dict | None = None


def carried_bets(*, game: Game, hands: list[Hand], hand: Hand, before) -> Carry | None:
    """The bets placed before ``hand`` and where a void keeps them; None when none, or a seating ends them first."""
    rules = game.house_rules()
    bets = form_side_of(game, hand.entry).placed_bets(hand.entry, before, rules)
    if not bets:
        return None
    for later in hands:
        if later.seq > hand.seq and not later.voided:
            if is_seating(later.entry):
                return None
            entry = form_side_of(game, later.entry).carry_bets(later.entry, bets, before, rules)
            if entry is not None:  # a manual hand takes no bets: the next one does
                target = copy_hand(later)
                target.entry = entry
                return Carry(bets, target=target)
    return Carry(bets, pending=form_side_for(game).merge_pending(game.pending or {}, bets))


def preview_change(*, game: Game, hands: list[Hand], changed: Hand, before, carry: Carry | None = None) -> Preview:
    """An edit or void of ``changed`` replayed from ``before`` on only. Raises ``ReplayError``."""
    target = carry.target if carry else None
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


def _locked(game: Game, playing: bool = True) -> Game:
    """The game's row, locked (PostgreSQL serialises one game's writers; SQLite's IMMEDIATE already does)."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if playing and game.status != Game.PLAYING:
        raise Conflict("牌局已结束；要修改请先重新打开。", "The game is finished: reopen it to change hands.")
    return game


def _lock_games(game_ids) -> None:
    """Several games' row locks, always in key order, so two writers never deadlock."""
    list(Game.objects.select_for_update().filter(pk__in=game_ids).order_by("pk").values_list("pk"))


def _locked_group(group: Group) -> Group:
    """The group's row, locked: a group's writers one at a time (taken before its games')."""
    return Group.objects.select_for_update().get(pk=group.pk)


def _bump_versions(game_ids) -> None:
    """Bump the versions of games a group write changed and tell every server's polls once it commits."""
    Game.objects.filter(pk__in=game_ids).bump_versions()
    live.announce_versions(Game.objects.filter(pk__in=game_ids))


def create_game(
    *,
    ruleset,
    players: list[str],
    first_dealer: int,
    rules: dict,
    round_length=None,
    group=None,
    checks_required: bool = False,
    **kept,
) -> Game:
    """A new game, the one place one is made; ``kept``: what a restored backup brings besides."""
    state = state_json(seated(ruleset.new_state(first_dealer), players), active=0, last_seq=0)
    return Game.objects.create(
        ruleset=ruleset.code,
        players=players,
        first_dealer=first_dealer,
        rules=rules,
        round_length=round_length,
        group=group,
        checks_required=checks_required,
        state=state,
        **kept,
    )


def restore_game(
    *, ruleset, players: list[str], first_dealer: int, rules: dict, hands: list[Hand], settlement, paycodes=(), **kept
) -> Game:
    """A game from a checked backup: its hands (with their 核对) replayed, its settlement redone, its 收款码."""
    with transaction.atomic():
        game = create_game(ruleset=ruleset, players=players, first_dealer=first_dealer, rules=rules, **kept)
        for hand in hands:
            hand.game = game
        Hand.objects.bulk_create(hands)
        ids = dict(game.hands.values_list("seq", "pk"))
        checks = [c for h in hands for c in getattr(h, "kept_checks", ()) if not h.voided]
        for hand in hands:
            for check in getattr(hand, "kept_checks", ()):
                check.hand_id = ids[hand.seq]
        HandCheck.objects.bulk_create(checks)
        ledger = build(game)
        store(game, ledger)
        if settlement:
            terms = {k: settlement[k] for k in ("rate_fen", "fee_fen", "fee_mode", "fee_payee", "round_yuan")}
            people = ledger.state.people()
            if settlement["names"] is not None:  # as settled (format 3): the people who played, by name
                by_key = {key(name): (name, total) for name, total in people}
                people = [by_key[key(name)] for name in settlement["names"]]
            _settle(game, people, **terms, created_at=settlement["created_at"], paid=settlement["paid"])
        PayCode.objects.bulk_create(PayCode(game=game, person=key(c["name"]), **c) for c in paycodes)
        if hands:
            game.bump_version()
    return game


def record_hand(
    *,
    game: Game,
    entry: dict,
    fix: tuple[int, int] | None,
    next_seq: int,
    form_token: str,
    entered_by: str,
    version: int | None = None,
    queued: bool = False,
    hold=None,
) -> Hand:
    """Add the next hand; a resubmitted form or a stale preview is refused.

    ``queued``: a hand sent after the phone was offline; it goes after whatever is recorded now, and
    ``passed`` on the returned hand lists those recorded meanwhile. ``hold(game=, state=, seq=)`` runs
    under the lock and raises ``Held`` to record nothing (scoring/table/kept.py)."""
    try:
        with transaction.atomic():
            game = _locked(game)
            done = game.hands.filter(form_token=form_token).first() if form_token else None
            if done is not None and is_seating(done.entry):
                raise AlreadyRecorded("这次换人/换位已经记过了。", "This seating was already recorded.", done)
            if done is not None:
                number = game.number_of(done.seq)
                raise AlreadyRecorded(f"第{number}局已经记过了。", f"Hand {number} was already recorded.", done)
            ensure(game)
            if game.state["active"] + len(game.state["seatings"]) >= MAX_HANDS:
                raise Conflict(
                    f"一场最多 {MAX_HANDS} 局：请结算这一场，再开新的一场。",
                    f"A game holds at most {MAX_HANDS} hands: settle this one and start a new game.",
                )
            held = game.hands.aggregate(last=Max("seq"), rows=Count("pk"))
            seq = (held["last"] or 0) + 1
            if held["rows"] >= MAX_RECORDS or seq > MAX_SEQ:  # what a backup holds: every game exports and imports
                raise Conflict(
                    f"一场最多记 {MAX_RECORDS} 条（作废的也算）：请结算这一场，再开新的一场。",
                    f"A game holds at most {MAX_RECORDS} records, voided ones included: settle this one and start"
                    " a new game.",
                )
            if seq != next_seq and is_seating(entry):
                raise Conflict(
                    "刚才别的手机记了一局或换了人，请看最新的记录再换。",
                    "Another phone just recorded a hand or a seating: check the ledger, then change seats.",
                )
            passed = []
            if seq != next_seq and queued and 0 < next_seq < seq:
                passed = list(game.hands.filter(seq__gte=next_seq, voided_at__isnull=True).order_by("seq"))
            elif seq != next_seq and not queued:
                number = game.number_of(next_seq)
                raise Conflict(
                    f"第{number}局已经被别人记录了，请看最新的记录。",
                    f"Hand {number} was already recorded on another phone: check the ledger.",
                )
            _check_version(game, version)
            hand = Hand(
                game=game,
                seq=seq,
                entry=entry,
                dealer_fix=fix[0] if fix else None,
                streak_fix=fix[1] if fix else None,
                entered_by=entered_by,
                form_token=form_token or None,
            )
            # Only this hand is scored, from the cached table state: no replay of the game.
            state = cached_state(game)
            if fix:
                state.correct(*fix)
            if hold is not None:
                hold(game=game, state=state, seq=seq)  # raises Held: nothing is saved
            try:
                parsed = game.plugin.parse_hand(entry)
                result = score(game.plugin, game.house_rules(), state, parsed, settings.MAX_PEOPLE_PER_GAME)
            except ScoringError as error:
                raise ReplayError(seq, error, game.state["active"] + 1) from None  # nothing is saved
            hand.result = result_json(result, game.plugin)
            hand.save()
            game.state = after_hand(game, state, entry=entry, result=result, seq=seq)
            # The bets placed for this hand were entered with it (a manual hand takes none).
            game.pending = game.pending if entry.get("outcome") == "manual" else {}
            Game.objects.filter(pk=game.pk).update(state=game.state, pending=game.pending)
            game.bump_version(recorded_words(entry, game.state["active"], entered_by))
            hand.passed = passed
            return hand
    except IntegrityError:
        raise Conflict("这一局已经被记录了。", "This hand was already recorded.") from None


class Held(Exception):
    """A kept hand not recorded (docs/offline.md "Held"): ``kind`` "same" (``other`` recorded it) or "changed"."""

    def __init__(self, kind: str, *, state, seq: int, number: int, result, other: Hand | None = None):
        super().__init__(kind)
        self.kind, self.state, self.seq, self.number, self.result, self.other = kind, state, seq, number, result, other


def drop_kept_hand(*, game: Game, form_token: str) -> None:
    """A phone drops its kept hand: nothing written, but under the lock so a drop and a 「再记一局」 are told apart."""
    with transaction.atomic():
        game = _locked(game, playing=False)
        done = game.hands.filter(form_token=form_token).first() if form_token else None
        if done is not None:
            number = game.number_of(done.seq)
            raise AlreadyRecorded(f"第{number}局已经记过了。", f"Hand {number} was already recorded.", done)


def recorded_words(entry: dict, number: int, by: str) -> tuple[str, str]:
    """What a recorded hand changed, for the preview it makes stale (「老王刚记了第5局」)."""
    if is_seating(entry):
        return (
            (f"{by}刚换了人/换了位", f"{by} just changed the seating")
            if by
            else ("刚换了人/换了位", "The seating just changed")
        )
    if by:
        return f"{by}刚记了第{number}局", f"{by} just recorded hand {number}"
    return f"刚记了第{number}局", f"Just recorded hand {number}"


def change_pending(*, game: Game, change, what: tuple[str, str] | None = None) -> dict:
    """Place or withdraw a bet for the next hand, under the row lock so two phones' bets both stay."""
    with transaction.atomic():
        game = _locked(game)
        ensure(game)
        pending = change(deepcopy(game.pending or {}), cached_state(game), game.house_rules())
        Game.objects.filter(pk=game.pk).update(pending=pending)
        game.pending = pending
        game.bump_version(what)
        return pending


def _change(*, game: Game, seq: int, revision: int, apply, version: int | None, what, keep_bets=False) -> Hand:
    """Edit or void hand ``seq``; a void with ``keep_bets`` carries its bets to the next standing hand."""
    with transaction.atomic():
        game = _locked(game)
        hands = list(game.hands.all())
        hand = next((h for h in hands if h.seq == seq), None)
        if hand is None:
            raise Conflict(f"没有第{seq}局。", f"There is no hand {seq}.")
        number = number_in(hands, seq)
        if hand.revision != revision:
            raise Conflict(
                f"第{number}局刚被别人改过，请看最新的再改。",
                f"Hand {number} was just changed on another phone: check it and try again.",
                hand,
            )
        _check_version(game, version)
        changed = copy_hand(hand)
        apply(changed)
        changed.revision = hand.revision + 1
        carry = None
        if keep_bets:
            before = build(game, [h for h in hands if h.seq < seq]).state
            carry = carried_bets(game=game, hands=hands, hand=hand, before=before)
        target = carry.target if carry else None
        if max(hand.revision, target.revision if target else 0) >= MAX_REVISION:  # what a backup holds
            raise Conflict(
                f"第{number}局已经改过 {MAX_REVISION} 次，不能再改。",
                f"Hand {number} was changed {MAX_REVISION} times: it can be changed no more.",
                hand,
            )
        stored = hands
        hands = [target if target and h.seq == target.seq else h for h in hands]
        with numbered_now(hands):
            # raises ReplayError: nothing is saved
            ledger = build(game, hands, changed=changed, max_people=people_limit(game, hands))
        changed.save()
        HandCheck.objects.filter(hand_id__in=moved_amounts(game, stored, ledger, changed)).delete()
        if target:  # a phone editing it meanwhile must see the bets it now holds
            target.revision += 1
            target.save(update_fields=["entry", "revision"])
        if carry and carry.pending is not None:
            Game.objects.filter(pk=game.pk).update(pending=carry.pending)
        store(game, ledger)
        by = changed.edited_by if not changed.voided else changed.voided_by
        game.bump_version(seating_words(changed, by) if is_seating(changed.entry) else what(number, by))
        return changed


def moved_amounts(game: Game, stored: list[Hand], ledger: Replay, changed: Hand) -> list[int]:
    """The hands whose 核对 a change takes back: itself and every standing hand whose per-person amount moves."""
    seated_before = Seatings.of_hands(game.players, stored)
    seated_after = Seatings.of_hands(game.players, [r.hand for r in ledger.rows])
    old = {h.seq: h for h in stored}
    moved = [changed.pk]
    for row in ledger.rows:
        hand = old.get(row.hand.seq)
        if hand is None or hand.pk == changed.pk or hand.voided or is_seating(hand.entry):
            continue
        new = result_json(row.result, game.plugin)["net"] if row.result is not None else None
        before = dict(zip(map(key, seated_before.at(hand.seq)), (hand.result or {}).get("net") or [], strict=False))
        after = dict(zip(map(key, seated_after.at(hand.seq)), new or [], strict=False))
        if before != after:
            moved.append(hand.pk)
    return moved


def check_hand(*, game: Game, seq: int, revision: int, person: str, verdict: str, note: str = "") -> HandCheck:
    """核对 hand ``seq`` as ``person`` saw it at ``revision``: one check per person; moves no amount, so previews stay valid."""
    with transaction.atomic():
        game = _locked(game)
        ensure(game)
        hand = game.hands.filter(seq=seq).first()
        if hand is None or hand.voided or is_seating(hand.entry):
            raise Conflict(
                "这一局已不在（作废了），不用核对。", "This hand no longer stands (voided): nothing to check."
            )
        number = game.number_of(seq)
        if hand.revision != revision:
            raise Conflict(
                f"第{number}局刚被改过，请看新的金额再核对。",
                f"Hand {number} was just changed: check its new amounts.",
                hand,
            )
        name = next((n for n in Seatings.of_game(game).at(seq) if key(n) == key(person)), None)
        if name is None:
            raise Conflict(
                f"第{number}局没有你（{person}）：只有打这一局的人核对。",
                f"You ({person}) did not play hand {number}: only its players check it.",
            )
        note = note if verdict == HandCheck.WRONG else ""
        check, created = HandCheck.objects.get_or_create(
            hand=hand, person=name, defaults={"verdict": verdict, "note": note}
        )
        if not created and (check.verdict, check.note) == (verdict, note):
            return check  # a second tap, or another tab: already so
        if not created:
            check.verdict, check.note, check.at = verdict, note, timezone.now()
            check.save(update_fields=["verdict", "note", "at"])
        if verdict == HandCheck.OK:
            said = f"{name}刚核对了第{number}局", f"{name} just checked hand {number}"
        else:
            said = f"{name}刚把第{number}局标为有误", f"{name} just flagged hand {number} as wrong"
        game.bump_version(said, amounts=False)
        return check


def seating_words(hand: Hand, by: str) -> tuple[str, str]:
    """What an edit or a void of a seating changed: 「老王刚作废了一次换人/换位」."""
    verb_zh, verb_en = ("作废了", "voided") if hand.voided else ("修改了", "edited")
    if by:
        return f"{by}刚{verb_zh}一次换人/换位", f"{by} just {verb_en} a seating"
    return f"一次换人/换位刚被{verb_zh[:-1]}", f"A seating was just {verb_en}"


def edit_hand(
    *,
    game: Game,
    seq: int,
    revision: int,
    entry: dict,
    fix: tuple[int, int] | None,
    edited_by: str,
    version: int | None = None,
) -> Hand:
    def apply(hand: Hand) -> None:
        hand.entry = entry
        hand.dealer_fix, hand.streak_fix = fix if fix else (None, None)
        hand.edited_at, hand.edited_by = timezone.now(), edited_by

    def what(number: int, by: str) -> tuple[str, str]:
        if by:
            return f"{by}刚修改了第{number}局", f"{by} just edited hand {number}"
        return f"第{number}局刚被修改", f"Hand {number} was just edited"

    return _change(game=game, seq=seq, revision=revision, apply=apply, version=version, what=what)


def void_hand(
    *,
    game: Game,
    seq: int,
    revision: int,
    reason: str,
    voided_by: str,
    version: int | None = None,
    keep_bets: bool = True,
) -> Hand:
    """作废: the hand stays, marked, and counts no more; ``keep_bets`` moves its bets to the next standing hand."""

    def apply(hand: Hand) -> None:
        hand.voided_at, hand.voided_by, hand.void_reason = timezone.now(), voided_by, reason

    def what(number: int, by: str) -> tuple[str, str]:
        if by:
            return f"{by}刚作废了第{number}局", f"{by} just voided hand {number}"
        return f"第{number}局刚被作废", f"Hand {number} was just voided"

    return _change(game=game, seq=seq, revision=revision, apply=apply, version=version, what=what, keep_bets=keep_bets)


MAX_TOGETHER = 4  # hands changed at once: an edit and the later hands it would break


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
        changed, carry = copy_hand(hand), None
        if change.entry is None:
            changed.voided_at, changed.voided_by, changed.void_reason = timezone.now(), by, change.reason
            if change.keep_bets:
                before = build(game, [h for h in now if h.seq < hand.seq]).state
                carry = carried_bets(game=game, hands=now, hand=hand, before=before)
        else:
            changed.entry = change.entry
            changed.dealer_fix, changed.streak_fix = change.fix or (None, None)
            changed.edited_at, changed.edited_by = timezone.now(), by
        replaced = {changed.seq: changed}
        if carry and carry.target:
            replaced[carry.target.seq] = carry.target
        elif carry:
            pending = carry.pending
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


def change_hands(*, game: Game, changes: list[Change], by: str, version: int | None) -> list[Hand]:
    """Edit or void several hands at once, all or none. Raises ``Conflict``, ``StalePreview``, ``ReplayError``."""
    if not 0 < len(changes) <= MAX_TOGETHER or len({c.seq for c in changes}) != len(changes):
        raise Conflict("一次最多一起改 4 局，每局一次。", "At most 4 hands can be changed together, each once.")
    with transaction.atomic():
        game = _locked(game)
        hands = list(game.hands.all())
        now, touched, pending = changed_hands(game, hands, changes, by=by)  # a hand changed since: refused first
        _check_version(game, version)
        if any(h.revision >= MAX_REVISION for h in now if h.seq in touched):  # what a backup holds
            raise Conflict(f"有一局已经改过 {MAX_REVISION} 次，不能再改。", f"A hand was changed {MAX_REVISION} times.")
        with numbered_now(hands):
            ledger = build(game, now, max_people=people_limit(game, hands))  # raises: nothing is saved
        saved = [h for h in now if h.seq in touched]
        for hand in saved:
            hand.revision += 1
            hand.save()
        moved = {pk for hand in saved for pk in moved_amounts(game, hands, ledger, hand)}
        HandCheck.objects.filter(hand_id__in=moved).delete()
        if pending is not None:
            Game.objects.filter(pk=game.pk).update(pending=pending)
        store(game, ledger)
        listed = [str(number_in(hands, c.seq)) for c in changes]
        who_zh, who_en = _by(by)
        what_en = f"{who_en}just changed hands {', '.join(listed)} together"
        game.bump_version((f"{who_zh}刚一起修改了第{'、'.join(listed)}局", what_en[0].upper() + what_en[1:]))
        return saved


def copy_hand(hand: Hand) -> Hand:
    """An unsaved copy with the same primary key: what-if previews change it freely."""
    return Hand(**{f.attname: getattr(hand, f.attname) for f in Hand._meta.concrete_fields})


def finish_game(
    *, game: Game, rate_fen: int, fee_fen: int, fee_mode: str, fee_payee: int, round_yuan: bool = False
) -> Settlement:
    """结束并结算: freeze the totals, work out the fewest transfers (抹零 applied), stop recording."""
    with transaction.atomic():
        game = _locked(game)
        people = who_played(game)
        if game.checks_required and (left := handchecks.not_checked(game)):
            raise Conflict(*not_checked_words(left))
        if not 0 <= fee_payee < len(people):
            raise Conflict("垫付台费的人不在这一场里。", "Whoever advanced the table fee is not in this game.")
        terms = {"rate_fen": rate_fen, "fee_fen": fee_fen, "fee_mode": fee_mode, "fee_payee": fee_payee}
        settlement = _settle(game, people, **terms, round_yuan=round_yuan)
        Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)
        game.bump_version()
        return settlement


def not_checked_words(left: list) -> tuple[str, str]:
    """The refusal of 结束并结算 while hands are not checked (全部核对后才能结算), naming them."""
    shown = left[:5]
    zh = "、".join(f"第{c.number}局" for c in shown) + ("等" if len(left) > len(shown) else "")
    en = ", ".join(str(c.number) for c in shown) + (" and more" if len(left) > len(shown) else "")
    return (
        f"这一场要全部核对后才能结算：{zh}还没核对完（或有人标了有误）。",
        f"This game settles only once every hand is checked. Not checked yet, or flagged wrong: hand {en}.",
    )


def _settle(game: Game, people: list, *, created_at=None, paid=(), **terms) -> Settlement:
    """The settlement of (name, total) pairs on ``terms``; ``paid``: a backup's 已付 marks to give back."""
    totals = [total for _name, total in people]
    plan = settlement_plan(totals, **terms)
    settlement = Settlement.objects.create(
        game=game,
        **terms,
        names=[name for name, _total in people],
        points=[to_json(t) for t in totals],
        balances_fen=plan.balances_fen,
        **({"created_at": created_at} if created_at is not None else {}),
    )
    marks = defaultdict(deque)  # each transfer's 已付 times, by who pays whom how much
    for payer, payee, amount_fen, paid_at in paid:
        marks[payer, payee, amount_fen].append(paid_at)
    transfers = []
    for t in plan.transfers:
        match = marks.get((t.payer, t.payee, t.amount_fen))
        paid_at = match.popleft() if match else None
        transfers.append(
            Transfer(settlement=settlement, payer=t.payer, payee=t.payee, amount_fen=t.amount_fen, paid_at=paid_at)
        )
    Transfer.objects.bulk_create(transfers)
    return settlement


def reopen_game(*, game: Game) -> None:
    """重新打开: the settlement goes; refused while a 牌友圈 settle-up already paid holds its money."""
    with transaction.atomic():
        game = _locked(game, playing=False)
        if circle.paid_in_settle_up(game):
            raise Conflict(
                "这局的钱已和别的晚上一起结清，并且有人付了：先在那里取消已付，再重新打开。",
                "This game's money was settled together with other evenings and some of it is paid: "
                "untick 已付 there first, then reopen.",
            )
        _release(game)
        Settlement.objects.filter(game=game).delete()
        Game.objects.filter(pk=game.pk).update(status=Game.PLAYING)
        game.bump_version()


def mark_paid(*, game: Game, transfer_id: int, paid: bool) -> Transfer:
    """已付: a transfer someone has made (or unmade), kept on the server for every phone."""
    with transaction.atomic():
        game = _locked(game, playing=False)
        transfer = Transfer.objects.filter(pk=transfer_id, settlement__game=game).first()
        if transfer is None:  # looked up under the lock: a reopen deletes the settlement
            raise Conflict(
                "这笔转账已不存在（牌局已重新打开）。", "This transfer no longer exists (the game was reopened)."
            )
        if hasattr(transfer, "settle_up_part"):  # its money goes by the settle-up's transfers
            raise Conflict(
                "这笔已并入「一起结清」：请在下面一起结清的转账上标已付。",
                "This transfer is part of a settle-up: mark the settle-up's transfers paid below.",
            )
        transfer.paid_at = timezone.now() if paid else None
        transfer.save(update_fields=["paid_at"])
        game.bump_version()
        return transfer


def archive_game(*, game: Game, archived: bool) -> None:
    """归档 / 取消归档: off (or back on) the home and history lists, on every phone."""
    Game.objects.filter(pk=game.pk).update(archived_at=timezone.now() if archived else None)


def delete_game(*, game: Game) -> None:
    """删除: the game and all it holds, under its row lock so no write is half-done."""
    with transaction.atomic():
        game = _locked(game, playing=False)
        _release(game)
        live.forget(game)  # its links' cached versions, once the delete commits
        game.delete()


# -- 牌友圈 (scoring/groups/): its rows, and its games' place in it ---------------------------------


def create_group(*, name: str, roster: list[str], owner=None, checks_required: bool = False) -> Group:
    """新建牌友圈 with an already cleaned roster (``circle.clean_roster``)."""
    return Group.objects.create(name=name, roster=roster, owner=owner, checks_required=checks_required)


def edit_group(group: Group, *, name: str, roster: list[str], checks_required: bool | None = None) -> None:
    """改名单: the group's name and roster as typed (and its 全部核对后才能结算, when given)."""
    more = {} if checks_required is None else {"checks_required": checks_required}
    Group.objects.filter(pk=group.pk).update(name=name, roster=roster, **more)


def add_to_roster(group: Group, names) -> list[str]:
    """People who played join the group's roster up to ``MAX_PEOPLE_PER_GROUP``; returns the names left off."""
    with transaction.atomic():
        locked = _locked_group(group)
        wanted = circle.clean_roster([*locked.roster, *names])
        roster = wanted[: max(settings.MAX_PEOPLE_PER_GROUP, len(locked.roster))]
        if roster != locked.roster:
            Group.objects.filter(pk=group.pk).update(roster=roster)
        group.roster = roster
        return wanted[len(roster) :]


def join_group(game: Game, group: Group | None) -> list[str]:
    """Put ``game`` in ``group`` (None: take it out); returns the names left off a full roster."""
    Game.objects.filter(pk=game.pk).update(group=group)
    game.group = group
    return add_to_roster(group, circle.names_at(game)) if group is not None else []


def again(group: Group, *, draw: bool) -> Game:
    """再来一局: the last game's ruleset, rules, length and people, in their end seats or (``draw``) drawn here."""
    last = circle.last_game(group)
    if last is None:
        raise GroupConflict("这个牌友圈还没有牌局：先开一局。", "This group has no game yet: start one first.")
    players = circle.seating_of(last)
    if draw:
        players = secrets.SystemRandom().sample(players, len(players))
    return create_game(
        ruleset=last.plugin,
        players=players,
        first_dealer=last.first_dealer,
        rules=dict(last.rules),
        round_length=last.round_length,
        group=group,
        checks_required=group.checks_required,
    )


def settle_together(group: Group, ids: list[int], game: Game | None = None) -> SettleUp:
    """一起结清 the unpaid, free transfers ``ids``, under the group's and then the games' row locks."""
    if len(ids) < 2:
        raise GroupConflict("至少两笔转账才需要一起结清。", "Settling together takes at least two transfers.")
    with transaction.atomic():
        _locked_group(group)
        game_ids = sorted(
            set(Transfer.objects.filter(pk__in=ids).values_list("settlement__game_id", flat=True)) - {None}
        )
        _lock_games(game_ids)
        parts = [o for o in circle.free_transfers(group) if o.transfer.pk in set(ids)]
        if len(parts) != len(ids):
            raise GroupConflict(*CHANGED)
        if game is not None:
            people = {key(name) for name in circle.names_at(game)}
            if any(key(o.payer) not in people or key(o.payee) not in people for o in parts):
                raise GroupConflict(*CHANGED)
        held = {o.transfer.settle_up_part.settle_up_id for o in parts if hasattr(o.transfer, "settle_up_part")}
        if len(held) == 1 and all(hasattr(o.transfer, "settle_up_part") for o in parts):
            same = SettleUp.objects.get(pk=held.pop())
            if same.parts.count() == len(parts):  # a second tap on the same button: already done
                return same
        netted = circle.net(parts)
        SettleUp.objects.filter(parts__transfer__in=[o.transfer for o in parts]).delete()  # plans given up
        settle_up = SettleUp.objects.create(group=group, game=game)
        SettleUpPart.objects.bulk_create(SettleUpPart(settle_up=settle_up, transfer=o.transfer) for o in parts)
        SettleUpTransfer.objects.bulk_create(
            SettleUpTransfer(settle_up=settle_up, payer=a, payee=b, amount_fen=amount) for a, b, amount in netted
        )
        if not netted:  # it all cancels out: nothing to pay, everything settled
            Transfer.objects.filter(pk__in=[o.transfer.pk for o in parts]).update(paid_at=timezone.now())
        return settle_up


def settle_up_paid(group: Group, transfer_id: int, paid: bool, *, game: Game | None = None) -> SettleUpTransfer:
    """已付 on a settle-up's transfer; when all are paid, so is every transfer it took in."""
    with transaction.atomic():
        _locked_group(group)
        found = SettleUpTransfer.objects.filter(pk=transfer_id, settle_up__group=group)
        if game is not None:
            found = found.filter(Q(settle_up__game=game) | Q(settle_up__parts__transfer__settlement__game=game))
        netted = found.select_related("settle_up").first()
        if netted is None:
            raise GroupConflict(
                "这笔一起结清的转账已不存在（有一局重新打开了）。",
                "This settle-up transfer no longer exists (a game was reopened).",
            )
        netted.paid_at = timezone.now() if paid else None
        netted.save(update_fields=["paid_at"])
        settle_up = netted.settle_up
        parts = Transfer.objects.filter(settle_up_part__settle_up=settle_up)
        game_ids = sorted(set(parts.values_list("settlement__game_id", flat=True)))
        _lock_games(game_ids)
        done = not settle_up.transfers.filter(paid_at__isnull=True).exists()
        parts.update(paid_at=netted.paid_at if done else None)
        _bump_versions(game_ids)  # their settle pages change
        return netted


def undo_settle_up(group: Group, settle_up_id: int, *, game: Game | None = None) -> None:
    """撤销一起结清: its transfers are owed again; refused once any is 已付, since money may have moved."""
    with transaction.atomic():
        _locked_group(group)
        found = SettleUp.objects.filter(pk=settle_up_id, group=group)
        if game is not None:
            found = found.filter(Q(game=game) | Q(parts__transfer__settlement__game=game))
        settle_up = found.first()
        if settle_up is None:
            raise GroupConflict(
                "这次一起结清已不存在（已撤销，或有一局重新打开了）。",
                "This settle-up no longer exists (undone, or a game was reopened).",
            )
        if settle_up.transfers.filter(paid_at__isnull=False).exists():
            raise GroupConflict(
                "这次一起结清已经有人付了：先取消「已付」，再撤销。",
                "Part of this settle-up is already paid: untick 已付 first, then undo it.",
            )
        parts = Transfer.objects.filter(settle_up_part__settle_up=settle_up)
        game_ids = sorted(set(parts.values_list("settlement__game_id", flat=True)))
        _lock_games(game_ids)
        parts.update(paid_at=None)  # a settle-up that cancelled out had marked them paid
        settle_up.delete()
        _bump_versions(game_ids)  # their settle pages change


def _release(game: Game) -> None:
    """Before a settlement goes: unpaid settle-ups give back their transfers; a paid one stays as the record."""
    released = list(
        SettleUp.objects.filter(parts__transfer__settlement__game=game)
        .exclude(transfers__paid_at__isnull=False)
        .values_list("pk", flat=True)
    )
    # what they took in was unpaid when taken (or paid only by cancelling out): unpaid again
    Transfer.objects.filter(settle_up_part__settle_up__in=released).update(paid_at=None)
    SettleUp.objects.filter(pk__in=released).delete()


# -- 收款码 (scoring/paycodes.py reads them; a game's, or a group's for every evening) -----------


def _paycode_owner(game: Game | None, group: Group | None) -> tuple[dict, list[str]]:
    """The owner's row lock, its ``PayCode`` filter and the names a code may be for."""
    if game is not None:
        locked = _locked(game, playing=False)
        return {"game": locked}, circle.names_at(locked)
    locked = _locked_group(group)
    return {"group": locked}, list(locked.roster)


def add_paycode(*, name: str, kind: str, address: str, game: Game | None = None, group: Group | None = None) -> PayCode:
    """A person's 收款码, one per kind, as a new row so its picture's address never shows another code."""
    with transaction.atomic():
        owner, names = _paycode_owner(game, group)
        person = next((n for n in names if key(n) == key(name)), None)
        if person is None:
            raise Conflict(
                "这个人不在这里（名单或这一场里没有这个名字）。",
                "This person is not here (the name is not in this game or the roster).",
            )
        PayCode.objects.filter(**owner, person=key(person), kind=kind).delete()
        return PayCode.objects.create(**owner, name=person, person=key(person), kind=kind, address=address)


def remove_paycode(*, paycode_id: int, game: Game | None = None, group: Group | None = None) -> None:
    """A 收款码 taken off (only ``game``'s own, or ``group``'s own)."""
    with transaction.atomic():
        owner, _names = _paycode_owner(game, group)
        if not PayCode.objects.filter(pk=paycode_id, **owner).delete()[0]:
            raise Conflict("这个收款码已经删掉了。", "This payment code was already removed.")
