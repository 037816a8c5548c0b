"""算牌 at the table (docs/analysis.md): the page's state lives in its query string, so every tap
is a plain link; nothing is recorded without the record form's usual 「确认记录」."""

import json
from collections import Counter
from dataclasses import dataclass, field, replace
from urllib.parse import urlencode

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from scoring.analyse.asked import applied, chosen_of, question_chips
from scoring.engine import ScoringError
from scoring.engine.analyse import CODES, INDEX, analyser, breakdown
from scoring.engine.analyse.analyser import trait
from scoring.engine.analyse.tiles import fixed_wilds, wild_kinds
from scoring.engine.errors import shown
from scoring.engine.points import fmt
from scoring.lang import chinese, pick, say, table_words

MAX_TILES = 14
CN_DIGITS = "一二三四五六七八九"
SUIT_ZH = {"m": "万", "p": "筒", "s": "条"}
HONOUR_ZH = {"E": "东", "S": "南", "W": "西", "N": "北", "C": "中", "F": "发", "P": "白"}
# What a screen reader says for a tile in English (its face stays Chinese on the key).
SUIT_EN = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
HONOUR_EN = {"E": "East", "S": "South", "W": "West", "N": "North", "C": "Red", "F": "Green", "P": "White"}
# The keyboard rows' names (aria labels), the toggles and the first-round wins: msgids, translated when shown.
ROWS = (
    (gettext_noop("万"), CODES[0:9]),
    (gettext_noop("筒"), CODES[9:18]),
    (gettext_noop("条"), CODES[18:27]),
    (gettext_noop("字"), CODES[27:34]),
)
FLAG_ZH = {
    "self_drawn": gettext_noop("自摸"),
    "after_kong": gettext_noop("杠开"),
    "robbing_kong": gettext_noop("抢杠"),
    "last_tile": gettext_noop("海底"),
}
FIRST_ROUND_ZH = {"tianhu": gettext_noop("天胡"), "dihu": gettext_noop("地胡"), "renhu": gettext_noop("人胡")}
# What the page says where a ruleset has its own word (诸暨's 放冲): its entry's ANALYSE_WORDS.
WORDS = {
    "use_with": gettext_noop("用这个记分（%(name)s放铳）"),
    "discarded": gettext_noop("%(name)s放铳"),
    "anyone": gettext_noop("谁放铳都是 %(winner)s%(net)s"),
    "who": gettext_noop("用这个记分 — 谁放铳？"),
    "wilds": gettext_noop("翻的这种是财神，白板代替它。"),
    "any_tile": gettext_noop("摸任何一张都能胡"),
}


def offers_analysis(game) -> bool:
    """Whether the game's ruleset has 算牌; without it no page links to it."""
    return game.plugin.analyser is not None


def words(game) -> dict[str, str]:
    """The page's words for ``game``, translated: WORDS, with the ruleset's own in their place."""
    own = game.plugin.form_side.ANALYSE_WORDS
    return {k: str(own[k]) if k in own else _(v) for k, v in WORDS.items()}


def face(code: str) -> dict:
    """A tile drawn in CSS: 「三」 over 「万」, 「3」 over 「筒」, or one honour character."""
    if code in HONOUR_ZH:
        top, bottom, suit, english = HONOUR_ZH[code], "", "z" + code, HONOUR_EN[code]
    else:
        digit, suit = int(code[0]), code[1]
        top, bottom, english = (
            CN_DIGITS[digit - 1] if suit == "m" else str(digit),
            SUIT_ZH[suit],
            f"{digit} {SUIT_EN[suit]}",
        )
    # Chinese: what the tile shows (「一万」, so a voice command finds it); English: what it means.
    return {"code": code, "top": top, "bottom": bottom, "suit": suit, "name": pick(top + bottom, english)}


def wild_codes(ruleset: str, flip: str | None) -> list[str]:
    """The flip's kind, and for 诸暨 the next kind too; the fixed ones (杭州's 白) where nothing is flipped."""
    if flip is None:
        return list(trait(ruleset, "WILDS"))
    return [CODES[k] for k in sorted(wild_kinds(ruleset, INDEX[flip]), key=lambda k: k != INDEX[flip])]


