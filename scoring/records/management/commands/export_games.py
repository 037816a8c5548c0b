"""``python manage.py export_games FOLDER``: every game as its own backup file, for the nightly backup."""

from pathlib import Path

from django.core.management.base import BaseCommand
from django.utils import timezone

from scoring.models import Game
from scoring.records.backup import backup_text
from scoring.replay import stored_replay


def file_name(game: Game) -> str:
    return f"{game.pk}-{game.ruleset}-{timezone.localtime(game.created_at):%Y%m%d-%H%M}.json"


class Command(BaseCommand):
    help = "Write every game's backup JSON into FOLDER, one file per game."

    def add_arguments(self, parser):
        parser.add_argument("folder", type=Path)

    def handle(self, *args, folder: Path, **options):
        folder.mkdir(parents=True, exist_ok=True)
        count = 0
        for game in Game.objects.order_by("pk").iterator(chunk_size=100):
            text = backup_text(stored_replay(game, limit=None))
            (folder / file_name(game)).write_text(text, encoding="utf-8")
            count += 1
        if options["verbosity"]:
            self.stdout.write(f"{count} game(s) written to {folder}")
