"""A game's life: created or restored from a backup, finished and settled, reopened, transfers paid, archived, deleted."""

from collections import defaultdict, deque

from django.db import transaction
from django.utils import timezone

from scoring import circle, handchecks, live
from scoring.engine.money import settlement_plan
from scoring.engine.points import to_json
from scoring.engine.seating import key
from scoring.engine.seating import seat as seated
from scoring.models import (
    MAX_ROUNDS,
    Game,
    Hand,
    HandCheck,
    PayCode,
    Settlement,
    SettleUp,
    Transfer,
)
from scoring.replay import (
    build,
    ensure,
    state_json,
    store,
    who_played,
)
from scoring.services.locks import Conflict, lock_game


def create_game(
    *,
    ruleset,
    players: list[str],
    first_dealer: int,
    rules: dict,
    round_length=None,
    group=None,
    checks_required: bool = False,
    **restored,
) -> Game:
    """A new game, the one place one is made; ``restored``: what a restored backup brings besides."""
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
        **restored,
    )


def restore_game(
    *,
    ruleset,
    players: list[str],
    first_dealer: int,
    rules: dict,
    hands: list[Hand],
    settlement,
    paycodes=(),
    **restored,
) -> Game:
    """A game from a checked backup: its hands (with their 核对) replayed, its settlement redone, its 收款码."""
    with transaction.atomic():
        game = create_game(ruleset=ruleset, players=players, first_dealer=first_dealer, rules=rules, **restored)
        for hand in hands:
            hand.game = game
        Hand.objects.bulk_create(hands)
        ids = dict(game.hands.values_list("seq", "pk"))
        checks = [c for h in hands for c in getattr(h, "restored_checks", ()) if not h.voided]
        for hand in hands:
            for check in getattr(hand, "restored_checks", ()):
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


def finish_game(
    *, game: Game, rate_fen: int, fee_fen: int, fee_mode: str, fee_payee: int, round_yuan: bool = False
) -> Settlement:
    """结束并结算: freeze the totals, work out the fewest transfers (抹零 applied), stop recording."""
    with transaction.atomic():
        game = lock_game(game)
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
        game = lock_game(game, playing=False)
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


def play_on(*, game: Game, by: str = "") -> int | None:
    """接着打 at the agreed length's end (docs/manual.md "打几圈"): one more 圈 agreed, so the question goes
    on every phone. Asked again once answered (another phone), it changes nothing. Returns the length now."""
    with transaction.atomic():
        game = lock_game(game)
        ensure(game)
        done = game.state["table"].get("passes", 0) // len(game.players)  # 圈 played (scoring/people.py Round)
        if game.round_length is None or done < game.round_length:
            return game.round_length  # already answered
        length = done + 1 if done + 1 <= MAX_ROUNDS else None
        Game.objects.filter(pk=game.pk).update(round_length=length)
        game.round_length = length
        more = (f"共 {length} 圈", f"{length} rounds in all") if length else ("不限圈数", "no set length")
        game.bump_version((f"{by}接着打：{more[0]}", f"{by} played on: {more[1]}".strip()), amounts=False)
        return length


def mark_paid(*, game: Game, transfer_id: int, paid: bool) -> Transfer:
    """已付: a transfer someone has made (or unmade), recorded on the server for every phone."""
    with transaction.atomic():
        game = lock_game(game, playing=False)
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
        game = lock_game(game, playing=False)
        _release(game)
        live.forget(game)  # its links' cached versions, once the delete commits
        game.delete()


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
