"""Who may win: docs/rules/zhuji.md §4, as read in §6; each rule broken raises a ``ScoringError`` naming the rule."""

from scoring.engine.errors import ScoringError

from .hands import DRAGONS, WIND_INDEX, WIND_LABELS, HandEntry, Tai, tai_count


def _validate_repeats(tai: Tai) -> None:
    """§4 a tile can be listed once."""
    for name, listed in (("dragon_pungs", tai.dragon_pungs), ("wind_pungs", tai.wind_pungs)):
        if len(set(listed)) != len(listed):
            seen = set()
            tile = next(t for t in listed if t in seen or seen.add(t))
            zh, en = DRAGONS[tile] if tile in DRAGONS else WIND_LABELS[WIND_INDEX[tile]]
            raise ScoringError(
                f"同一种牌的碰/杠只能报一次：{zh}报了两次",
                f"Each pung or kong is listed once: {en} is listed twice",
                f"tai.{name}",
            )


def first_round_refusal(special: str | None, winner: int, discarder: int | None, dealer: int) -> ScoringError | None:
    """§4 who may claim 天胡 or 地胡: the error a win claiming ``special`` would raise, or None (the sheet asks too)."""
    if special == "tianhu":
        if winner != dealer:
            return ScoringError("天胡只有庄家才能胡", "A heavenly hand (tianhu) is the dealer's only", "tai.special")
        if discarder is not None:
            return ScoringError(
                "天胡是庄家自摸起手14张，不能有放冲者",
                "A heavenly hand (tianhu) is self-drawn: no discarder",
                "discarder",
            )
    elif special == "dihu":
        if winner == dealer:
            return ScoringError("地胡只有闲家才能胡", "An earthly hand (dihu) is for a non-dealer only", "tai.special")
        if discarder != dealer:
            return ScoringError(
                "地胡是闲家胡庄家打出的第一张牌：放冲者应为庄家",
                "An earthly hand (dihu) is won on the dealer's first discard: the discarder must be the dealer",
                "discarder",
            )
    return None


def validate_win(hand: HandEntry, dealer: int) -> int:
    """§4 and §6 for a win played with ``dealer`` dealing; returns the 台 before any cap."""
    winner, discarder, tai = hand.winner, hand.discarder, hand.tai
    if discarder == winner:
        raise ScoringError("放冲者不能是胡牌的人自己", "The discarder cannot be the winner", "discarder")
    if tai.dragon_pungs or tai.wind_pungs:
        _validate_repeats(tai)
        if tai.shape == "pinghu":
            raise ScoringError(
                "平胡四副都是顺子，不能有中发白或风的碰/杠",
                "All chows (pinghu) has no pungs: no dragon or wind pung with it",
                "tai.shape",
            )
    if tai.qianggang and discarder is None:
        raise ScoringError(
            "抢杠要填写被抢杠的人（作放冲者）",
            "Robbing a kong needs the discarder: the player whose added kong was robbed",
            "discarder",
        )
    if tai.gangkai and discarder is not None:
        raise ScoringError(
            "杠开（杠上开花）是自摸，不能有放冲者",
            "A kong replacement win (gangkai) is self-drawn: no discarder",
            "discarder",
        )
    special = tai.special
    if special == "quanzi" and tai.shape == "pinghu":
        raise ScoringError(
            "全字（全是字牌）没有顺子，不能是平胡", "All honours (quanzi) cannot be all chows (pinghu)", "tai.shape"
        )
    if refused := first_round_refusal(special, winner, discarder, dealer):
        raise refused
    count = tai_count(tai, winner, dealer)
    if count < 1 and not (tai.no_caishen or tai.gangkai):
        raise ScoringError(
            "至少要1台才能胡（无财、杠开除外）",
            "A win needs at least 1 tai (except holding no wild tile, and a kong replacement win)",
            "tai",
        )
    return count
