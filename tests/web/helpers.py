"""Small helpers for the Django client tests: post a hand the way the entry form does."""

import re

from scoring.models import Game


def game_url(game: Game, view: bool = False) -> str:
    return f"/g/{game.view_token if view else game.edit_token}/"


def form_fields(entry: dict) -> dict:
    """The entry form's fields for a contract HAND object."""
    data = {k: v for k, v in entry.items() if k in ("outcome", "winner", "win_type", "discarder", "leaver", "caishen")}
    if "maizi" in entry:
        data["maizi"] = [s for s in range(4) if entry["maizi"][s]]
    joins = entry.get("xiazi_join") or []
    for seat in joins:
        data[f"xz{seat}"] = joins[seat] if isinstance(joins, dict) else 1
    if "piao" in entry:
        data["piao_player"], data["piao_level"] = entry["piao"]["player"], entry["piao"]["level"]
        for i, feeder in enumerate(entry.get("feeders", []), start=1):
            data[f"feeder{i}"] = feeder
    return data


def record(client, game: Game, entry: dict, **extra):
    """Confirm a hand as the form does (next_seq from the current ledger)."""
    game.refresh_from_db()
    next_seq = (game.hands.order_by("-seq").values_list("seq", flat=True).first() or 0) + 1
    data = {**form_fields(entry), "confirm": "1", "next_seq": next_seq, **extra}
    return client.post(game_url(game) + "record", data)


def totals_on_page(html: str) -> list[str]:
    return re.findall(r'data-seat="\d">([^<]+)<', html)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []
