"""牌友圈 (a group): its roster, its games, its standings and what is still owed.

A group is opened by link like a game: an edit link and a view link (``Group.edit_token``,
``view_token``); a phone remembers the groups it opened (scoring/device.py) and an account keeps
the ones it made (``Group.owner``). A game may belong to one group (``Game.group``).

Standings add up the group's **settled** games only (a game counts once it is 结束并结算). Per
person, the 元 won or lost in a game is its points × its rate, rounded as its settlement rounds
them (``points_to_fen``); the table fee is a cost, not a loss to anyone, so it is left out. The
tallies (胡, 自摸, 放铳, the biggest hand) are each person's, from the stored replay, which keeps
them by person through every seating (换人/换位; scoring/cache.py).

What is still owed carries over. A settle-up (``SettleUp``) nets unpaid transfers of the group's
games, tonight's and earlier evenings', into the fewest transfers between the same people
(``settle_balances``: exact 分, summing to zero; with more people than its exact search takes,
few transfers rather than the proven fewest, and the page says so). Once every one of those is 已付, so is every
transfer it took in. A settle-up nobody has paid anything of yet is only a plan: a later one takes
its transfers over.
"""

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F, Q
from django.http import Http404, HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import device, live
from scoring.access import missed, well_formed
from scoring.cache import cached_state, rebuild, state_json
from scoring.engine import get_ruleset
from scoring.engine.errors import BilingualError
from scoring.engine.money import points_to_fen
from scoring.engine.points import from_json
from scoring.engine.seating import key
from scoring.engine.seating import seat as seated
from scoring.engine.transfers import proven_fewest, settle_balances
from scoring.forms import answers_for
from scoring.lang import pick
from scoring.ledger import LedgerError
from scoring.models import Game, Group, SettleUp, SettleUpPart, SettleUpTransfer, Transfer
from scoring.stats import new_tally

PERIODS = ("week", "month", "all")


class GroupConflict(BilingualError):
    """A group write refused: what changed meanwhile, or why not, in Chinese and English."""


# -- links -------------------------------------------------------------------------------------


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


def my_groups(request: HttpRequest) -> list[tuple[Group, str]]:
    """The groups this phone opened and the ones the signed-in person made, each with the
    strongest link held (edit beats view), the latest made first. No query for a phone that holds
    none."""
    tokens = device.remembered_groups(request)
    user = request.user
    if not tokens and not user.is_authenticated:
        return []
    where = Q(edit_token__in=tokens) | Q(view_token__in=tokens)
    if user.is_authenticated:
        where |= Q(owner=user)
    found = []
    for group in Group.objects.filter(where).order_by("-created_at", "-pk"):
        mine = group.edit_token in tokens or (user.is_authenticated and group.owner_id == user.pk)
        found.append((group, group.edit_token if mine else group.view_token))
    return found


def group_token_for(request: HttpRequest, group: Group) -> str:
    """The link to ``group`` this phone or account may use: edit if it holds it, else view."""
    user = request.user
    if group.edit_token in device.remembered_groups(request) or (user.is_authenticated and group.owner_id == user.pk):
        return group.edit_token
    return group.view_token


def page_inputs(request: HttpRequest, game: Game) -> list:
    """What the game page's 牌友圈 box (``{% group_box %}``) adds to the key the page is kept
    under (scoring/pagecache.py): the group links this phone holds, the groups the signed-in
    person made, and the name of the game's group. Without them one phone's page, holding the
    group's edit link, would be served to another that holds only the game's link. No query for
    a game in no group opened by a phone signed in to nothing."""
    inputs: list = [device.remembered_groups(request)]
    user = request.user
    if user.is_authenticated:
        inputs.append(list(Group.objects.filter(owner=user).values_list("pk", "name")))
    if game.group_id is not None:
        inputs.append(Group.objects.filter(pk=game.group_id).values_list("name", flat=True).first())
    return inputs


def game_token(game: Game, can_edit: bool) -> str:
    """A group's edit link opens its games' edit links; its view link, their view links."""
    return game.edit_token if can_edit else game.view_token


