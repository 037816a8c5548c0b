"""What `make host` writes (Caddyfile, systemd units, the environment file), rendered here so tests
check the same text; standard library only."""

import ipaddress
import os
import re
import secrets
import shlex
from dataclasses import dataclass
from pathlib import Path
from string import Template
from urllib.parse import quote, unquote, urlsplit

TEMPLATES = Path(__file__).parent / "templates"
# The app's name on the server (user, database, folders, units), whatever rulesets it plays.
APP_NAME = "yiwu"
UNITS = (f"{APP_NAME}.service", f"{APP_NAME}-backup.service", f"{APP_NAME}-backup.timer")
LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
# Two sync workers per core (docs/deploy.md, "Sizing"), capped by memory, and two at least: one hung leaves one.
MIN_WORKERS, MAX_WORKERS, MB_PER_WORKER, MB_KEPT = 2, 16, 100, 512


class HostError(ValueError):
    """A value the installer cannot use: the message says which and why."""


def check_domain(value: str) -> str:
    """The site's name, lower-cased: a domain name (``localhost`` for a try), nothing Caddy would read as more."""
    name = value.strip().lower().rstrip(".")
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        pass
    else:
        raise HostError(f"DOMAIN={value!r} is an address: give the domain name whose DNS points here.")
    labels = name.split(".")
    if not name or len(name) > 253 or not all(LABEL.fullmatch(label) for label in labels):
        raise HostError(f"DOMAIN={value!r} is not a domain name (like mj.example.com, or localhost for a try).")
    if len(labels) == 1 and name != "localhost":
        raise HostError(f"DOMAIN={value!r} has no dot: give the whole name, like mj.example.com.")
    return name


EMAIL = re.compile(r"[^@\s{}#\"']+@[a-z0-9.-]+\.[a-z]{2,}", re.I)


def check_email(value: str) -> str:
    """Let's Encrypt's contact, or "" for none: one address, nothing Caddy would read as more."""
    if value and not EMAIL.fullmatch(value):
        raise HostError(f"EMAIL={value!r} is not an e-mail address.")
    return value


def is_local(domain: str) -> bool:
    """Names no public authority certifies: Caddy's own local authority signs them."""
    return domain == "localhost" or domain.endswith(".localhost")


def workers_for(cores: int, memory_mb: int) -> int:
    by_memory = (memory_mb - MB_KEPT) // MB_PER_WORKER
    return max(MIN_WORKERS, min(2 * cores, by_memory, MAX_WORKERS))


def memory_mb() -> int:
    with open("/proc/meminfo", encoding="ascii") as meminfo:
        for line in meminfo:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) // 1024
    raise HostError("/proc/meminfo has no MemTotal")


def this_machine_workers() -> int:
    return workers_for(len(os.sched_getaffinity(0)), memory_mb())


@dataclass(frozen=True)
class Site:
    """Caddy's part; the last five (where it listens, its admin endpoint, its storage) for tests and a try."""

    domain: str
    upstream: str = "127.0.0.1:8400"
    email: str = ""
    local_ca: bool | None = None  # None: for the names is_local() gives
    bind: tuple[str, ...] = ()
    http_port: int | None = None
    https_port: int | None = None
    admin: str | None = None
    storage: str | None = None

    @property
    def local(self) -> bool:
        return is_local(self.domain) if self.local_ca is None else self.local_ca


def caddyfile(site: Site) -> str:
    options = []
    if site.email:
        options.append(f"email {check_email(site.email)}")
    if site.local:
        # The local authority's root stays in Caddy's storage: `make host` says where, and how to trust it.
        options.append("skip_install_trust")
    # A try answers this machine only. One address: Caddy 2.6 binds its HTTP redirect to the last of several.
    bind = site.bind or (("127.0.0.1",) if is_local(site.domain) else ())
    if bind:
        options.append("default_bind " + " ".join(bind))
    for name in ("http_port", "https_port", "admin"):
        if getattr(site, name) is not None:
            options.append(f"{name} {getattr(site, name)}")
    if site.storage:
        options.append(f"storage file_system {site.storage}")
    return _render(
        "Caddyfile",
        domain=site.domain,
        upstream=site.upstream,
        global_options="{\n" + "".join(f"\t{line}\n" for line in options) + "}\n\n" if options else "",
        tls="\ttls internal\n" if site.local else "",
    )


