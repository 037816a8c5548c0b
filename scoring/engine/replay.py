"""Game replay: the table's state from hand to hand and the settlement of each hand.

yiwu-rules.md §2 (dealer, 连庄), §3 (pair unit), §5 (wins, 承包/反赔), §6 (draws),
§7 (买子), §8 (下子), §9 (validation), §10 (逃跑). Nothing here mutates the state of a
hand that is rejected: a hand is judged and scored first, then applied.
"""

from dataclasses import dataclass, field

from .errors import ScoringError
from .hands import Hand, parse_hand
from .rules import Rules
from .wintypes import SEATS_EN, SEATS_ZH, WinType

PIAO_MULT = {1: 8, 2: 16}  # §10: a feeder who leaves pays the 飘-success total
ABANDON_MULT = {0: 1, 1: 2, 2: 4}  # §10: the leaver's c by 飘 level


@dataclass(slots=True)
class Payment:
    payer: int
    payee: int
    amount: int
    zh: str  # e.g. 西→南 6 = (闲5 + 放铳1) × 1 平胡
    en: str

    def to_dict(self) -> dict:
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "explain": self.zh, "explain_en": self.en}


@dataclass(slots=True)
class HandResult:
    dealer: int
    streak: int
    multiplier: int
    maizi: tuple[int, ...]
    xiazi: tuple[int, ...]
    net: list[int]
    payments: list[Payment]

    def to_dict(self) -> dict:
        return {
            "dealer": self.dealer,
            "streak": self.streak,
            "multiplier": self.multiplier,
            "maizi": list(self.maizi),
            "xiazi": list(self.xiazi),
            "net": self.net,
            "payments": [p.to_dict() for p in self.payments],
        }


@dataclass(slots=True)
class TableState:
    """The state the next hand is played in."""

    dealer: int = 0
    streak: int = 0  # §2 dealer wins so far in this tenure
    maizi: tuple[int, ...] = (0, 0, 0, 0)  # §7 买子 held
    xiazi: tuple[int, ...] = (0, 0, 0, 0)  # §8 下子 in force (already doubled)
    tenure_hands: int = 0  # hands played in this dealer's tenure
    join_mult: int = 0  # §8 M of the previous hand when it was a dealer win: 下子 may be placed
    totals: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    def may_buy_maizi(self, rules: Rules) -> bool:
        """§7: a new 买子 is allowed on this hand."""
        return rules.maizi_buy == "any_hand" or self.tenure_hands == 0

    def join_amount(self, rules: Rules) -> int:
        """§8: the 下子 a non-dealer may place now (0 = none may be placed)."""
        if rules.xiazi_cap is None:
            return self.join_mult
        return min(self.join_mult, rules.xiazi_cap)


def _err(zh: str, en: str, field_name: str | None = None) -> ScoringError:
    return ScoringError(None, zh, en, field=field_name)


def _terms(rules: Rules, dealer: int, maizi, xiazi, a: int, b: int) -> list[tuple[str, str, int]]:
    """§3 the pair unit of a and b as labelled terms (zh, en, points)."""
    if a == dealer or b == dealer:
        terms = [("庄", "dealer", rules.base_dealer)]
        bet = rules.xiazi_points * xiazi[b if a == dealer else a]
    else:
        terms = [("闲", "base", rules.base_other)]
        bet = 0
    bought = rules.maizi_points * (maizi[a] + maizi[b])
    if bought:
        terms.append(("买子", "maizi", bought))
    if bet:
        terms.append(("下子", "xiazi", bet))
    return terms


def _fmt(terms, zh: bool) -> str:
    parts = [f"{t[0]}{t[2]}" if zh else f"{t[1]} {t[2]}" for t in terms]
    joined = " + ".join(parts)
    return f"({joined})" if len(parts) > 1 else joined


def _pay(payer: int, payee: int, amount: int, zh: str, en: str) -> Payment:
    return Payment(payer, payee, amount, f"{SEATS_ZH[payer]}→{SEATS_ZH[payee]} {amount} = {zh}", f"{SEATS_EN[payer]}→{SEATS_EN[payee]} {amount} = {en}")


def _shares_text(shares: dict[int, int], zh: bool) -> str:
    names = SEATS_ZH if zh else SEATS_EN
    return " + ".join(f"{names[q]}{s}" if zh else f"{names[q]} {s}" for q, s in shares.items())


# --- validation (§9, §10) -------------------------------------------------------------


