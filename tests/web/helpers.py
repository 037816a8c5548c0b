"""Small helpers for the Django client tests: post a hand the way the entry form does."""

import re

from scoring.entry import entry_for, yiwu
from scoring.models import Game

# The new-game form as a table fills it in (义乌, every rule set).
NEW_GAME = {
    "name0": "老王",
    "name1": "小李",
    "name2": "阿华",
    "name3": "大刘",
    "first_dealer": "2",
    "preset": "9/7",
    "maizi_points": "2",
    "maizi_buy": "tenure_start",
    "xiazi_points": "1",
    "xiazi_amount": "fixed",
    "discarder_extra": "double",
    "fanpei_factor": "2",
    "shuangpiao_draw_mult": "4",
    "shuangpiao_draw_includes_xiazi": "on",
    "multi_feeder": "shared",
}


def game_url(game: Game, view: bool = False) -> str:
    return f"/g/{game.view_token if view else game.edit_token}/"


def form_fields(entry: dict, game: Game | None = None) -> dict:
    """The entry form's fields for a contract HAND object (as the edit form fills them), in the
    game's ruleset (义乌 when no game is given)."""
    kind = entry_for(game) if game is not None else yiwu
    return kind.initial(entry, None)


def record(client, game: Game, entry: dict, **extra):
    """Confirm a hand as the form does (next_seq from the current ledger)."""
    game.refresh_from_db()
    next_seq = (game.hands.order_by("-seq").values_list("seq", flat=True).first() or 0) + 1
    data = {**form_fields(entry, game), "confirm": "1", "next_seq": next_seq, **extra}
    return client.post(game_url(game) + "record", data)


def totals_on_page(html: str) -> list[str]:
    return re.findall(r'data-seat="\d">([^<]+)<', html)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []
