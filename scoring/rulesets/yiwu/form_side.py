"""义乌 at the table: the hand form (winner → win type → discarder), the 「更多」 section's
买子/下子/飘/承包/财神 options, a hand's title and the 买/下 marks (docs/rules/yiwu.md)."""

from dataclasses import dataclass

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from scoring.forms import StrictIntegerField
from scoring.handform.base import FormSide, HandForm, fix_initial, seat_choices, seat_field, seated_names
from scoring.lang import pick, say, table_words
from scoring.models import Game
from scoring.rulesets.yiwu import bets as placed
from scoring.rulesets.yiwu.engine import COMMON_ORDER, WIN_TYPES, Rules, TableState
from scoring.rulesets.yiwu.engine.validity import piao_refusal

MORE_TYPES = [WIN_TYPES[c] for c in COMMON_ORDER if c not in ("zimo", "pinghu") and not WIN_TYPES[c].piao_level]
PIAO_TYPES = [t for t in WIN_TYPES.values() if t.piao_level]


# A label in the language of the page that draws it, like gettext_lazy's: the choices are made
# once, not per form (every entry page builds a form, and the step bundle about a hundred).
pick_lazy = lazy(pick, str)


class Form(HandForm):
    """One hand as entered at the table, converted to the scoring contract's HAND object."""

    outcome = forms.ChoiceField(
        label=_("结果"), choices=[("win", _("胡牌")), ("draw", _("流局")), ("abandon", _("逃跑"))], required=False
    )
    winner = seat_field(_("谁胡了"))
    win_type = forms.ChoiceField(
        label=_("胡牌型"),
        choices=[("", "—")] + [(c, pick_lazy(t.zh, t.en)) for c, t in WIN_TYPES.items()],
        required=False,
    )
    discarder = seat_field(_("谁放铳"))
    leaver = seat_field(_("谁逃跑"))
    maizi = forms.TypedMultipleChoiceField(label=_("买子"), choices=seat_choices(4), coerce=int, required=False)
    xz0 = StrictIntegerField(min_value=0, max_value=1_000_000, required=False)
    xz1 = StrictIntegerField(min_value=0, max_value=1_000_000, required=False)
    xz2 = StrictIntegerField(min_value=0, max_value=1_000_000, required=False)
    xz3 = StrictIntegerField(min_value=0, max_value=1_000_000, required=False)
    piao_player = seat_field(_("谁飘了"))
    piao_level = forms.TypedChoiceField(
        label=_("飘"), choices=[("", "—"), (1, _("单飘")), (2, _("双飘"))], coerce=int, required=False, empty_value=None
    )
    feeder1 = seat_field(_("喂家一"))
    feeder2 = seat_field(_("喂家二"))
    feeder3 = seat_field(_("喂家三"))
    caishen = forms.TypedChoiceField(
        label=_("胡牌者手里几个财神"),
        choices=[("", _("不填")), *[(n, str(n)) for n in range(4)]],
        coerce=int,
        empty_value=None,
        required=False,
    )
    SEAT_FIELDS = ("winner", "discarder", "leaver", "piao_player", "feeder1", "feeder2", "feeder3", "dealer_fix")
    MORE_FIELDS = ("maizi", "piao_player", "caishen", "dealer_fix", "streak_fix", "xz0", "xz1", "xz2", "xz3")

    def outcome_value(self) -> str | None:
        data = self.cleaned_data
        if data.get("outcome"):
            return data["outcome"]
        return "win" if data.get("winner") is not None else None

    def step(self) -> str:
        """Which question the fast path asks next, or 'preview' when the hand is complete."""
        data, outcome = self.cleaned_data, self.outcome_value()
        if outcome is None:
            return "winner"
        if outcome == "win" and not data.get("win_type"):
            return "win_type"
        if outcome == "win" and WIN_TYPES[data["win_type"]].discard and data.get("discarder") is None:
            return "discarder"
        if outcome == "abandon" and data.get("leaver") is None:
            return "leaver"
        return "preview"

    def entry(self, state: TableState, rules: Rules) -> dict:
        """The contract HAND object. ``state`` is the table before this hand (after any fix)."""
        data, outcome = self.cleaned_data, self.outcome_value()
        entry: dict = {"outcome": outcome}
        if outcome == "win":
            entry["winner"] = data.get("winner")
            entry["win_type"] = data.get("win_type")
            win_type = WIN_TYPES.get(data.get("win_type") or "")
            if win_type and win_type.piao_level and data.get("piao_player") is None:
                # Picking a 飘 type marks the winner as the one who floated.
                data["piao_player"], data["piao_level"] = data.get("winner"), win_type.piao_level
            if win_type and win_type.discard:
                entry["discarder"] = data.get("discarder")
            if data.get("caishen") is not None:
                entry["caishen"] = data["caishen"]
        elif outcome == "abandon":
            entry["leaver"] = data.get("leaver")
        maizi = [1 if (state.maizi[s] or s in data.get("maizi", [])) else 0 for s in range(4)]
        if tuple(maizi) != tuple(state.maizi):
            entry["maizi"] = maizi
        joins = {s: data.get(f"xz{s}") for s in range(4) if data.get(f"xz{s}")}
        if joins:
            if rules.xiazi_amount == "fixed":
                entry["xiazi_join"] = sorted(joins)
            else:
                entry["xiazi_join"] = {str(s): amount for s, amount in sorted(joins.items())}
        if data.get("piao_player") is not None:
            entry["piao"] = {"player": data["piao_player"], "level": data.get("piao_level") or 1}
            feeders = [data.get(f"feeder{i}") for i in (1, 2, 3)]
            feeders = [f for f in feeders if f is not None]
            if feeders:
                entry["feeders"] = feeders
        return {k: v for k, v in entry.items() if v is not None}


