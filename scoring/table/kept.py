"""A hand kept on a phone without network, checked as it arrives (docs/offline.md "Held").

The phone sends the signed ``kept`` stamp of what it saw; under the game's row lock the hand is held
when another phone recorded it meanwhile or it would score differently, and each card's answer is
checked again the same way, so two phones answering one question are each applied exactly once."""

from dataclasses import dataclass, field

from django.core import signing

from scoring import services
from scoring.engine.points import from_json, to_json
from scoring.engine.seating import is_seating, key
from scoring.people import Seatings
from scoring.replay import ReplayError

KEPT_SALT = "scoring.table.kept"
AGREED_SALT = "scoring.table.agreed"
ANSWERS = {"drop": None, "again": "same", "confirm": "changed"}  # each answer, and the card it answers
MAX_MINE = 200  # the hands a phone says are its own; more are ignored
MAX_LOOKED_AT = 500  # the hands recorded meanwhile that are compared with a kept one


def stamp(game, seq: int, state, net: list | None = None, pending: dict | None = None) -> str:
    """The signed table a hand is kept at: next ``seq``, version, seats and dealer, and amounts shown or bets placed."""
    data: dict = {"g": game.pk, "s": seq, "v": game.version, "w": list(state.seating), "d": state.dealer}
    if net is not None:
        data["n"] = [to_json(n) for n in net]
    if pending is not None:
        data["p"] = pending
    return signing.dumps(data, salt=KEPT_SALT, compress=True)


def _unsigned(value: str, salt: str, game) -> dict | None:
    """A stamp's data when it is this server's, for ``game``, and well formed; else None."""
    try:
        data = signing.loads(value, salt=salt) if value else None
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("g") != game.pk:
        return None
    names, net = data.get("w"), data.get("n")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return None
    if net is not None and (not isinstance(net, list) or len(net) != len(names)):
        return None
    return data


def stamp_of(post, game) -> dict | None:
    data = _unsigned(post.get("kept", ""), KEPT_SALT, game)
    if data is None or not isinstance(data.get("s"), int) or not isinstance(data.get("d"), int):
        return None
    return data if 0 <= data["d"] < len(data["w"]) else None


def seqs(text: str, limit: int = MAX_MINE) -> set[int]:
    """「12,14」 as {12, 14}: at most ``limit`` numbers, anything else left out."""
    found = set()
    for part in text.split(",")[:limit]:
        part = part.strip()
        if part.isascii() and part.isdigit() and len(part) <= 9:
            found.add(int(part))
    return found


@dataclass
class Kept:
    """The table a hand was kept at, as read from the phone: hands since, seats, dealer and each seat's amount (``before``)."""

    since: int
    names: list[str]
    dealer: str
    before: list | None
    mine: set[int] = field(default_factory=set)


@dataclass
class Agreed:
    """The question a phone answers, as asked: the card's ``kind``, its amounts, ``dismissed`` and ``asked`` hands."""

    kind: str
    names: list[str]
    net: list | None
    dismissed: set[int]
    asked: int | None


def agreed_stamp(game, form_token: str, held: services.Held, dismissed: set[int]) -> str:
    asked = held.other.seq if held.other is not None else None
    data = {
        "g": game.pk,
        "t": form_token,
        "k": held.kind,
        "w": list(held.state.seating),
        "n": None if held.result is None else [to_json(n) for n in held.result.net],
        "x": sorted(dismissed | ({asked} if asked else set()))[-MAX_MINE:],
        "a": asked,
    }
    return signing.dumps(data, salt=AGREED_SALT, compress=True)


def agreed_of(post, game, form_token: str) -> Agreed | None:
    """The question ``post`` answers, when its stamp is this server's for this very kept hand."""
    data = _unsigned(post.get("agreed", ""), AGREED_SALT, game)
    if data is None or data.get("t") != form_token or data.get("k") not in ("same", "changed"):
        return None
    dismissed = {n for n in data.get("x") or [] if isinstance(n, int)}
    asked = data.get("a") if isinstance(data.get("a"), int) else None
    net = None if data.get("n") is None else [from_json(n) for n in data["n"]]
    return Agreed(data["k"], data["w"], net, dismissed, asked)


def by_person(names: list[str], net: list) -> dict:
    return {key(name): n for name, n in zip(names, net, strict=True)}


def result_key(entry: dict, names: list[str]) -> tuple | None:
    """What happened in a hand, by person (outcome, how, who won or discarded); None for a seating."""
    if is_seating(entry):
        return None
    people = []
    for role in ("winner", "discarder", "leaver"):
        seat = entry.get(role)
        people.append(key(names[seat]) if isinstance(seat, int) and 0 <= seat < len(names) else None)
    manual = tuple(entry.get("net") or ()) if entry.get("outcome") == "manual" else ()
    return (entry.get("outcome"), entry.get("win_type"), *people, manual)


class Hold:
    """``services.record_hand``'s ``hold`` for a kept hand: raises ``services.Held`` for the same hand or a changed score."""

    def __init__(self, entry: dict, kept: Kept, agreed: Agreed | None = None):
        self.entry, self.kept, self.agreed = entry, kept, agreed

    def __call__(self, *, game, state, seq: int) -> None:
        number = game.state["active"] + 1
        try:
            result = services.preview_record(game=game, state=state, entry=self.entry).result
        except ReplayError:
            return  # the rules refuse it here: record_hand says why (its row offers 删除 and 修改)
        other = self.same_hand(game, seq)
        if other is not None:
            raise services.Held("same", state=state, seq=seq, number=number, result=result, other=other)
        names, net = (self.agreed.names, self.agreed.net) if self.agreed else (self.kept.names, self.kept.before)
        if net is not None and by_person(names, net) != by_person(list(state.seating), result.net):
            raise services.Held("changed", state=state, seq=seq, number=number, result=result)

    def same_hand(self, game, seq: int):
        """The first hand recorded meanwhile by another phone that is the same as this one."""
        kept = self.kept
        wanted = result_key(self.entry, kept.names)
        if wanted is None or not kept.since < seq:
            return None
        people = sorted(key(name) for name in kept.names)
        skip = kept.mine | (self.agreed.dismissed if self.agreed else set())
        seatings = Seatings.of_game(game)
        hands = game.hands.filter(seq__gte=kept.since, seq__lt=seq, voided_at__isnull=True).order_by("seq")
        for hand in hands.exclude(seq__in=skip)[:MAX_LOOKED_AT]:
            names = seatings.at(hand.seq)
            if sorted(key(name) for name in names) == people and result_key(hand.entry, names) == wanted:
                return hand
        return None
