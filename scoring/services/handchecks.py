"""核对: a person's check of a hand, and the checks a change of amounts takes back."""

from django.db import transaction
from django.utils import timezone

from scoring.engine.seating import is_seating, key
from scoring.models import Game, Hand, HandCheck
from scoring.people import Seatings
from scoring.replay import Replay, ensure, result_json
from scoring.services.locks import Conflict, lock_game


def check_hand(*, game: Game, seq: int, revision: int, person: str, verdict: str, note: str = "") -> HandCheck:
    """核对 hand ``seq`` as ``person`` saw it at ``revision``: one check per person; moves no amount, so previews stay valid."""
    with transaction.atomic():
        game = lock_game(game)
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


def check_hands_up_to(*, game: Game, person: str, upto: int, seen: dict[int, int]) -> tuple[list[int], list[int]]:
    """「到第N局都对」: ``person``'s 对 on each hand up to seq ``upto`` they played and have not said, as ``seen`` (seq →
    revision) showed it; one transaction, one version bump. (numbers checked, numbers changed since: re-offered)."""
    with transaction.atomic():
        game = lock_game(game)
        ensure(game)
        seatings, hands = Seatings.of_game(game), game.hands.filter(seq__lte=upto, voided_at__isnull=True)
        said = {
            c.hand_id
            for c in HandCheck.objects.filter(hand__game=game, hand__seq__lte=upto)
            if key(c.person) == key(person)
        }
        new, done, moved, number = [], [], [], 0
        for hand in hands.order_by("seq"):
            if is_seating(hand.entry):
                continue
            number += 1
            name = next((n for n in seatings.at(hand.seq) if key(n) == key(person)), None)
            if name is None or hand.pk in said:
                continue
            if hand.seq not in seen:
                continue  # not on the page that was tapped
            if seen[hand.seq] != hand.revision:
                moved.append(number)
                continue
            new.append(HandCheck(hand=hand, person=name, verdict=HandCheck.OK))
            done.append(number)
        if new:
            HandCheck.objects.bulk_create(new, ignore_conflicts=True)
            first, last = done[0], done[-1]
            span = (
                (f"第{first}局", f"hand {first}")
                if first == last
                else (f"第{first}到{last}局", f"hands {first}–{last}")
            )
            game.bump_version(
                (f"{new[0].person}刚核对了{span[0]}", f"{new[0].person} just checked {span[1]}"), amounts=False
            )
        return done, moved


def take_back_check(*, game: Game, seq: int, person: str) -> bool:
    """撤回: ``person``'s 对 or 有误 of hand ``seq`` is gone (False when there was none: a second tap)."""
    with transaction.atomic():
        game = lock_game(game)
        checks = HandCheck.objects.filter(hand__game=game, hand__seq=seq)
        mine = [c.pk for c in checks if key(c.person) == key(person)]
        if not mine:
            return False
        HandCheck.objects.filter(pk__in=mine).delete()
        number = game.number_of(seq)
        game.bump_version(
            (f"{person}撤回了第{number}局的核对", f"{person} took back their check of hand {number}"), amounts=False
        )
        return True