@dataclass
class SeatOption:
    seat: int
    name: str
    checked: bool = False
    locked: bool = False  # 买子 already held this tenure, or 下子 already placed
    allowed: bool = True
    amount: int = 0  # 下子: the amount in force or on offer
    note: str = ""
    invalid: str = ""  # why a bet the answers carry cannot stand here (an earlier hand's edit): shown to untick


def _xiazi_refusal(state, rules, seat: int, amount: int) -> str:
    """Why a 下子 of ``amount`` by ``seat`` cannot stand at ``state``, as engine/validity.py's apply_joins says it (§8), or ""."""
    if not state.join_amount(rules):
        return pick("只有庄家胡牌后的下一局才能下子", "Xiazi (a bet) may only be placed right after a dealer win")
    if seat == state.dealer:
        return pick("庄家不能下子", "The dealer never places xiazi (a bet)")
    if state.xiazi[seat]:
        return pick("已经下子了", "Already has a xiazi (a bet)")
    if amount > state.join_mult:
        return pick(
            f"下子最多 {state.join_mult}（庄家这把的倍数）",
            f"Xiazi (a bet) is at most {state.join_mult}, the dealer's multiplier",
        )
    return ""


def _bet_options(game: Game, form, state, rules) -> dict:
    """The folded 「更多」 section: which 买子 and 下子 toggles exist, and how they stand."""
    data = form.cleaned_data if form.is_bound and hasattr(form, "cleaned_data") else {}
    chosen = set(data.get("maizi") or [])
    names = seated_names(game, state)
    can_buy = state.may_buy_maizi(rules)
    no_buy = "" if can_buy else pick("连庄后不可买子", "no new buy-in after the first hand of a tenure")
    maizi = []
    for s in range(4):
        refused = s in chosen and not state.maizi[s] and not can_buy  # shown ticked, to untick
        maizi.append(
            SeatOption(
                s,
                names[s],
                checked=bool(state.maizi[s]) or s in chosen,
                locked=bool(state.maizi[s]),
                allowed=can_buy or bool(state.maizi[s]) or refused,
                note=pick("已买，换庄前不退", "bought: kept until the dealer changes") if state.maizi[s] else no_buy,
                invalid=no_buy if refused else "",
            )
        )
    full = state.join_amount(rules)
    xiazi = []
    for s in range(4):
        amount = data.get(f"xz{s}")
        if why := amount and _xiazi_refusal(state, rules, s, amount):
            xiazi.append(SeatOption(s, names[s], checked=True, amount=amount, invalid=why))
        elif s == state.dealer:
            continue
        elif state.xiazi[s]:
            xiazi.append(
                SeatOption(
                    s,
                    names[s],
                    checked=True,
                    locked=True,
                    amount=state.xiazi[s],
                    note=pick(f"已下{state.xiazi[s]}", f"placed {state.xiazi[s]}"),
                )
            )
        elif full:
            xiazi.append(SeatOption(s, names[s], checked=bool(data.get(f"xz{s}")), amount=data.get(f"xz{s}") or full))
    return {
        "maizi_options": maizi,
        "xiazi_options": xiazi,
        "join_amount": full,
        "up_to": rules.xiazi_amount == "up_to",
        "up_to_range": range(1, full + 1),
    }