def _check_win(rules: Rules, hand: Hand) -> None:
    wt, winner = hand.win_type, hand.winner
    if winner is None or wt is None:
        raise _err("胡牌需要填写谁胡了和胡牌型", "A win needs a winner and a win type", "winner" if winner is None else "win_type")
    if hand.leaver is not None:
        raise _err("只有逃跑才填写逃跑者", "Only an abandon has a leaver", "leaver")
    if wt.discard:
        if hand.discarder is None:
            raise _err(f"§9 {wt.zh}是放铳胡，需要填写谁放铳", f"§9 {wt.en} is a discard win: who discarded?", "discarder")
        if hand.discarder == winner:
            raise _err("§9 放铳者不能是胡牌者自己", "§9 The discarder cannot be the winner", "discarder")
    elif hand.discarder is not None:
        raise _err(f"§9 {wt.zh}不是放铳胡，不能有放铳者", f"§9 {wt.en} is not a discard win: no discarder", "discarder")
    _check_piao_win(rules, hand, wt, winner)
    if hand.caishen is not None and not wt.piao_level:
        if hand.caishen == 2 and wt.discard:
            raise _err("§9 手里有两个财神一定要自摸，不能放铳胡", "§9 With 2 财神 the winner must self-draw, not win on a discard", "caishen")
        if hand.caishen >= 3 and not (wt.caishentou or wt.code == "gangkai"):
            raise _err("§9 手里有三个财神只能胡财神头或杠开", "§9 With 3 财神 only a 财神头 type or 杠开 may win", "caishen")


def _check_piao_win(rules: Rules, hand: Hand, wt: WinType, winner: int) -> None:
    piao, level = hand.piao_player, hand.piao_level
    if wt.piao_level:
        if piao != winner:
            raise _err(f"§9 {wt.zh}只能由飘的人胡：先标记谁飘了", f"§9 {wt.en} needs the winner to be the one who floated", "win_type")
        if level != wt.piao_level:
            need = "单飘" if level == 1 else "双飘"
            raise _err(f"§9 飘的级别与胡牌型不符：应胡{need}", f"§9 The float level does not match the win type ({need})", "win_type")
    elif piao is not None:
        if winner == piao:
            raise _err("§9 飘的人只能以飘胡（单飘/双飘）", "§9 The player who floated can only win with a float type", "win_type")
        if level == 1 and wt.discard:
            raise _err("§9 单飘后其他人不能放铳胡，必须自摸", "§9 After a 单飘 nobody else may win on a discard", "win_type")
        allowed = wt.code == "gangkai" or (rules.others_may_caishentou_after_shuangpiao and wt.caishentou)
        if level == 2 and not allowed:
            extra = "或财神头" if rules.others_may_caishentou_after_shuangpiao else ""
            raise _err(f"§9 双飘后其他人只能杠开{extra}胡", "§9 After a 双飘 the others may only win by 杠开", "win_type")


def _check_feeders(hand: Hand) -> None:
    feeders = hand.feeders
    if not feeders:
        return
    if hand.piao_player is None:
        raise _err("§9 喂家（承包）需要有人飘", "§9 Feeders need a player who floated", "feeders")
    if hand.piao_player in feeders:
        raise _err("§9 飘的人不能是自己的喂家", "§9 The floating player cannot be a feeder", "feeders")
    if len(set(feeders)) != len(feeders):
        raise _err("§9 喂家不能重复", "§9 A feeder is listed twice", "feeders")


def _check_no_win_fields(hand: Hand, what_zh: str, what_en: str) -> None:
    for name in ("winner", "win_type", "discarder", "caishen"):
        if getattr(hand, name) is not None:
            raise _err(f"{what_zh}不应填写 {name}", f"{what_en} has no {name}", name)


def _apply_maizi(rules: Rules, state: TableState, hand: Hand) -> tuple[int, ...]:
    """§7: the 买子 in force for this hand."""
    if hand.maizi is None:
        return state.maizi
    for seat in range(4):
        if state.maizi[seat] and not hand.maizi[seat]:
            raise _err(f"§7 {SEATS_ZH[seat]}家已买子，连庄不退，换庄前不能撤销", f"§7 {SEATS_EN[seat]} holds 买子 until the dealer changes", "maizi")
        if hand.maizi[seat] and not state.maizi[seat] and not state.may_buy_maizi(rules):
            raise _err("§7 本局规则只能在坐庄第一局买子（连庄后不可买子）", "§7 买子 may only be bought on a dealer's first hand", "maizi")
    return hand.maizi


def _apply_joins(rules: Rules, state: TableState, hand: Hand) -> tuple[int, ...]:
    """§8: the 下子 in force for this hand, after this hand's joins."""
    if not hand.xiazi_join:
        return state.xiazi
    full = state.join_amount(rules)
    if not full:
        raise _err("§8 只有庄家胡牌后的下一局才能下子", "§8 下子 may only be placed right after a dealer win", "xiazi_join")
    xiazi = list(state.xiazi)
    for seat, amount in hand.xiazi_join.items():
        if seat == state.dealer:
            raise _err("§8 庄家不能下子", "§8 The dealer never places 下子", "xiazi_join")
        if xiazi[seat]:
            raise _err(f"§8 {SEATS_ZH[seat]}家已经下子了", f"§8 {SEATS_EN[seat]} already has a 下子", "xiazi_join")
        if amount is None:
            amount = full
        elif rules.xiazi_amount == "fixed" and amount != full:
            raise _err(f"§8 下子数额固定为 {full}", f"§8 The 下子 amount is fixed at {full}", "xiazi_join")
        elif amount > full:
            raise _err(f"§8 下子最多 {full}", f"§8 下子 is at most {full}", "xiazi_join")
        xiazi[seat] = amount
    return tuple(xiazi)


