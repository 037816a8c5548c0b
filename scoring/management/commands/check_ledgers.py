"""``manage.py check_ledgers [--repair]``: compare every game's cache with its replay."""

import sys

from django.core.management.base import BaseCommand

from scoring.cache import CACHE_VERSION, result_json, store
from scoring.ledger import LedgerError, build
from scoring.models import Game
from scoring.stats import tally_of


class Command(BaseCommand):
    help = "Check that every game's cached results and totals equal a fresh replay of its hands."

    def add_arguments(self, parser):
        parser.add_argument("--repair", action="store_true", help="rewrite the cache of the games that differ")

    def handle(self, *args, repair: bool, **options):
        wrong = 0
        for game in Game.objects.iterator():
            try:
                ledger = build(game)
            except LedgerError as error:
                self.stdout.write(f"game {game.pk}: does not replay: {error.message()}")
                wrong += 1
                continue
            expected = {
                row.hand.seq: (result_json(row.result, game.engine) if row.result else None) for row in ledger.rows
            }
            stored = {row.hand.seq: row.hand.result for row in ledger.rows}
            state_ok = (
                bool(game.state)
                and game.state.get("v") == CACHE_VERSION
                and game.state.get("table") == ledger.state.to_dict()
                and game.state.get("tally") == tally_of(ledger.rows, len(game.players))
            )
            if stored == expected and state_ok:
                continue
            wrong += 1
            self.stdout.write(f"game {game.pk}: cache differs from the replay{' (repaired)' if repair else ''}")
            if repair:
                store(game, ledger)
        self.stdout.write(f"{wrong} game(s) differed")
        if wrong and not repair:
            sys.exit(1)
