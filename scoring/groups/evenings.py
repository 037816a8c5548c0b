"""牌友圈 (a group)'s reads: its roster, games, standings and what is still owed (README.md, "牌友圈").

Standings count settled games only, in 元 as each settlement rounded them (抹零 included, the table
fee left out), so they sum to zero per game. The writes, and the reads they check under their
locks, are in scoring/services/ and scoring/circle.py."""

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Q
from django.http import HttpRequest
from django.utils import timezone

from scoring import device
from scoring.circle import (
    GroupConflict,
    Owed,
    free_transfers,
    names_at,
    net,
    netted_fewest,
    people_with_totals,
    transfer_names,
)
from scoring.engine.money import points_to_fen
from scoring.engine.points import from_json
from scoring.engine.seating import key
from scoring.models import Game, Group, SettleUp, SettleUpTransfer
from scoring.replay import ReplayError, who_played
from scoring.stats import new_tally

PERIODS = ("week", "month", "all")


def my_groups(request: HttpRequest) -> list[tuple[Group, str]]:
    """The groups this phone opened or the signed-in person made, strongest link each, newest first."""
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


def game_token(game: Game, can_edit: bool) -> str:
    """A group's edit link opens its games' edit links; its view link, their view links."""
    return game.edit_token if can_edit else game.view_token


# -- the roster and the games -------------------------------------------------------------------


# -- standings ----------------------------------------------------------------------------------


@dataclass
class Night:
    """One person's evening: points, 元 in 分 (None until settled) and tally (scoring/stats.py's fields)."""

    name: str
    points: object
    fen: int | None
    tally: dict


@dataclass
class GroupEvening:
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
    hands: int = 0  # hands that stand in which they sat, at every table (the replay's tally by person)
    wins: int = 0
    zimo: int = 0
    discards: int = 0
    biggest: object = 0
    nights: list = field(default_factory=list)

    @property
    def zimo_rate(self) -> str:
        """自摸 among the wins, in whole per cent (「—」 with no win: no rate, not 0%)."""
        return f"{round(100 * self.zimo / self.wins)}%" if self.wins else "—"

    @property
    def per_hand(self) -> int | None:
        """元 per hand played, in whole 角 (0.1 元), half away from zero, from the integers; None without a hand."""
        if not self.hands:
            return None
        jiao = (2 * abs(self.fen) + 10 * self.hands) // (20 * self.hands)  # round(|fen| / 10 / hands), half up
        return jiao if self.fen >= 0 else -jiao


def evenings(group: Group, can_edit: bool, *, archived: bool | None = None) -> list[GroupEvening]:
    """The group's games, newest first (``archived`` True/False/None), each with its people's points, 元 and tallies.

    A game that no longer replays is left out (its own page says why); a few queries whatever the size."""
    games = group.games.select_related("settlement").order_by("-created_at", "-pk")
    if archived is not None:
        games = games.filter(archived_at__isnull=not archived)
    out = []
    for game in games:
        try:
            everyone = people_with_totals(game)  # a stale replay is rebuilt: the tally below is by person
            people = who_played(game)  # the evening's money and 战绩: who sat in a hand that stands
        except ReplayError:
            continue
        tallies = {key(name): counts for (name, _p), counts in zip(everyone, game.state["tally"], strict=True)}
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
        if settlement is not None and (moved := settlement.rounded_away()) is not None:  # 抹零 moved the money
            for name, fen_moved in zip(settlement.people(), moved, strict=True):
                if key(name) in fen:
                    fen[key(name)] += fen_moved
        nights = [
            Night(name, points, fen[key(name)] if rate is not None else None, tallies.get(key(name), new_tally(1)[0]))
            for name, points in people
        ]
        out.append(GroupEvening(game, game_token(game, can_edit), rate is not None, rate, nights))
    return out


def period_start(period: str, now: datetime | None = None) -> datetime | None:
    """Where this week (Monday 0:00) or this month (the 1st) begins locally, or None for all time."""
    if period not in ("week", "month"):
        return None
    now = timezone.localtime(now)
    start = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        return start - timedelta(days=start.weekday())
    return start.replace(day=1)


def in_period(evening: GroupEvening, start: datetime | None, end: datetime | None = None) -> bool:
    """Was the game begun from ``start`` and before ``end`` (a season's day after its last)?"""
    return (start is None or evening.game.created_at >= start) and (end is None or evening.game.created_at < end)


def standings(nights: list[GroupEvening], start: datetime | None = None, end: datetime | None = None) -> list[Standing]:
    """Per person over the settled evenings from ``start`` (to ``end``): 元 (分), games, hands, 胡, 自摸, 放铳, biggest
    hand; top winner first."""
    by_name: dict[str, Standing] = {}
    for evening in nights:
        if not evening.settled or not in_period(evening, start, end):
            continue
        for night in evening.people:
            s = by_name.setdefault(key(night.name), Standing(night.name))
            s.fen += night.fen
            s.games += 1
            s.hands += night.tally["hands"]
            s.wins += night.tally["wins"]
            s.zimo += night.tally["zimo"]
            s.discards += night.tally["discards"]
            s.biggest = max(s.biggest, from_json(night.tally["biggest"]))
            s.nights.append(evening)
    return sorted(by_name.values(), key=lambda s: (-s.fen, s.name))


# -- what is still owed -------------------------------------------------------------------------


def _open_settle_ups(group: Group):
    return (
        group.settle_ups.filter(transfers__paid_at__isnull=True)
        .distinct()
        .prefetch_related("transfers", "parts__transfer__settlement__game")
        .order_by("-created_at", "-pk")
    )


@dataclass
class SettleUpPlan:
    """A settle-up before it is made: the transfers it takes in and the netted ones it makes."""

    parts: list[Owed]
    netted: list[tuple[str, str, int]]

    @property
    def fewest(self) -> bool:
        return netted_fewest(self.netted)

    @property
    def ids(self) -> str:
        return ",".join(str(o.transfer.pk) for o in self.parts)


def carry_plan(group: Group, game: Game) -> SettleUpPlan | None:
    """Every unpaid group transfer between ``game``'s people, netted; None without an earlier one or under two."""
    people = {key(name) for name in names_at(game)}
    parts = [o for o in free_transfers(group) if key(o.payer) in people and key(o.payee) in people]
    if len(parts) < 2 or all(o.game.pk == game.pk for o in parts):
        return None
    return SettleUpPlan(parts, net(parts))


def group_plan(group: Group) -> SettleUpPlan | None:
    """Every unpaid transfer of the group netted (「一起结清」), or None with fewer than two."""
    parts = free_transfers(group)
    if len(parts) < 2:
        return None
    try:
        return SettleUpPlan(parts, net(parts))
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
    """The group's settle-ups not paid in full (``game``'s own, with its paid ones, if given), newest first."""
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
    """Each person's still owed (+) or owing (−) 分, the most owed first; anyone square left out."""
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