# -- the roster and the games -------------------------------------------------------------------


def clean_roster(names) -> list[str]:
    """Names in order, each once (spaces around a name aside), empty ones left out."""
    seen, out = set(), []
    for name in names:
        name = name.strip()
        if name and key(name) not in seen:
            seen.add(key(name))
            out.append(name)
    return out


def add_to_roster(group: Group, names) -> list[str]:
    """People who played in the group join its roster (under the group's row lock), up to
    ``MAX_PEOPLE_PER_GROUP`` (a roster over a limit lowered since keeps its names); returns the
    names left off, for ``roster_full`` to say."""
    with transaction.atomic():
        locked = Group.objects.select_for_update().get(pk=group.pk)
        wanted = clean_roster([*locked.roster, *names])
        roster = wanted[: max(settings.MAX_PEOPLE_PER_GROUP, len(locked.roster))]
        if roster != locked.roster:
            Group.objects.filter(pk=group.pk).update(roster=roster)
        group.roster = roster
        return wanted[len(roster) :]


def roster_full(left: list[str]) -> str:
    """What a write says when the roster had no room for ``left`` (the game itself is kept)."""
    limit, names = settings.MAX_PEOPLE_PER_GROUP, "、".join(left)
    return pick(
        f"牌友圈名单已满（最多 {limit} 人）：{names} 没有加进名单。可以在牌友圈页删掉不来的人。",
        f"The group's roster is full (at most {limit} people): {', '.join(left)} not added. "
        "Remove people who no longer come on the group page.",
    )


def people_of(game: Game) -> list[tuple[str, object]]:
    """(name, points) of everyone who sat at ``game``, in order of first appearance: the stored
    replay's people (scoring/engine/seating.py). A stale cache is rebuilt first."""
    if cached_state(game) is None:
        rebuild(game)
    return [(p["name"], from_json(p["total"])) for p in game.state["table"]["people"]]


def names_at(game: Game) -> list[str]:
    """Everyone who sat at ``game`` (``people_of``), or its players if it no longer replays."""
    try:
        return [name for name, _total in people_of(game)]
    except LedgerError:
        return list(game.players)


def join(game: Game, group: Group | None) -> list[str]:
    """Put ``game`` in ``group`` (or take it out, None); its people join the roster (the names
    left off a full one are returned)."""
    Game.objects.filter(pk=game.pk).update(group=group)
    game.group = group
    return add_to_roster(group, names_at(game)) if group is not None else []


def last_game(group: Group) -> Game | None:
    return group.games.order_by("-created_at", "-pk").first()


def seating_of(game: Game) -> list[str]:
    """Who sits where at the end of ``game`` (its players, if it no longer replays)."""
    try:
        if cached_state(game) is None:
            rebuild(game)
    except LedgerError:
        return list(game.players)
    return list(game.state["table"]["seating"])


def again(group: Group, *, draw: bool) -> Game:
    """再来一局: the next game with the last one's ruleset, rules, length (打几圈) and people, in
    the seats they sat in at its end or (``draw``) in seats drawn at random here on the server."""
    last = last_game(group)
    if last is None:
        raise GroupConflict("这个牌友圈还没有牌局：先开一局。", "This group has no game yet: start one first.")
    players = seating_of(last)
    if draw:
        players = secrets.SystemRandom().sample(players, len(players))
    ruleset = get_ruleset(last.ruleset)
    return Game.objects.create(
        ruleset=last.ruleset,
        players=players,
        first_dealer=last.first_dealer,
        rules=dict(last.rules),
        round_length=last.round_length,
        group=group,
        state=state_json(seated(ruleset.new_state(last.first_dealer), players), active=0, last_seq=0),
    )


def new_game_names(group: Group, seats: int) -> list[str]:
    """The names a new game in ``group`` starts with: the last game's people in their seats when
    it had as many seats, else the first of the roster."""
    last = last_game(group)
    if last is not None and last.rulebook.seats == seats:
        return seating_of(last)
    return group.roster[:seats]