@dataclass
class Query:
    """The checked query: what was tapped so far. ``error`` holds the first problem, in the request's language."""

    flip: str | None = None
    tiles: list[str] = field(default_factory=list)
    winner: int | None = None
    discarder: int | None = None
    flags: dict = field(default_factory=dict)
    first_round: str | None = None
    melded: int = 0
    chosen: dict = field(default_factory=dict)  # the ruleset's QUESTIONS: name -> the options chosen
    error: str = ""

    def params(self, **changes) -> dict:
        data = {
            "flip": self.flip,
            "tiles": ",".join(self.tiles),
            "winner": self.winner,
            "discarder": self.discarder,
            **{k: 1 for k, on in self.flags.items() if on},
            "first_round": self.first_round,
            "melded": self.melded or None,
            **{name: ",".join(values) for name, values in self.chosen.items()},
        }
        data.update(changes)
        # Seat 0 is a seat: only None, "" and False leave a key out (0 == False, so no ``in``).
        return {k: 1 if v is True else v for k, v in data.items() if v is not None and v is not False and v != ""}

    def link(self, base: str, **changes) -> str:
        items = self.params(**changes)
        return f"{base}?{urlencode(items)}" if items else base


def _digits(value: str) -> bool:
    """ASCII digits only: "٣", "３" and "²" pass str.isdigit() (and "²" then breaks int())."""
    return value.isascii() and value.isdigit()


def _seat(value: str, seats: int, what: str) -> int:
    if not _digits(value) or int(value) >= seats:
        raise ValueError(_("%(what)s：没有这个座位（%(value)s）") % {"what": what, "value": shown(value, 8)})
    return int(value)


def read_query(get, ruleset: str, seats: int) -> Query:
    """The query checked; a bad value leaves ``error`` set and the rest as far as it was read."""
    rules = analyser(ruleset)
    q = Query()
    try:
        flip = get.get("flip", "")
        if flip and fixed_wilds(ruleset):
            raise ValueError(_("这套规则不翻牌：财神固定是%(tiles)s") % {"tiles": _names(wild_codes(ruleset, None))})
        if flip and flip not in CODES:
            raise ValueError(_("不认识翻的牌：%(flip)s") % {"flip": flip[:8]})
        q.flip = flip or None
        raw = [t.strip() for t in get.get("tiles", "").split(",") if t.strip()]
        for code in raw:
            if code not in CODES:
                raise ValueError(_("不认识的牌：%(code)s（应为 1m…9m、1p…、1s…、E S W N C F P）") % {"code": code[:8]})
        if len(raw) > MAX_TILES:
            raise ValueError(_("手牌最多 %(max)s 张，现在有 %(n)s 张") % {"max": MAX_TILES, "n": len(raw)})
        for code, n in Counter(raw).items():
            if n > 4:
                raise ValueError(_("%(tile)s 有 %(n)s 张：同一种牌最多 4 张") % {"tile": face(code)["name"], "n": n})
        q.tiles = raw
        for name, what in (("winner", _("谁胡了")), ("discarder", _("谁放铳"))):
            if get.get(name, "") != "":
                setattr(q, name, _seat(get[name], seats, what))
        q.flags = {name: get.get(name) in ("1", "on", "true") for name in rules.FLAGS}
        first = get.get("first_round") or None
        if first is not None and first not in rules.FIRST_ROUND:
            shown = _(FIRST_ROUND_ZH[first]) if first in FIRST_ROUND_ZH else first[:8]
            raise ValueError(_("这套规则没有「%(name)s」") % {"name": shown})
        q.first_round = first
        melded = get.get("melded", "0") or "0"
        if not _digits(melded) or int(melded) > 4:
            raise ValueError(_("碰/杠出的副数应为 0-4"))
        q.melded = int(melded)
        q.chosen = chosen_of(get, ruleset)
    except ValueError as problem:
        q.error = str(problem)
    return q


def _names(codes: list[str]) -> str:
    return pick("、", ", ").join(face(code)["name"] for code in codes)


