"""``manage.py verify_ledgers [--repair]``: compare every game's cache with its replay; a cache never filled
(the first read rebuilds it, scoring/replay.py ``ensure``) is counted apart, and ``--repair`` fills it."""

import sys

from django.core.management.base import BaseCommand

from scoring.models import Game
from scoring.replay import ReplayError, build, cached_state, result_json, store
from scoring.stats import tally_of


class Command(BaseCommand):
    help = "Check that every game's cached results and totals equal a fresh replay of its hands."

    def add_arguments(self, parser):
        parser.add_argument("--repair", action="store_true", help="rewrite the cache of the games that differ")

    def handle(self, *args, repair: bool, **options):
        wrong = unfilled = 0
        for game in Game.objects.iterator():
            try:
                ledger = build(game)
            except ReplayError as error:
                self.stdout.write(f"game {game.pk}: does not replay: {error.message()}")
                wrong += 1
                continue
            if cached_state(game) is None:
                unfilled += 1
                if repair:
                    store(game, ledger)
                continue
            expected = {
                row.hand.seq: (result_json(row.result, game.plugin) if row.result else None) for row in ledger.rows
            }
            stored = {row.hand.seq: row.hand.result for row in ledger.rows}
            state_ok = game.state.get("table") == ledger.state.to_dict() and game.state.get("tally") == tally_of(
                ledger.rows, game.players
            )
            if stored == expected and state_ok:
                continue
            wrong += 1
            self.stdout.write(f"game {game.pk}: cache differs from the replay{' (repaired)' if repair else ''}")
            if repair:
                store(game, ledger)
                game.bump_version()  # what the pages show changed: phones poll it, kept pages go
        if unfilled:
            done = "filled now" if repair else "filled on first read, or now by --repair"
            self.stdout.write(f"{unfilled} game(s) not cached yet ({done})")
        self.stdout.write(f"{wrong} game(s) differed")
        if wrong and not repair:
            sys.exit(1)
