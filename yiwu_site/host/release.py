"""Releases on the server: ``<home>/releases/<id>``, named by the files they hold (nothing new, nothing
built), each with the shared virtualenv of its requirements.txt; ``<home>/current`` is the running one.
Standard library only."""

import hashlib
import os
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from yiwu_site.host.config import HostError, read_env

LEFT_OUT = ("tests/", "bench/", ".ci/")  # what the server never runs: a change there is no new release
KEEP_RELEASES = 3  # the running one and the two before it: `make host` can go back to either
INFO = "RELEASE"  # in each release: its id, the commit it came from and when it was built


def git(source: Path) -> list[str]:
    """git in ``source``, as root though another user may own the checkout (git's safe.directory)."""
    return ["git", "-c", f"safe.directory={source}", "-C", str(source)]


def source_files(source: Path) -> list[str]:
    """The checkout's files as git sees them (tracked, and new ones not ignored), but the tests and benchmarks."""
    try:
        listed = subprocess.run(
            [*git(source), "ls-files", "-z", "-c", "-o", "--exclude-standard"],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        raise HostError(
            f"{source} is not a git checkout ({error}): clone the repository and run make host there."
        ) from None
    names = sorted({name for name in listed.decode().split("\0") if name})
    # A deleted file is still listed until it is committed.
    return [name for name in names if not name.startswith(LEFT_OUT) and (source / name).is_file()]


def content_id(source: Path, names: list[str]) -> str:
    digest = hashlib.sha256()
    for name in names:
        path = source / name
        digest.update(f"{name}\0{os.access(path, os.X_OK):d}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:12]


def requirements_id(source: Path) -> str:
    return hashlib.sha256((source / "requirements.txt").read_bytes()).hexdigest()[:12]


def describe(source: Path) -> str:
    """The commit and its subject, and whether the checkout had changes of its own."""
    try:
        log = [*git(source), "log", "-1", "--format=%h %<(60,trunc)%s"]
        head = subprocess.run(log, capture_output=True, text=True, check=True).stdout
        status = [*git(source), "status", "--porcelain"]
        changes = subprocess.run(status, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown commit"
    return head.strip() + (" + the checkout's own changes" if changes.strip() else "")


def build(*, source: Path, home: Path, env_file: Path, python: str = "python3") -> tuple[str, bool]:
    """The release of ``source``'s files under ``home``: (its id, whether it was built now)."""
    names = source_files(source)
    release_id = content_id(source, names)
    final = home / "releases" / release_id
    if (final / INFO).exists():
        return release_id, False
    partial = home / "releases" / f".{release_id}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    for name in names:
        (partial / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source / name, partial / name)
    venv = virtualenv(home, source, python)
    (partial / ".venv").symlink_to(venv)
    environment = {**read_env(env_file.read_text(encoding="utf-8")), **plain_environment(), "DJANGO_DEBUG": "0"}
    _run([f"{venv}/bin/python", "manage.py", "collectstatic", "--no-input", "--verbosity", "0"], partial, environment)
    # The service may write nothing under home (ProtectSystem=strict): its bytecode is compiled now.
    _run([f"{venv}/bin/python", "-m", "compileall", "-q", "-d", str(final), "."], partial, environment)
    built = datetime.now(UTC).astimezone().isoformat(timespec="seconds")
    (partial / INFO).write_text(f"{release_id}\n{describe(source)}\nbuilt {built}\n", encoding="utf-8")
    partial.rename(final)
    return release_id, True


def virtualenv(home: Path, source: Path, python: str) -> Path:
    venv = home / "venvs" / requirements_id(source)
    if (venv / ".complete").exists():
        return venv
    shutil.rmtree(venv, ignore_errors=True)
    venv.parent.mkdir(parents=True, exist_ok=True)
    _run([python, "-m", "venv", str(venv)], source, plain_environment())
    pip = [f"{venv}/bin/python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    _run([*pip, "-r", str(source / "requirements.txt")], source, {**os.environ, **plain_environment()})
    (venv / ".complete").touch()
    return venv


def plain_environment() -> dict[str, str]:
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": os.environ.get("HOME", "/root")}


def _run(command: list[str], cwd: Path, environment: dict[str, str]) -> None:
    done = subprocess.run(command, cwd=cwd, env=environment, capture_output=True, text=True)
    if done.returncode:
        raise HostError(f"{' '.join(command[:4])} … failed ({done.returncode}):\n{done.stdout}{done.stderr}".rstrip())


def info(release: Path) -> str:
    """A release's id and commit, one line ("none" where there is none yet)."""
    try:
        lines = (release / INFO).read_text(encoding="utf-8").splitlines()
    except OSError:
        return "none"
    return f"{lines[0]} ({lines[1]})"


def prune(home: Path, keep: int = KEEP_RELEASES) -> list[str]:
    """Remove releases but the current and the newest up to ``keep``, then unused virtualenvs; returns what went."""
    releases = home / "releases"
    current = (home / "current").resolve()
    built = sorted(
        (p for p in releases.iterdir() if (p / INFO).exists()), key=lambda p: p.stat().st_mtime, reverse=True
    )
    kept = [current, *[p for p in built if p != current][: keep - 1]]
    gone = []
    for path in built:
        if path not in kept:
            shutil.rmtree(path)
            gone.append(path.name)
    used = {(path / ".venv").resolve() for path in kept if (path / ".venv").exists()}
    for venv in (home / "venvs").iterdir() if (home / "venvs").exists() else ():
        if venv.resolve() not in used:
            shutil.rmtree(venv)
            gone.append(f"venvs/{venv.name}")
    return gone