def new_game_initial(group: Group | None, ruleset) -> dict:
    """The new-game form's answers in ``group``: ``new_game_names``, seat by seat, and, when the
    last game was of the same ruleset, its rules and its 打几圈 (换人或换玩法: change what differs)."""
    if group is None:
        return {}
    initial = {f"name{seat}": name for seat, name in enumerate(new_game_names(group, ruleset.seats))}
    last = last_game(group)
    if last is not None and last.ruleset == ruleset.code:
        initial.update(answers_for(ruleset, last.rules, last.round_length))
    return initial


def offer_roster(form, group: Group | None) -> None:
    """The new-game form's name fields suggest the roster (``<datalist id="roster">``)."""
    if group is not None:
        for field in form.name_fields():
            field.field.widget.attrs["list"] = "roster"


# -- standings ----------------------------------------------------------------------------------


@dataclass
class Night:
    """One person's evening: their points, their 元 (分; None until the game is settled) and
    their tally (scoring/stats.py's fields)."""

    name: str
    points: object
    fen: int | None
    tally: dict


@dataclass
class Evening:
    """A game of the group, as its standings read it."""

    game: Game
    token: str
    settled: bool
    rate_fen: int | None
    people: list[Night]

    def night_of(self, name: str) -> Night | None:
        return next((n for n in self.people if key(n.name) == key(name)), None)


@dataclass
class Standing:
    """A person over the settled games of a period."""

    name: str
    fen: int = 0
    games: int = 0
    wins: int = 0
    zimo: int = 0
    discards: int = 0
    biggest: object = 0
    nights: list = field(default_factory=list)

    @property
    def zimo_rate(self) -> int:
        """自摸 among the wins, in whole per cent (0 with no win)."""
        return round(100 * self.zimo / self.wins) if self.wins else 0


def evenings(group: Group, can_edit: bool, *, archived: bool | None = None) -> list[Evening]:
    """The group's games, newest first (the archived ones only, True; the others, False; all,
    None), each with its people's points, 元 and tallies (the stored replay's, by person:
    scoring/cache.py). A game that no longer replays is left out (its own page says why). A few
    queries whatever the number of games and hands."""
    games = group.games.select_related("settlement").order_by("-created_at", "-pk")
    if archived is not None:
        games = games.filter(archived_at__isnull=not archived)
    out = []
    for game in games:
        try:
            people = people_of(game)  # a stale replay is rebuilt: the tally below is by person
        except LedgerError:
            continue
        tallies = {key(name): counts for (name, _p), counts in zip(people, game.state["tally"], strict=True)}
        settlement = getattr(game, "settlement", None)
        rate = settlement.rate_fen if settlement is not None else None
        if game.state["seatings"]:  # who sat where changed: each person's own total at the rate
            fen = dict(
                zip((key(n) for n, _p in people), points_to_fen([p for _n, p in people], rate or 0), strict=True)
            )
        else:  # the people are the players, seat by seat (the settlement's own 分)
            fen = {}
            if rate is not None:
                seat_fen = points_to_fen([from_json(p) for p in settlement.points], rate)
                fen = {key(name): seat_fen[seat] for seat, name in enumerate(game.players)}
        nights = [
            Night(name, points, fen[key(name)] if rate is not None else None, tallies.get(key(name), new_tally(1)[0]))
            for name, points in people
        ]
        out.append(Evening(game, game_token(game, can_edit), rate is not None, rate, nights))
    return out


def period_start(period: str, now: datetime | None = None) -> datetime | None:
    """Where a period begins in the local time zone: this week (Monday 0:00), this month (the
    1st, 0:00), or None for all time."""
    if period not in ("week", "month"):
        return None
    now = timezone.localtime(now)
    start = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        return start - timedelta(days=start.weekday())
    return start.replace(day=1)


def in_period(evening: Evening, start: datetime | None) -> bool:
    return start is None or evening.game.created_at >= start


