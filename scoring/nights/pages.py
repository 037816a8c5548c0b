"""What 今晚几桌's pages show: the board and the settle page's context, from scoring/night.py's reads."""

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import night, paycode_requests
from scoring.circle import netted_fewest
from scoring.engine.points import fmt, to_json
from scoring.engine.seating import key
from scoring.models import TableNight
from scoring.nights.forms import MoveForm


def _page(found: TableNight, token: str, can_edit: bool, shown) -> dict:
    """What every page of a night has: the night, its group, the link it was opened by and its board."""
    return {"night": found, "group": found.group, "token": token, "can_edit": can_edit, "board": shown}


def board_context(found: TableNight, token: str, can_edit: bool, version: int | None = None) -> dict:
    tables = night.tables_of(found)
    shown = night.board(found, can_edit, tables)
    return {
        **_page(found, token, can_edit, shown),
        "version": night.poll_version(found) if version is None else version,
        "drawn": [(name, night.tile(t, s)) for name, t, s in found.drawn],
        "move_form": MoveForm(people=found.people) if can_edit else None,
        "table_numbers": [t.number for t in shown.tables],
    }


def settle_context(found: TableNight, token: str, can_edit: bool) -> dict:
    """Each table as settled (or a link to settle it), each person's 元 across them and their share of the
    night's fee, the night's netted transfers with each payee's 收款码 once."""
    tables = night.tables_of(found)
    shown = night.board(found, can_edit, tables)
    nets = night.nets(tables)
    up = night.settle_up_of(found)
    transfers = list(up.transfers.all()) if up is not None else []
    owed = night.owed_tonight(found)
    netting = night.to_net(found, tables, owed)
    tonight = dict(nets) if up is None else {k: 0 for k in nets}
    for t in transfers:
        tonight[key(t.payer)] = tonight.get(key(t.payer), 0) - t.amount_fen
        tonight[key(t.payee)] = tonight.get(key(t.payee), 0) + t.amount_fen
    texts = {
        key(p.name): " · ".join(_("%(n)s桌") % {"n": n} + f" {fmt(v, signed=True)}" for n, v in p.points)
        for p in shown.people
    }
    rows = [
        (netting.names.get(k, k), nets.get(k, 0), netting.fee_shares.get(k), fen, texts.get(k, ""))
        for k, fen in tonight.items()
    ]
    codes = paycode_requests.codes_by_person(group=found.group)
    payees = []
    for t in transfers:
        if t.paid_at is None and key(t.payee) not in {key(p) for p in payees}:
            payees.append(t.payee)
    return {
        **_page(found, token, can_edit, shown),
        "rows": sorted(rows, key=lambda row: -row[3]),
        "settle_up": up,
        "any_paid": any(t.paid_at for t in transfers),
        "transfers": transfers,
        "fewest": netted_fewest([(t.payer, t.payee, t.amount_fen) for t in transfers]),
        "owed": owed,
        "payee_codes": [(name, codes.get(key(name), [])) for name in payees],
    }


BOARD_FORMAT = 1


def board_data(found: TableNight, version: int) -> dict:
    """今晚的榜 as JSON for other tools (docs/contract.md 「今晚的榜」): the same on the edit and the view
    link, with each table's view link only; points exact (x.5 where 诸暨 halves), 元 in 分."""
    tables = night.tables_of(found)
    shown = night.board(found, False, tables)
    up = night.settle_up_of(found)
    return {
        "format": BOARD_FORMAT,
        "version": version,
        "group": found.group.name,
        "created_at": timezone.localtime(found.created_at).isoformat(),
        "draw": found.draw,
        "comparable": shown.comparable,
        "settled": shown.settled,
        "hands": shown.hands,
        "tables": [
            {
                "number": t.number,
                "ruleset": t.game.ruleset,
                "url": reverse("game", args=[t.game.view_token]),
                "seating": [name for _wind, name in t.seating],
                "hands": t.hands,
                "round": t.round_label,
                "settled": t.settled,
                "rate_fen": t.game.settlement.rate_fen if t.settled else None,
            }
            for t in shown.tables
        ],
        "people": [
            {
                "name": p.name,
                "at": p.at,
                "points": [{"table": n, "points": to_json(v)} for n, v in p.points],
                "total": None if p.total is None else to_json(p.total),
                "fen": p.fen,
            }
            for p in shown.people
        ],
        "fee_fen": found.fee_fen if up is not None else 0,
        "transfers": [
            {"payer": t.payer, "payee": t.payee, "amount_fen": t.amount_fen, "paid": t.paid_at is not None}
            for t in (up.transfers.all() if up is not None else [])
        ],
    }
