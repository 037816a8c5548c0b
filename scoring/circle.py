"""牌友圈 reads its writes check under their locks and its pages show, and what the other apps ask of
a 牌友圈 (its link, a new game's roster, the netting a share text says), in core so no feature app
imports another."""

from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import device
from scoring.access import missed, well_formed
from scoring.engine.errors import BilingualError
from scoring.engine.points import from_json
from scoring.engine.seating import key
from scoring.engine.transfers import proven_fewest, settle_balances
from scoring.forms import answers_for
from scoring.lang import pick
from scoring.models import Game, Group, SettleUp, Transfer
from scoring.replay import ReplayError, cached_state, played, rebuild


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


def played_names(game: Game) -> list[str]:
    """Everyone in at least one standing hand of ``game`` (none before its first), or none if it no longer replays."""
    try:
        keys = played(game)
        return [name for name, _total in people_with_totals(game) if key(name) in keys]
    except ReplayError:
        return []


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


# -- a 牌友圈's netting, as a share text and the settle picture say it -------------------------------


def netted_fewest(transfers) -> bool:
    """Whether netted ``transfers`` (payer, payee, 分) are the proven fewest, from their balances."""
    balances: dict[str, int] = {}
    for payer, payee, fen in transfers:
        balances[key(payer)] = balances.get(key(payer), 0) - fen
        balances[key(payee)] = balances.get(key(payee), 0) + fen
    return proven_fewest(balances.values())


def together_at(game: Game) -> tuple[list[str], list[tuple[str, str, int]]] | None:
    """The 一起结清 made at ``game`` (earlier evenings' 月-日 and the netted transfers), or None if settled alone."""
    settle_up = (
        SettleUp.objects.filter(game=game)
        .prefetch_related("transfers", "parts__transfer__settlement__game")
        .order_by("-created_at", "-pk")
        .first()
    )
    if settle_up is None:
        return None
    days = sorted({p.transfer.settlement.game.created_at for p in settle_up.parts.all()} - {game.created_at})
    dates = [f"{timezone.localtime(day):%m-%d}" for day in days]
    return dates, [(t.payer, t.payee, t.amount_fen) for t in settle_up.transfers.all()]


# -- a 牌友圈 as the table asks for it: its link, a new game's roster --------------------------------


def find_group(request: HttpRequest, token: str) -> Group:
    """The group ``token`` opens (edit or view link), or 404 (and a wrong token counted)."""
    group = Group.objects.filter(Q(edit_token=token) | Q(view_token=token)).first() if well_formed(token) else None
    if group is None:
        missed(request)
        raise Http404(_("没有这个牌友圈"))
    return group


def load_group(request: HttpRequest, token: str) -> tuple[Group, bool]:
    """The group a link opens, and whether the link may change it."""
    group = find_group(request, token)
    return group, group.edit_token == token


def writable_group(request: HttpRequest, token: str) -> Group:
    """The group an edit link opens; a view link gets the 403 page."""
    group, can_edit = load_group(request, token)
    if not can_edit:
        raise PermissionDenied(_("只读链接不能修改牌友圈。"))
    return group


def page_inputs(request: HttpRequest, game: Game) -> list:
    """What the game page's 牌友圈 box adds to its cache key, so one phone's group edit link never shows on another's page."""
    inputs: list = [device.remembered_groups(request)]
    user = request.user
    if user.is_authenticated:
        inputs.append(list(Group.objects.filter(owner=user).values_list("pk", "name")))
    if game.group_id is not None:
        inputs.append(Group.objects.filter(pk=game.group_id).values_list("name", flat=True).first())
    return inputs


def roster_full(left: list[str]) -> str:
    """What a write says when the roster had no room for ``left`` (the game itself is kept)."""
    limit, names = settings.MAX_PEOPLE_PER_GROUP, "、".join(left)
    return pick(
        f"牌友圈名单已满（最多 {limit} 人）：{names} 没有加进名单。可以在牌友圈页删掉不来的人。",
        f"The group's roster is full (at most {limit} people): {', '.join(left)} not added. "
        "Remove people who no longer come on the group page.",
    )


def new_game_names(group: Group, seats: int) -> list[str]:
    """A new group game's names: the last game's people in their seats if it had as many, else the roster's first."""
    last = last_game(group)
    if last is not None and last.plugin.seats == seats:
        return seating_of(last)
    return group.roster[:seats]


def new_game_initial(group: Group | None, ruleset) -> dict:
    """The new-game form's answers in ``group``: its names and, for the same ruleset, the last game's rules and 打几圈."""
    if group is None:
        return {}
    initial = {f"name{seat}": name for seat, name in enumerate(new_game_names(group, ruleset.seats))}
    initial["checks_required"] = group.checks_required
    last = last_game(group)
    if last is not None and last.ruleset == ruleset.code:
        initial.update(answers_for(ruleset, last.rules, last.round_length))
    return initial


def offer_roster(form, group: Group | None) -> None:
    """The new-game form's name fields suggest the roster (``<datalist id="roster">``)."""
    if group is not None:
        for field in form.name_fields():
            field.field.widget.attrs["list"] = "roster"
