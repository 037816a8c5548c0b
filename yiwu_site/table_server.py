"""`make run`: the laptop on the table serves the phones on its Wi-Fi as a real server does (docs/hosting.md,
"No server, no domain"): gunicorn with debug off, the data and its secret in one folder outside the code, a
backup at start, every hour it changed and at stop, each kept 14 days. Standard library only, so it runs
before Django is set up; ``python -m yiwu_site.table_server --help``."""

import argparse
import os
import secrets
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

from yiwu_site import lan

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = Path.home() / "yiwu-mahjong"
DEFAULT_PORT = 8000
KEEP = timedelta(days=14)
EVERY = 3600  # seconds between two backups while serving, if the data changed
SECRET = "secret_key"
DATABASE = "db.sqlite3"
BACKUPS = "backups"
# Two sync workers keep a slow request from holding up the others; SQLite takes one writer at a time.
WORKERS = 2


def secret_key(folder: Path) -> str:
    """The folder's key, made once (signing sessions and the phones' 我是 cookies): a restart keeps them."""
    path = folder / SECRET
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(secrets.token_urlsafe(50) + "\n")
    return path.read_text(encoding="ascii").strip()


def environment(folder: Path, base: dict[str, str] | None = None) -> dict[str, str]:
    """The app's environment: debug off, plain HTTP to the Wi-Fi (DJANGO_LAN_SERVER), the folder's database."""
    env = dict(os.environ if base is None else base)
    for name in ("DJANGO_DEBUG", "PYTEST_VERSION", "DATABASE_URL"):
        env.pop(name, None)
    env.update(
        DJANGO_SECRET_KEY=secret_key(folder),
        DATABASE_URL=f"sqlite:///{folder / DATABASE}",
        DJANGO_LAN_SERVER="1",
        PYTHONUNBUFFERED="1",
    )
    return env


def backup(database: Path, into: Path, now: datetime | None = None) -> Path | None:
    """A whole copy of the database by SQLite's online backup (safe while the app writes), or None if
    there is no database yet. Written under a dotted name, then renamed: whole or absent."""
    if not database.exists():
        return None
    into.mkdir(parents=True, exist_ok=True)
    final = into / f"db-{(now or datetime.now()).strftime('%Y%m%d-%H%M%S')}.sqlite3"
    partial = into / f".{final.name}.partial"
    source, target = sqlite3.connect(database), sqlite3.connect(partial)
    try:
        with target:
            source.backup(target)
    finally:
        source.close()
        target.close()
    partial.replace(final)
    return final


def prune(into: Path, now: datetime | None = None, keep: timedelta = KEEP) -> list[Path]:
    """The backups older than ``keep``, and partial ones a crash left, removed; the newest always stays."""
    if not into.is_dir():
        return []
    cutoff = (now or datetime.now()) - keep
    found = sorted(into.glob("db-*.sqlite3"))
    gone = [path for path in found[:-1] if datetime.fromtimestamp(path.stat().st_mtime) < cutoff]
    gone += list(into.glob(".*.partial"))
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def changed_since(database: Path, stamp: float | None) -> bool:
    """Whether the database (or its write-ahead log) was written after ``stamp``."""
    files = [database, database.with_name(database.name + "-wal")]
    newest = max((path.stat().st_mtime for path in files if path.exists()), default=None)
    return newest is not None and (stamp is None or newest > stamp)


def take_backup(folder: Path, why: str) -> None:
    made = backup(folder / DATABASE, folder / BACKUPS)
    gone = prune(folder / BACKUPS)
    if made:
        print(
            f"备份 backup ({why}): {made}" + (f"; removed {len(gone)} older than 14 days" if gone else ""), flush=True
        )


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], env=env, cwd=ROOT, check=True)


def gunicorn_argv(port: int, workers: int = WORKERS) -> list[str]:
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "yiwu_site.wsgi",
        "--bind",
        f"0.0.0.0:{port}",
        "--workers",
        str(workers),
        "--timeout",
        "30",
        "--graceful-timeout",
        "10",
        "--no-control-socket",
        "--error-logfile",
        "-",
    ]


def announce(folder: Path, port: int) -> None:
    url = lan.lan_url(lan.lan_addresses(), port)
    print(f"麻将记分 serving on port {port}; data and backups in {folder}", flush=True)
    if url:
        print(f"Phones on the same Wi-Fi: {url}  (同一个 Wi-Fi 的手机打开这个地址)", flush=True)
    else:
        print("No LAN address found: phones cannot reach this machine (没有找到局域网地址)", flush=True)
    print("To work on the code instead: DJANGO_DEBUG=1 .venv/bin/python manage.py runserver", flush=True)


def adopt_old_data(folder: Path, old: Path = ROOT / DATABASE) -> bool:
    """An earlier `make run` kept its games in the checkout: copied once into a folder that has none yet."""
    if (folder / DATABASE).exists() or not old.exists():
        return False
    backup(old, folder, None).replace(folder / DATABASE)
    print(f"Copied the games of {old} into {folder / DATABASE} (the old file is left as it was)", flush=True)
    return True


def serve(folder: Path, port: int, every: float = EVERY) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    adopt_old_data(folder)
    env = environment(folder)
    take_backup(folder, "start")  # before migrate: the data as the last run left it
    manage(env, "collectstatic", "--no-input", "--verbosity", "0")
    manage(env, "migrate", "--no-input", "--verbosity", "0")
    announce(folder, port)
    server = subprocess.Popen(gunicorn_argv(port), env=env, cwd=ROOT)
    stopping = []

    def stop(signum, frame):
        stopping.append(signum)
        server.terminate()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    last = time.time()
    while server.poll() is None:
        try:
            server.wait(timeout=min(every, 60))
        except subprocess.TimeoutExpired:
            if time.time() - last >= every:
                if changed_since(folder / DATABASE, last):
                    take_backup(folder, "hourly")
                last = time.time()
    take_backup(folder, "stop")
    return 0 if stopping else server.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m yiwu_site.table_server", description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or DEFAULT_PORT))
    parser.add_argument("--data", type=Path, default=Path(os.environ.get("DATA") or DEFAULT_DATA))
    parser.add_argument("--every", type=float, default=EVERY, help="seconds between backups while serving")
    args = parser.parse_args(argv)
    return serve(args.data.expanduser().resolve(), args.port, args.every)


if __name__ == "__main__":
    sys.exit(main())
