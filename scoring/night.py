"""今晚几桌 (docs/manual.md 「今晚几桌」): a 牌友圈's night of several tables, as its writes check and its
pages read it. Each table is a ``Game`` with ``night`` set; the board reads each table's stored replay
(scoring/replay.py), never its hands, so it is a few queries per table whatever the hands, and the
tables are at most ``TableNight.MAX_TABLES``."""

import secrets
from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from scoring.access import missed, well_formed
from scoring.circle import GroupConflict, Owed, transfer_names
from scoring.engine import SEATS_ZH
from scoring.engine.money import fee_shares, round_to_yuan
from scoring.engine.seating import key
from scoring.models import Game, SettleUp, TableNight, Transfer
from scoring.people import round_of
from scoring.replay import ReplayError, cached_state, played, rebuild

MIN_PEOPLE = 5


class NightConflict(GroupConflict):
    """A night's write refused: why, in Chinese and English."""


# -- the draw ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableTerms:
    """One table of a night: its ruleset, its house rules (None: the ruleset's own) and 打几圈."""

    ruleset: object
    rules: dict | None = None
    round_length: int | None = None


def tables_for(people: int, seats: int) -> int:
    """How many tables ``people`` fill at ``seats`` a table, within ``MAX_TABLES``."""
    return min(people // seats, TableNight.MAX_TABLES)


def seat_people(people: list[str], seats: list[int], how: str, rng=None) -> tuple[list[list[str]], list]:
    """Each table's names in seat order (东南西北…) and what was drawn, [name, table, seat] each (table -1:
    sits out); ``seats``: how many sit at each table (its ruleset's seats: 2 for 武义二人). 随机 shuffles;
    扳位 deals one tile to each person (a wind of a table, or 白板 to sit out); 按座 takes ``people`` as
    they sit, table after table."""
    rng = rng or secrets.SystemRandom()
    places = [(t, s) for t, n in enumerate(seats) for s in range(n)]
    places += [(-1, 0)] * (len(people) - len(places))
    if how == TableNight.AS_SEATED:
        order = list(people)
    else:  # 随机 and 扳位 alike: a random permutation of people onto the places
        order = rng.sample(list(people), len(people))
    drawn = [[name, t, s] for name, (t, s) in zip(order, places, strict=True)]
    if how == TableNight.WINDS:  # shown in the order the people were named, each with the tile they drew
        at = {key(name): i for i, name in enumerate(people)}
        drawn.sort(key=lambda d: at[key(d[0])])
    seating = [[""] * n for n in seats]
    for name, t, s in drawn:
        if t >= 0:
            seating[t][s] = name
    return seating, drawn


def tile(table: int, seat: int) -> str:
    """The tile a person drew: 「1桌 东」, or 白板 (sits out)."""
    if table < 0:
        return _("白板")
    return _("%(n)s桌 %(wind)s") % {"n": table + 1, "wind": _(SEATS_ZH[seat])}


# -- finding one ------------------------------------------------------------------------------


def load_night(request: HttpRequest, token: str) -> tuple[TableNight, bool]:
    """The night a link opens, and whether the link may change it; 404 (a wrong token counted) else."""
    night = None
    if well_formed(token):
        night = TableNight.objects.filter(Q(edit_token=token) | Q(view_token=token)).select_related("group").first()
    if night is None:
        missed(request)
        raise Http404(_("没有这个晚上"))
    return night, night.edit_token == token


def tables_of(night: TableNight) -> list[Game]:
    """The night's tables in the order they were opened (at most ``MAX_TABLES``), each with its settlement."""
    return list(night.tables.select_related("settlement").order_by("pk")[: TableNight.MAX_TABLES])


def poll_version(night: TableNight) -> int:
    """What a phone's board compares: the sum of its tables' versions (each only goes up) and their count."""
    found = Game.objects.filter(night=night).aggregate(v=Sum("version"), n=Count("pk"))
    return (found["v"] or 0) + (found["n"] or 0)


def table_of(tables: list[Game], name: str) -> Game | None:
    """The table ``name`` sits at now (a finished table seats no one), or None: sits out."""
    for game in tables:
        if game.status == Game.PLAYING and key(name) in {key(n) for n in game.seating}:
            return game
    return None


# -- the board ----------------------------------------------------------------------------------


@dataclass
class TableLine:
    number: int  # 1桌, 2桌 …
    game: Game
    token: str  # the link this phone may open: the edit link with an edit link to the night
    seating: list[tuple[str, str]]  # (wind, name)
    hands: int  # the standing hands
    round_label: str
    settled: bool


@dataclass
class PersonLine:
    name: str
    at: int | None = None  # the table they sit at now (its number), None: sits out
    points: list[tuple[int, object]] = field(default_factory=list)  # (table number, points) where they played
    total: object = None  # points across tables, when the tables' points are comparable
    fen: int | None = None  # 元 across tables, when every table they played is settled
    open_tables: int = 0  # tables they played that are not settled yet


@dataclass
class Board:
    tables: list[TableLine]
    people: list[PersonLine]
    comparable: bool  # one ruleset at every table: points add up across tables
    settled: bool  # every table settled

    @property
    def hands(self) -> int:
        return sum(t.hands for t in self.tables)


def _replayed(game: Game) -> bool:
    if cached_state(game) is None:
        try:
            rebuild(game)
        except ReplayError:
            return False
    return True


def board(night: TableNight, can_edit: bool, tables: list[Game] | None = None) -> Board:
    """Everyone's points (and 元, once settled) across the tables, where each sits now, each table's progress."""
    tables = tables_of(night) if tables is None else tables
    by_key = {key(name): PersonLine(name) for name in night.people}
    lines = []
    for number, game in enumerate(tables, start=1):
        if not _replayed(game):
            continue
        state = game.plugin.state_from_dict(game.state["table"])
        settlement = getattr(game, "settlement", None)
        fen = dict(zip(map(key, settlement.people()), settlement.balances_fen, strict=True)) if settlement else {}
        playing = played(game)
        for name, total in state.people():
            person = by_key.setdefault(key(name), PersonLine(name))
            if key(name) in playing:
                person.points.append((number, total))
                if settlement is not None and key(name) in fen:
                    person.fen = (person.fen or 0) + fen[key(name)]
                else:
                    person.open_tables += 1
        if game.status == Game.PLAYING:
            for name in state.seating:
                by_key.setdefault(key(name), PersonLine(name)).at = number
        winds = [_(SEATS_ZH[s]) for s in range(len(state.seating))]
        label = round_of(game, state, None).label
        token = game.edit_token if can_edit else game.view_token
        seating = list(zip(winds, state.seating, strict=True))
        lines.append(TableLine(number, game, token, seating, game.state["active"], label, settlement is not None))
    comparable = len({g.ruleset for g in tables}) <= 1
    people = list(by_key.values())
    for person in people:
        if comparable:
            person.total = sum((p for _n, p in person.points), start=0)
        if person.open_tables:
            person.fen = None
    settled = bool(lines) and all(t.settled for t in lines)
    people.sort(key=lambda p: (-(p.fen or 0) if settled else -(p.total or 0), p.at is None))
    return Board(lines, people, comparable, settled)


# -- the night's settle-up ----------------------------------------------------------------------


def owed_tonight(night: TableNight) -> list[Owed]:
    """The night's unpaid transfers a settle-up may take (in none, or only in an unpaid plan), table by table."""
    planned = SettleUp.objects.filter(group=night.group_id, transfers__paid_at__isnull=False)
    transfers = (
        Transfer.objects.filter(settlement__game__night=night, paid_at__isnull=True)
        .exclude(settle_up_part__settle_up__in=planned)
        .select_related("settlement__game", "settle_up_part")
        .order_by("settlement__game_id", "id")
    )
    return [Owed(t, t.settlement.game, *transfer_names(t.settlement.game, t)) for t in transfers]


def settle_ups_of(night: TableNight):
    """The night's settle-ups: made at one of its tables (``SettleUp.game``) or taking in their transfers."""
    return SettleUp.objects.filter(Q(game__night=night) | Q(parts__transfer__settlement__game__night=night)).distinct()


def settle_up_of(night: TableNight) -> SettleUp | None:
    """The night's latest settle-up (一起结清 of its tables' transfers and its fee), with its transfers."""
    return settle_ups_of(night).prefetch_related("transfers").order_by("-created_at", "-pk").first()


@dataclass
class ToNet:
    """What the night's settle-up nets: each person's balance (by ``key``) from the owed table transfers
    and the night's fee, each one's share of that fee, and the names as the night spells them."""

    balances: dict[str, int]
    fee_shares: dict[str, int]
    names: dict[str, str]


def to_net(night: TableNight, tables: list[Game], owed: list[Owed]) -> ToNet:
    """The owed transfers' balances, less each person's share of the night's fee (split as a table's fee is,
    among everyone who played tonight), the whole fee to whoever advanced it; 抹零 to whole 元 if asked."""
    names = {key(name): name for name in night.people}
    balances: dict[str, int] = {}
    for owed_one in owed:
        for name, sign in ((owed_one.payer, -1), (owed_one.payee, 1)):
            names.setdefault(key(name), name)
            balances[key(name)] = balances.get(key(name), 0) + sign * owed_one.amount_fen
    shares: dict[str, int] = {}
    played_tonight = nets(tables)
    if night.fee_fen and played_tonight:
        order = sorted(played_tonight, key=lambda k: (list(names).index(k) if k in names else len(names), k))
        split = fee_shares(night.fee_fen, [played_tonight[k] for k in order], night.fee_mode)
        shares = dict(zip(order, split, strict=True))
        for k, share in shares.items():
            balances[k] = balances.get(k, 0) - share
        balances[key(night.fee_payee)] = balances.get(key(night.fee_payee), 0) + night.fee_fen
        if night.round_yuan:
            ks = sorted(balances)
            balances = dict(zip(ks, round_to_yuan([balances[k] for k in ks]), strict=True))
    return ToNet({k: v for k, v in balances.items() if v}, shares, names)


def nets(tables: list[Game]) -> dict[str, int]:
    """Each person's 元 across the settled tables, in 分 (by ``key``): the sum of their table balances."""
    found: dict[str, int] = {}
    for game in tables:
        settlement = getattr(game, "settlement", None)
        if settlement is not None:
            for name, fen in zip(settlement.people(), settlement.balances_fen, strict=True):
                found[key(name)] = found.get(key(name), 0) + fen
    return found


# -- a group's nights ---------------------------------------------------------------------------


@dataclass
class NightLine:
    """One of a group's nights, as the group page lists it."""

    night: TableNight
    tables: int
    playing: int  # tables not settled yet
    rulesets: list[str]  # each table's ruleset code, in the order opened


def nights_of(group, limit: int) -> tuple[list[NightLine], int]:
    """The group's newest ``limit`` nights, each with its tables, how many still play and their rulesets
    (three queries whatever the nights), and how many nights it has in all."""
    playing = Count("tables", filter=Q(tables__status=Game.PLAYING))
    found = list(
        TableNight.objects.filter(group=group)
        .annotate(n=Count("tables"), playing=playing)
        .order_by("-created_at", "-pk")[:limit]
    )
    codes: dict[int, list[str]] = {night.pk: [] for night in found}
    for night_id, code in Game.objects.filter(night__in=codes).order_by("pk").values_list("night_id", "ruleset"):
        codes[night_id].append(code)
    total = len(found) if len(found) < limit else TableNight.objects.filter(group=group).count()
    return [NightLine(n, n.n, n.playing, codes[n.pk]) for n in found], total
