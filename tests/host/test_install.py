"""`make host` for real on this machine (yiwu_site/host/host.sh), as on a server where systemd is
not running: every path under a folder of the test's (HOST_ROOT), its own database and role on the
local PostgreSQL, its own ports, the user root. Installed, run again, started (make host-start),
upgraded while that run serves and switched without a stop, refused an upgrade that does not answer
while it serves on, backed up by the timer's own command and restored; then as where systemd runs
(tests/host/stand-in/systemctl): upgraded by a reload and refused, a phone polling all along meeting
no failure; uninstalled, leaving the machine as before.

One test, since each step stands on the one before (and xdist would run a module's tests apart)."""

import hashlib
import json
import os
import re
import resource
import shlex
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.host.tools import need
from tests.required import unavailable
from yiwu_site.host import config, health, release
from yiwu_site.settings import BASE_DIR

EXAMPLES = BASE_DIR / "tests/data/examples"
STAND_IN = BASE_DIR / "tests/host/stand-in"
TOTALS = """
import django, json, os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "yiwu_site.settings"
django.setup()
from scoring.models import Game
from scoring.replay import table
Game.objects.filter(edit_token__in=sys.argv[1:]).delete()
print(json.dumps({g.edit_token: [str(t) for t in table(g)[0].totals] for g in Game.objects.order_by("pk")}))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wheels() -> dict[str, str]:
    """pip's settings for the release's venv: the requirements as wheels kept between runs (pip's
    own cache keeps nothing here: the index answers with no Cache-Control), built the first time
    by the python3 the release is built with, whose markers choose them."""
    requirements = BASE_DIR / "requirements.txt"
    python = shutil.which("python3", path=release.plain_environment()["PATH"])
    key = hashlib.sha256(requirements.read_bytes() + python.encode()).hexdigest()[:16]
    kept = Path.home() / ".cache/yiwu-tests" / f"wheels-{key}"
    if not kept.exists():
        making = kept.with_name(f"{kept.name}.{os.getpid()}")
        shutil.rmtree(making, ignore_errors=True)
        subprocess.run([python, "-m", "venv", str(making / "venv")], check=True, capture_output=True)
        pip = [str(making / "venv/bin/python"), "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check"]
        subprocess.run([*pip, "-r", str(requirements), "-w", str(making / "wheels")], check=True, capture_output=True)
        (making / "wheels").rename(kept)
        shutil.rmtree(making)
    return {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(kept)}


class Phone:
    """A phone at the table: asks /healthz every 0.2 s in a thread, and records each answer."""

    def __init__(self, port: int):
        self.port, self.answers, self.stopping = port, [], threading.Event()
        self.thread = threading.Thread(target=self.poll, daemon=True)

    def poll(self) -> None:
        while not self.stopping.is_set():
            try:
                status = health.ask("/healthz", domain="mj.example.com", port=self.port)[0]
            except OSError as error:
                status = f"{type(error).__name__}: {error}"
            self.answers.append(status)
            self.stopping.wait(0.2)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *_exc):
        self.stopping.set()
        self.thread.join()
        print(f"phone: {len(self.answers)} answers, {len(self.failed)} failed")  # pytest -s shows it

    @property
    def failed(self) -> list:
        return [answer for answer in self.answers if answer != 200]


def workers_in(pid: int) -> set[str]:
    """The releases the workers of gunicorn master ``pid`` run (their working directories)."""
    return {Path(path).name for path in health.runs(pid)}


def psql(sql: str) -> str:
    done = subprocess.run(
        ["runuser", "-u", "postgres", "--", "psql", "-tAXq", "-d", "postgres", "-c", sql],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


class Server:
    """The installed server under ``root``, installed from a git checkout of its own (``source``)."""

    def __init__(self, root: Path):
        self.root, self.source = root, root / "checkout"
        self.db = f"yiwu_hosttest_{os.getpid()}"
        self.env_file = root / "etc/yiwu/env"
        self.home = root / "srv/yiwu"
        self.backups = root / "var/backups/yiwu"
        self.runs: list[subprocess.Popen] = []
        self.settings = {
            "HOST_ROOT": str(root),
            "APP_USER": "root",
            "DB_NAME": self.db,
            "APP_PORT": str(free_port()),
            "CHECK_PORT": str(free_port()),
            "HOST_SYSTEMD": "no",
            "HOST_SERVE": "no",
            "HOST_APT": "no",
            "HOST_CADDY": "no",  # a foreground run without Caddy: ports 80 and 443 are not the test's
            "WAIT": "20",
            **wheels(),
        }

    def checkout(self) -> None:
        listed = subprocess.run(
            ["git", "-C", str(BASE_DIR), "ls-files", "-z", "-co", "--exclude-standard"], capture_output=True
        )
        for name in filter(lambda name: (BASE_DIR / name).is_file(), listed.stdout.decode().split("\0")):
            (self.source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(BASE_DIR / name, self.source / name)
        self.git("init", "-q")
        self.commit("the release under test")

    def git(self, *args: str) -> None:
        subprocess.run(["git", "-C", str(self.source), *args], check=True, capture_output=True)

    def commit(self, message: str) -> None:
        self.git("add", "-A")
        self.git("-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-q", "-m", message)

    def host(self, *args: str, **settings: str) -> subprocess.CompletedProcess:
        environment = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", **self.settings, **settings}
        script = self.source / "yiwu_site/host/host.sh"
        started, before = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            ["bash", str(script), *args], env=environment, capture_output=True, text=True, timeout=600
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        print(f"host.sh {args[0]}: {time.monotonic() - started:.1f} s, {cpu:.1f} s of CPU")  # pytest -s shows them
        return done

    def start(self) -> subprocess.Popen:
        """make host-start, without systemd: the run in the foreground, as a terminal would hold it."""
        environment = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", **self.settings}
        with open(self.root / "start.log", "w") as log:  # the run keeps its own copy of the descriptor
            run = subprocess.Popen(
                ["bash", str(self.source / "yiwu_site/host/host.sh"), "start"], env=environment, stdout=log, stderr=log
            )
        self.runs.append(run)
        return run

    def run_pid(self) -> int:
        return int((self.root / "etc/yiwu/run.pids").read_text().split()[0])

    def environment(self) -> dict[str, str]:
        return config.read_env(self.env_file.read_text())

    def in_release(self, *command: str) -> subprocess.CompletedProcess:
        """As the service runs it: in the current release, with the environment file alone."""
        current = self.home / "current"
        environment = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", **self.environment()}
        done = subprocess.run(command, cwd=current, env=environment, capture_output=True, text=True)
        assert done.returncode == 0, said(done)
        return done

    def totals(self, *deleting: str) -> dict[str, list[str]]:
        """Each game's totals by its edit link's token, once the games of ``deleting`` are deleted."""
        return json.loads(self.in_release(".venv/bin/python", "-c", TOTALS, *deleting).stdout)

    def current(self) -> str:
        return (self.home / "current").resolve().name

    def stand_in(self) -> dict[str, str]:
        """As where systemd runs, with tests/host/stand-in/systemctl for it."""
        return {
            "PATH": f"{STAND_IN}:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOST_ROOT": str(self.root),
            "HOST_SYSTEMD": "yes",
            "HTTPS_WAIT": "0",  # no Caddy serves here: asked once
            "STAND_IN_LOG": str(self.root / "systemctl.log"),
            "STAND_IN_DIR": str(self.root),
        }


@pytest.fixture
def server(tmp_path):
    if os.geteuid() != 0:
        unavailable("make host runs as root")
    for command in ("caddy", "pg_dump"):
        need(command)
    if subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", "5432"]).returncode:
        unavailable("PostgreSQL is not answering on 127.0.0.1:5432 (.ci/run starts it)")
    server = Server(tmp_path)
    server.checkout()
    yield server
    for run in server.runs:
        run.terminate()
        run.wait(30)
    subprocess.run([STAND_IN / "systemctl", "stop", "yiwu.service"], env=server.stand_in(), check=True)
    psql(f'DROP DATABASE IF EXISTS "{server.db}" WITH (FORCE)')
    psql(f'DROP ROLE IF EXISTS "{server.db}"')


def said(done: subprocess.CompletedProcess) -> str:
    return f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"


@pytest.mark.long
def test_make_host_installs_keeps_everything_on_a_re_run_upgrades_and_restores_a_backup(server, tmp_path):
    # Debian's caddy package comes with a Caddyfile of its own: make host keeps it, uninstall puts it back.
    debians = ":80 {\n\troot * /usr/share/caddy\n\tfile_server\n}\n"
    (server.root / "etc/caddy").mkdir(parents=True)
    (server.root / "etc/caddy/Caddyfile").write_text(debians)
    port = int(server.settings["APP_PORT"])

    # The first run: everything set up, checked, and nothing left running (no systemd here).
    first = server.host("install", "mj.example.com")
    assert first.returncode == 0, said(first)
    assert "systemd is not running here" in first.stdout
    assert "made DJANGO_SECRET_KEY, DATABASE_URL" in first.stdout
    assert re.search(r"release \w{12} answered /healthz and /readyz", first.stdout)
    assert (server.env_file.stat().st_mode & 0o777, server.env_file.parent.stat().st_mode & 0o777) == (0o600, 0o700)
    environment = server.environment()
    assert environment["DJANGO_ALLOWED_HOSTS"] == "mj.example.com"
    assert environment["DATABASE_URL"].endswith(f"@127.0.0.1:5432/{server.db}")
    assert len(environment["DJANGO_SECRET_KEY"]) >= 50
    caddyfile = (server.root / "etc/caddy/Caddyfile").read_text()
    assert caddyfile == config.caddyfile(
        config.Site(domain="mj.example.com", upstream=f"127.0.0.1:{server.settings['APP_PORT']}")
    )
    assert sorted(path.name for path in (server.root / "etc/yiwu/rendered").iterdir()) == [
        "Caddyfile",
        *sorted(config.UNITS),
    ]
    assert not (server.root / "etc/systemd").exists()  # units installed only where systemd runs
    check = server.in_release(".venv/bin/python", "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert "no issues" in check.stdout  # the production settings, as the service gets them
    games = []
    for number, name in enumerate(["01-dealer-zimo", "04-maizi-winner-and-payer", "08-danpiao-feeder-pays-all"]):
        games.append(tmp_path / f"game-{number}.json")
        games[-1].write_text(json.dumps(json.loads((EXAMPLES / f"{name}.json").read_text())["game"]))
    imported = server.in_release(".venv/bin/python", "manage.py", "import_games", *map(str, games))
    assert "3 imported, 0 refused" in imported.stdout
    totals, first_release = server.totals(), server.current()
    assert len(totals) == 3

    # Again, the same checkout and no DOMAIN: it is read back; nothing that matters changes.
    env_text = server.env_file.read_text()
    again = server.host("install")
    assert again.returncode == 0, said(again)
    assert "kept DJANGO_SECRET_KEY, DATABASE_URL" in again.stdout
    assert "nothing new to install" in again.stdout
    assert f"release {first_release}: existing" in again.stdout
    assert (server.env_file.read_text(), server.current(), server.totals()) == (env_text, first_release, totals)
    assert "database " + server.db + ": 3 games" in again.stdout

    # make host-start: the installed release served in the foreground, nothing built.
    run = server.start()
    assert health.wait("/healthz", domain="mj.example.com", port=port, seconds=60, pid=run.pid)[0]
    master = server.run_pid()
    assert workers_in(master) == {first_release}

    # An upgrade while that run serves: a new commit makes a new release; the database is backed up
    # first, the data kept; the run serves all along, then its workers are the new release's.
    readme = server.source / "README.md"
    readme.write_text(readme.read_text() + "\nA line of the next release.\n")
    wsgi = server.source / "yiwu_site/wsgi.py"
    plain_wsgi = wsgi.read_text()
    wsgi.write_text(plain_wsgi + "\nprint('the wsgi of the next release', flush=True)\n")
    server.commit("the next release")
    with Phone(port) as phone:
        upgrade = server.host("install")
    assert upgrade.returncode == 0, said(upgrade)
    assert "it serves on while the new release is built" in upgrade.stdout
    assert (phone.failed, len(phone.answers) > 10) == ([], True)
    second_release = server.current()
    assert second_release != first_release
    assert f"upgraded from release {first_release}" in upgrade.stdout
    assert (server.home / "releases" / first_release / "RELEASE").exists()  # the old one is kept
    assert (server.env_file.read_text(), server.totals()) == (env_text, totals)
    (before_upgrade,) = server.backups.glob("*-upgrade")
    assert f"backup before the upgrade: {before_upgrade}" in upgrade.stdout
    assert (before_upgrade / "db.dump").stat().st_size > 0
    assert "switched without a stop" in upgrade.stdout
    assert f"serves release {second_release} now" in upgrade.stdout
    assert (server.run_pid(), workers_in(master)) == (master, {second_release})  # the same run, switched
    assert "the wsgi of the next release" in (server.root / "start.log").read_text()  # its code runs

    # A release that does not start: its check fails, the running one stays, and it says so.
    wsgi.write_text(wsgi.read_text() + "\nraise RuntimeError('a release that does not start')\n")
    server.commit("a broken release")
    with Phone(port) as phone:
        broken = server.host("install")
    assert broken.returncode == 1, said(broken)
    assert (phone.failed, len(phone.answers) > 10) == ([], True)
    assert workers_in(master) == {second_release}  # untouched
    assert f"git -C {server.source} reset --hard " in broken.stdout  # the way back, said
    assert (
        f"did not answer /healthz and /readyz within 20 s: back on release {second_release}, which runs as before"
        in broken.stdout
    )
    assert "RuntimeError: a release that does not start" in broken.stderr  # its log's last lines
    assert "no migration was applied: the database is as the old release had it" in broken.stdout
    assert server.current() == second_release
    server.git("revert", "--no-edit", "HEAD")  # the checkout as the release that runs

    # make host-upgrade checks before it pulls: a checkout with changes of its own is refused.
    readme.write_text(readme.read_text() + "\nA change of the server's own.\n")
    refused = server.host("can-upgrade")
    assert refused.returncode == 1, said(refused)
    assert "this checkout has changes of its own" in refused.stderr
    server.git("checkout", "README.md")
    assert server.host("can-upgrade").returncode == 0

    # The timer's own command, as the unit runs it; then the data changes, and the backup brings it back.
    unit = (server.root / "etc/yiwu/rendered/yiwu-backup.service").read_text()
    command = shlex.split(re.search(r"^ExecStart=(.*)$", unit, re.M)[1])
    made = server.in_release(*command)
    (nightly,) = server.backups.glob("*-nightly")
    assert made.stdout.startswith(f"backup {nightly}: 3 games")
    assert len(list((nightly / "games").glob("*.json"))) == 3
    one_token = next(iter(totals))
    assert one_token not in server.totals(one_token)

    workers = set(health.children(master))
    restored = server.host("restore", str(nightly))
    assert restored.returncode == 0, said(restored)
    assert "taking a backup of the database as it is now" in restored.stdout
    assert re.search(r"restored \S+/db\.dump: 3 games, 3 hands, their links as they were", restored.stdout)
    assert server.totals() == totals  # every game back, with its links
    assert len(list(server.backups.glob("*-restore"))) == 1  # what it replaced, kept
    # The foreground run's workers replaced, so none keeps what it read before.
    assert "switched without a stop" in restored.stdout
    assert (workers & set(health.children(master)), workers_in(master)) == (set(), {second_release})

    # The foreground run stopped (Ctrl-C), as before the restore of one game below.
    run.terminate()
    run.wait(30)
    assert not (server.root / "etc/yiwu/run.pids").exists()
    assert "serving (gunicorn pid" in (server.root / "start.log").read_text()

    # One game's JSON, as the game page exports it: a new game beside the others, same totals.
    game_file = sorted((nightly / "games").glob("*.json"))[0]
    imported = server.host("restore", str(game_file))
    assert imported.returncode == 0, said(imported)
    # The links with the site's address, ready to send.
    assert re.search(
        r"edit https://mj\.example\.com/g/[\w-]+/\s+view https://mj\.example\.com/g/[\w-]+/", imported.stdout
    )
    now = server.totals()
    assert len(now) == 4
    (new_token,) = set(now) - set(totals)
    assert now[new_token] in totals.values()

    # Where systemd runs: the units installed and enabled, the service started from its unit and
    # answering, Caddy reloaded; a restore stops the service and starts it again.
    as_service = server.host("install", **server.stand_in())
    assert as_service.returncode == 0, said(as_service)
    assert server.current() == second_release
    for unit in config.UNITS:
        installed = server.root / "etc/systemd/system" / unit
        assert installed.read_text() == (server.root / "etc/yiwu/rendered" / unit).read_text()
    calls = (server.root / "systemctl.log").read_text().splitlines()
    assert calls == [
        "daemon-reload",
        "enable --quiet yiwu.service yiwu-backup.timer caddy.service",
        "restart yiwu.service",  # its unit is new
        "start yiwu-backup.timer",
        "is-active --quiet caddy.service",  # and its Caddyfile as it was: no reload
    ]
    assert "services: yiwu.service (restarts on failure), caddy.service" in as_service.stdout
    port = int(server.settings["APP_PORT"])
    assert health.ask("/healthz", domain="mj.example.com", port=port)[:2] == (200, "ok")
    restored = server.host("restore", str(nightly), **server.stand_in())
    assert restored.returncode == 0, said(restored)
    assert "the app answers again" in restored.stdout
    calls = (server.root / "systemctl.log").read_text().splitlines()[5:]
    assert calls == ["stop yiwu.service", "start yiwu.service"]
    assert server.totals() == totals

    # An upgrade by a reload (HUP: new workers from current/, then the old ones go), and a refused
    # one that touches nothing: a phone polling all along meets no failure.
    service = int((server.root / "yiwu.service.pid").read_text())
    wsgi.write_text(plain_wsgi + "\nprint('the wsgi of the third release', flush=True)\n")
    server.commit("the third release")
    with Phone(port) as phone:
        third = server.host("install", **server.stand_in())
        assert third.returncode == 0, said(third)
        third_release = server.current()
        wsgi.write_text(wsgi.read_text() + "\nraise RuntimeError('a release that does not start')\n")
        server.commit("a broken release again")
        logged = len((server.root / "systemctl.log").read_text().splitlines())
        refused = server.host("install", **server.stand_in())
        assert refused.returncode == 1, said(refused)
    assert (phone.failed, len(phone.answers) > 20) == ([], True)
    calls = (server.root / "systemctl.log").read_text().splitlines()
    assert calls[7:logged] == [
        "daemon-reload",
        "enable --quiet yiwu.service yiwu-backup.timer caddy.service",
        "is-active --quiet yiwu.service",
        "reload yiwu.service",  # no stop, no start
        "show --property MainPID --value yiwu.service",
        "start yiwu-backup.timer",
        "is-active --quiet caddy.service",
    ]
    assert calls[logged:] == ["is-active --quiet yiwu.service"]  # asked whether it runs, to say so; touched not
    assert f"back on release {third_release}, which runs as before" in refused.stdout
    assert (int((server.root / "yiwu.service.pid").read_text()), workers_in(service)) == (service, {third_release})
    assert "the wsgi of the third release" in (server.root / "yiwu.service.log").read_text()
    server.git("revert", "--no-edit", "HEAD")

    # make host-uninstall asks before it drops the data: with no one to ask and no YES=1, nothing goes.
    kept_all = server.host("uninstall", **server.stand_in())
    assert kept_all.returncode == 1, said(kept_all)
    assert "YES=1 make host-uninstall" in kept_all.stderr
    assert psql(f"SELECT count(*) FROM pg_database WHERE datname = '{server.db}'") == "1"
    assert server.current() == third_release

    # With YES=1: one last backup, kept and said; everything else make host made, gone.
    gone = server.host("uninstall", YES="1", **server.stand_in())
    assert gone.returncode == 0, said(gone)
    last = Path(re.search(r"the last backup: (\S+)", gone.stdout)[1])
    assert (last / "db.dump").stat().st_size > 0
    assert last.parent == server.backups
    assert f"Left: the backups in {server.backups}" in gone.stdout
    assert psql(f"SELECT count(*) FROM pg_database WHERE datname = '{server.db}'") == "0"
    assert psql(f"SELECT count(*) FROM pg_roles WHERE rolname = '{server.db}'") == "0"
    assert (server.root / "etc/caddy/Caddyfile").read_text() == debians  # as it was
    kept = ("checkout/", "var/backups/yiwu/", "game-", "systemctl.log", "yiwu.service.log", "start.log")
    left = [
        str(path.relative_to(server.root))
        for path in server.root.rglob("*")
        if not path.is_dir() and not str(path.relative_to(server.root)).startswith(kept)
    ]
    assert left == ["etc/caddy/Caddyfile"]
    assert not (server.root / "yiwu.service.pid").exists()  # stopped
