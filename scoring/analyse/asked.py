"""What a ruleset's 算牌 page asks beyond the tiles (docs/analysis.md "A ruleset's own request"): its
analyser's ``QUESTIONS``, read from the query, drawn as chips and applied before the page prices it."""

from django.utils.translation import gettext as _

from scoring.engine.analyse import analyse
from scoring.engine.analyse.analyser import trait
from scoring.engine.errors import shown
from scoring.lang import pick, table_words


def chosen_of(get, ruleset: str) -> dict[str, tuple[str, ...]]:
    """The options chosen for each of the ruleset's QUESTIONS; ValueError for one it does not offer, or too many."""
    chosen = {}
    for name, (options, many) in trait(ruleset, "QUESTIONS").items():
        values = tuple(v for v in get.get(name, "").split(",") if v)
        for value in values:
            if value not in options:
                raise ValueError(_("不认识的选项：%(name)s=%(value)s") % {"name": name, "value": shown(value, 8)})
        if len(values) > (len(options) if many else 1) or len(set(values)) < len(values):
            raise ValueError(_("%(name)s 选多了") % {"name": name})
        if values:
            chosen[name] = values
    return chosen


def applied(game, q, request: dict) -> tuple[dict, dict]:
    """(what the tiles say, that with the chosen options applied); ScoringError for a refused request."""
    answer = analyse(request)
    apply = trait(game.ruleset, "with_answers")
    return answer, answer if apply is None else apply(answer, q.chosen, request, q.winner)


def question_chips(game, q, request: dict, answer: dict, base: str) -> list[dict]:
    """The ruleset's questions as chips, each a link choosing or clearing its option, greyed with scoring's reason."""
    ask = trait(game.ruleset, "questions")
    if ask is None:
        return []
    out = []
    for question in ask(answer, q.chosen, request, q.winner):
        chips = [_chip(game, q, base, question, option) for option in question["options"]]
        why: dict[str, list[str]] = {}
        for chip in chips:
            if chip["reason"]:
                why.setdefault(chip["reason"], []).append(chip["label"])
        label = pick(*question["label"])
        if len(why) == 1 and all(chip["reason"] for chip in chips):  # every option, for one reason
            why = {reason: [label] for reason in why}
        notes = [pick("、", ", ").join(labels) + pick("：", ": ") + reason for reason, labels in why.items()]
        out.append({"label": label, "chips": chips, "notes": notes})
    return out


def _chip(game, q, base: str, question: dict, option: dict) -> dict:
    """One option of a question: its label, on or not, the link choosing or clearing it, why it is greyed."""
    name, picked = question["name"], q.chosen.get(question["name"], ())
    if option["on"]:
        values = tuple(v for v in picked if v != option["value"])
    else:
        values = (*picked, option["value"]) if question["many"] else (option["value"],)
    label = pick(*option["label"])
    if option["seat"] is not None:
        label = label.format(name=game.seating[option["seat"]])
    reason = option["reason"]
    return {
        "label": label,
        "on": option["on"],
        "url": q.link(base, **{name: ",".join(values) or None}),
        "reason": table_words(pick(*reason)) if reason and not option["on"] else "",
    }
