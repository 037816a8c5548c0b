"""牌友圈 reads its writes check under their locks and its pages show, in core so the write path needs no feature app."""

from dataclasses import dataclass

from django.conf import settings

from scoring.engine.errors import BilingualError
from scoring.engine.points import from_json
from scoring.engine.seating import key
from scoring.engine.transfers import settle_balances
from scoring.models import Game, Group, SettleUp, Transfer
from scoring.replay import ReplayError, cached_state, rebuild


class GroupConflict(BilingualError):
    """A group write refused: what changed meanwhile, or why not, in Chinese and English."""


def clean_roster(names) -> list[str]:
    """Names in order, each once (spaces around a name aside), empty ones left out."""
    seen, out = set(), []
    for name in names:
        name = name.strip()
        if name and key(name) not in seen:
            seen.add(key(name))
            out.append(name)
    return out


def people_with_totals(game: Game) -> list[tuple[str, object]]:
    """(name, points) of everyone who sat at ``game``, in order of first appearance; a stale cache is rebuilt first."""
    if cached_state(game) is None:
        rebuild(game)
    return [(p["name"], from_json(p["total"])) for p in game.state["table"]["people"]]


def names_at(game: Game) -> list[str]:
    """Everyone who sat at ``game`` (``people_with_totals``), or its players if it no longer replays."""
    try:
        return [name for name, _total in people_with_totals(game)]
    except ReplayError:
        return list(game.players)


def last_game(group: Group) -> Game | None:
    return group.games.order_by("-created_at", "-pk").first()


def seating_of(game: Game) -> list[str]:
    """Who sits where at the end of ``game`` (its players, if it no longer replays)."""
    try:
        if cached_state(game) is None:
            rebuild(game)
    except ReplayError:
        return list(game.players)
    return list(game.state["table"]["seating"])


@dataclass
class Owed:
    """An unpaid transfer of one of the group's games, by name."""

    transfer: Transfer
    game: Game
    payer: str
    payee: str

    @property
    def amount_fen(self) -> int:
        return self.transfer.amount_fen


def transfer_names(game: Game, transfer: Transfer) -> tuple[str, str]:
    """Who pays and who is paid: the settlement's ``names``, else the game's players by seat; the one place reading it."""
    names = getattr(transfer.settlement, "names", None) or game.players
    return names[transfer.payer], names[transfer.payee]


def free_transfers(group: Group) -> list[Owed]:
    """The unpaid transfers a settle-up may take (in none, or only in an unpaid plan), oldest evening first."""
    planned = SettleUp.objects.filter(group=group, transfers__paid_at__isnull=False)
    transfers = (
        Transfer.objects.filter(settlement__game__group=group, paid_at__isnull=True)
        .exclude(settle_up_part__settle_up__in=planned)
        .select_related("settlement__game", "settle_up_part")
        .order_by("settlement__game__created_at", "settlement__game_id", "id")
    )
    return [Owed(t, t.settlement.game, *transfer_names(t.settlement.game, t)) for t in transfers]


def net(parts: list[Owed]) -> list[tuple[str, str, int]]:
    """The fewest exact transfers (payer, payee, 分) clearing ``parts``, for at most ``MAX_PEOPLE_PER_GROUP`` people."""
    names: dict[str, str] = {}
    balances: dict[str, int] = {}
    for owed in parts:
        for name, sign in ((owed.payer, -1), (owed.payee, 1)):
            names.setdefault(key(name), name)
            balances[key(name)] = balances.get(key(name), 0) + sign * owed.amount_fen
    limit = settings.MAX_PEOPLE_PER_GROUP
    if sum(1 for b in balances.values() if b) > limit:
        raise GroupConflict(
            f"一起结清最多 {limit} 个人：请先在各局里标已付一些。",
            f"A settle-up nets at most {limit} people: mark some transfers paid in their games first.",
        )
    return [(names[a], names[b], amount) for a, b, amount in settle_balances(balances).transfers]


CHANGED = (
    "刚才有转账变了（标了已付，或牌局重新打开了），请看最新的再结清。",
    "A transfer changed meanwhile (marked paid, or its game reopened): check the latest and settle again.",
)


def paid_in_settle_up(game: Game) -> bool:
    """Is a transfer of ``game`` in a settle-up someone has already paid part of?"""
    return SettleUp.objects.filter(parts__transfer__settlement__game=game, transfers__paid_at__isnull=False).exists()
