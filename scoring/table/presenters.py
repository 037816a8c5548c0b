"""What the game page shows, in plain values for the templates (no rules decided here)."""

import hashlib
import json
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from scoring import device, handchecks
from scoring.engine import SEATS_ZH
from scoring.engine.seating import is_seating, key
from scoring.handform import form_side_for, hand_title
from scoring.lang import chinese, pick
from scoring.models import Game, Hand
from scoring.pagecache import CSRF_MARK, build
from scoring.people import Seatings, people_in_order, round_of
from scoring.replay import PAGE_HANDS, RECENT_HANDS, HandView, ReplayView, played


@dataclass
class Tile:
    seat: int
    wind: str
    name: str
    total: int
    dealer: bool
    streak: int
    streak_text: str  # as the ruleset says it beside 庄 (FormSide.streak_text): 连2, 二老庄
    marks: list[tuple[str, str]]  # (css class, text) badges such as 买, 下4
    me: bool


@dataclass
class PaymentLine:
    payer: str
    payee: str
    amount: int
    formula: str


@dataclass
class HandRow:
    hand: Hand
    title: str
    result: HandView | None
    nets: list[tuple[str, int]]  # (name, net) of who played it, in the evening's order of people
    payments: list[PaymentLine]
    dealer: str = ""
    number: int | None = None  # 第N局 among the hands that count; None for a voided one or a seating
    seated: list[tuple[str, str]] = ()  # (wind, name): who played it
    seating: bool = False  # 换人/换位: no hand, who sits where from here on
    streak_text: str = ""  # the dealer's streak the hand was played at, in the ruleset's words
    checked: list[str] = ()  # who of its players said 对 (核对): a ✓ by their name


def evening_people(game: Game) -> list[str]:
    """Everyone of the evening in order of first appearance, from the stored replay (no query)."""
    seatings = Seatings.of_game(game)
    return people_in_order(seatings.first, [names for _seq, names in seatings.changes])


def seats_in_people_order(people: list[str], names: list[str]) -> list[int]:
    """The seats of a hand played by ``names``, in ``people``'s order (the evening's)."""
    rank = {key(name): i for i, name in enumerate(people)}
    return sorted(range(len(names)), key=lambda seat: rank.get(key(names[seat]), len(rank)))


def in_people_order(people: list[str], names: list[str], net: list) -> list[tuple[str, object]]:
    """A hand's (name, net) in ``people``'s order, so each person keeps one column; someone sitting out is left out."""
    return [(names[seat], net[seat]) for seat in seats_in_people_order(people, names)]


def hand_row(
    game: Game,
    hand: Hand,
    result: HandView | None,
    number: int | None = None,
    names: list[str] | None = None,
    people: list[str] | None = None,
    form_side=None,
) -> HandRow:
    """A hand as the list shows it, with ``names`` in seat order and its amounts in ``people``'s order (``form_side``: its entry's, if known)."""
    names = list(names or game.players)
    seating = is_seating(hand.entry)
    nets = []
    if result and not seating:
        nets = in_people_order(evening_people(game) if people is None else people, names, result.net)
    payments = (
        [PaymentLine(names[p.payer], names[p.payee], p.amount, p.formula(chinese(), names)) for p in result.payments]
        if result
        else []
    )
    dealer = names[result.dealer] if result and not seating else ""
    seated = [(translation.gettext(SEATS_ZH[s]), name) for s, name in enumerate(names)]
    title = hand_title(game, hand.entry, result, names, form_side)
    streak = form_side_for(game).streak_text(result.streak) if result and not seating else ""
    return HandRow(hand, title, result, nets, payments, dealer, number, seated, seating, streak)


ROW_TEMPLATE = "table/_hand_row.html"
ROW_KEY = "hand-row"  # with the release's digest: a deploy never shows the last one's rows
ROW_SECONDS = 60 * 60 * 24


def _digest(value) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def row_key(hand: Hand, number: int | None, names: str, lang: str, edit_url: str, checked: str = "") -> str:
    """Everything one row's HTML depends on, so the cached row is redrawn exactly when one of them changes."""
    result = "void" if hand.voided else _digest(hand.result)
    made = hand.created_at.timestamp() if hand.created_at else 0
    return f"{ROW_KEY}:{build()}:{hand.pk}:{made}:{hand.revision}:{number}:{result}:{names}:{lang}:{edit_url}:{checked}"


