"""The table's display helpers (``{% load table %}``): signed points, gain/loss colour classes,
links that carry a form, and what a game's ruleset adds to the generic pages."""

from urllib.parse import urlencode

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext

from scoring.engine.points import fmt, from_json
from scoring.lang import chinese

register = template.Library()


@register.filter
def signed(value) -> str:
    """+38, −18, 0, +2.5: the table reads signs at a glance (诸暨 has half points)."""
    return fmt(from_json(value), signed=True)


@register.filter
def isolated(name) -> str:
    """A name in an attribute's words (``data-facts``), between FSI and PDI: drawn later as text, its own
    direction characters stay inside it, as ``<bdi>`` keeps them in the page (docs/offline.md)."""
    return f"\u2068{name}\u2069"


@register.filter
def points(value) -> str:
    """A point amount without a plus sign: 16, 0.5."""
    return fmt(from_json(value))


@register.filter
def tone(value) -> str:
    """CSS class: gains and losses take the locale's colours (see app.css)."""
    return "gain" if value > 0 else "loss" if value < 0 else "even"


ONE_TIME_FIELDS = ("csrfmiddlewaretoken", "form_token", "next_seq")  # never carried by a link


@register.simple_tag(takes_context=True)
def step_url(context, base: str, data, **updates) -> str:
    """``base`` with the form's current answers plus ``updates``: each tap is a plain link. A
    step screen has a score of them: the answers are encoded once per template render. A render
    given a ``step_links`` list gets each link added to it (the steps the phone is sent ahead:
    scoring/table/views/steps.py)."""
    memo = context.render_context.setdefault("step_url", {})
    answers = memo.get(id(data))
    if answers is None or answers[0] is not data:
        answers = memo[id(data)] = (data, _encoded_answers(data))
    query = [pair for key, pair in answers[1] if key not in updates]
    changed = [(k, v) for k, v in updates.items() if v not in (None, "")]
    if changed:
        query.append(urlencode(changed))
    url = f"{base}?{'&'.join(query)}" if query else base
    links = context.get("step_links")
    if links is not None:
        links.append(url)
    original = context.get("original")
    if original is not None:  # an edit: does this tap give the stored hand's answer (``was``)?
        context.render_context["was"] = all(_answer(original.get(k)) == _answer(v) for k, v in updates.items())
    return url


def _answer(value) -> str:
    return "" if value is None or value is False or value == "" else str(value)


@register.simple_tag(takes_context=True)
def was(context) -> str:
    """「原来」 inside an edit's step button whose link (the ``step_url`` just before) answers as the
    stored hand did; nothing elsewhere."""
    if context.get("original") is None or not context.render_context.get("was"):
        return ""
    return format_html('<span class="badge text-bg-light border was-mark">{}</span>', gettext("原来"))


def _encoded_answers(data) -> list[tuple[str, str]]:
    """(field, "field=value") for each answer in ``data``, as ``urlencode`` writes each pair."""
    pairs = []
    for key in data or {}:
        if key in ONE_TIME_FIELDS:
            continue
        values = data.getlist(key) if hasattr(data, "getlist") else data[key]
        for value in values if isinstance(values, list) else [values]:
            if value not in (None, ""):
                pairs.append((key, urlencode([(key, value)])))
    return pairs


@register.filter
def label(item) -> str:
    """A win type's or house rule's name in the page's language."""
    return item.zh if chinese() else item.en


@register.filter
def rule_help(info) -> str:
    return info.zh_help if chinese() else info.en_help


@register.filter
def rule_value(value, info) -> str:
    """How a house rule's value reads: 不封顶, 是/否, a choice's label, or the number."""
    zh = chinese()
    if value is None:
        return "不封顶" if zh else "no cap"
    if isinstance(value, bool):
        return ("是" if value else "否") if zh else ("yes" if value else "no")
    if isinstance(value, list | tuple):  # one number per entry (杭州's 老庄 factors), by their names
        shown = [
            f"{name_zh if zh else name_en} {v}"
            for (_key, name_zh, name_en, _standard), v in zip(info.entries, value, strict=False)
        ]
        return ("，" if zh else ", ").join(shown)
    if isinstance(value, dict):  # a table's changed entries (武义二人 番数表), by their names
        names = {key: name_zh if zh else name_en for key, name_zh, name_en, _standard in info.entries}
        shown = [f"{names.get(k, k)} {v}" for k, v in value.items()]
        return ("，" if zh else ", ").join(shown) or ("按默认" if zh else "as listed")
    for choice, choice_zh, choice_en in info.choices:
        if choice == value:
            return choice_zh if zh else choice_en
    return str(value)