def standings(nights: list[Evening], start: datetime | None = None) -> list[Standing]:
    """Per person, over the settled evenings from ``start`` on: 元 (分), games, 胡, 自摸, 放铳
    and the biggest hand; the biggest winner first."""
    by_name: dict[str, Standing] = {}
    for evening in nights:
        if not evening.settled or not in_period(evening, start):
            continue
        for night in evening.people:
            s = by_name.setdefault(key(night.name), Standing(night.name))
            s.fen += night.fen
            s.games += 1
            s.wins += night.tally["wins"]
            s.zimo += night.tally["zimo"]
            s.discards += night.tally["discards"]
            s.biggest = max(s.biggest, from_json(night.tally["biggest"]))
            s.nights.append(evening)
    return sorted(by_name.values(), key=lambda s: (-s.fen, s.name))


# -- what is still owed -------------------------------------------------------------------------


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
    """Who pays and who is paid. A settlement keyed by person lists them (``names``); one keyed by
    seat (every settlement so far) indexes the game's players. The one place that reads it."""
    names = getattr(transfer.settlement, "names", None) or game.players
    return names[transfer.payer], names[transfer.payee]


def _open_settle_ups(group: Group):
    return (
        group.settle_ups.filter(transfers__paid_at__isnull=True)
        .distinct()
        .prefetch_related("transfers", "parts__transfer__settlement__game")
        .order_by("-created_at", "-pk")
    )


def free_transfers(group: Group) -> list[Owed]:
    """The unpaid transfers of the group's games that a settle-up may take: those in none, and
    those in a settle-up nothing of which is paid yet (a plan), the oldest evening first."""
    planned = SettleUp.objects.filter(group=group, transfers__paid_at__isnull=False)
    transfers = (
        Transfer.objects.filter(settlement__game__group=group, paid_at__isnull=True)
        .exclude(settle_up_part__settle_up__in=planned)
        .select_related("settlement__game", "settle_up_part")
        .order_by("settlement__game__created_at", "settlement__game_id", "id")
    )
    return [Owed(t, t.settlement.game, *transfer_names(t.settlement.game, t)) for t in transfers]


@dataclass
class Plan:
    """A settle-up before it is made: the transfers it takes in and the netted ones it makes."""

    parts: list[Owed]
    netted: list[tuple[str, str, int]]

    @property
    def fewest(self) -> bool:
        return netted_fewest(self.netted)

    @property
    def ids(self) -> str:
        return ",".join(str(o.transfer.pk) for o in self.parts)


def net(parts: list[Owed]) -> list[tuple[str, str, int]]:
    """The fewest transfers (payer, payee, 分) that clear ``parts``: each person's balance (what
    they are owed less what they owe) settled by ``settle_balances``; exact, summing to zero. At
    most a group's people (``MAX_PEOPLE_PER_GROUP``) are netted at once."""
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


def netted_fewest(transfers) -> bool:
    """Whether netted ``transfers`` (payer, payee, 分) are the proven fewest: their balances,
    worked out again from them, say it (``proven_fewest``)."""
    balances: dict[str, int] = {}
    for payer, payee, fen in transfers:
        balances[key(payer)] = balances.get(key(payer), 0) - fen
        balances[key(payee)] = balances.get(key(payee), 0) + fen
    return proven_fewest(balances.values())


def carry_plan(group: Group, game: Game) -> Plan | None:
    """What settling ``game`` together with earlier evenings would do: every unpaid transfer of
    the group between people who sat at ``game`` (its own included), netted. None when no earlier
    one is among them, or when there would be fewer than two."""
    people = {key(name) for name in names_at(game)}
    parts = [o for o in free_transfers(group) if key(o.payer) in people and key(o.payee) in people]
    if len(parts) < 2 or all(o.game.pk == game.pk for o in parts):
        return None
    return Plan(parts, net(parts))


def group_plan(group: Group) -> Plan | None:
    """Every unpaid transfer of the group netted (the group page's 「一起结清」), or None with
    fewer than two."""
    parts = free_transfers(group)
    if len(parts) < 2:
        return None
    try:
        return Plan(parts, net(parts))
    except GroupConflict:
        return None


