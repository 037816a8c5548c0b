"""An independent, deliberately literal reading of the Yiwu scoring spec (test oracle).

Written from the rules (docs/rules/yiwu.md) and the contract (docs/contract.md) only, without looking at
scoring/engine. It favours plainness over speed: every rule is spelled out where it is used.

    oracle_score(game) -> {"hands": [...], "totals": [...]}  or  {"error": {"hand": N}}
"""

from __future__ import annotations

# §4: code -> (multiplier M, is a discard win)
WIN_TYPES: dict[str, tuple[int, bool]] = {
    "pinghu": (1, True),
    "qidui": (1, True),
    "shisanbukao": (1, True),
    "zimo": (2, False),
    "qidui_zimo": (2, False),
    "shisanbukao_zimo": (2, False),
    "qianggang": (2, False),
    "caishentou": (4, False),
    "qidui_caishentou": (4, False),
    "gangkai": (4, False),
    "danpiao": (8, False),
    "danpiao_gang": (8, False),
    "shuangpiao": (16, False),
    "shuangpiao_gang": (16, False),
}
DISCARD_TYPES = {code for code, (_, discard) in WIN_TYPES.items() if discard}
CAISHENTOU_TYPES = {"caishentou", "qidui_caishentou"}
PIAO_TYPES = {1: {"danpiao", "danpiao_gang"}, 2: {"shuangpiao", "shuangpiao_gang"}}
ALL_PIAO_TYPES = PIAO_TYPES[1] | PIAO_TYPES[2]
PIAO_MULT = {1: 8, 2: 16}  # the 飘-success multiplier of each level
ABANDON_C = {0: 1, 1: 2, 2: 4}  # §10: c by 飘 level (0 = no 飘)

DEFAULT_RULES: dict = {
    "base_dealer": 7,
    "base_other": 5,
    "maizi_points": 2,
    "maizi_buy": "any_hand",
    "xiazi_points": 1,
    "xiazi_amount": "fixed",
    "xiazi_cap": None,
    "discarder_extra": "plus1",
    "fanpei_factor": 2,
    "shuangpiao_draw_mult": 4,
    "shuangpiao_draw_includes_xiazi": True,
    "multi_feeder": "shared",
    "others_may_caishentou_after_shuangpiao": False,
    "abandon_enabled": False,
}
ENUM_RULES = {
    "maizi_buy": {"any_hand", "tenure_start"},
    "xiazi_amount": {"fixed", "up_to"},
    "discarder_extra": {"plus1", "double"},
    "multi_feeder": {"shared", "first"},
}
INT_RULES = {"base_dealer", "base_other", "maizi_points", "xiazi_points", "fanpei_factor", "shuangpiao_draw_mult"}
BOOL_RULES = {"shuangpiao_draw_includes_xiazi", "others_may_caishentou_after_shuangpiao", "abandon_enabled"}

GAME_FIELDS = {"rules", "first_dealer", "players", "hands"}
HAND_FIELDS = {
    "outcome",
    "winner",
    "win_type",
    "discarder",
    "maizi",
    "xiazi_join",
    "piao",
    "feeders",
    "caishen",
    "leaver",
}


class Invalid(Exception):
    def __init__(self, hand: int | None):
        super().__init__(hand)
        self.hand = hand


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_seat(value) -> bool:
    return is_int(value) and 0 <= value <= 3


def oracle_score(game: dict) -> dict:
    try:
        return score(game)
    except Invalid as bad:
        return {"error": {"hand": bad.hand}}


def read_rules(game: dict) -> dict:
    if not isinstance(game, dict) or set(game) - GAME_FIELDS:
        raise Invalid(None)
    given = game.get("rules", {})
    if not isinstance(given, dict):
        raise Invalid(None)
    rules = dict(DEFAULT_RULES)
    for name, value in given.items():
        if name not in DEFAULT_RULES:
            raise Invalid(None)
        if name in INT_RULES and not is_int(value):
            raise Invalid(None)
        if name in BOOL_RULES and not isinstance(value, bool):
            raise Invalid(None)
        if name in ENUM_RULES and value not in ENUM_RULES[name]:
            raise Invalid(None)
        if name == "xiazi_cap" and value is not None and not is_int(value):
            raise Invalid(None)
        rules[name] = value
    if not is_seat(game.get("first_dealer", 0)):
        raise Invalid(None)
    players = game.get("players", ["", "", "", ""])  # optional names in seat order: one per seat
    if not isinstance(players, list) or len(players) != 4 or not all(isinstance(name, str) for name in players):
        raise Invalid(None)
    if not isinstance(game.get("hands"), list):  # the contract marks every other top-level field optional
        raise Invalid(None)
    return rules


