"""收款码 beside a transfer (``{% load paycodes %}``): the payee's codes, drawn large."""

from django import template

from scoring.engine.seating import key
from scoring.lang import chinese
from scoring.paycodes import APP_NAMES

register = template.Library()


@register.filter
def codes_of(codes: dict | None, name: str) -> list:
    """The codes of the person ``name`` among ``codes`` (``scoring.paycode_requests.codes_by_person``)."""
    return (codes or {}).get(key(name), [])


@register.filter
def app_name(kind: str) -> str:
    """微信 / 支付宝 (WeChat / Alipay)."""
    zh, en = APP_NAMES.get(kind, (kind, kind))
    return zh if chinese() else en


@register.inclusion_tag("settle/_paycode.html", takes_context=True)
def paycodes_for(context, payee: str, amount: str) -> dict:
    """The payee's codes under a transfer of ``amount``: each app's, with how to pay it."""
    return {
        "codes": codes_of(context.get("paycodes"), payee),
        "payee": payee,
        "amount": amount,
        "token": context["token"],
        "where": context.get("where") or "game",
    }
