"""Validation of one hand against the table state (docs/rules/yiwu.md §7-§10): a ``ScoringError`` naming the rule."""

from scoring.engine.errors import ScoringError
from scoring.engine.seats import SEATS_EN, SEATS_ZH

from .hands import HandEntry
from .rules import Rules
from .wintypes import WinType


def validate_win(rules: Rules, hand: HandEntry) -> None:
    wt, winner = hand.win_type, hand.winner
    if winner is None or wt is None:
        raise ScoringError(
            "胡牌需要填写谁胡了和胡牌型",
            "A win needs a winner and a win type",
            "winner" if winner is None else "win_type",
        )
    if hand.leaver is not None:
        raise ScoringError("只有逃跑才填写逃跑者", "Only an abandon has a leaver", "leaver")
    if wt.discard:
        if hand.discarder is None:
            raise ScoringError(
                f"§9 {wt.zh}是放铳胡，需要填写谁放铳", f"§9 {wt.en} is a discard win: who discarded?", "discarder"
            )
        if hand.discarder == winner:
            raise ScoringError("§9 放铳者不能是胡牌者自己", "§9 The discarder cannot be the winner", "discarder")
    elif hand.discarder is not None:
        raise ScoringError(
            f"§9 {wt.zh}不是放铳胡，不能有放铳者", f"§9 {wt.en} is not a discard win: no discarder", "discarder"
        )
    _validate_piao_win(rules, hand, wt, winner)
    if hand.caishen is not None and not wt.piao_level:
        if hand.caishen == 2 and wt.discard:
            raise ScoringError(
                "§9 手里有两个财神一定要自摸，不能放铳胡",
                "§9 With 2 wilds (caishen) the winner must self-draw, not win on a discard",
                "caishen",
            )
        if hand.caishen >= 3 and not (wt.caishentou or wt.code == "gangkai"):
            raise ScoringError(
                "§9 手里有三个财神只能胡财神头或杠开",
                "§9 With 3 wilds (caishen) only a wild-head type or a kong bloom may win",
                "caishen",
            )


def _validate_piao_win(rules: Rules, hand: HandEntry, wt: WinType, winner: int) -> None:
    if refusal := piao_refusal(rules, wt, winner, hand.piao_player, hand.piao_level):
        raise refusal


def piao_refusal(rules: Rules, wt: WinType, winner: int, piao: int | None, level: int | None) -> ScoringError | None:
    """§9: why ``winner`` may not win by ``wt`` when ``piao`` floated at ``level`` (None: allowed); the form asks too."""
    if wt.piao_level:
        if piao != winner:
            return ScoringError(
                f"§9 {wt.zh}只能由飘的人胡：先标记谁飘了",
                f"§9 {wt.en} needs the winner to be the one who floated",
                "win_type",
            )
        if level != wt.piao_level:
            need = "单飘" if level == 1 else "双飘"
            need_en = "single float" if level == 1 else "double float"
            return ScoringError(
                f"§9 飘的级别与胡牌型不符：应胡{need}",
                f"§9 The float level does not match the win type ({need_en})",
                "win_type",
            )
    elif piao is not None:
        if winner == piao:
            return ScoringError(
                "§9 飘的人只能以飘胡（单飘/双飘）",
                "§9 The player who floated can only win with a float type",
                "win_type",
            )
        if level == 1 and wt.discard:
            return ScoringError(
                "§9 单飘后其他人不能放铳胡，必须自摸",
                "§9 After a single float nobody else may win on a discard",
                "win_type",
            )
        allowed = wt.code == "gangkai" or (rules.others_may_caishentou_after_shuangpiao and wt.caishentou)
        if level == 2 and not allowed:
            extra = "或财神头" if rules.others_may_caishentou_after_shuangpiao else ""
            return ScoringError(
                f"§9 双飘后其他人只能杠开{extra}胡",
                "§9 After a double float the others may only win by a kong bloom",
                "win_type",
            )
    return None


def validate_feeders(hand: HandEntry) -> None:
    feeders = hand.feeders
    if not feeders:
        return
    if hand.piao_player is None:
        raise ScoringError("§9 喂家（承包）需要有人飘", "§9 Feeders need a player who floated", "feeders")
    if hand.piao_player in feeders:
        raise ScoringError("§9 飘的人不能是自己的喂家", "§9 The floating player cannot be a feeder", "feeders")
    if len(set(feeders)) != len(feeders):
        raise ScoringError("§9 喂家不能重复", "§9 A feeder is listed twice", "feeders")


def validate_no_win_fields(hand: HandEntry, what_zh: str, what_en: str) -> None:
    # caishen is optional on any hand (docs/contract.md); it only matters for a winner.
    for name in ("winner", "win_type", "discarder"):
        if getattr(hand, name) is not None:
            raise ScoringError(f"{what_zh}不应填写 {name}", f"{what_en} has no {name}", name)


def apply_maizi(rules: Rules, state, hand: HandEntry) -> tuple[int, ...]:
    """§7: the 买子 in force for this hand."""
    if hand.maizi is None:
        return state.maizi
    for seat in range(4):
        if state.maizi[seat] and not hand.maizi[seat]:
            raise ScoringError(
                f"§7 {SEATS_ZH[seat]}家已买子，连庄不退，换庄前不能撤销",
                f"§7 {SEATS_EN[seat]} holds maizi (a buy-in) until the dealer changes",
                "maizi",
            )
        if hand.maizi[seat] and not state.maizi[seat] and not state.may_buy_maizi(rules):
            raise ScoringError(
                "§7 本局规则只能在坐庄第一局买子（连庄后不可买子）",
                "§7 Maizi (a buy-in) may only be bought on a dealer's first hand",
                "maizi",
            )
    return hand.maizi


def apply_joins(rules: Rules, state, hand: HandEntry) -> tuple[int, ...]:
    """§8: the 下子 in force for this hand, after this hand's joins."""
    if not hand.xiazi_join:
        return state.xiazi
    mult, full = state.join_mult, state.join_amount(rules)  # the dealer's M, and M within the cap
    if not full:
        raise ScoringError(
            "§8 只有庄家胡牌后的下一局才能下子",
            "§8 Xiazi (a bet) may only be placed right after a dealer win",
            "xiazi_join",
        )
    xiazi = list(state.xiazi)
    for seat, amount in hand.xiazi_join.items():
        if seat == state.dealer:
            raise ScoringError("§8 庄家不能下子", "§8 The dealer never places xiazi (a bet)", "xiazi_join")
        if xiazi[seat]:
            raise ScoringError(
                f"§8 {SEATS_ZH[seat]}家已经下子了", f"§8 {SEATS_EN[seat]} already has a xiazi (a bet)", "xiazi_join"
            )
        if amount is None:
            amount = full
        elif rules.xiazi_amount == "fixed" and amount not in (mult, full):
            raise ScoringError(
                f"§8 下子数额固定为 {full}", f"§8 The xiazi (bet) amount is fixed at {full}", "xiazi_join"
            )
        elif amount > mult:
            raise ScoringError(
                f"§8 下子最多 {mult}（庄家这把的倍数）",
                f"§8 Xiazi (a bet) is at most {mult}, the dealer's multiplier",
                "xiazi_join",
            )
        xiazi[seat] = min(amount, full)  # the cap limits every bet
    return tuple(xiazi)
