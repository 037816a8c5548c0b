"""牌友圈 (scoring/groups/): its rows, its games' place in it, 再来一局, and settling evenings together."""

import secrets

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scoring import circle
from scoring.circle import CHANGED, GroupConflict
from scoring.engine.seating import key
from scoring.models import (
    Game,
    Group,
    SettleUp,
    SettleUpPart,
    SettleUpTransfer,
    Transfer,
)
from scoring.services.games import create_game
from scoring.services.locks import bump_versions_of, lock_games, lock_group


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
        locked = lock_group(group)
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
    return played_onto_roster(game)


def played_onto_roster(game: Game, names: list[str] | None = None) -> list[str]:
    """Who played a hand of ``game`` (``names``: of the hand just recorded) joins its 牌友圈's roster; seated
    and replaced before a hand, not (docs/manual.md "牌友圈"). Returns the names left off a full roster."""
    if game.group_id is None:
        return []
    if names is None:
        names = circle.played_names(Game.objects.get(pk=game.pk))  # as just written
    roster = Group.objects.filter(pk=game.group_id).values_list("roster", flat=True).first() or []
    if {key(name) for name in names} <= {key(name) for name in roster}:
        return []  # no lock when no one is new
    return add_to_roster(Group(pk=game.group_id, roster=roster), names)


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
        lock_group(group)
        game_ids = sorted(
            set(Transfer.objects.filter(pk__in=ids).values_list("settlement__game_id", flat=True)) - {None}
        )
        lock_games(game_ids)
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
        return record_settle_up(group, game, [o.transfer for o in parts], netted)


def record_settle_up(group: Group, game: Game | None, transfers: list[Transfer], netted) -> SettleUp:
    """A ``SettleUp`` of ``transfers`` paid as ``netted`` (payer, payee, 分); when it all cancels out there is
    nothing to pay and every transfer is settled. Called under the group's and the games' locks."""
    settle_up = SettleUp.objects.create(group=group, game=game)
    SettleUpPart.objects.bulk_create(SettleUpPart(settle_up=settle_up, transfer=transfer) for transfer in transfers)
    SettleUpTransfer.objects.bulk_create(
        SettleUpTransfer(settle_up=settle_up, payer=a, payee=b, amount_fen=amount) for a, b, amount in netted
    )
    if not netted:
        Transfer.objects.filter(pk__in=[transfer.pk for transfer in transfers]).update(paid_at=timezone.now())
    return settle_up


def settle_up_paid(group: Group, transfer_id: int, paid: bool, *, game: Game | None = None) -> SettleUpTransfer:
    """已付 on a settle-up's transfer; when all are paid, so is every transfer it took in."""
    with transaction.atomic():
        lock_group(group)
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
        lock_games(game_ids)
        done = not settle_up.transfers.filter(paid_at__isnull=True).exists()
        parts.update(paid_at=netted.paid_at if done else None)
        bump_versions_of(game_ids)  # their settle pages change
        return netted


def undo_settle_up(group: Group, settle_up_id: int, *, game: Game | None = None) -> None:
    """撤销一起结清: its transfers are owed again; refused once any is 已付, since money may have moved."""
    with transaction.atomic():
        lock_group(group)
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
        lock_games(game_ids)
        parts.update(paid_at=None)  # a settle-up that cancelled out had marked them paid
        settle_up.delete()
        bump_versions_of(game_ids)  # their settle pages change
