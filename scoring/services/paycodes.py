"""收款码 kept and taken off: a game's, or a group's for every evening (scoring/paycodes.py reads them)."""

from django.db import transaction

from scoring import circle
from scoring.engine.seating import key
from scoring.models import Game, Group, PayCode
from scoring.services.locks import Conflict, lock_game, lock_group


def _paycode_owner(game: Game | None, group: Group | None) -> tuple[dict, list[str]]:
    """The owner's row lock, its ``PayCode`` filter and the names a code may be for."""
    if game is not None:
        locked = lock_game(game, playing=False)
        return {"game": locked}, circle.names_at(locked)
    locked = lock_group(group)
    return {"group": locked}, list(locked.roster)


def add_paycode(
    *,
    name: str,
    kind: str,
    address: str,
    game: Game | None = None,
    group: Group | None = None,
    for_group: bool = False,
) -> PayCode:
    """A person's 收款码, one per kind, as a new row so its picture's address never shows another code.

    ``for_group``: a game's code is kept for its 牌友圈 too, when the person is on its roster (then the
    returned code's ``group_too`` is True), in the same transaction, the group's lock first."""
    with transaction.atomic():
        shared = lock_group(Group(pk=game.group_id)) if for_group and game and game.group_id else None
        owner, names = _paycode_owner(game, group)
        person = next((n for n in names if key(n) == key(name)), None)
        if person is None:
            raise Conflict(
                "这个人不在这里（名单或这一场里没有这个名字）。",
                "This person is not here (the name is not in this game or the roster).",
            )
        code = _keep(owner, person, kind, address)
        on_roster = next((n for n in shared.roster if key(n) == key(person)), None) if shared else None
        if on_roster is not None:
            _keep({"group": shared}, on_roster, kind, address)
        code.group_too = on_roster is not None
        return code


def _keep(owner: dict, person: str, kind: str, address: str) -> PayCode:
    PayCode.objects.filter(**owner, person=key(person), kind=kind).delete()
    return PayCode.objects.create(**owner, name=person, person=key(person), kind=kind, address=address)


def remove_paycode(*, paycode_id: int, game: Game | None = None, group: Group | None = None) -> None:
    """A 收款码 taken off (only ``game``'s own, or ``group``'s own)."""
    with transaction.atomic():
        owner, _names = _paycode_owner(game, group)
        if not PayCode.objects.filter(pk=paycode_id, **owner).delete()[0]:
            raise Conflict("这个收款码已经删掉了。", "This payment code was already removed.")