def parse_ids(raw: str) -> list[int]:
    """The transfer ids a form carried (``1,2,3``); anything else is none at all."""
    ids = []
    for item in (raw or "").split(","):
        item = item.strip()
        if not (item.isascii() and item.isdigit() and len(item) <= 18):
            return []
        ids.append(int(item))
    return sorted(set(ids)) if len(ids) <= 500 else []


CHANGED = (
    "刚才有转账变了（标了已付，或牌局重新打开了），请看最新的再结清。",
    "A transfer changed meanwhile (marked paid, or its game reopened): check the latest and settle again.",
)


def settle_together(group: Group, ids: list[int], game: Game | None = None) -> SettleUp:
    """一起结清 the transfers ``ids`` (as the page showed them): each must still be unpaid and
    free (``free_transfers``) and, for ``game``'s settle page, between people who sat at it.
    Under the group's and the games' row locks; a plan they were in gives them up."""
    if len(ids) < 2:
        raise GroupConflict("至少两笔转账才需要一起结清。", "Settling together takes at least two transfers.")
    with transaction.atomic():
        Group.objects.select_for_update().get(pk=group.pk)
        game_ids = sorted(
            set(Transfer.objects.filter(pk__in=ids).values_list("settlement__game_id", flat=True)) - {None}
        )
        list(Game.objects.select_for_update().filter(pk__in=game_ids).order_by("pk").values_list("pk"))
        parts = [o for o in free_transfers(group) if o.transfer.pk in set(ids)]
        if len(parts) != len(ids):
            raise GroupConflict(*CHANGED)
        if game is not None:
            people = {key(name) for name in names_at(game)}
            if any(key(o.payer) not in people or key(o.payee) not in people for o in parts):
                raise GroupConflict(*CHANGED)
        held = {o.transfer.settle_up_part.settle_up_id for o in parts if hasattr(o.transfer, "settle_up_part")}
        if len(held) == 1 and all(hasattr(o.transfer, "settle_up_part") for o in parts):
            same = SettleUp.objects.get(pk=held.pop())
            if same.parts.count() == len(parts):  # a second tap on the same button: already done
                return same
        netted = net(parts)
        SettleUp.objects.filter(parts__transfer__in=[o.transfer for o in parts]).delete()  # plans given up
        settle_up = SettleUp.objects.create(group=group, game=game)
        SettleUpPart.objects.bulk_create(SettleUpPart(settle_up=settle_up, transfer=o.transfer) for o in parts)
        SettleUpTransfer.objects.bulk_create(
            SettleUpTransfer(settle_up=settle_up, payer=a, payee=b, amount_fen=amount) for a, b, amount in netted
        )
        if not netted:  # it all cancels out: nothing to pay, everything settled
            Transfer.objects.filter(pk__in=[o.transfer.pk for o in parts]).update(paid_at=timezone.now())
        return settle_up


def mark_paid(group: Group, transfer_id: int, paid: bool, *, game: Game | None = None) -> SettleUpTransfer:
    """已付 on one of a settle-up's transfers (from ``game``'s settle page: one of its own
    settle-ups). When every one is paid, so is every transfer it took in; un-ticking one makes
    them unpaid again."""
    with transaction.atomic():
        Group.objects.select_for_update().get(pk=group.pk)
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
        list(Game.objects.select_for_update().filter(pk__in=game_ids).order_by("pk").values_list("pk"))
        done = not settle_up.transfers.filter(paid_at__isnull=True).exists()
        parts.update(paid_at=netted.paid_at if done else None)
        Game.objects.filter(pk__in=game_ids).update(version=F("version") + 1)  # their settle pages change
        live.announce_versions(Game.objects.filter(pk__in=game_ids))  # and every server's polls
        return netted


def undo_settle_up(group: Group, settle_up_id: int, *, game: Game | None = None) -> None:
    """撤销一起结清 (from ``game``'s settle page: one of its own): what it took in is owed again,
    each on its own evening. Refused once any of its transfers is 已付 (untick it first): the
    money may have moved."""
    with transaction.atomic():
        Group.objects.select_for_update().get(pk=group.pk)
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
        list(Game.objects.select_for_update().filter(pk__in=game_ids).order_by("pk").values_list("pk"))
        parts.update(paid_at=None)  # a settle-up that cancelled out had marked them paid
        settle_up.delete()
        Game.objects.filter(pk__in=game_ids).update(version=F("version") + 1)  # their settle pages change
        live.announce_versions(Game.objects.filter(pk__in=game_ids))


