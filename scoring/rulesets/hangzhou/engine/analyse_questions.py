"""杭州's 算牌 page asks what the tiles cannot show (docs/analysis.md "杭州"; docs/rules/hangzhou.md
§3-§5): 财飘 ×1-3, 十风 / 十风带白 and 承包, greyed by ``patterns.problem`` as scoring would refuse."""

from scoring.engine.analyse.request import table_rules

from .patterns import BY_CODE, CAIPIAO, SHIFENG, chengbao_problem, problem

SEATS = 4
# The query keys the page reads, each with its options and whether several may be chosen at once.
QUESTIONS: dict[str, tuple[tuple[str, ...], bool]] = {
    "caipiao": (("1", "2", "3"), False),
    "shifeng": (("shifeng", "shifeng_bai"), False),
    "chengbao": (("up", "down"), True),
}
_LABELS = {
    "caipiao": ((BY_CODE[CAIPIAO].zh, BY_CODE[CAIPIAO].en), {str(k): (f"×{k}", f"×{k}") for k in (1, 2, 3)}),
    "shifeng": (
        ("十风", "Ten honours"),
        {code: (BY_CODE[code].zh, BY_CODE[code].en) for code in ("shifeng", "shifeng_bai")},
    ),
    "chengbao": (
        ("承包", "Liable"),
        {
            # W chowed three times from the 上家, who pays the whole hand; the 下家 chowed three times from W: double
            "up": (
                "上家{name}包（胡家吃了他三次）",
                "{name} on the left pays all (the winner chowed three times from them)",
            ),
            "down": (
                "下家{name}包双倍（他吃了胡家三次）",
                "{name} on the right pays double (chowed three times from the winner)",
            ),
        },
    ),
}
_NOT_BAOTOU = ("财飘一定也是爆头，这副牌不是爆头", "A wild float is always a wild head too, and these tiles are none")
_MELDED = (
    "十风没有吃、碰、杠（docs/rules/hangzhou.md §3）",
    "Ten honours has no chow, pung or kong (docs/rules/hangzhou.md §3)",
)


def _piao(chosen: dict) -> int:
    return int(chosen.get("caipiao", ("0",))[0])


def _shifeng(chosen: dict) -> str | None:
    return chosen.get("shifeng", (None,))[0]


def _liable(chosen: dict, winner: int | None) -> list[int]:
    """The contract's ``chengbao`` seats: the winner (chowed from the 上家), the 下家 (chowed from the winner)."""
    if winner is None:
        return []
    picked = chosen.get("chengbao", ())
    return [seat for name, seat in (("up", winner), ("down", (winner + 1) % SEATS)) if name in picked]


def _tiles_codes(answer: dict) -> list[str]:
    """The codes the tiles gave (none for a waits answer: each wait says its own refusal)."""
    return [] if "waits" in answer else list(answer.get("patterns", ()))


def _shifeng_refused(code: str, chosen: dict, request: dict) -> tuple[str, str] | None:
    """Why 十风 cannot be declared with the rest (§3, §4)."""
    if request.get("melded"):
        return _MELDED
    kept = ([CAIPIAO] if _piao(chosen) else []) + (["gangkai"] if request.get("after_kong") else [])
    return problem(code, kept) or ("up" in chosen.get("chengbao", ()) and chengbao_problem([code])) or None


def _reasons(answer: dict, chosen: dict, request: dict) -> dict[tuple[str, str], tuple[str, str]]:
    """(question, option) -> why it cannot be chosen with the rest."""
    out = {}
    shifeng = _shifeng(chosen)
    codes = [shifeng] if shifeng else _tiles_codes(answer)
    if "waits" in answer:
        baotou = answer.get("any_tile", False)
    else:
        baotou = "baotou" in answer.get("patterns", ())
    for k in QUESTIONS["caipiao"][0]:
        found = problem(CAIPIAO, [shifeng]) if shifeng else None if baotou else _NOT_BAOTOU
        if found:
            out["caipiao", k] = found
    for code in QUESTIONS["shifeng"][0]:
        found = _shifeng_refused(code, chosen, request)
        if found:
            out["shifeng", code] = found
    found = chengbao_problem(codes)
    if found:
        out["chengbao", "up"] = found
    return out


def questions(answer: dict, chosen: dict, request: dict, winner: int | None) -> list[dict]:
    """Each question with its chips (``label``, per option ``value``, ``label``, ``seat``, ``on``,
    ``reason``); 承包 is asked once the winner is known."""
    reasons = _reasons(answer, chosen, request)
    out = []
    for name, (options, many) in QUESTIONS.items():
        if name == "chengbao" and winner is None:
            continue
        label, labels = _LABELS[name]
        chips = []
        for value in options:
            seat = None if name != "chengbao" else (winner - 1 if value == "up" else winner + 1) % SEATS
            on = value in chosen.get(name, ())
            chips.append(
                {"value": value, "label": labels[value], "seat": seat, "on": on, "reason": reasons.get((name, value))}
            )
        out.append({"name": name, "label": label, "many": many, "options": chips})
    return out


def _applied(answer: dict, chosen: dict, rules, winner: int | None) -> dict:
    """One complete answer with 财飘 and 承包 applied; a ``reason`` where §4 refuses them."""
    if not answer.get("complete"):
        return answer
    k, liable = _piao(chosen), _liable(chosen, winner)
    codes = answer["patterns"]
    out = {**answer}
    if k:
        table = rules.fan_table
        out["caipiao"] = k
        out["fan"] += table[CAIPIAO] * (k if rules.caipiao_stack else 1)
        found = None if "baotou" in codes else problem(CAIPIAO, codes) or _NOT_BAOTOU
        if found:
            out["reason"] = found
    if liable:
        out["chengbao"] = liable
        if winner in liable and (found := chengbao_problem(codes)):
            out.setdefault("reason", found)
    return out


def _shifeng_answer(code: str, request: dict, chosen: dict, rules, winner: int | None) -> dict:
    """十风 is declared, not read from the tiles: a hand of its own, with 无财神 when no 白 is held."""
    wilds = request["tiles"].count("P")
    codes = [code] + ([] if wilds else ["no_caishen"])
    out = {"complete": True, "caishen": wilds, "patterns": codes, "fan": sum(rules.fan_table[c] for c in codes)}
    liable = _liable(chosen, winner)
    if liable:
        out["chengbao"] = liable
    found = _shifeng_refused(code, chosen, request)
    if found:
        out["reason"] = found
    return out


def with_answers(answer: dict, chosen: dict, request: dict, winner: int | None) -> dict:
    """The tiles' answer (14 tiles, or the waits of 13) with the page's chosen chips applied."""
    rules = table_rules(request.get("ruleset"), request.get("rules"))
    shifeng = _shifeng(chosen)
    if shifeng in SHIFENG:
        return _shifeng_answer(shifeng, request, chosen, rules, winner)
    if "waits" in answer:
        waits = [{"tile": w["tile"], **_applied(w, chosen, rules, winner)} for w in answer["waits"]]
        return {**answer, "waits": waits}
    return _applied(answer, chosen, rules, winner)