def engine_request(game, q: Query, dealer: int) -> dict:
    """The hand-analysis request at the game's house rules, ``dealer`` and, where counted, the winner's seat wind."""
    request = {"ruleset": game.ruleset, "tiles": q.tiles, "melded": q.melded, "rules": game.rules}
    if q.flip is not None:
        request["flip"] = q.flip
    request.update({k: True for k, on in q.flags.items() if on})
    if q.first_round:
        request["first_round"] = q.first_round
    if q.winner is not None:
        request["dealer"] = q.winner == dealer
        if analyser(game.ruleset).SEAT_WIND:
            request["seat_wind"] = "ESWN"[(q.winner - dealer) % 4]
    return request


def can_win(ruleset: str, answer: dict) -> bool:
    return bool(answer.get("complete")) and analyser(ruleset).can_win(answer)


def is_discard(ruleset: str, answer: dict, q: Query) -> bool:
    return analyser(ruleset).is_discard(answer, bool(q.flags.get("self_drawn") or q.flags.get("after_kong")))


def hand_entry(ruleset: str, answer: dict, winner: int, discarder: int | None) -> dict:
    """The contract HAND object the answer describes (discarder None: self-drawn)."""
    entry = analyser(ruleset).hand_entry(answer, winner)
    if discarder is not None:
        entry["discarder"] = discarder
    return entry


def net_for(game, state, entry: dict) -> int | None:
    """What the winner would gain with this entry at the table's current state (None: refused)."""
    engine = game.plugin
    try:
        result = engine.score_hand(game.house_rules(), state, engine.parse_hand(entry))
    except ScoringError:
        return None
    return result.net[entry["winner"]]


def prices(game, state, q: Query, answer: dict) -> list[str]:
    """「老王+42」 self-drawn; 「小李放：老王+14」 per discarder, or 「谁放铳都是 老王+14」 when all give the same."""
    if q.winner is None or not can_win(game.ruleset, answer):
        return []
    names = game.seating
    winner = names[q.winner]
    if not is_discard(game.ruleset, answer, q):
        net = net_for(game, state, hand_entry(game.ruleset, answer, q.winner, None))
        return [] if net is None else [f"{winner}{fmt(net, signed=True)}"]
    nets = {}
    for seat in range(len(names)):
        if seat != q.winner:
            net = net_for(game, state, hand_entry(game.ruleset, answer, q.winner, seat))
            if net is not None:
                nets[names[seat]] = net
    if len(nets) > 1 and len(set(nets.values())) == 1:  # whoever discards, the same: say it once
        values = {"winner": winner, "net": fmt(next(iter(nets.values())), signed=True)}
        return [words(game)["anyone"] % values]
    return [
        _("%(discarder)s放：%(winner)s%(net)s") % {"discarder": name, "winner": winner, "net": fmt(net, signed=True)}
        for name, net in nets.items()
    ]


def answer_text(game, answer: dict) -> str:
    """The answer as the table reads it, at the game's house rules, in the ruleset's own way."""

    def text() -> str:
        return breakdown(answer, game.ruleset, zh=chinese(), rules=game.rules)

    return game.plugin.form_side.analyse_text(answer, text)


def use_links(game, record_url: str, q: Query, answer: dict) -> list[dict]:
    """「用这个记分」: one link (self-drawn, or the discarder known) or one per other player."""
    form_side = game.plugin.form_side
    said = words(game)

    def url(discarder):
        data = form_side.initial(hand_entry(game.ruleset, answer, q.winner, discarder), None)
        return f"{record_url}?{urlencode(data, doseq=True)}"

    def use_with(seat):  # 「用这个记分（小李放铳）」
        return {"label": said["use_with"] % {"name": game.seating[seat]}, "url": url(seat)}

    if not is_discard(game.ruleset, answer, q):
        return [{"label": _("用这个记分"), "url": url(None)}]
    if q.discarder is not None and q.discarder != q.winner:
        return [use_with(q.discarder)]
    others = [s for s in range(len(game.seating)) if s != q.winner]
    if len(others) == 1:
        return [use_with(others[0])]
    return [{"label": said["discarded"] % {"name": game.seating[s]}, "url": url(s)} for s in others]