def paid_in_settle_up(game: Game) -> bool:
    """Is a transfer of ``game`` in a settle-up someone has already paid part of?"""
    return SettleUp.objects.filter(parts__transfer__settlement__game=game, transfers__paid_at__isnull=False).exists()


def release(game: Game) -> None:
    """Before ``game``'s settlement goes (reopened or deleted): the settle-ups nothing of which is
    paid give up their transfers (the other games' are owed again); one already paid from stays
    as the record of what was paid (``reopen_game`` refuses; a deleted game's part just goes)."""
    released = list(
        SettleUp.objects.filter(parts__transfer__settlement__game=game)
        .exclude(transfers__paid_at__isnull=False)
        .values_list("pk", flat=True)
    )
    # what they took in was unpaid when taken (or paid only by cancelling out): unpaid again
    Transfer.objects.filter(settle_up_part__settle_up__in=released).update(paid_at=None)
    SettleUp.objects.filter(pk__in=released).delete()


@dataclass
class OpenSettleUp:
    """A settle-up not yet paid in full: its netted transfers and what it took in."""

    settle_up: SettleUp
    transfers: list[SettleUpTransfer]
    parts: list[Owed]

    @property
    def any_paid(self) -> bool:
        """Is one of its transfers 已付 (then it cannot be undone)?"""
        return any(t.paid_at is not None for t in self.transfers)

    @property
    def fewest(self) -> bool:
        return netted_fewest((t.payer, t.payee, t.amount_fen) for t in self.transfers)


def open_settle_ups(group: Group, game: Game | None = None) -> list[OpenSettleUp]:
    """The group's settle-ups not paid in full (``game``'s own only, if given: made at it or
    holding its transfers), newest first; with ``game``, its paid ones too."""
    if game is not None:
        found = (
            group.settle_ups.filter(Q(game=game) | Q(parts__transfer__settlement__game=game))
            .distinct()
            .prefetch_related("transfers", "parts__transfer__settlement__game")
            .order_by("-created_at", "-pk")
        )
    else:
        found = _open_settle_ups(group)
    out = []
    for settle_up in found:
        parts = [p.transfer for p in settle_up.parts.all()]
        owed = [Owed(t, t.settlement.game, *transfer_names(t.settlement.game, t)) for t in parts]
        owed.sort(key=lambda o: (o.game.created_at, o.game.pk, o.transfer.pk))
        out.append(OpenSettleUp(settle_up, list(settle_up.transfers.all()), owed))
    return out


def balances_by_person(owed: list[Owed], settle_ups: list[OpenSettleUp]) -> list[tuple[str, int]]:
    """What each person is still owed (+) or owes (−) in 分: the free transfers and the unpaid
    netted ones, the one owed most first; a person square is left out."""
    names: dict[str, str] = {}
    total: dict[str, int] = {}

    def add(name: str, fen: int) -> None:
        names.setdefault(key(name), name)
        total[key(name)] = total.get(key(name), 0) + fen

    for o in owed:
        if not hasattr(o.transfer, "settle_up_part"):  # one in a plan is counted by the plan
            add(o.payer, -o.amount_fen)
            add(o.payee, o.amount_fen)
    for open_ in settle_ups:
        for t in open_.transfers:
            if t.paid_at is None:
                add(t.payer, -t.amount_fen)
                add(t.payee, t.amount_fen)
    return sorted(((names[k], fen) for k, fen in total.items() if fen), key=lambda item: (-item[1], item[0]))


def together_at(game: Game) -> tuple[list[str], list[tuple[str, str, int]]] | None:
    """The 一起结清 made at ``game``, as its WeChat text and picture say it: the dates (月-日) of
    the earlier evenings it took in, and the netted transfers (payer, payee, 分) that replace the
    game's own; None if the game was settled on its own."""
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
