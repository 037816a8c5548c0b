"""What `make host` writes (yiwu_site/host/config.py), rendered as the installer renders it: the
names it takes, the workers it sizes, the environment file a re-run keeps, the client address
Caddy hands the app the way its settings read it."""

import re
import shlex

import pytest

from yiwu_site.host import config
from yiwu_site.host.config import App, Database, HostError, Site


@pytest.mark.parametrize(
    ("given", "name"),
    [("mj.example.com", "mj.example.com"), ("MJ.Example.COM.", "mj.example.com"), ("localhost", "localhost")],
)
def test_a_domain_name_is_taken_lower_cased(given, name):
    assert config.check_domain(given) == name


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("203.0.113.7", "is an address"),
        ("[::1]", "is an address"),
        ("mj.example.com:8443", "not a domain name"),
        ("mj.example.com {\n}", "not a domain name"),
        ("mj example.com", "not a domain name"),
        ("-mj.example.com", "not a domain name"),
        ("a" * 64 + ".com", "not a domain name"),
        ("", "not a domain name"),
        ("mahjong", "has no dot"),
    ],
)
def test_anything_but_a_domain_name_is_refused_saying_why(given, said):
    with pytest.raises(HostError, match=said):
        config.check_domain(given)


@pytest.mark.parametrize(
    ("cores", "memory_mb", "workers"),
    [(1, 1024, 2), (1, 512, 2), (2, 2048, 4), (4, 1024, 5), (4, 8192, 8), (64, 65536, 16)],
)
def test_workers_are_two_per_core_within_what_the_memory_holds(cores, memory_mb, workers):
    assert config.workers_for(cores, memory_mb) == workers


def tokens():
    made = iter(["secret-1", "password-1", "secret-2", "password-2"])
    return lambda length: next(made)


def test_the_first_run_makes_the_secret_key_and_the_database_password():
    text, made = config.environment("", domain="mj.example.com", database=Database(), token=tokens())
    env = config.read_env(text)
    assert made == ["DJANGO_SECRET_KEY", "DATABASE_URL"]
    assert env["DJANGO_SECRET_KEY"] == "secret-1"
    assert env["DATABASE_URL"] == "postgres://yiwu:password-1@127.0.0.1:5432/yiwu"
    assert env["DJANGO_ALLOWED_HOSTS"] == "mj.example.com"
    assert env["DJANGO_CSRF_TRUSTED_ORIGINS"] == "https://mj.example.com"
    assert "DJANGO_DEBUG" not in env  # production settings: debug off is the default
    assert "DJANGO_HSTS_SECONDS" not in env  # the year's HSTS, the default


def test_a_re_run_keeps_the_secret_the_password_and_the_lines_added_by_hand():
    token = tokens()
    first, _ = config.environment("", domain="localhost", database=Database(), token=token)
    added = first + "DJANGO_ADMINS=Lao Wang <wang@example.com>\n# our own note\n"
    again, made = config.environment(added, domain="localhost", database=Database(), token=token)
    assert made == []
    assert again == added.replace("\nDJANGO_ADMINS", "\n\nDJANGO_ADMINS")  # the same, with a blank line before theirs
    assert config.environment(again, domain="localhost", database=Database(), token=token)[0] == again

    moved, made = config.environment(again, domain="mj.example.com", database=Database(), token=token)
    env = config.read_env(moved)
    assert made == []
    assert (env["DJANGO_SECRET_KEY"], env["DATABASE_URL"]) == ("secret-1", config.read_env(first)["DATABASE_URL"])
    assert env["DJANGO_ALLOWED_HOSTS"] == "mj.example.com"
    assert env["DJANGO_ADMINS"] == "Lao Wang <wang@example.com>"
    assert "# our own note" in moved
    assert moved.count(config.ENV_HEADER) == 1


def test_a_try_on_localhost_sends_no_hsts_and_a_real_domain_gets_it_back():
    local, _ = config.environment("", domain="localhost", database=Database(), token=tokens())
    assert config.read_env(local)["DJANGO_HSTS_SECONDS"] == "0"
    real, _ = config.environment(local, domain="mj.example.com", database=Database(), token=tokens())
    assert "DJANGO_HSTS_SECONDS" not in config.read_env(real)


