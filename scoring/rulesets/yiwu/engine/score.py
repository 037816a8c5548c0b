"""Each hand judged and scored, then applied to the table's state (docs/rules/yiwu.md §2 dealer to §10 逃跑)."""

from dataclasses import dataclass, field

from scoring.engine.errors import ScoringError
from scoring.engine.payment import BasePayment, BaseResult

from .explain import explain, formula
from .hands import HandEntry
from .rules import Rules
from .validity import apply_joins, apply_maizi, validate_feeders, validate_no_win_fields, validate_win

PIAO_MULT = {1: 8, 2: 16}  # §10: a feeder who leaves pays the 飘-success total
ABANDON_MULT = {0: 1, 1: 2, 2: 4}  # §10: the leaver's c by 飘 level


class Payment(BasePayment, explain=explain, formula=formula):
    __slots__ = ()


@dataclass(slots=True)
class HandResult(BaseResult):
    PAID_ON = "multiplier"  # paid on the 倍

    multiplier: int
    maizi: tuple[int, ...]
    xiazi: tuple[int, ...]


@dataclass(slots=True)
class TableState:
    dealer: int = 0
    streak: int = 0  # §2 dealer wins so far in this tenure
    maizi: tuple[int, ...] = (0, 0, 0, 0)  # §7 买子 held
    xiazi: tuple[int, ...] = (0, 0, 0, 0)  # §8 下子 in force (already doubled)
    tenure_hands: int = 0  # hands played in this dealer's tenure
    join_mult: int = 0  # §8 M of the previous hand when it was a dealer win: 下子 may be placed
    totals: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    def to_dict(self) -> dict:
        return {
            "dealer": self.dealer,
            "streak": self.streak,
            "maizi": list(self.maizi),
            "xiazi": list(self.xiazi),
            "tenure_hands": self.tenure_hands,
            "join_mult": self.join_mult,
            "totals": list(self.totals),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "TableState":
        return cls(
            dealer=data["dealer"],
            streak=data["streak"],
            maizi=tuple(data["maizi"]),
            xiazi=tuple(data["xiazi"]),
            tenure_hands=data["tenure_hands"],
            join_mult=data["join_mult"],
            totals=list(data["totals"]),
        )

    def may_buy_maizi(self, rules: Rules) -> bool:
        """§7: a new 买子 is allowed on this hand."""
        return rules.maizi_buy == "any_hand" or self.tenure_hands == 0

    def correct(self, dealer: int, streak: int) -> None:
        """A correction from the table; a different dealer starts a new tenure (§7, §8 reset)."""
        if dealer != self.dealer:
            self.dealer = dealer
            self.tenure_hands = self.join_mult = 0
            self.maizi = self.xiazi = (0, 0, 0, 0)
        self.streak = streak

    def join_amount(self, rules: Rules) -> int:
        """§8: the 下子 a non-dealer may place now (0 = none may be placed)."""
        if rules.xiazi_cap is None:
            return self.join_mult
        return min(self.join_mult, rules.xiazi_cap)


def _terms(rules: Rules, dealer: int, maizi, xiazi, a: int, b: int) -> list[tuple[str, int]]:
    """§3 the pair unit of a and b as (term code, points), labelled by explain.TERMS."""
    if a == dealer or b == dealer:
        terms = [("dealer", rules.base_dealer)]
        bet = rules.xiazi_points * xiazi[b if a == dealer else a]
    else:
        terms = [("base", rules.base_other)]
        bet = 0
    bought = rules.maizi_points * (maizi[a] + maizi[b])
    if bought:
        terms.append(("maizi", bought))
    if bet:
        terms.append(("xiazi", bet))
    return terms


# --- settlement (§5, §6, §10) ---------------------------------------------------------


def _unit(terms) -> int:
    return sum(t[1] for t in terms)


def _settle_win(rules: Rules, dealer: int, maizi, xiazi, hand: HandEntry) -> list[Payment]:
    """§5: every loser's share, then who actually pays it (承包, 反赔)."""
    wt, winner, m = hand.win_type.code, hand.winner, hand.win_type.multiplier
    shares: dict[int, int] = {}
    whys: dict[int, tuple] = {}
    for q in range(4):
        if q == winner:
            continue
        terms = _terms(rules, dealer, maizi, xiazi, q, winner)
        unit = _unit(terms)
        if q != hand.discarder:
            shares[q] = unit * m
            whys[q] = ("win", terms, m, wt, None)
        elif rules.discarder_extra == "plus1":  # §5.1 放铳者多+1个分
            shares[q] = (unit + 1) * m
            whys[q] = ("win", terms, m, wt, "plus1")
        else:  # §5.1 多付一倍
            shares[q] = unit * 2 * m
            whys[q] = ("win", terms, m, wt, "double")
    piao, feeders = hand.piao_player, hand.feeders
    if feeders and winner == piao:
        return _feeders_pay(rules, hand, shares)
    if feeders and winner in feeders:  # §5.3 反赔: the 飘 player pays the feeder who won
        k = rules.fanpei_factor
        return [Payment(piao, winner, k * sum(shares.values()), ("fanpei", k, tuple(shares.items()), wt))]
    return [Payment(q, winner, shares[q], whys[q]) for q in shares]


def _feeders_pay(rules: Rules, hand: HandEntry, shares: dict[int, int]) -> list[Payment]:
    """§5.3 承包: the 飘 player won; the feeders pay everything."""
    wt, winner, feeders = hand.win_type.code, hand.winner, hand.feeders
    if len(feeders) == 1 or rules.multi_feeder == "first":
        return [Payment(feeders[0], winner, sum(shares.values()), ("feeder_all", tuple(shares.items()), wt))]
    others = {q: s for q, s in shares.items() if q not in feeders}
    part, rest = divmod(sum(others.values()), len(feeders))
    payments = []
    for i, f in enumerate(feeders):
        # The split is exact for every 飘 multiplier; a remainder would go to the first listed.
        amount = shares[f] + part + (1 if i < rest else 0)
        why = ("feeder_shared", shares[f], tuple(others.items()), len(feeders), wt)
        payments.append(Payment(f, winner, amount, why))
    payments.sort(key=lambda p: p.payer)
    return payments


def _settle_draw(rules: Rules, dealer: int, maizi, xiazi, hand: HandEntry) -> list[Payment]:
    """§6: nobody pays, except a failed 双飘."""
    if hand.piao_level != 2:
        return []
    piao, mult = hand.piao_player, rules.shuangpiao_draw_mult
    bets = xiazi if rules.shuangpiao_draw_includes_xiazi else (0, 0, 0, 0)
    return _pays_everyone(rules, dealer, maizi, bets, piao, "shuangpiao_draw", mult)


def _settle_abandon(rules: Rules, dealer: int, maizi, xiazi, hand: HandEntry) -> list[Payment]:
    """§10: the leaver pays everyone, or a leaving feeder pays the 飘 player's success."""
    leaver, piao, level = hand.leaver, hand.piao_player, hand.piao_level
    if leaver in hand.feeders:
        m = PIAO_MULT[level]
        shares = {q: _unit(_terms(rules, dealer, maizi, xiazi, q, piao)) * m for q in range(4) if q != piao}
        return [Payment(leaver, piao, sum(shares.values()), ("feeder_left", tuple(shares.items()), m))]
    return _pays_everyone(rules, dealer, maizi, xiazi, leaver, "abandon", ABANDON_MULT[level])


def _pays_everyone(rules: Rules, dealer: int, maizi, xiazi, payer: int, kind: str, mult: int) -> list[Payment]:
    """``payer`` pays each other seat their pair unit × ``mult`` (§6 双飘不成, §10 逃跑)."""
    payments = []
    for q in range(4):
        if q != payer:
            terms = _terms(rules, dealer, maizi, xiazi, payer, q)
            payments.append(Payment(payer, q, _unit(terms) * mult, (kind, terms, mult)))
    return payments


def score_hand(rules: Rules, state: TableState, hand: HandEntry) -> HandResult:
    dealer = state.dealer
    maizi = apply_maizi(rules, state, hand)
    xiazi = apply_joins(rules, state, hand)
    validate_feeders(hand)
    if hand.outcome == "win":
        validate_win(rules, hand)
        payments = _settle_win(rules, dealer, maizi, xiazi, hand)
        multiplier = hand.win_type.multiplier
    elif hand.outcome == "draw":
        validate_no_win_fields(hand, "流局", "A draw")
        if hand.leaver is not None:
            raise ScoringError("只有逃跑才填写逃跑者", "Only an abandon has a leaver", "leaver")
        payments = _settle_draw(rules, dealer, maizi, xiazi, hand)
        multiplier = 0
    else:
        if not rules.abandon_enabled:
            raise ScoringError(
                "§10 本局规则没有开启逃跑", "§10 Abandons are not enabled in this game's rules", "outcome"
            )
        validate_no_win_fields(hand, "逃跑", "An abandon")
        if hand.leaver is None:
            raise ScoringError("§10 逃跑需要填写谁逃跑了", "§10 An abandon needs the leaver", "leaver")
        payments = _settle_abandon(rules, dealer, maizi, xiazi, hand)
        multiplier = 0
    # Payments come out sorted by (from, to): one payee, or one payer, or feeders sorted.
    payments = [p for p in payments if p.amount > 0]
    net = [0, 0, 0, 0]
    for p in payments:
        net[p.payer] -= p.amount
        net[p.payee] += p.amount
    return HandResult(dealer, state.streak, multiplier, maizi, xiazi, net=net, payments=payments)


def after_seating(state: TableState) -> None:
    """§7, §8: a change of people ends every bet; the next hand is like a game's first for both."""
    state.maizi = state.xiazi = (0, 0, 0, 0)
    state.tenure_hands = state.join_mult = 0


def advance(rules: Rules, state: TableState, hand: HandEntry, result: HandResult) -> None:
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
