"""Writes to a game's hands. Each runs in one transaction holding the game's row lock, checks
the whole game still replays, and bumps the game's version for the phones that poll it."""

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.ledger import build
from scoring.models import Game, Hand


class Conflict(Exception):
    """Another phone got there first; the message says what happened, in Chinese and English."""

    def __init__(self, zh: str, en: str, hand: Hand | None = None):
        super().__init__(en)
        self.zh, self.en, self.hand = zh, en, hand


def _locked(game: Game) -> Game:
    # On PostgreSQL this serialises writers of one game; SQLite's IMMEDIATE transactions
    # already serialise every writer.
    return Game.objects.select_for_update().get(pk=game.pk)


def record_hand(
    *, game: Game, entry: dict, fix: tuple[int, int] | None, next_seq: int, form_token: str, entered_by: str
) -> Hand:
    """Add the next hand. A resubmitted form (same token) returns the hand it already made."""
    try:
        with transaction.atomic():
            game = _locked(game)
            done = Hand.objects.filter(form_token=form_token).first() if form_token else None
            if done is not None:
                return done
            hands = list(game.hands.all())
            seq = hands[-1].seq + 1 if hands else 1
            if seq != next_seq:
                raise Conflict(
                    f"第{next_seq}局已经被别人记录了，请看最新的记录。",
                    f"Hand {next_seq} was already recorded on another phone: check the ledger.",
                )
            hand = Hand(
                game=game,
                seq=seq,
                entry=entry,
                dealer_fix=fix[0] if fix else None,
                streak_fix=fix[1] if fix else None,
                entered_by=entered_by,
                form_token=form_token or None,
            )
            build(game, hands, added=hand)  # raises LedgerError: nothing is saved
            hand.save()
            game.bump_version()
            return hand
    except IntegrityError:
        raise Conflict("这一局已经被记录了。", "This hand was already recorded.") from None


def _change(*, game: Game, seq: int, revision: int, apply) -> Hand:
    with transaction.atomic():
        game = _locked(game)
        hands = list(game.hands.all())
        hand = next((h for h in hands if h.seq == seq), None)
        if hand is None:
            raise Conflict(f"没有第{seq}局。", f"There is no hand {seq}.")
        if hand.revision != revision:
            raise Conflict(
                f"第{seq}局刚被别人改过，请看最新的再改。",
                f"Hand {seq} was just changed on another phone: check it and try again.",
                hand,
            )
        changed = copy_hand(hand)
        apply(changed)
        changed.revision = hand.revision + 1
        build(game, hands, changed=changed)  # raises LedgerError: nothing is saved
        changed.save()
        game.bump_version()
        return changed


def edit_hand(*, game: Game, seq: int, revision: int, entry: dict, fix: tuple[int, int] | None, edited_by: str) -> Hand:
    def apply(hand: Hand) -> None:
        hand.entry = entry
        hand.dealer_fix, hand.streak_fix = fix if fix else (None, None)
        hand.edited_at, hand.edited_by = timezone.now(), edited_by

    return _change(game=game, seq=seq, revision=revision, apply=apply)


def void_hand(*, game: Game, seq: int, revision: int, reason: str, voided_by: str) -> Hand:
    def apply(hand: Hand) -> None:
        hand.voided_at, hand.voided_by, hand.void_reason = timezone.now(), voided_by, reason

    return _change(game=game, seq=seq, revision=revision, apply=apply)


def copy_hand(hand: Hand) -> Hand:
    """An unsaved copy with the same primary key: what-if previews change it freely."""
    return Hand(**{f.attname: getattr(hand, f.attname) for f in Hand._meta.concrete_fields})
