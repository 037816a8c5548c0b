"""``python manage.py import_games FILE...``: each backup file becomes a new game with new links it prints.

A refused file says why and the others still go in (`make host-restore FILE=<folder>/games` runs it)."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand
from django.urls import reverse

from scoring.engine import ScoringError
from scoring.engine.hygiene import loads
from scoring.records.backup import notes
from scoring.records.exports import ImportRefused, import_game


class Command(BaseCommand):
    help = "Import each game backup FILE as a new game and print its links."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)

    def handle(self, *args, files: list[Path], **options):
        refused = 0
        for path in files:
            try:
                data = loads(path.read_bytes())
                game = import_game(data)
            except (ScoringError, ImportRefused) as error:
                refused += 1
                self.stderr.write(f"{path.name}: not imported: {error.zh} ({error.en})")
                continue
            except OSError as error:
                refused += 1
                self.stderr.write(f"{path.name}: not read: {error}")
                continue
            edit, view = (reverse("game", kwargs={"token": token}) for token in (game.edit_token, game.view_token))
            self.stdout.write(f"{path.name}: game {game.pk}, {' · '.join(game.players)}: edit {edit}  view {view}")
            for note in notes(data, game):
                self.stdout.write(f"  {note}")
        self.stdout.write(f"{len(files) - refused} imported, {refused} refused")
        if refused:
            sys.exit(1)
