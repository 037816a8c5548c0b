"""The server's backups (docs/hosting.md, "Backups"), run in a release's virtualenv as the app's user.

A backup folder holds ``db.dump`` (pg_dump, everything) and ``games/`` (each game's 「导出 JSON」); it is
whole or absent (written under a dotted name, then renamed)."""

import argparse
import os
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

KEEP_OTHERS = 5  # backups taken before an upgrade or a restore
DUMP = "db.dump"


def pg_environment() -> dict[str, str]:
    """libpq's variables for DATABASE_URL, so that the password is in no command line."""
    from yiwu_site.host.config import database_of

    database, password = database_of(os.environ["DATABASE_URL"])
    return {
        **os.environ,
        "PGHOST": database.host,
        "PGPORT": str(database.port),
        "PGUSER": database.role,
        "PGPASSWORD": password,
        "PGDATABASE": database.name,
    }


def make(into: Path, kind: str, keep: int) -> Path:
    from django.core.management import call_command

    from scoring.models import Game, Hand

    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    final = into / f"{stamp}-{kind}"
    partial = into / f".{final.name}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    subprocess.run(["pg_dump", "--format=custom", f"--file={partial / DUMP}"], env=pg_environment(), check=True)
    call_command("export_games", str(partial / "games"), verbosity=0)
    games, hands = Game.objects.count(), Hand.objects.count()
    (partial / "SUMMARY").write_text(f"{games} games, {hands} hands; taken {stamp} ({kind})\n", encoding="utf-8")
    partial.rename(final)
    gone = prune(into, kind, keep)
    size = sum(path.stat().st_size for path in final.rglob("*") if path.is_file())
    print(
        f"backup {final}: {games} games, {hands} hands, {size / 1e6:.1f} MB"
        + (f"; removed {len(gone)} older" if gone else "")
    )
    return final


def prune(into: Path, kind: str, keep: int) -> list[Path]:
    """The backups of ``kind`` but the newest ``keep`` (names sort by time), and partial ones left by a crash."""
    mine = sorted(path for path in into.iterdir() if path.is_dir() and path.name.endswith(f"-{kind}"))
    gone = mine[:-keep] + [path for path in into.iterdir() if path.name.endswith(".partial")]
    for path in gone:
        shutil.rmtree(path)
    return gone


def restore(path: Path) -> None:
    """A backup folder or its db.dump: the whole database, in one transaction; a game's .json or a
    folder of them: each imported as a new game with new links."""
    dump = path / DUMP if path.is_dir() and (path / DUMP).exists() else path
    if dump.suffix == ".dump":
        restore_dump(dump)
    else:
        files = sorted(path.glob("*.json")) if path.is_dir() else [path]
        if not files:
            sys.exit(f"{path}: no db.dump and no .json game here")
        from django.core.management import call_command

        call_command("import_games", *map(str, files))


def restore_dump(dump: Path) -> None:
    from django.core.management import call_command
    from django.db import connection

    from scoring.models import Game, Hand

    connection.close()  # the restore drops the schema this process would otherwise hold
    sql = subprocess.run(
        ["pg_restore", "--no-owner", "--no-privileges", "--file=-", str(dump)], capture_output=True, check=True
    ).stdout
    # The public schema goes first, so a table a newer release added does not outlive the restore.
    script = b"SET client_min_messages = warning;\nDROP SCHEMA public CASCADE;\nCREATE SCHEMA public;\n" + sql
    subprocess.run(
        ["psql", "--quiet", "--no-psqlrc", "--single-transaction", "-v", "ON_ERROR_STOP=1", "--output=/dev/null"],
        input=script,
        env=pg_environment(),
        check=True,
    )
    call_command("migrate", interactive=False, verbosity=0)  # a dump older than the code
    print(f"restored {dump}: {Game.objects.count()} games, {Hand.objects.count()} hands, their links as they were")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m yiwu_site.host.backup")
    commands = parser.add_subparsers(dest="command", required=True)
    taking = commands.add_parser("make", help="take a backup")
    taking.add_argument("--into", type=Path, required=True)
    taking.add_argument("--kind", default="nightly", choices=["nightly", "upgrade", "restore", "manual"])
    taking.add_argument("--keep", type=int, default=None, help=f"of this kind (default 14 nightly, else {KEEP_OTHERS})")
    bringing = commands.add_parser("restore", help="bring one back")
    bringing.add_argument("path", type=Path)
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yiwu_site.settings")
    import django

    django.setup()
    if args.command == "make":
        keep = args.keep or (14 if args.kind == "nightly" else KEEP_OTHERS)
        make(args.into, args.kind, max(1, keep))
    else:
        restore(args.path)


if __name__ == "__main__":
    main()
