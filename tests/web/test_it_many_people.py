"""An evening with many people (换人/换位 and imports): the settle preview stays cheap however many
sat at it, and the people limits refuse more with a message and change nothing."""

import json
import time

from django.test import override_settings

from scoring.models import Game
from tests.web.helpers import FINISH, game_url


def many(people: int) -> dict:
    """A game of ``people`` people, four at a time: a seating brings in four new names and one
    manual hand gives each a total of their own (no two alike, none the opposite of another)."""
    names = [f"p{i}" for i in range(people)]
    hands = []
    for start in range(0, people, 4):
        seat = names[start : start + 4]
        if start:
            hands.append({"outcome": "seating", "players": seat})
        k = 1 + 7 * (start // 4)
        net = [k, 2 * k + 1, 4 * k + 3]
        hands.append({"outcome": "manual", "net": [*net, -sum(net)], "note": "x"})
    return {"players": names[:4], "hands": hands}


def imported(client, data: dict) -> Game:
    before = set(Game.objects.values_list("pk", flat=True))
    response = client.post("/import", {"text": json.dumps(data)})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.exclude(pk__in=before).get()


def clears(balances: list[int], transfers) -> bool:
    left = list(balances)
    for payer, payee, amount in transfers:
        left[payer] += amount
        left[payee] -= amount
    return not any(left)


@override_settings(MAX_PEOPLE_PER_GAME=40)  # an operator's raised limit, or a game stored before it
def test_the_settle_preview_of_24_people_through_the_view_link_is_quick(client, db):
    game = imported(client, many(24))
    assert len(game.state["table"]["people"]) == 24
    started = time.process_time()
    response = client.get(game_url(game, view=True) + "settle", FINISH)
    spent = time.process_time() - started
    assert response.status_code == 200
    assert spent < 2, f"{spent:.1f} s of CPU"
    plan = response.context["plan"]
    assert sum(plan.balances_fen) == 0
    assert all(plan.balances_fen)
    assert clears(plan.balances_fen, [(t.payer, t.payee, t.amount_fen) for t in plan.transfers])
    assert len(plan.transfers) <= 23
    assert not plan.fewest
