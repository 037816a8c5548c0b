"""The units, the timer and the Caddyfile `make host` writes, checked by the programs that will
read them: systemd's own verifier (no running systemd needed) and Caddy's."""

import json
import os
import re
import subprocess

import pytest
from django.conf import settings

from tests.host.tools import need
from yiwu_site.host import config
from yiwu_site.settings import BASE_DIR


@pytest.fixture
def units(tmp_path):
    """The three unit files, rendered for a home whose current release is this checkout (the
    verifier checks that each ExecStart names a program that is there)."""
    home = tmp_path / "srv/yiwu"
    home.mkdir(parents=True)
    (home / "current").symlink_to(BASE_DIR)
    (tmp_path / "env").write_text("DJANGO_SECRET_KEY=x\n")
    app = config.App(domain="mj.example.com", home=str(home), env_file=str(tmp_path / "env"), backups=str(tmp_path))
    for name, text in config.units(app).items():
        (tmp_path / name).write_text(text)
    return [str(tmp_path / name) for name in config.UNITS]


def test_systemd_finds_nothing_wrong_in_the_units_and_the_timer(units):
    done = subprocess.run([need("systemd-analyze"), "verify", *units], capture_output=True, text=True)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", "")
    broken = units[0].replace("yiwu.service", "broken.service")
    with open(broken, "w") as unit:
        unit.write(open(units[0]).read().replace("Restart=", "Restartt=").replace("/current/.venv/", "/gone/.venv/"))
    done = subprocess.run([need("systemd-analyze"), "verify", broken], capture_output=True, text=True)
    assert "Unknown key 'Restartt'" in done.stderr  # the check can fail
    assert "is not executable" in done.stderr  # srv/yiwu/gone/.venv/bin/gunicorn is no program
    assert done.returncode != 0


def test_both_services_are_locked_down(units):
    """systemd's own exposure score, 0 (locked) to 10 (open): a plain service scores 9.6."""
    for unit in units[:2]:
        done = subprocess.run(
            [need("systemd-analyze"), "security", "--offline=yes", unit], capture_output=True, text=True, check=True
        )
        score = float(re.search(r"Overall exposure level for \S+: ([\d.]+)", done.stdout)[1])
        assert score <= 3.5, (unit, score)


def test_the_timer_fires_every_night():
    timer = config.units(config.App(domain="mj.example.com"))["yiwu-backup.timer"]
    when = re.search(r"^OnCalendar=(.*)$", timer, re.M)[1]
    command = [need("systemd-analyze"), "calendar", "--iterations=2", when]
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "TZ": "UTC"})
    assert "Normalized form: *-*-* 04:00:00 Asia/Shanghai" in done.stdout
    elapses = re.findall(r"(?:Next elapse|Iter\. #\d): \w+ \S+ (\d\d:\d\d:\d\d) UTC", done.stdout)
    assert elapses == ["20:00:00", "20:00:00"]  # 04:00 in China is 20:00 UTC, every day


def caddy(command: str, caddyfile: str, tmp_path) -> subprocess.CompletedProcess:
    path = tmp_path / "Caddyfile"
    path.write_text(caddyfile)
    environment = {"PATH": os.environ["PATH"], "HOME": str(tmp_path)}  # nothing of Caddy's written elsewhere
    return subprocess.run(
        [need("caddy"), command, "--config", str(path), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        env=environment,
    )


@pytest.mark.parametrize("domain", ["mj.example.com", "localhost"])
def test_caddy_takes_the_caddyfile_as_written(domain, tmp_path):
    done = caddy("validate", config.caddyfile(config.Site(domain=domain)), tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Valid configuration" in done.stdout + done.stderr
    assert "not formatted" not in done.stderr  # as `caddy fmt` writes it
    assert caddy("validate", config.caddyfile(config.Site(domain=domain)) + "}", tmp_path).returncode != 0


def adapted(domain: str, tmp_path) -> dict:
    done = caddy("adapt", config.caddyfile(config.Site(domain=domain)), tmp_path)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_caddy_forwards_to_gunicorn_with_the_client_address_and_the_app_s_upload_limit(tmp_path):
    server = adapted("mj.example.com", tmp_path)["apps"]["http"]["servers"]["srv0"]
    assert server["listen"] == [":443"]  # and :80, which only redirects to it
    route = server["routes"][0]
    assert route["match"] == [{"host": ["mj.example.com"]}]
    body, proxy = route["handle"][0]["routes"][0]["handle"]
    assert body == {"handler": "request_body", "max_size": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
    assert proxy["upstreams"] == [{"dial": "127.0.0.1:8400"}]
    assert proxy["headers"]["request"]["set"] == {"X-Real-Ip": ["{http.request.remote.host}"]}


def test_a_real_domain_is_certified_publicly_and_localhost_by_caddy_s_own_authority(tmp_path):
    assert "tls" not in adapted("mj.example.com", tmp_path)["apps"]  # automatic HTTPS: an ACME certificate
    local = adapted("localhost", tmp_path)["apps"]
    assert local["tls"]["automation"]["policies"] == [{"subjects": ["localhost"], "issuers": [{"module": "internal"}]}]
    assert local["pki"]["certificate_authorities"]["local"] == {"install_trust": False}
    assert local["http"]["servers"]["srv0"]["listen"] == ["127.0.0.1:443"]
