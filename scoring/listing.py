"""The games a phone opened (and the signed-in person's) as the home page, 历史牌局 and 个人统计 list them.

Each line comes from the stored replay, never the hands, so a list is a few queries whatever its size."""

from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.http import HttpRequest

from scoring import device
from scoring.engine.seating import key
from scoring.lang import pick
from scoring.models import Game, SavedGame
from scoring.replay import ReplayError, cached_state, rebuild, who_played


@dataclass
class GameLine:
    """One game of a list: the link this phone holds and every person's stored total, in order of first appearance."""

    game: Game
    token: str
    totals: list  # per person
    count: int  # the hands that count
    tally: list  # per person (scoring/stats.py)
    names: list  # every person

    @property
    def can_edit(self) -> bool:
        return self.token == self.game.edit_token

    @property
    def ruleset_name(self) -> str:
        return pick(self.game.plugin.zh, self.game.plugin.en)

    @property
    def standings(self) -> list[tuple[str, object]]:
        """(name, total), the highest first (the order they first sat down among equals)."""
        order = sorted(range(len(self.totals)), key=lambda i: -self.totals[i])
        return [(self.names[i], self.totals[i]) for i in order]

    @property
    def leader(self) -> str | None:
        """The one player ahead of everyone else, if there is one."""
        (name, top), *rest = self.standings
        return name if top > 0 and all(total < top for _name, total in rest) else None


def my_tokens(request: HttpRequest) -> list[str]:
    tokens = device.remembered_tokens(request)
    if request.user.is_authenticated:
        tokens += list(SavedGame.objects.filter(user=request.user).values_list("token", flat=True))
    return tokens


def my_games(tokens: list[str], *, archived: bool | None = False) -> QuerySet:
    """The games ``tokens`` open; the archived ones only (True), the others (False) or all (None)."""
    games = Game.objects.filter(Q(edit_token__in=tokens) | Q(view_token__in=tokens))
    if archived is not None:
        games = games.filter(archived_at__isnull=not archived)
    return games


def lines(games, tokens: list[str]) -> list[GameLine]:
    """Each game as its stored replay has it; an old cache is rebuilt once, a game that no longer replays left out."""
    tokens = set(tokens)
    result = []
    for game in games:
        if cached_state(game) is None:
            try:
                rebuild(game)
            except ReplayError:
                continue
        state, token = game.state, game.edit_token if game.edit_token in tokens else game.view_token
        money = {key(name) for name, _total in who_played(game)}  # no one who played no hand
        people = game.plugin.state_from_dict(state["table"]).people()
        kept = [i for i, (name, _total) in enumerate(people) if key(name) in money]
        names, totals = [people[i][0] for i in kept], [people[i][1] for i in kept]
        result.append(GameLine(game, token, totals, state["active"], [state["tally"][i] for i in kept], names))
    return result
