"""``python3 -m yiwu_site.host COMMAND``: what yiwu_site/host/host.sh asks of Python; on a problem one line, exit 2."""

import argparse
import os
import sys
from pathlib import Path

from yiwu_site.host import config, health, release


def _app(args) -> config.App:
    env_file = Path(args.env_file)
    saved = config.read_env(env_file.read_text(encoding="utf-8")) if env_file.exists() else {}
    return config.App(
        time_zone=saved.get("DJANGO_TIME_ZONE") or "Asia/Shanghai",
        domain=args.domain,
        user=args.user,
        home=args.home,
        env_file=args.env_file,
        backups=args.backups,
        port=args.port,
        workers=args.workers or config.this_machine_workers(),
    )


def write(path: Path, text: str, mode: int) -> bool:
    """``text`` into ``path`` with ``mode`` (made so before a byte is in it); False if it held that already."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        path.chmod(mode)
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        os.fchmod(out.fileno(), mode)
        out.write(text)
    partial.replace(path)
    return True


def cmd_domain(args) -> None:
    print(config.check_domain(args.value))


def cmd_env(args) -> None:
    path = Path(args.file)
    existing = path.read_text(encoding="utf-8") if path.exists() else ""
    database = config.Database(name=args.db_name, role=args.db_role)
    text, made = config.environment(existing, domain=args.domain, database=database, email=args.email)
    write(path, text, 0o600)
    kept = [name for name in config.KEPT if name not in made]
    print(
        "; ".join(filter(None, [f"made {', '.join(made)}" if made else "", f"kept {', '.join(kept)}" if kept else ""]))
    )


def cmd_get(args) -> None:
    print(config.read_env(Path(args.file).read_text(encoding="utf-8")).get(args.name, ""))


def cmd_db_sql(args) -> None:
    url = config.read_env(Path(args.file).read_text(encoding="utf-8"))["DATABASE_URL"]
    sys.stdout.write(config.database_sql(url))


def cmd_render(args) -> None:
    """The Caddyfile and the units into ``--out``; prints the names whose text changed."""
    out = Path(args.out)
    app = _app(args)
    site = config.Site(domain=args.domain, upstream=f"127.0.0.1:{args.port}", email=args.email)
    files = {"Caddyfile": config.caddyfile(site), **config.units(app)}
    changed = [name for name, text in files.items() if write(out / name, text, 0o644)]
    print(" ".join(changed))


def cmd_argv(args) -> None:
    """The gunicorn (or backup) command of ``--release``, one argument per line, for bash's mapfile."""
    app = _app(args)
    argv = (
        config.backup_argv(app, args.release, args.kind)
        if args.backup
        else config.gunicorn_argv(app, args.release, args.on)
    )
    print("\n".join(argv))


def cmd_build(args) -> None:
    release_id, built = release.build(source=Path(args.source), home=Path(args.home), env_file=Path(args.env_file))
    print(release_id, "built" if built else "existing")


def cmd_info(args) -> None:
    print(release.info(Path(args.release)))


def cmd_prune(args) -> None:
    gone = release.prune(Path(args.home))
    print(" ".join(gone))


def cmd_wait(args) -> None:
    ok, said = health.wait(
        args.path,
        seconds=args.seconds,
        pid=args.pid,
        domain=args.domain,
        port=args.port,
        tls=args.tls,
        ca=args.ca,
        address=args.address,
    )
    print(said)
    if not ok:
        sys.exit(1)


def cmd_switched(args) -> None:
    ok, said = health.switched(args.pid, args.release, seconds=args.seconds)
    print(said)
    if not ok:
        sys.exit(1)


def cmd_roll(args) -> None:
    ok, said = health.roll(args.pid, args.release, seconds=args.seconds)
    print(said)
    if not ok:
        sys.exit(1)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python3 -m yiwu_site.host")
    sub = top.add_subparsers(dest="command", required=True)
    sub.add_parser("domain").add_argument("value")
    for name in ("env", "get", "db-sql"):
        command = sub.add_parser(name)
        command.add_argument("--file", required=True)
    env = sub.choices["env"]
    env.add_argument("--domain", required=True)
    env.add_argument("--db-name", default=config.APP_NAME)
    env.add_argument("--db-role", default=config.APP_NAME)
    env.add_argument("--email", default="")
    sub.choices["get"].add_argument("name")
    for name in ("render", "argv"):
        command = sub.add_parser(name)
        command.add_argument("--domain", required=True)
        command.add_argument("--user", default=config.APP_NAME)
        command.add_argument("--home", default="/srv/yiwu")
        command.add_argument("--env-file", default="/etc/yiwu/env")
        command.add_argument("--backups", default="/var/backups/yiwu")
        command.add_argument("--port", type=int, default=8400)
        command.add_argument("--workers", type=int, default=0, help="default: from this machine's cores and memory")
    sub.choices["render"].add_argument("--out", required=True)
    sub.choices["render"].add_argument("--email", default="")
    argv = sub.choices["argv"]
    argv.add_argument("--release", required=True)
    argv.add_argument("--on", type=int, default=None, help="another port (the upgrade's check)")
    argv.add_argument("--backup", action="store_true")
    argv.add_argument("--kind", default="nightly")
    build = sub.add_parser("build")
    build.add_argument("--source", required=True)
    build.add_argument("--home", required=True)
    build.add_argument("--env-file", required=True)
    sub.add_parser("info").add_argument("release")
    sub.add_parser("prune").add_argument("home")
    wait = sub.add_parser("wait")
    wait.add_argument("path")
    wait.add_argument("--domain", required=True)
    wait.add_argument("--port", type=int, required=True)
    wait.add_argument("--seconds", type=float, default=30)
    wait.add_argument("--tls", action="store_true")
    wait.add_argument("--ca", default=None)
    wait.add_argument("--address", default="127.0.0.1")
    wait.add_argument("--while", dest="pid", type=int, default=None, help="give up once this process has ended")
    switched = sub.add_parser("switched", help="wait until a gunicorn master's workers all run --release")
    roll = sub.add_parser("roll", help="a gunicorn master's workers replaced by ones running --release, no gap")
    for command in (switched, roll):
        command.add_argument("pid", type=int)
        command.add_argument("--release", required=True)
        command.add_argument("--seconds", type=float, default=60)
    return top


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    try:
        globals()["cmd_" + args.command.replace("-", "_")](args)
    except (config.HostError, OSError, KeyError) as error:
        sys.exit(f"make host: {error}")


if __name__ == "__main__":
    main()
