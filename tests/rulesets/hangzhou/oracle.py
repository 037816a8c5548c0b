"""A second, literal reading of docs/rules/hangzhou.md (§2 dealer and 老庄, §3 番, §4 validity, §5
payments) written from the rules document alone, sharing no code with the engine: the property
test (test_hangzhou_properties.py) plays random games through both.

``oracle(game)`` returns the contract's output (without the payments' explanations), or
``("error", hand)`` with the index of the first bad hand (None for the game's rules)."""

FAN = {
    "baotou": 1,
    "gangkai": 1,
    "caipiao": 1,
    "qidui": 2,
    "haohua_qidui": 4,
    "shifeng": 3,
    "shifeng_bai": 4,
    "no_caishen": 1,
}
LISTED = set(FAN) - {"caipiao"}
DEFAULTS = {
    "base": 1,
    "fan_cap": 4,
    "laozhuang": [2, 4, 8],
    "laozhuang_on_draw": True,
    "next_dealer": "winner",
    "caipiao_stack": True,
    "fan": {},
}
LIMIT = 10**12


class Bad(Exception):
    pass


def _whole(value, low, high) -> bool:
    return type(value) is int and low <= value <= high


def _rules(raw) -> dict:
    if not isinstance(raw, dict):
        raise Bad
    rules = dict(DEFAULTS)
    for name, value in raw.items():
        if name == "base":
            ok = _whole(value, 1, 1_000_000)
        elif name == "fan_cap":
            ok = value is None or _whole(value, 0, 20)
        elif name == "laozhuang":
            ok = type(value) is list and len(value) == 3 and all(_whole(v, 1, 64) for v in value)
        elif name in ("laozhuang_on_draw", "caipiao_stack"):
            ok = type(value) is bool
        elif name == "next_dealer":
            ok = value in ("winner", "next_seat")
        elif name == "fan":
            ok = type(value) is dict and all(k in FAN and _whole(v, 0, 10) for k, v in value.items())
        else:
            ok = False
        if not ok:
            raise Bad
        rules[name] = value
    return rules


def _fan(rules, patterns, caipiao) -> int:
    """§3: the listed 番, 爆头 once if listed or 财飘 ≥ 1, 财飘 k times (once without stacking), capped."""
    fan = {**FAN, **rules["fan"]}
    total = sum(fan[p] for p in patterns if p != "baotou")
    if "baotou" in patterns or caipiao >= 1:
        total += fan["baotou"]
    total += (caipiao if rules["caipiao_stack"] else min(caipiao, 1)) * fan["caipiao"]
    cap = rules["fan_cap"]
    return total if cap is None else min(total, cap)


def _valid_win(hand) -> bool:
    """§4 and the shape of the JSON hand (§7)."""
    if set(hand) - {"outcome", "winner", "patterns", "caipiao", "chengbao"}:
        return False  # a discarder among them: only self-drawn wins
    if not _whole(hand.get("winner"), 0, 3):
        return False
    patterns = hand.get("patterns", [])
    caipiao = hand.get("caipiao", 0)
    chengbao = hand.get("chengbao", [])
    if type(patterns) is not list or any(p not in LISTED for p in patterns) or len(set(patterns)) < len(patterns):
        return False
    if not _whole(caipiao, 0, 3):
        return False
    if type(chengbao) is not list or any(not _whole(s, 0, 3) for s in chengbao) or len(set(chengbao)) < len(chengbao):
        return False
    has = set(patterns)
    sevens = has & {"qidui", "haohua_qidui"}
    tens = has & {"shifeng", "shifeng_bai"}
    if len(sevens) > 1 or len(tens) > 1:
        return False
    if tens and (has - tens - {"no_caishen"} or caipiao):
        return False
    if "no_caishen" in has and ("baotou" in has or caipiao):
        return False
    if sevens and "gangkai" in has:
        return False
    return not (hand["winner"] in chengbao and (sevens or tens))


def oracle(game: dict):
    try:
        rules = _rules(game.get("rules", {}))
    except Bad:
        return ("error", None)
    dealer, streak = game.get("first_dealer", 0), 0
    totals, out = [0, 0, 0, 0], []
    for index, hand in enumerate(game["hands"]):
        if not isinstance(hand, dict):
            return ("error", index)
        if hand.get("outcome") == "draw":
            if set(hand) != {"outcome"}:
                return ("error", index)
            out.append({"dealer": dealer, "streak": streak, "fan": 0, "net": [0, 0, 0, 0], "payments": []})
            if rules["laozhuang_on_draw"]:
                streak += 1
            continue
        if hand.get("outcome") != "win" or not _valid_win(hand):
            return ("error", index)
        winner, caipiao = hand["winner"], hand.get("caipiao", 0)
        fan = _fan(rules, hand.get("patterns", []), caipiao)
        basic = rules["base"] * 2**fan
        d = rules["laozhuang"][min(streak, 2)]
        owes = {q: basic * (d if dealer in (q, winner) else 1) for q in range(4) if q != winner}
        whole = sum(owes.values())
        left, right = (winner + 3) % 4, (winner + 1) % 4  # 上家, 下家
        chengbao = hand.get("chengbao", [])
        if winner in chengbao or right in chengbao:
            owes = {}
            if winner in chengbao:
                owes[left] = whole
            if right in chengbao:
                owes[right] = 2 * whole
        net = [0, 0, 0, 0]
        for q, amount in owes.items():
            net[q] -= amount
            net[winner] += amount
        if any(a >= LIMIT for a in owes.values()) or any(abs(t + n) >= LIMIT for t, n in zip(totals, net, strict=True)):
            return ("error", index)
        payments = [{"from": q, "to": winner, "amount": owes[q]} for q in sorted(owes)]
        out.append({"dealer": dealer, "streak": streak, "fan": fan, "net": net, "payments": payments})
        totals = [t + n for t, n in zip(totals, net, strict=True)]
        if winner == dealer:
            streak += 1
        else:
            dealer = winner if rules["next_dealer"] == "winner" else (dealer + 1) % 4
            streak = 0
    return {"hands": out, "totals": totals}