@dataclass(frozen=True)
class App:
    """Where the app lives on the server (releases/, venvs/, current) and how its service runs."""

    domain: str
    user: str = APP_NAME
    home: str = "/srv/yiwu"
    env_file: str = "/etc/yiwu/env"
    backups: str = "/var/backups/yiwu"
    port: int = 8400
    workers: int = MIN_WORKERS
    keep: int = 14
    time_zone: str = "Asia/Shanghai"  # the app's (DJANGO_TIME_ZONE): the backup runs after the group's evening

    @property
    def on_calendar(self) -> str:
        return f"*-*-* 04:00:00 {self.time_zone}"

    @property
    def current(self) -> str:
        return f"{self.home}/current"


def gunicorn_argv(app: App, release: str, port: int | None = None) -> list[str]:
    """The service's command, also what the upgrade's check and the foreground run start.

    Through ``release`` unresolved (``<home>/current``): the python's venv, its site-packages and
    ``--chdir`` are paths through the symlink, so a worker forked after the switch imports the release
    it names now (docs/hosting.md, "The switch"); -P keeps the resolved working directory off
    sys.path; the settings file's hook tells when a worker has loaded its app."""
    return [
        f"{release}/.venv/bin/python",
        "-P",
        "-m",
        "gunicorn",
        "yiwu_site.wsgi",
        "--chdir",
        release,
        "--config",
        f"{release}/yiwu_site/host/gunicorn.conf.py",
        "--bind",
        f"127.0.0.1:{port or app.port}",
        "--workers",
        str(app.workers),
        "--timeout",
        "30",
        "--graceful-timeout",
        "15",
        "--no-control-socket",
        "--error-logfile",
        "-",
    ]


def roll_argv(app: App, current: str) -> list[str]:
    """The unit's ExecReload (systemd puts the master's pid for $MAINPID): new workers in, then the old out."""
    return [f"{current}/.venv/bin/python", "-m", "yiwu_site.host", "roll", "$MAINPID", "--release", current]


def backup_argv(app: App, release: str, kind: str = "nightly") -> list[str]:
    keep = ["--keep", str(app.keep)] if kind == "nightly" else []
    return [
        f"{release}/.venv/bin/python",
        "-m",
        "yiwu_site.host.backup",
        "make",
        "--into",
        app.backups,
        "--kind",
        kind,
        *keep,
    ]


def units(app: App) -> dict[str, str]:
    current = app.current
    values = {
        "domain": app.domain,
        "user": app.user,
        "home": app.home,
        "env_file": app.env_file,
        "backups": app.backups,
        "keep": str(app.keep),
        "bind": f"127.0.0.1:{app.port}",
        "on_calendar": app.on_calendar,
        "exec_start": shlex.join(gunicorn_argv(app, current)),
        "exec_reload": shlex.join(roll_argv(app, current)).replace("'$MAINPID'", "$MAINPID"),
        "backup_start": shlex.join(backup_argv(app, current)),
    }
    return {name: _render(name, **values) for name in UNITS}


def _render(name: str, **values: str) -> str:
    return Template((TEMPLATES / name).read_text(encoding="utf-8")).substitute(values)


# --- the environment file ---------------------------------------------------------------------

ENV_HEADER = """\
# 麻将记分's environment: read by its service alone (root-only; systemd hands it to gunicorn).
# `make host` made the secret key and the database password once and keeps them; it sets the
# lines of the DOMAIN on every run (DJANGO_ALLOWED_HOSTS ... YIWU_DOMAIN); add your own below
# (README.md, "Operating it", lists every variable) and they are kept.
"""
KEPT = ("DJANGO_SECRET_KEY", "DATABASE_URL")
ENV_LINE = re.compile(r"^([A-Z][A-Z0-9_]*)=(.*)$")


