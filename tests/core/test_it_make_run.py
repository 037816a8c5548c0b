"""`make run` serves the table for real (yiwu_site/table_server.py): gunicorn with debug off, its data and
secret in one folder outside the code, a session that survives a restart, and backups kept 14 days."""

import http.cookiejar
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.helpers import new_game_form
from yiwu_site import table_server

ROOT = Path(__file__).resolve().parent.parent.parent
ME = '<button class="btn btn-sm btn-dark"><bdi>老王</bdi>'


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(data: Path, static: Path, port: int) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_VERSION", "DJANGO_DEBUG", "DATABASE_URL")}
    env["DJANGO_STATIC_ROOT"] = str(static)
    server = subprocess.Popen(
        [sys.executable, "-m", "yiwu_site.table_server", "--port", str(port), "--data", str(data)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        assert server.poll() is None, server.stdout.read()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    server.kill()
    pytest.fail("make run's server did not answer within 90 s:\n" + server.stdout.read())


def stop(server: subprocess.Popen) -> str:
    server.terminate()
    out, _ = server.communicate(timeout=30)
    return out


@pytest.mark.long
def test_make_run_is_gunicorn_with_debug_off_its_secret_and_sessions_kept_and_backed_up(tmp_path):
    data, static, port = tmp_path / "data", tmp_path / "static", free_port()
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    base = f"http://127.0.0.1:{port}"

    server = start(data, static, port)
    try:
        with opener.open(base + "/new") as response:
            assert response.status == 200
            assert response.headers.get("Server") == "gunicorn"  # not Django's development server (WSGIServer)
            page = response.read().decode()
        with pytest.raises(urllib.error.HTTPError) as missing:
            opener.open(base + "/no-such-page")
        assert missing.value.code == 404
        body = missing.value.read().decode()
        assert "Django tried these URL patterns" not in body  # no debug page for a mistyped address
        assert "Traceback" not in body
        # A game made over plain HTTP, as a phone on the Wi-Fi does: the session and CSRF cookies work.
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
        form = {"csrfmiddlewaretoken": token, **new_game_form(["老王", "小李", "阿华", "大刘"])}
        made = opener.open(urllib.request.Request(base + "/new", data=urllib.parse.urlencode(form).encode()))
        game_url = made.geturl()
        assert "/g/" in game_url, made.read().decode()[:2000]
        first = opener.open(game_url).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', first)[1]
        me = urllib.request.Request(
            game_url + "me/0", data=urllib.parse.urlencode({"csrfmiddlewaretoken": token}).encode()
        )
        assert ME in opener.open(me).read().decode()  # 我是老王: this phone's signed cookie
    finally:
        log = stop(server)
    assert "备份 backup (stop)" in log, log

    secret = (data / "secret_key").read_text()
    assert len(secret.strip()) >= 50
    assert oct((data / "secret_key").stat().st_mode & 0o777) == "0o600"
    assert (data / "db.sqlite3").exists()

    server = start(data, static, port)
    try:
        # The same cookies after a restart: the key was kept, so the phone is still who it was.
        assert ME in opener.open(game_url).read().decode()
        assert game_url.removeprefix(base) in opener.open(base + "/").read().decode()  # the phone's games, still listed
        assert (data / "secret_key").read_text() == secret
    finally:
        stop(server)

    backups = sorted((data / "backups").glob("db-*.sqlite3"))
    assert backups, list(data.iterdir())
    with sqlite3.connect(backups[-1]) as copy:
        assert copy.execute("SELECT count(*) FROM scoring_game").fetchone()[0] == 1


def test_a_backup_is_a_whole_copy_and_backups_are_kept_fourteen_days(tmp_path):
    database = tmp_path / "db.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE t (x)")
        db.execute("INSERT INTO t VALUES (1), (2)")
    into = tmp_path / "backups"
    now = datetime(2026, 12, 6, 20, 0)
    made = table_server.backup(database, into, now)
    assert made.name == "db-20261206-200000.sqlite3"
    with sqlite3.connect(made) as copy:
        assert copy.execute("SELECT count(*) FROM t").fetchone()[0] == 2
    old = into / "db-20261101-200000.sqlite3"
    old.write_bytes(made.read_bytes())
    month_ago = (now - timedelta(days=35)).timestamp()
    os.utime(old, (month_ago, month_ago))
    (into / ".db-x.sqlite3.partial").write_bytes(b"")
    gone = table_server.prune(into, now)
    assert sorted(path.name for path in gone) == [".db-x.sqlite3.partial", old.name]
    assert [path.name for path in into.iterdir()] == [made.name]
    # The newest stays, however old: a laptop left in a drawer keeps its last evening.
    years = (now - timedelta(days=700)).timestamp()
    os.utime(made, (years, years))
    assert table_server.prune(into, now) == []
    assert table_server.backup(tmp_path / "none.sqlite3", into) is None


def test_the_secret_is_made_once_readable_by_its_owner_only(tmp_path):
    first = table_server.secret_key(tmp_path)
    assert table_server.secret_key(tmp_path) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    env = table_server.environment(tmp_path, {"DJANGO_DEBUG": "1", "PYTEST_VERSION": "x", "PATH": "/bin"})
    assert env["DJANGO_SECRET_KEY"] == first
    assert "DJANGO_DEBUG" not in env
    assert "PYTEST_VERSION" not in env
    assert env["DATABASE_URL"] == f"sqlite:///{tmp_path / 'db.sqlite3'}"
    assert env["DJANGO_LAN_SERVER"] == "1"


def test_the_lan_server_settings_allow_plain_http_and_the_lan_with_debug_off():
    from tests.helpers import manage

    code = (
        "from django.conf import settings as s; print(s.DEBUG, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE,"
        " s.SECURE_HSTS_SECONDS, '127.0.0.1' in s.ALLOWED_HOSTS, set(s.LAN_ADDRESSES) <= set(s.ALLOWED_HOSTS))"
    )
    env = {"DJANGO_LAN_SERVER": "1", "DJANGO_SECRET_KEY": "x" * 50}
    result = manage("shell", "-c", code, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "False False False 0 True True"


def test_make_run_starts_the_table_server_with_its_port():
    makefile = (ROOT / "Makefile").read_text()
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "yiwu_site.table_server" in run
    assert "runserver" not in run
    assert "PORT" in run


def test_the_games_an_earlier_make_run_kept_in_the_checkout_are_copied_once(tmp_path):
    old = tmp_path / "checkout" / "db.sqlite3"
    old.parent.mkdir()
    with sqlite3.connect(old) as db:
        db.execute("CREATE TABLE scoring_game (id)")
        db.execute("INSERT INTO scoring_game VALUES (1)")
    folder = tmp_path / "data"
    folder.mkdir()
    assert table_server.adopt_old_data(folder, old)
    with sqlite3.connect(folder / "db.sqlite3") as copy:
        assert copy.execute("SELECT count(*) FROM scoring_game").fetchone()[0] == 1
    assert old.exists()
    assert not table_server.adopt_old_data(folder, old)  # never over the folder's own data
    assert [path.name for path in folder.iterdir()] == ["db.sqlite3"]
