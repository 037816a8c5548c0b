"""A game's hands: the next one recorded, a kept one dropped, bets placed, edits and voids (one or several at once)."""

from copy import deepcopy

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Max
from django.utils import timezone

from scoring.engine import ScoringError, score
from scoring.engine.contract import MAX_HANDS
from scoring.engine.seating import is_seating
from scoring.models import MAX_RECORDS, MAX_REVISION, MAX_SEQ, Game, Hand, HandCheck
from scoring.replay import ReplayError, after_hand, build, cached_state, ensure, number_in, result_json, store
from scoring.services.groups import played_onto_roster
from scoring.services.handchecks import moved_amounts
from scoring.services.locks import AlreadyRecorded, Conflict, lock_game, require_version
from scoring.services.previews import Change, changed_hands, copy_hand, moved_bets, numbered_now, people_limit


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
            game = lock_game(game)
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
            require_version(game, version)
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
    except IntegrityError:
        raise Conflict("这一局已经被记录了。", "This hand was already recorded.") from None
    # Who played it joins the 牌友圈's roster, after the game's lock (a group's lock comes first: scoring/services/locks.py).
    hand.roster_left = [] if is_seating(entry) else played_onto_roster(game, list(game.state["table"]["seating"]))
    return hand


class Held(Exception):
    """A kept hand not recorded (docs/offline.md "Held"): ``kind`` "same" (``other`` recorded it) or "changed"."""

    def __init__(self, kind: str, *, state, seq: int, number: int, result, other: Hand | None = None):
        super().__init__(kind)
        self.kind, self.state, self.seq, self.number, self.result, self.other = kind, state, seq, number, result, other


def drop_kept_hand(*, game: Game, form_token: str) -> None:
    """A phone drops its kept hand: nothing written, but under the lock so a drop and a 「再记一局」 are told apart."""
    with transaction.atomic():
        game = lock_game(game, playing=False)
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
        game = lock_game(game)
        ensure(game)
        pending = change(deepcopy(game.pending or {}), cached_state(game), game.house_rules())
        Game.objects.filter(pk=game.pk).update(pending=pending)
        game.pending = pending
        game.bump_version(what)
        return pending


def _change(*, game: Game, seq: int, revision: int, apply, version: int | None, what, keep_bets=False) -> Hand:
    """Edit or void hand ``seq``; a void with ``keep_bets`` carries its bets to the next standing hand."""
    with transaction.atomic():
        game = lock_game(game)
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
        require_version(game, version)
        changed = copy_hand(hand)
        apply(changed)
        changed.revision = hand.revision + 1
        moved = None
        if keep_bets:
            before = build(game, [h for h in hands if h.seq < seq]).state
            moved = moved_bets(game=game, hands=hands, hand=hand, before=before)
        target = moved.target if moved else None
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
        if moved and moved.pending is not None:
            Game.objects.filter(pk=game.pk).update(pending=moved.pending)
        store(game, ledger)
        by = changed.edited_by if not changed.voided else changed.voided_by
        game.bump_version(seating_words(changed, by) if is_seating(changed.entry) else what(number, by))
        return changed


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


def _by(name: str) -> tuple[str, str]:
    """「老王」 before a change's verb, or nothing when the phone did not say who it is."""
    return (name, f"{name} ") if name else ("", "")


def change_hands(*, game: Game, changes: list[Change], by: str, version: int | None) -> list[Hand]:
    """Edit or void several hands at once, all or none. Raises ``Conflict``, ``StalePreview``, ``ReplayError``."""
    if not 0 < len(changes) <= MAX_TOGETHER or len({c.seq for c in changes}) != len(changes):
        raise Conflict("一次最多一起改 4 局，每局一次。", "At most 4 hands can be changed together, each once.")
    with transaction.atomic():
        game = lock_game(game)
        hands = list(game.hands.all())
        now, touched, pending = changed_hands(game, hands, changes, by=by)  # a hand changed since: refused first
        require_version(game, version)
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