@register.simple_tag
def streak_text(game, streak) -> str:
    """The dealer's streak in the game's ruleset's words, as the tiles say it beside 庄: 连2, 二老庄
    (its entry's ``streak_text``); "" for none."""
    return game.plugin.form_side.streak_text(streak or 0)


@register.simple_tag
def other_outcomes(game) -> list[tuple[str, str]]:
    """The ruleset's own outcomes besides a win and a draw, (outcome, label) each: 义乌's 逃跑
    where the game plays it (its entry's ``other_outcomes``)."""
    return game.plugin.form_side.other_outcomes(game)


@register.simple_tag
def amounts_json(nets) -> str:
    """Each person's amount as a preview shows it, ``[[name, "+42", "gain"], …]`` as JSON: what the
    phone paints on its waiting row the moment 确认 is tapped (static/js/offline.js, docs/offline.md)."""
    import json

    return json.dumps([[name, signed(n), tone(n)] for name, n in nets or ()], ensure_ascii=False)


@register.simple_tag
def offline_words() -> str:
    """What static/js/offline.js says (hands kept on the phone without network), in the page's
    language, as JSON for a ``<meta>`` (no inline script: the site's CSP). ``{n}`` is a count."""
    import json

    from django.utils.translation import gettext as _

    words = {
        "offline": _("离线"),
        "offline_n": _("离线 · {n} 局待同步"),
        "waiting_n": _("{n} 局待同步"),
        "pending": _("待同步"),
        "later": _("联网后计算"),
        "sending": _("正在同步…"),
        "refused": _("没有记上"),
        "delete": _("删除"),
        "delete_sure": _("确认删除"),
        "edit": _("修改"),
        "kept": _("没有网络：这一局已存在这台手机上，联网后自动发送。"),
        "back": _("回到牌局"),
        "step": _("离线：这一步需要联网"),
        "whole": _("离线：这一局需要联网才能填完"),
        "kept_short": _("这一局已存在这台手机上，联网后自动发送。"),
        "change": _("离线：修改/作废/结算需要联网"),
        "waits": _("等前面一局处理好再发"),
        "unsaved": _("这台手机存不下这一局：请联网后再确认。"),
        "kept_sending": _("这一局已存在这台手机上，正在发送。"),
        "queued": _("排队发送"),
        "later_send": _("联网后发送"),
        "number": _("第{n}局"),
        "failed_n": _("没发出去 · {n} 局存在这台手机上，自动重发中"),
        "retry_server": _("服务器没有回应，自动重发中"),
        "retry_network": _("连不上服务器，自动重发中"),
        "retry_slow": _("服务器太慢，自动重发中"),
        "kept_server": _("服务器没有回应：这一局存在这台手机上，会自动重发。"),
        "kept_network": _("连不上服务器：这一局存在这台手机上，会自动重发。"),
        "kept_slow": _("服务器太慢：这一局存在这台手机上，会自动重发。"),
        "again": _("再发一次"),
        "behind": _("还有 {n} 局没发出去：等它们记上再改。"),
        "write_server": _("服务器没有回应，没有记上：你填的还在，请稍后再点一次。"),
        "write_network": _("没有网络，没有记上：你填的还在，联网后再点一次。"),
        "page_server": _("服务器没有回应，请稍后再试。"),
        "screen_server": _("连不上服务器：确认后这一局先存在这台手机上。"),
        "write_slow": _("服务器太慢，没等到回应：你填的还在。看一下记上没有，没有就再点一次。"),
        # The table's other writes in the same outbox (下注, 核对, 修改, 作废 …): 「项」, not 「局」.
        "offline_n_w": _("离线 · {n} 项待同步"),
        "waiting_n_w": _("{n} 项待同步"),
        "failed_n_w": _("没发出去 · {n} 项存在这台手机上，自动重发中"),
        "behind_w": _("还有 {n} 项没发出去：等它们记上再改。"),
        "write_kept": _("没有网络：这项改动已存在这台手机上，联网后自动发送。"),
        "write_kept_sending": _("这项改动已存在这台手机上，正在发送。"),
        "write_kept_short": _("这项改动已存在这台手机上，联网后自动发送。"),
        "write_kept_server": _("服务器没有回应：这项改动存在这台手机上，会自动重发。"),
        "write_kept_network": _("连不上服务器：这项改动存在这台手机上，会自动重发。"),
        "write_kept_slow": _("服务器太慢：这项改动存在这台手机上，会自动重发。"),
        "not_done": _("没有改"),
        "dismiss": _("知道了"),
        "open": _("打开看看"),
        "w_bet": _("下注"),
        "w_play_on": _("接着打"),
        "w_check": _("核对"),
        "w_back": _("撤回核对"),
        "w_void": _("作废"),
        "w_edit": _("修改"),
        "w_seating": _("换人/换位"),
    }
    return json.dumps(words, ensure_ascii=False)