def test_the_database_sql_quotes_what_it_is_given_and_makes_only_what_is_missing():
    url = Database(name="yiwu", role="o'brien").url("pa'ss")
    assert config.database_of(url) == (Database(name="yiwu", role="o'brien"), "pa'ss")
    sql = config.database_sql(url)
    assert "WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'o''brien')" in sql
    assert "format('ALTER ROLE %I WITH LOGIN PASSWORD %L', 'o''brien', 'pa''ss')" in sql
    assert "WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'yiwu')" in sql
    with pytest.raises(HostError):
        config.database_of("sqlite:///db.sqlite3")


def test_caddy_passes_the_client_address_in_the_header_the_app_is_told_to_read():
    text = config.caddyfile(Site(domain="mj.example.com"))
    header = re.search(r"header_up (\S+) \{remote_host\}", text)[1]
    env = config.managed_lines("mj.example.com")
    assert env["DJANGO_CLIENT_IP_HEADER"] == "HTTP_" + header.upper().replace("-", "_")
    assert env["DJANGO_TRUSTED_PROXIES"] == "1"  # header_up replaces it: one entry, Caddy's
    assert "reverse_proxy 127.0.0.1:8400 {" in text
    assert "tls internal" not in text  # a public certificate, from Let's Encrypt or ZeroSSL
    assert "default_bind" not in text  # ports 80 and 443 to the world


def test_localhost_gets_caddy_s_local_authority_on_the_loopback_only():
    text = config.caddyfile(Site(domain="localhost", upstream="127.0.0.1:9000"))
    assert "\ttls internal\n" in text
    assert "\tdefault_bind 127.0.0.1\n" in text
    assert "\tskip_install_trust\n" in text
    assert "reverse_proxy 127.0.0.1:9000 {" in text


def test_the_service_runs_the_current_release_s_gunicorn_on_the_loopback():
    app = App(domain="mj.example.com", workers=3)
    unit = config.units(app)["yiwu.service"]
    start = re.search(r"^ExecStart=(.*)$", unit, re.M)[1]
    assert shlex.split(start) == config.gunicorn_argv(app, "/srv/yiwu/current")
    assert "--bind 127.0.0.1:8400 --workers 3" in start
    assert "\nRestart=on-failure\n" in unit
    assert "\nEnvironmentFile=/etc/yiwu/env\n" in unit
    assert "\nUser=yiwu\n" in unit
    assert "$MAINPID" in unit  # the template's $$ is systemd's $


def test_the_timer_s_backup_keeps_fourteen_nightly_backups():
    rendered = config.units(App(domain="mj.example.com"))
    start = re.search(r"^ExecStart=(.*)$", rendered["yiwu-backup.service"], re.M)[1]
    assert shlex.split(start) == [
        *["/srv/yiwu/current/.venv/bin/python", "-m", "yiwu_site.host.backup", "make"],
        *["--into", "/var/backups/yiwu", "--kind", "nightly", "--keep", "14"],
    ]
    assert "\nReadWritePaths=/var/backups/yiwu\n" in rendered["yiwu-backup.service"]
    assert "\nOnCalendar=*-*-* 04:00:00 Asia/Shanghai\n" in rendered["yiwu-backup.timer"]  # after the evening
    london = config.units(App(domain="mj.example.com", time_zone="Europe/London"))["yiwu-backup.timer"]
    assert "\nOnCalendar=*-*-* 04:00:00 Europe/London\n" in london
    assert "\nPersistent=true\n" in rendered["yiwu-backup.timer"]


def test_the_contact_address_goes_into_caddy_s_options_and_nothing_else_does():
    text = config.caddyfile(Site(domain="mj.example.com", email="lao.wang@example.com"))
    assert text.split("mj.example.com {")[1].count("email") == 0
    assert "{\n\temail lao.wang@example.com\n}\n" in text
    env = config.read_env(
        config.environment("", domain="mj.example.com", database=Database(), email="lao.wang@example.com")[0]
    )
    assert env["YIWU_EMAIL"] == "lao.wang@example.com"
    for bad in ("lao wang@example.com", "a@example.com\n}\nevil.com {", "a@b"):
        with pytest.raises(HostError, match="not an e-mail address"):
            config.caddyfile(Site(domain="mj.example.com", email=bad))