@dataclass(frozen=True)
class Database:
    name: str = APP_NAME
    role: str = APP_NAME
    host: str = "127.0.0.1"
    port: int = 5432

    def url(self, password: str) -> str:
        return f"postgres://{quote(self.role)}:{quote(password)}@{self.host}:{self.port}/{quote(self.name)}"


def managed_lines(domain: str, email: str = "") -> dict[str, str | None]:
    """What the DOMAIN sets (None: the app's default); a local try sends no HSTS, which would pin localhost to HTTPS."""
    return {
        "DJANGO_ALLOWED_HOSTS": domain,
        "DJANGO_CSRF_TRUSTED_ORIGINS": f"https://{domain}",
        "DJANGO_CLIENT_IP_HEADER": "HTTP_X_REAL_IP",
        "DJANGO_TRUSTED_PROXIES": "1",
        "DJANGO_HSTS_SECONDS": "0" if is_local(domain) else None,
        "YIWU_DOMAIN": domain,
        "YIWU_EMAIL": check_email(email) or None,  # for Let's Encrypt's notices (Caddy's `email`)
    }


def read_env(text: str) -> dict[str, str]:
    values = {}
    for line in text.splitlines():
        if match := ENV_LINE.match(line.strip()):
            values[match[1]] = _unquoted(match[2])
    return values


def _unquoted(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def environment(
    existing: str, *, domain: str, database: Database, email: str = "", token=secrets.token_urlsafe
) -> tuple[str, list[str]]:
    """The environment file's new text and what was made new; a found key and password, and unmanaged lines, stay."""
    old = read_env(existing)
    made = []
    kept = {}
    for name, make in (("DJANGO_SECRET_KEY", lambda: token(50)), ("DATABASE_URL", lambda: database.url(token(24)))):
        kept[name] = old.get(name) or make()
        if not old.get(name):
            made.append(name)
    managed = {name: value for name, value in managed_lines(domain, email).items() if value is not None}
    lines = [ENV_HEADER.rstrip("\n")] + [f"{name}={value}" for name, value in {**kept, **managed}.items()]
    ours = set(KEPT) | set(managed_lines(domain, email))
    header = set(ENV_HEADER.splitlines())
    others = [
        line
        for line in existing.splitlines()
        if line.strip() and line not in header and not ((m := ENV_LINE.match(line.strip())) and m[1] in ours)
    ]
    if others:
        lines += ["", *others]
    return "\n".join(lines) + "\n", made


def database_of(url: str) -> tuple[Database, str]:
    """The database and role a DATABASE_URL names, and its password."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql") or not parts.username or not parts.password:
        raise HostError("DATABASE_URL in the environment file is not postgres://role:password@host:port/name")
    database = Database(
        name=unquote(parts.path.lstrip("/")),
        role=unquote(parts.username),
        host=parts.hostname or "",
        port=parts.port or 5432,
    )
    return database, unquote(parts.password)


def database_sql(url: str) -> str:
    """psql input (as postgres) making the role and database if missing and setting the password; idempotent."""
    database, password = database_of(url)
    role, name = _literal(database.role), _literal(database.name)
    return "\n".join(
        [
            r"\set ON_ERROR_STOP on",
            f"SELECT format('CREATE ROLE %I LOGIN', {role}) WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = {role})\\gexec",
            f"SELECT format('ALTER ROLE %I WITH LOGIN PASSWORD %L', {role}, {_literal(password)})\\gexec",
            f"SELECT format('CREATE DATABASE %I OWNER %I', {name}, {role}) WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = {name})\\gexec",
            f"SELECT format('REVOKE ALL ON DATABASE %I FROM PUBLIC', {name})\\gexec",
            "",
        ]
    )


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"
