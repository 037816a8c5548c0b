"""Every page with a link's token reads its game with one written-out query (scoring/access.py
``find_game``): the game it gives is the one the ORM gives, field for field, for either link."""

import pytest
from django.db.models import Q
from django.http import Http404
from django.test import RequestFactory

from scoring.access import find_game
from scoring.models import Game
from tests.factories import add_hand


@pytest.mark.parametrize("link", ["edit_token", "view_token"])
def test_the_game_of_a_link_is_the_orms_field_for_field(client, game, link):
    add_hand(game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    Game.objects.create(players=["甲", "乙", "丙", "丁"])  # another game, not this one
    token = getattr(game, link)
    found = find_game(RequestFactory().get("/"), token)
    orm = Game.objects.filter(Q(edit_token=token) | Q(view_token=token)).first()
    for field in Game._meta.concrete_fields:
        assert getattr(found, field.attname) == getattr(orm, field.attname), field.name
    assert found.created_at.tzinfo is not None
    assert found.state["last_seq"] == 1
    assert not found._state.adding


@pytest.mark.parametrize("token", ["no-such-game", "x" * 64, "bad\x00token"])
def test_no_game_is_404(db, token):
    with pytest.raises(Http404):
        find_game(RequestFactory().get("/"), token)