CHECKS_TEMPLATE = "table/_hand_checks.html"


@dataclass
class RowChecks:
    """A hand's 核对 line: its 有误 flags, how many of its players said 对, and this phone's part (``mine``, ``said``)."""

    seq: int
    revision: int
    wrong: list
    ok_count: int
    players: int
    mine: bool = False  # this phone's 「我是」 played it, on an edit link of a game being played
    said: str = ""  # what this phone's 「我是」 said: "ok", "wrong" or ""


def row_checks(row, names: list[str], said: list, me: str | None, playing: bool, can_edit: bool) -> RowChecks | None:
    """A standing hand's line (None for a void or seating, or when it has neither a flag nor anything for me to tap)."""
    if row.result is None or is_seating(row.hand.entry):
        return None
    ok, wrong, _waiting = handchecks.sort_checks(names, said)
    mine = playing and can_edit and me is not None and any(key(n) == key(me) for n in names)
    mine_check = next((c for c in [*ok, *wrong] if me is not None and key(c.person) == key(me)), None)
    line = RowChecks(row.hand.seq, row.hand.revision, wrong, len(ok), len(names), mine)
    line.said = mine_check.verdict if mine and mine_check else ""
    return line if line.wrong or line.mine else None


def hand_rows_html(game: Game, rows, token: str, can_edit: bool, me: str | None = None) -> SafeString:
    """The hand list, newest first: each row cached (``row_key``), its 核对 strip rendered each time."""
    lang, seatings = translation.get_language() or "", Seatings.of_game(game)
    people = evening_people(game)
    base_url = reverse("game", args=[token])
    seated = [seatings.at(row.hand.seq) for row in rows]
    said = handchecks.checks_of([row.hand for row in rows]) if rows else {}
    playing = game.status == Game.PLAYING
    oks = [
        [c.person for c in handchecks.sort_checks(names, said.get(row.hand.pk, []))[0]]
        for row, names in zip(rows, seated, strict=True)
    ]
    # A change of the evening's order of people (a seating edited or voided) must redraw the row.
    keys = [
        row_key(
            row.hand,
            row.number,
            _digest([names, seats_in_people_order(people, names)]),
            lang,
            base_url if can_edit else "",
            _digest(ok) if ok else "",
        )
        for row, names, ok in zip(rows, seated, oks, strict=True)
    ]
    found = cache.get_many(keys)
    missing = {}
    if len(found) < len(keys):
        template = get_template(ROW_TEMPLATE)
        for cache_key, row, names, ok in zip(keys, rows, seated, oks, strict=True):
            if cache_key not in found:
                row_view = hand_row(game, row.hand, row.result, row.number, names, people)
                row_view.checked = ok
                context = {"row": row_view, "can_edit": can_edit, "base_url": base_url}
                missing[cache_key] = str(template.render(context))
        cache.set_many(missing, ROW_SECONDS)
    strips = [
        row_checks(row, names, said.get(row.hand.pk, []), me, playing, can_edit)
        for row, names in zip(rows, seated, strict=True)
    ]
    if any(strips):
        template = get_template(CHECKS_TEMPLATE)
        context = {"token": token, "can_edit": can_edit, "csrf_token": CSRF_MARK}
        strips = [str(template.render({**context, "c": c})) if c else "" for c in strips]
    html = "".join((found.get(k) or missing[k]) + (strip or "") for k, strip in zip(keys, strips, strict=True))
    return mark_safe(html)  # rows and strips are autoescaped template output


def tiles(game: Game, totals: list, ledger: ReplayView | None, me: int | None) -> list[Tile]:
    """One tile per seat: who sits there now and their evening's total over every seat they sat in."""
    state = ledger.state if ledger else None
    form_side = form_side_for(game)
    marks = form_side.marks
    names = list(state.seating) if state is not None else list(game.players)
    if state is not None:
        person = {key(name): total for name, total in state.people()}
        totals = [person[key(name)] for name in names]
    return [
        Tile(
            seat=s,
            wind=translation.gettext(form_side.wind(state, s) if state else SEATS_ZH[s]),  # 东 → E in English
            name=names[s],
            total=totals[s],
            dealer=state is not None and state.dealer == s,
            streak=state.streak if state else 0,
            streak_text=form_side.streak_text(state.streak) if state else "",
            marks=marks(state, s, game.pending) if state else [],
            me=me == s,
        )
        for s in range(len(names))
    ]