# --- settlement (§5, §6, §10) ---------------------------------------------------------


def _settle_win(rules: Rules, dealer: int, maizi, xiazi, hand: Hand) -> list[Payment]:
    wt, winner, m = hand.win_type, hand.winner, hand.win_type.multiplier
    shares: dict[int, int] = {}
    texts: dict[int, tuple[str, str]] = {}
    for q in range(4):
        if q == winner:
            continue
        terms = _terms(rules, dealer, maizi, xiazi, q, winner)
        unit = sum(t[2] for t in terms)
        if q != hand.discarder:
            shares[q] = unit * m
            texts[q] = (f"{_fmt(terms, True)} × {m} {wt.zh}", f"{_fmt(terms, False)} × {m} {wt.en}")
        elif rules.discarder_extra == "plus1":  # §5.1 放铳者多+1个分
            terms.append(("放铳", "discard", 1))
            shares[q] = (unit + 1) * m
            texts[q] = (f"{_fmt(terms, True)} × {m} {wt.zh}", f"{_fmt(terms, False)} × {m} {wt.en}")
        else:  # §5.1 多付一倍
            shares[q] = unit * 2 * m
            texts[q] = (f"{_fmt(terms, True)} × 2 放铳加倍 × {m} {wt.zh}", f"{_fmt(terms, False)} × 2 discard × {m} {wt.en}")
    piao, feeders = hand.piao_player, hand.feeders
    if feeders and winner == piao:
        return _feeders_pay(rules, hand, shares)
    if feeders and winner in feeders:  # §5.3 反赔: the 飘 player pays the feeder who won
        total = sum(shares.values())
        k = rules.fanpei_factor
        zh = f"反赔 {k} × ({_shares_text(shares, True)})，{wt.zh} ×{m}"
        en = f"reverse pay {k} × ({_shares_text(shares, False)}), {wt.en} ×{m}"
        return [_pay(piao, winner, k * total, zh, en)]
    return [_pay(q, winner, shares[q], *texts[q]) for q in shares]


def _feeders_pay(rules: Rules, hand: Hand, shares: dict[int, int]) -> list[Payment]:
    """§5.3 承包: the 飘 player won; the feeders pay everything."""
    wt, winner, feeders = hand.win_type, hand.winner, hand.feeders
    suffix_zh, suffix_en = f"{wt.zh} ×{wt.multiplier}", f"{wt.en} ×{wt.multiplier}"
    if len(feeders) == 1 or rules.multi_feeder == "first":
        total = sum(shares.values())
        zh = f"承包全赔 ({_shares_text(shares, True)})，{suffix_zh}"
        en = f"feeder pays all ({_shares_text(shares, False)}), {suffix_en}"
        return [_pay(feeders[0], winner, total, zh, en)]
    others = {q: s for q, s in shares.items() if q not in feeders}
    part, rest = divmod(sum(others.values()), len(feeders))
    payments = []
    for i, f in enumerate(feeders):
        extra = part + (1 if i < rest else 0)  # the split is exact for every 飘 multiplier
        if others:
            zh = f"承包分摊：自己{shares[f]} + ({_shares_text(others, True)}) ÷ {len(feeders)}，{suffix_zh}"
            en = f"shared liability: own {shares[f]} + ({_shares_text(others, False)}) / {len(feeders)}, {suffix_en}"
        else:
            zh, en = f"承包：自己的份 {shares[f]}，{suffix_zh}", f"liability: own share {shares[f]}, {suffix_en}"
        payments.append(_pay(f, winner, shares[f] + extra, zh, en))
    return payments


def _settle_draw(rules: Rules, dealer: int, maizi, xiazi, hand: Hand) -> list[Payment]:
    """§6: nobody pays, except a failed 双飘."""
    if hand.piao_level != 2:
        return []
    piao, mult = hand.piao_player, rules.shuangpiao_draw_mult
    bets = xiazi if rules.shuangpiao_draw_includes_xiazi else (0, 0, 0, 0)
    payments = []
    for q in range(4):
        if q != piao:
            terms = _terms(rules, dealer, maizi, bets, piao, q)
            amount = sum(t[2] for t in terms) * mult
            payments.append(_pay(piao, q, amount, f"{_fmt(terms, True)} × {mult} 双飘不成", f"{_fmt(terms, False)} × {mult} failed double float"))
    return payments