def _bets_in_force(names: list[str], data: dict, state, rules) -> dict | None:
    """What the preview says of the bets this hand is played with (docs/rules/yiwu.md §7, §8): each
    买子 held or bought now and each 下子 placed before or now, or that nobody placed one where one
    could be; its link opens 「更多」 at them. None when there is nothing to say."""
    chosen, full = set(data.get("maizi") or []), state.join_amount(rules)
    words = []
    for s in range(4):
        if state.maizi[s]:
            words.append(pick(f"{names[s]} 买", f"{names[s]} buy-in"))
        elif s in chosen:
            words.append(pick(f"{names[s]} 买（这局起）", f"{names[s]} buy-in (from now)"))
        if state.xiazi[s]:
            words.append(pick(f"{names[s]} 下{state.xiazi[s]}", f"{names[s]} bet {state.xiazi[s]}"))
        elif s != state.dealer and full and data.get(f"xz{s}"):
            words.append(pick(f"{names[s]} 下{data[f'xz{s}']}（这局）", f"{names[s]} bet {data[f'xz{s}']} (now)"))
    if not words and not full:
        return None
    if not any(s != state.dealer and data.get(f"xz{s}") for s in range(4)) and full:
        words.append(pick("这局没人下子", "nobody bets this hand"))
    return {"words": words, "anchor": "bets-more"}


def _piao_options(form, names: list[str], winner: int | None) -> dict:
    """The 「有人飘了？」 row: who floats (a name, then 单/双) and, on a win, the feeders as chips."""
    data = form.cleaned_data if hasattr(form, "cleaned_data") else {}
    player, level = data.get("piao_player"), data.get("piao_level")
    feeders = [f for f in (data.get(f"feeder{i}") for i in (1, 2, 3)) if f is not None]
    chips = []
    for s in range(4):
        if s == player:
            continue
        after = [f for f in feeders if f != s] if s in feeders else [*feeders, s][:3]
        after += [""] * (3 - len(after))
        chips.append({"seat": s, "name": names[s], "on": s in feeders, "f1": after[0], "f2": after[1], "f3": after[2]})
    own = player is not None and player == winner  # the winner floated: the level is the win type's
    return {
        "piao": {"player": player, "name": names[player], "level": level, "own": own} if player is not None else None,
        "piao_levels": [(1, pick("单飘", "single float")), (2, pick("双飘", "double float"))],
        "piao_seats": [(s, names[s]) for s in range(4) if s != winner],
        "feeder_chips": chips if winner is not None else [],
        "is_draw": data.get("outcome") == "draw",
    }