def _keyboard(q: Query, base: str, choosing_flip: bool) -> list[dict]:
    """Four rows (万 筒 条 字); a key is a link, or None when a fifth tile (or a 15th) would be added."""
    counts = Counter(q.tiles)
    full = len(q.tiles) >= MAX_TILES
    rows = []
    for label, codes in ROWS:
        keys = []
        for code in codes:
            if choosing_flip:
                url = q.link(base, flip=code)
                keys.append({**face(code), "count": 0, "url": url, "on": code == q.flip})
            else:
                n = counts[code]
                url = None if n >= 4 or full else q.link(base, tiles=",".join([*q.tiles, code]))
                keys.append({**face(code), "count": n, "url": url, "on": False})
        rows.append({"label": _(label), "keys": keys})
    return rows


def _toggles(game, q: Query, base: str, dealer: int) -> list[dict]:
    """自摸 / 杠开 / 抢杠 / 海底, then the first-round wins the winner could claim."""
    out = []
    for name in analyser(game.ruleset).FLAGS:
        on = q.flags[name]
        flags = dict(q.flags, **{name: not on})
        if name == "after_kong" and not on:
            flags.update(self_drawn=True, robbing_kong=False)
        if name == "self_drawn" and on:
            flags["after_kong"] = False
        if name == "robbing_kong" and not on:
            flags.update(self_drawn=False, after_kong=False)
        if name == "self_drawn" and not on:
            flags["robbing_kong"] = False
        changes = {k: v or None for k, v in flags.items() if k in q.flags}  # only the toggles it offers
        out.append({"label": _(FLAG_ZH[name]), "on": on, "url": q.link(base, **changes)})
    for code in analyser(game.ruleset).FIRST_ROUND:
        if q.winner is None or (code == "tianhu") != (q.winner == dealer):
            continue  # 天胡 is the dealer's, 地胡/人胡 the others'
        on = q.first_round == code
        drawn = None if code == "dihu" else 1
        changes = {"first_round": None} if on else {"first_round": code, "self_drawn": drawn, "robbing_kong": None}
        out.append({"label": _(FIRST_ROUND_ZH[code]), "on": on, "url": q.link(base, **changes)})
    return out


def drawn_only(ruleset: str, q: Query, tile: str) -> Query | None:
    """Nobody wins on a discarded 财神 (docs/rules/yiwu.md §9): then the query as self-drawn, else None."""
    if tile not in wild_codes(ruleset, q.flip) or q.flags.get("self_drawn") or q.flags.get("after_kong"):
        return None
    if trait(ruleset, "SELF_DRAWN_ONLY"):
        return None
    first = None if q.first_round == "dihu" else q.first_round  # 地胡 is won on a discard
    return replace(q, flags={**q.flags, "self_drawn": True, "robbing_kong": False}, first_round=first, discarder=None)


def _wait(game, q: Query, state, wait: dict) -> dict:
    """One wait with its text and prices; a 财神 wait as self-drawn only, said so."""
    drawn = drawn_only(game.ruleset, q, wait["tile"])
    if drawn is not None:
        drawn = replace(drawn, tiles=[*q.tiles, wait["tile"]])
        wait, q = {"tile": wait["tile"], **applied(game, drawn, engine_request(game, drawn, state.dealer))[1]}, drawn
    out = {**face(wait["tile"]), "text": answer_text(game, wait), "prices": prices(game, state, q, wait)}
    return {**out, "note": _("只能自摸：打出的财神不能胡") if drawn is not None else ""}


def _grouped(waits: list[dict]) -> list[dict]:
    """Waits that read and pay the same, one line each (a hand any tile completes waits on 34)."""
    groups: dict[tuple, dict] = {}
    for wait in waits:
        key = (wait["text"], tuple(wait["prices"]), wait["note"])
        groups.setdefault(key, {**wait, "tiles": []})["tiles"].append(face(wait["code"]))
    out = list(groups.values())
    for group in out:
        group["every"] = len(group["tiles"]) == len(waits)
        group["names"] = _names([t["code"] for t in group["tiles"]])
    return out