def _settle_abandon(rules: Rules, dealer: int, maizi, xiazi, hand: Hand) -> list[Payment]:
    """§10: the leaver pays everyone, or a leaving feeder pays the 飘 player's success."""
    leaver, piao, level = hand.leaver, hand.piao_player, hand.piao_level
    if leaver in hand.feeders:
        m = PIAO_MULT[level]
        shares = {q: sum(t[2] for t in _terms(rules, dealer, maizi, xiazi, q, piao)) * m for q in range(4) if q != piao}
        zh = f"喂家逃跑，包赔飘成 ({_shares_text(shares, True)})，×{m}"
        en = f"feeder left: pays the float's success ({_shares_text(shares, False)}), ×{m}"
        return [_pay(leaver, piao, sum(shares.values()), zh, en)]
    c = ABANDON_MULT[level]
    payments = []
    for q in range(4):
        if q != leaver:
            terms = _terms(rules, dealer, maizi, xiazi, leaver, q)
            amount = sum(t[2] for t in terms) * c
            payments.append(_pay(leaver, q, amount, f"{_fmt(terms, True)} × {c} 逃跑", f"{_fmt(terms, False)} × {c} abandon"))
    return payments


def score_hand(rules: Rules, state: TableState, hand: Hand) -> HandResult:
    """Judge and settle one hand played in ``state``, then advance ``state`` (§2).

    Raises ``ScoringError`` (hand=None) and leaves ``state`` untouched on a bad entry.
    """
    dealer = state.dealer
    maizi = _apply_maizi(rules, state, hand)
    xiazi = _apply_joins(rules, state, hand)
    _check_feeders(hand)
    if hand.outcome == "win":
        _check_win(rules, hand)
        payments = _settle_win(rules, dealer, maizi, xiazi, hand)
        multiplier = hand.win_type.multiplier
    elif hand.outcome == "draw":
        _check_no_win_fields(hand, "流局", "A draw")
        if hand.leaver is not None:
            raise _err("只有逃跑才填写逃跑者", "Only an abandon has a leaver", "leaver")
        payments = _settle_draw(rules, dealer, maizi, xiazi, hand)
        multiplier = 0
    else:
        if not rules.abandon_enabled:
            raise _err("§10 本局规则没有开启逃跑", "§10 Abandons are not enabled in this game's rules", "outcome")
        _check_no_win_fields(hand, "逃跑", "An abandon")
        if hand.leaver is None:
            raise _err("§10 逃跑需要填写谁逃跑了", "§10 An abandon needs the leaver", "leaver")
        payments = _settle_abandon(rules, dealer, maizi, xiazi, hand)
        multiplier = 0
    payments = sorted((p for p in payments if p.amount > 0), key=lambda p: (p.payer, p.payee))
    net = [0, 0, 0, 0]
    for p in payments:
        net[p.payer] -= p.amount
        net[p.payee] += p.amount
    result = HandResult(dealer, state.streak, multiplier, maizi, xiazi, net, payments)
    _advance(rules, state, hand, result)
    return result


def _advance(rules: Rules, state: TableState, hand: Hand, result: HandResult) -> None:
    """§2, §7, §8: the state of the next hand."""
    for seat in range(4):
        state.totals[seat] += result.net[seat]
    if hand.outcome == "win" and hand.winner != state.dealer:
        state.dealer = (state.dealer + 1) % 4
        state.streak = state.tenure_hands = state.join_mult = 0
        state.maizi = state.xiazi = (0, 0, 0, 0)
        return
    state.maizi = result.maizi
    state.tenure_hands += 1
    if hand.outcome == "win":  # the dealer won: 连庄, every bet doubles
        cap = rules.xiazi_cap
        state.streak += 1
        state.join_mult = result.multiplier
        state.xiazi = tuple(2 * b if cap is None else min(2 * b, cap) for b in result.xiazi)
    else:  # a draw or abandon neither doubles bets nor allows new ones
        state.xiazi = result.xiazi
        state.join_mult = 0


def replay(rules: Rules, hands, first_dealer: int = 0, start: TableState | None = None) -> tuple[list[HandResult], TableState]:
    """Score every hand in order. ``hands`` holds contract HAND objects or parsed ``Hand``s.

    Returns the results and the state the next hand would be played in. Raises
    ``ScoringError`` with the index of the first bad hand.
    """
    state = start if start is not None else TableState(dealer=first_dealer)
    results = []
    for index, raw in enumerate(hands):
        try:
            hand = raw if isinstance(raw, Hand) else parse_hand(raw)
            results.append(score_hand(rules, state, hand))
        except ScoringError as error:
            raise error.at(index) from None
    return results, state
