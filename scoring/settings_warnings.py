"""Warnings about the settings, given by `manage.py check` (Django's system checks) at start-up: a
client-address header set up so a client could choose the address its budgets count
(scoring/access.py ``client_of``)."""

from django.conf import settings
from django.core.checks import Warning, register

HINT = "Set it only behind a reverse proxy that writes that header (docs/deploy.md, client address)."


@register()
def client_address_header(app_configs, **kwargs) -> list[Warning]:
    header = settings.CLIENT_IP_HEADER
    if not header or header == "REMOTE_ADDR":
        return []
    warnings = []
    if settings.DEBUG or settings.LAN_SERVER:
        message = (
            f"DJANGO_CLIENT_IP_HEADER={header!r} while the app serves phones directly (make run listens "
            "on every interface): any phone can send that header and choose the address it is counted by."
        )
        warnings.append(Warning(message, hint=HINT, id="scoring.W001"))
    if not header.startswith("HTTP_"):
        spelled = "HTTP_" + header.upper().replace("-", "_")
        message = (
            f"DJANGO_CLIENT_IP_HEADER={header!r} names no request header (they are named like {spelled!r}): "
            "every request is counted by the proxy's own address, so one client's budget is everyone's."
        )
        warnings.append(Warning(message, hint=HINT, id="scoring.W002"))
    if header == "HTTP_FORWARDED":
        message = (
            "DJANGO_CLIENT_IP_HEADER='HTTP_FORWARDED': the Forwarded header's for= entries are not read; "
            "use HTTP_X_FORWARDED_FOR or HTTP_X_REAL_IP."
        )
        warnings.append(Warning(message, hint=HINT, id="scoring.W003"))
    return warnings