def _offered_types(rules, winner: int | None, data: dict) -> dict:
    """The win-type step's buttons: after someone else floated, only the types §9 still allows,
    and why the others are gone (「单飘后其他人不能放铳胡，必须自摸」)."""
    piao = data.get("piao_player") if winner is not None else None
    if piao is None:
        refused = {}
    else:
        level = data.get("piao_level") or 1  # what the entry records when no level is tapped
        refused = {code: piao_refusal(rules, t, winner, piao, level) for code, t in WIN_TYPES.items()}
    offered = [code for code in WIN_TYPES if refused.get(code) is None]
    why = {table_words(say(e)): None for code, e in refused.items() if e and not WIN_TYPES[code].piao_level}
    return {
        "zimo": WIN_TYPES["zimo"] if "zimo" in offered else None,
        "pinghu": WIN_TYPES["pinghu"] if "pinghu" in offered else None,
        "more_types": [t for t in MORE_TYPES if t.code in offered],
        "piao_types": [t for t in PIAO_TYPES if t.code in offered],
        "types_gone": " ".join(why),
    }


class YiwuFormSide(FormSide):
    """义乌 offers its own form, its bets placed before a hand (bets.py), 逃跑, and its 算牌 words."""

    Form = Form
    # The fields that show a refusal of the contract's 飘 and 承包 (喂家); a 买子 refusal is the page's,
    # so the field keeps its answer and the sheet shows the bet to untick ("" is no field).
    FIELD_OF = {"piao": "piao_player", "piao.player": "piao_player", "feeders": "feeder1", "maizi": ""}
    PRESET_LABEL = ("底分（庄/闲）", "Base (dealer/other)")  # the new-game form's presets: a pair of bases
    TEMPLATE = "yiwu/handform.html"
    RULES_TEMPLATE = "yiwu/rules.html"
    PARTIAL = "table/handform/_preview.html"  # what a preview refresh swaps
    MISSING = {
        "winner": _("请选择谁胡了。"),
        "win_type": _("请选择胡牌型。"),
        "discarder": _("请选择谁放铳。"),
        "leaver": _("请选择谁逃跑了。"),
    }
    STEP_FIELDS = ("outcome", "winner", "win_type", "discarder", "leaver")
    # The bets placed before a hand (§7 买子, §8 下子) have their own module, bets.py.
    bets = staticmethod(placed.bets)
    prefill = staticmethod(placed.prefill)
    change_bet = staticmethod(placed.change_bet)
    placed_bets = staticmethod(placed.placed_bets)
    move_bets = staticmethod(placed.move_bets)
    merge_pending = staticmethod(placed.merge_pending)

    def edit_start(self, answers: dict) -> dict:
        """The winner's own 飘 is asked again with the win type (its 飘 buttons); another's stays."""
        start = super().edit_start(answers)
        if "piao_player" in answers and answers["piao_player"] == answers.get("winner"):
            del start["piao_player"], start["piao_level"]
        return start

    def initial(self, entry: dict, fix: tuple[int, int] | None) -> dict:
        """Form data (as a GET query would carry it) for an entry stored earlier."""
        data: dict = {"outcome": entry["outcome"]}
        for name in ("winner", "win_type", "discarder", "leaver", "caishen"):
            if name in entry:
                data[name] = entry[name]
        if "maizi" in entry:
            data["maizi"] = [s for s in range(4) if entry["maizi"][s]]
        joins = entry.get("xiazi_join") or []
        for seat in joins:
            data[f"xz{int(seat)}"] = joins[seat] if isinstance(joins, dict) else 1
        if "piao" in entry:
            data["piao_player"], data["piao_level"] = entry["piao"]["player"], entry["piao"]["level"]
            for i, feeder in enumerate(entry.get("feeders", []), start=1):
                data[f"feeder{i}"] = feeder
        return {**data, **fix_initial(fix)}

    def context(self, game: Game, form, state, rules) -> dict:
        data = form.cleaned_data if hasattr(form, "cleaned_data") else {}
        names = seated_names(game, state)
        winner, type_code = data.get("winner"), data.get("win_type")
        return {
            **_piao_options(form, names, winner),
            **_offered_types(rules, winner, data),
            "others": [(s, names[s]) for s in range(4) if s != winner],
            "type_name": pick(WIN_TYPES[type_code].zh, WIN_TYPES[type_code].en) if type_code else "",
            **_bet_options(game, form, state, rules),
            "bets_in_force": _bets_in_force(names, data, state, rules),
        }

    def other_outcomes(self, game) -> list[tuple[str, str]]:
        """What the table may record besides a win and a draw: 逃跑 where the game plays it (§10)."""
        return [("abandon", _("逃跑"))] if game.rules.get("abandon_enabled") else []

    def analyse_text(self, answer: dict, breakdown) -> str:
        """算牌's answer; a hand §9 leaves no win type says why (docs/rules/yiwu.md §9)."""
        if answer.get("win_type") is not None:
            return breakdown()
        n = answer.get("caishen", 0)
        if n >= 3:
            return _("手里有 %(n)s 个财神：只能胡财神头或杠开") % {"n": n}
        if n == 2:
            return _("手里有 2 个财神：不能胡别人放的铳，只能自摸")
        return _("不能胡")  # the engine sets a reason only for the two cases above

    def title(self, names: list[str], entry: dict, result=None) -> str:
        """e.g. 南家 自摸 ×2, 北家 平胡 ×1 · 东家放铳, 流局."""
        if entry["outcome"] == "draw":
            piao = entry.get("piao")
            if piao and piao["level"] == 2:
                return pick(
                    f"流局 · {names[piao['player']]}双飘不成", f"Draw · {names[piao['player']]}'s double float failed"
                )
            return pick("流局", "Draw")
        if entry["outcome"] == "abandon":
            return pick(f"{names[entry['leaver']]} 逃跑", f"{names[entry['leaver']]} left")
        win_type = WIN_TYPES[entry["win_type"]]
        text = f"{names[entry['winner']]} {pick(win_type.zh, win_type.en)} ×{win_type.multiplier}"
        if "discarder" in entry:
            text += pick(f" · {names[entry['discarder']]}放铳", f" · {names[entry['discarder']]} discarded")
        feeders, piao = entry.get("feeders"), entry.get("piao")
        if feeders and piao and entry["winner"] in feeders:  # §5.3 反赔: a feeder won
            floater, winner = names[piao["player"]], names[entry["winner"]]
            text += pick(
                f" · 反赔（{floater}飘，喂家{winner}胡）", f" · reverse pay ({floater} floated, feeder {winner} won)"
            )
        elif feeders:
            text += pick(" · 承包", " · feeder liable")
        return text

    def marks(self, state, seat: int, pending: dict | None = None) -> list[tuple[str, str]]:
        """(css class, text) badges: 买 for 买子, 下N for a 下子 of N; a bet placed for the next hand
        (``pending``) shows the same badge, outlined."""
        out = []
        if state.maizi[seat]:
            out.append(("text-bg-warning", pick("买", "buy-in")))
        if state.xiazi[seat]:
            out.append(("text-bg-info", pick(f"下{state.xiazi[seat]}", f"bet {state.xiazi[seat]}")))
        maizi, xiazi = placed.valid_pending(pending or {}, state)
        if seat in maizi:
            out.append(("text-bg-light border border-warning pending", pick("买", "buy-in")))
        if seat in xiazi:
            out.append(("text-bg-light border border-info pending", pick(f"下{xiazi[seat]}", f"bet {xiazi[seat]}")))
        return out

    def rules_context(self, rules) -> dict:
        """The rules page's win-type table, most common first."""
        return {"win_types": [WIN_TYPES[code] for code in COMMON_ORDER]}


FORM_SIDE = YiwuFormSide()