def score(game: dict) -> dict:
    rules = read_rules(game)

    dealer = game.get("first_dealer", 0)
    streak = 0  # dealer wins so far in this tenure
    hands_in_tenure = 0  # hands already played in this tenure
    maizi = [0, 0, 0, 0]
    xiazi = [0, 0, 0, 0]
    last_dealer_win_m = None  # M of the previous hand when that hand was a dealer win, else None
    totals = [0, 0, 0, 0]
    out_hands = []

    for index, hand in enumerate(game["hands"]):

        def bad(_index=index):
            raise Invalid(_index)

        if not isinstance(hand, dict) or set(hand) - HAND_FIELDS:
            bad()
        outcome = hand.get("outcome")
        if outcome not in ("win", "draw", "abandon"):
            bad()
        if outcome == "abandon" and not rules["abandon_enabled"]:
            bad()

        # §7 买子: flags for this hand; once bought it stays for the tenure.
        if "maizi" in hand:
            flags = hand["maizi"]
            if not isinstance(flags, list) or len(flags) != 4:
                bad()
            new = []
            for flag in flags:
                if flag is True or flag is False or (is_int(flag) and flag in (0, 1)):
                    new.append(int(flag))
                else:
                    bad()
            for seat in range(4):
                if maizi[seat] == 1 and new[seat] == 0:
                    bad()  # no dropping mid-tenure
                if maizi[seat] == 0 and new[seat] == 1:
                    if rules["maizi_buy"] == "tenure_start" and hands_in_tenure > 0:
                        bad()  # 连庄后不可买子
            maizi = new

        # §8 下子 joins: only right after a dealer win.
        if "xiazi_join" in hand:
            joins = hand["xiazi_join"]
            wanted: dict[int, int] = {}
            m = last_dealer_win_m
            cap = rules["xiazi_cap"]
            full = None if m is None else (m if cap is None else min(m, cap))
            # Either form is accepted under either option: a list means the full amount.
            if isinstance(joins, list):
                for seat in joins:
                    if not is_seat(seat) or seat in wanted:
                        bad()
                    wanted[seat] = full
            else:
                if not isinstance(joins, dict):
                    bad()
                for key, amount in joins.items():
                    if isinstance(key, str) and key in ("0", "1", "2", "3"):
                        seat = int(key)
                    else:
                        bad()
                    if seat in wanted or not is_int(amount):
                        bad()
                    wanted[seat] = amount
            if wanted and m is None:
                bad()
            for seat, amount in wanted.items():
                if seat == dealer or xiazi[seat] != 0:
                    bad()
                if not 1 <= amount <= m:  # any 1..M, then the cap limits it
                    bad()
                if rules["xiazi_amount"] == "fixed" and amount not in (m, full):
                    bad()
                xiazi[seat] = amount if cap is None else min(amount, cap)

        # 飘 and feeders
        piao_player = None
        piao_level = 0
        if "piao" in hand:
            piao = hand["piao"]
            if not isinstance(piao, dict) or set(piao) != {"player", "level"}:
                bad()
            if not is_seat(piao["player"]) or not is_int(piao["level"]) or piao["level"] not in (1, 2):
                bad()
            piao_player = piao["player"]
            piao_level = piao["level"]
        feeders = hand.get("feeders", [])
        if not isinstance(feeders, list):
            bad()
        for position, feeder in enumerate(feeders):
            if not is_seat(feeder) or piao_player is None or feeder == piao_player or feeder in feeders[:position]:
                bad()

        caishen = hand.get("caishen")
        if caishen is not None and not (is_int(caishen) and 0 <= caishen <= 4):
            bad()

        if outcome != "win" and any(name in hand for name in ("winner", "win_type", "discarder")):
            bad()
        if outcome != "abandon" and "leaver" in hand:
            bad()

        def unit(a: int, b: int, with_xiazi: bool = True, _dealer=dealer, _maizi=maizi, _xiazi=xiazi) -> int:
            """§3 the pair unit."""
            value = rules["base_dealer"] if _dealer in (a, b) else rules["base_other"]
            value += rules["maizi_points"] * (_maizi[a] + _maizi[b])
            if with_xiazi and _dealer in (a, b):
                non_dealer = b if a == _dealer else a
                value += rules["xiazi_points"] * _xiazi[non_dealer]
            return value

        pay: dict[tuple[int, int], int] = {}

        def add(payer: int, payee: int, amount: int, _pay=pay) -> None:
            _pay[(payer, payee)] = _pay.get((payer, payee), 0) + amount

        multiplier = 0
        if outcome == "win":
            winner = hand.get("winner")
            win_type = hand.get("win_type")
            if not is_seat(winner) or win_type not in WIN_TYPES:
                bad()
            multiplier, discard = WIN_TYPES[win_type]
            discarder = hand.get("discarder")
            if discard:
                if not is_seat(discarder) or discarder == winner:
                    bad()
            elif "discarder" in hand:
                bad()
            # §9 财神 in hand
            if caishen == 2 and winner != piao_player and discard:
                bad()
            if (
                caishen is not None
                and caishen >= 3
                and win_type not in ALL_PIAO_TYPES
                and win_type not in CAISHENTOU_TYPES | {"gangkai"}
            ):
                bad()
            # §9 飘
            if win_type in ALL_PIAO_TYPES and winner != piao_player:
                bad()
            if piao_player is not None:
                if winner == piao_player:
                    if win_type not in PIAO_TYPES[piao_level]:
                        bad()
                elif piao_level == 1:
                    if discard:
                        bad()
                else:
                    allowed = {"gangkai"}
                    if rules["others_may_caishentou_after_shuangpiao"]:
                        allowed |= CAISHENTOU_TYPES
                    if win_type not in allowed:
                        bad()

            # §5 settling
            share = {}
            for loser in range(4):
                if loser == winner:
                    continue
                u = unit(winner, loser)
                if discard and loser == discarder:
                    u = u + 1 if rules["discarder_extra"] == "plus1" else u * 2
                share[loser] = u * multiplier
            total = sum(share.values())
            if piao_player is not None and winner == piao_player and feeders:
                if len(feeders) == 1 or rules["multi_feeder"] == "first":
                    add(feeders[0], winner, total)
                else:
                    others = sum(amount for loser, amount in share.items() if loser not in feeders)
                    assert others % len(feeders) == 0
                    for feeder in feeders:
                        add(feeder, winner, share[feeder] + others // len(feeders))
            elif piao_player is not None and winner in feeders:
                add(piao_player, winner, rules["fanpei_factor"] * total)
            else:
                for loser, amount in share.items():
                    add(loser, winner, amount)

        elif outcome == "draw":
            if piao_level == 2:  # §6 failed 双飘
                for other in range(4):
                    if other != piao_player:
                        u = unit(piao_player, other, rules["shuangpiao_draw_includes_xiazi"])
                        add(piao_player, other, u * rules["shuangpiao_draw_mult"])

        else:  # abandon, §10
            leaver = hand.get("leaver")
            if not is_seat(leaver):
                bad()
            if piao_player is not None and leaver in feeders:
                full = sum(unit(piao_player, q) * PIAO_MULT[piao_level] for q in range(4) if q != piao_player)
                add(leaver, piao_player, full)
            else:
                for other in range(4):
                    if other != leaver:
                        add(leaver, other, unit(leaver, other) * ABANDON_C[piao_level])

        net = [0, 0, 0, 0]
        payments = []
        for (payer, payee), amount in sorted(pay.items()):
            if amount > 0:
                payments.append({"from": payer, "to": payee, "amount": amount})
                net[payer] -= amount
                net[payee] += amount
        for seat in range(4):
            totals[seat] += net[seat]
        out_hands.append(
            {
                "dealer": dealer,
                "streak": streak,
                "multiplier": multiplier,
                "maizi": list(maizi),
                "xiazi": list(xiazi),
                "net": net,
                "payments": payments,
            }
        )

        # §2 what the next hand is played under
        if outcome == "win" and hand["winner"] == dealer:
            streak += 1
            hands_in_tenure += 1
            last_dealer_win_m = multiplier
            for seat in range(4):
                doubled = xiazi[seat] * 2
                if rules["xiazi_cap"] is not None:
                    doubled = min(doubled, rules["xiazi_cap"])
                xiazi[seat] = doubled
        elif outcome == "win":
            dealer = (dealer + 1) % 4
            streak = 0
            hands_in_tenure = 0
            maizi = [0, 0, 0, 0]
            xiazi = [0, 0, 0, 0]
            last_dealer_win_m = None
        else:  # draw or abandon: same dealer, nothing doubles, no new joins next hand
            hands_in_tenure += 1
            last_dealer_win_m = None

    return {"hands": out_hands, "totals": totals}