def _answer(game, q: Query, state, can_edit: bool, links: tuple[str, str]) -> dict:
    """What the tiles say (「还差N张」, the waits with their prices, or the 14-tile answer) and the ruleset's chips."""
    if len(q.tiles) < 13:
        return {"kind": "short", "need": 13 - len(q.tiles)}
    drawn = drawn_only(game.ruleset, q, q.tiles[-1]) if len(q.tiles) == 14 else None
    q = drawn or q
    try:
        request = engine_request(game, q, state.dealer)
        tiles_say, answer = applied(game, q, request)
    except ScoringError as error:
        message = table_words(say(error))
        for code, name in FIRST_ROUND_ZH.items():
            message = message.replace(code, _(name))
        return {"kind": "error", "text": message}
    base, record_url = links
    asks = {"questions": question_chips(game, q, request, tiles_say, base)}
    if "waits" in answer:
        waits = [_wait(game, q, state, w) for w in answer["waits"]]
        if answer.get("any_tile"):
            return {
                "kind": "waits",
                "waits": waits,
                "any_tile": words(game)["any_tile"],
                "groups": _grouped(waits),
                **asks,
            }
        return {"kind": "waits", "waits": waits, **asks}
    if not answer["complete"]:
        return {"kind": "incomplete", "text": _("没胡：这 14 张凑不成胡牌"), **asks}
    ok = can_win(game.ruleset, answer)
    out = {"kind": "complete", "ok": ok, "text": answer_text(game, answer), **asks}
    out["note"] = _("只能自摸：打出的财神不能胡") if drawn is not None else ""
    out["prices"] = prices(game, state, q, answer) if ok else []
    if ok and can_edit and game.status == "playing" and q.winner is not None:
        out["use"] = use_links(game, record_url, q, answer)
    return out


def script_words() -> str:
    """What static/js/analyse.js says as it changes the page, translated, with ``{name}``, ``{n}`` and
    ``{need}`` left for it to fill (the page's languages have no plural forms but these)."""

    def fill(text: str) -> str:
        return text.replace("%(name)s", "{name}").replace("%(n)s", "{n}").replace("%(need)s", "{need}")

    said = {
        "has": fill(_("%(name)s，已有 %(n)s 张")),
        "full": fill(_("%(name)s（满）")),
        "full_has": fill(_("%(name)s，已有 %(n)s 张（满）")),
        "remove": fill(_("去掉 %(name)s")),
        "count": [fill(ngettext("%(n)s 张", "%(n)s 张", n)) for n in (1, 2)],
        "need": [fill(ngettext("还差%(need)s张", "还差%(need)s张", n)) for n in (1, 2)],
        "reading": _("正在算…"),
        "full_hint": _("14 张满了：点上面的牌可以去掉它"),
        "empty": _("点下面的牌，一张一张加进来（最后一张是胡的那张）"),
    }
    return json.dumps(said, ensure_ascii=False)  # an attribute (htmx drops the <script> elements it swaps in)


def build_page(game, q: Query, state, can_edit: bool, base: str, record_url: str) -> dict:
    """Everything the 算牌 template shows, at the table's current ``state``."""
    page = {"q": q, "words": words(game)}
    if q.error:
        page["restart"] = q.link(base, tiles=None) if q.flip else base
        return page
    dealer = state.dealer
    page["winners"] = [
        {"name": name, "dealer": s == dealer, "on": s == q.winner, "url": q.link(base, winner=s, first_round=None)}
        for s, name in enumerate(game.seating)
    ]
    fixed = fixed_wilds(game.ruleset)  # nothing to flip: straight to the hand
    if q.flip is None and not fixed:
        page.update(stage="flip", rows=_keyboard(q, base, True))
        return page
    page.update(
        stage="hand",
        flip=None if fixed else face(q.flip),
        wilds=[face(c) for c in wild_codes(game.ruleset, q.flip)],
        bai_stands_in=analyser(game.ruleset).BAI_STANDS_IN and q.flip != "P",
        change_flip=None if fixed else q.link(base, flip=None),
        without_tiles=q.link(base, tiles=None),
        script_words=script_words(),
        strip=[
            {**face(c), "url": q.link(base, tiles=",".join(q.tiles[:i] + q.tiles[i + 1 :]))}
            for i, c in enumerate(q.tiles)
        ],
        count=len(q.tiles),
        rows=_keyboard(q, base, False),
        undo=q.link(base, tiles=",".join(q.tiles[:-1])) if q.tiles else None,
        clear=q.link(base, tiles=None) if q.tiles else None,
        toggles=_toggles(game, q, base, dealer),
        melded=[{"n": n, "on": n == q.melded, "url": q.link(base, melded=n or None)} for n in range(5)],
        answer=_answer(game, q, state, can_edit, (base, record_url)),
    )
    return page