def earlier_text(n: int) -> str:
    """「更早的 N 局」: in both languages here, as the catalogue's entry for it is fuzzy (unused)."""
    return pick(f"更早的 {n} 局", f"{n} earlier hand" if n == 1 else f"{n} earlier hands")


def sitting_out(state, played: set[str]) -> list[tuple[str, object]]:
    """(name, total) of each person off the table now who ``played`` a standing hand."""
    seated = {key(name) for name in state.seating}
    return [(name, total) for name, total in state.people() if key(name) not in seated and key(name) in played]


def game_context(request: HttpRequest, game: Game, token: str, can_edit: bool, ledger: ReplayView | None) -> dict:
    me, my_name = device.my_seat(request, game), device.my_name(request, game)
    totals = ledger.totals if ledger else [0] * len(game.players)
    rows = list(reversed(ledger.rows)) if ledger else []  # newest first
    last_row = next((row for row in reversed(ledger.rows) if row.result is not None), None) if ledger else None
    last = last_row.hand if last_row else None
    playing = can_edit and game.status == Game.PLAYING and ledger is not None
    bets = form_side_for(game).bets(game, ledger.state, game.house_rules()) if playing else None
    names = list(ledger.state.seating) if ledger else list(game.players)
    left = handchecks.not_checked(game) if ledger else []
    return {
        **check_views(game, token, left, ledger.last_seq if ledger else 0, my_name if playing else None),
        "round": round_of(game, ledger.state, last_row) if ledger else None,
        "sitting_out": sitting_out(ledger.state, played(game)) if ledger else [],
        "bets": bets,
        # A finished game's hands stay as they were settled: no 修改/作废 until it is reopened.
        "rows_html": hand_rows_html(game, rows, token, can_edit and game.status == Game.PLAYING, my_name),
        "game": game,
        "token": token,
        "can_edit": can_edit,
        "ledger": ledger,
        "tiles": tiles(game, totals, ledger, me),
        "rows": rows,
        "last_hand": last,
        "voided_count": ledger.last_seq - ledger.active_count() - len(game.state["seatings"]) if ledger else 0,
        "earlier_text": earlier_text(ledger.earlier if ledger else 0),
        "me": me,
        "me_out": my_name if my_name is not None and me is None else None,  # 我是 someone sitting out
        "seats": [(s, SEATS_ZH[s], names[s]) for s in range(len(names))],
    }


def check_views(game: Game, token: str, left: list, last_seq: int, me: str | None) -> dict:
    """The game page's 有误 banner (``flags``, each with where its row is) and this phone's 「到第N局都对」 (``up_to``)."""
    base = reverse("game", args=[token])
    flags = [
        {
            "row": row,
            "href": f"{base}#hand-{row.seq}"
            if last_seq - row.seq < RECENT_HANDS
            else f"{base}?page={(last_seq - row.seq) // PAGE_HANDS + 1}#hand-{row.seq}",
        }
        for row in left
        if row.wrong
    ]
    mine = handchecks.left_for(left, me)
    up_to = None
    if mine:
        seen = ",".join(f"{row.seq}.{row.revision}" for row in mine)
        up_to = {"seq": mine[-1].seq, "number": mine[-1].number, "count": len(mine), "seen": seen, "me": me}
    return {"flags": flags, "up_to": up_to}


def bets_text(names: list[str], bets: dict) -> str:
    """Bets placed before a hand (pending bets' shape): 「老王买子 · 阿明下子2」."""
    parts = [pick(f"{names[s]}买子", f"{names[s]} buy-in") for s in bets.get("maizi", [])]
    parts += [pick(f"{names[int(s)]}下子{a}", f"{names[int(s)]} bet {a}") for s, a in bets.get("xiazi", {}).items()]
    return " · ".join(parts)


def bet_words(names: list[str], *, bet: str, seat: int, on: bool, **_amount) -> tuple[str, str]:
    """What a bet changed, for a preview it makes stale: 「小李刚买了子」, 「小李刚撤回了下子」."""
    name, term, term_en = names[seat], {"maizi": "买子", "xiazi": "下子"}[bet], {"maizi": "buy-in", "xiazi": "bet"}[bet]
    if on:
        return f"{name}刚{'买了子' if bet == 'maizi' else '下了子'}", f"{name} just placed a {term_en}"
    return f"{name}刚撤回了{term}", f"{name} just withdrew a {term_en}"
