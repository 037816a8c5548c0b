"""Every benchmark in bench/ runs end to end at its tiny size (``--tiny``), so none rots unseen.

A script is a bench/*.py file with a ``__main__`` block (the others are the modules they share);
each runs once as ``make bench*`` runs it, in a process of its own with the environment a shell
gives it (no pytest, no test settings), its throwaway files in a temporary folder of its own. Its numbers
are printed, never judged: it must exit 0 and say it ran tiny. A script without ``--tiny`` fails
here (argparse refuses the option, or the note is missing).
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from bench.common import PRODUCTION_ENV, TINY_NOTE
from tests.chromium import chromium_or_stop

ROOT = Path(__file__).resolve().parents[1]
PYTHON = str(ROOT / ".venv/bin/python") if (ROOT / ".venv/bin/python").exists() else sys.executable
SCRIPTS = sorted(path for path in (ROOT / "bench").glob("*.py") if 'if __name__ == "__main__":' in path.read_text())
# What the test process has set that a shell running `make bench` would not: its settings, its
# databases and caches, and PYTHONDONTWRITEBYTECODE (unset as `make test` does: each process,
# gunicorn's workers too, compiles the project afresh without it).
NOT_PASSED = ("PYTEST_", "DJANGO_", "DATABASE_URL", "REDIS_", "CACHE_URL", "PYTHONDONTWRITEBYTECODE")


def _param(script: Path):
    marks = [pytest.mark.browser] if "playwright" in script.read_text() else []
    return pytest.param(script, marks=marks, id=script.stem)


@pytest.fixture(scope="session")
def prepared(tmp_path_factory) -> dict[str, str]:
    """What every script would otherwise do for itself, done once for the whole run by the first
    xdist worker to ask, in the folder the workers share: a migrated SQLite database the scripts'
    throwaway ones start as a copy of (BENCH_SQLITE_TEMPLATE), and staticfiles/ collected
    (BENCH_STATIC_COLLECTED); bench/common.py reads both."""
    import fcntl

    shared = tmp_path_factory.getbasetemp()
    shared = shared.parent if os.environ.get("PYTEST_XDIST_WORKER") else shared
    path = shared / "bench-template.sqlite3"
    with open(shared / "bench-template.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            made = path.with_suffix(".making")
            env = {**_shell_env(), **PRODUCTION_ENV, "DATABASE_URL": f"sqlite:///{made}"}
            both = "call_command('migrate', verbosity=0); call_command('collectstatic', interactive=False, verbosity=0)"
            command = [PYTHON, "manage.py", "shell", "-c", f"from django.core.management import call_command; {both}"]
            subprocess.run(command, cwd=ROOT, env=env, check=True, timeout=120)  # one Django for both
            made.rename(path)
    return {"BENCH_SQLITE_TEMPLATE": str(path), "BENCH_STATIC_COLLECTED": "1"}


def _shell_env() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if not name.startswith(NOT_PASSED)}


@pytest.fixture
def short_tmp():
    """A temporary folder of the script's own with a short path: a Redis's Unix socket in it must
    stay within the 107 bytes a socket's path may take, which pytest's tmp_path can exceed."""
    folder = tempfile.mkdtemp(prefix="bench-")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.long  # each starts servers and browsers of its own: a worker starts with them
@pytest.mark.parametrize("script", [_param(script) for script in SCRIPTS])
def test_each_benchmark_runs_end_to_end_at_its_tiny_size(script, prepared, short_tmp):
    if "playwright" in script.read_text():
        chromium_or_stop()
    env = {**_shell_env(), **prepared, "TMPDIR": short_tmp}
    start = time.perf_counter()
    run = subprocess.run(
        [PYTHON, str(script), "--tiny"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )
    took = time.perf_counter() - start
    assert run.returncode == 0, f"{script.name} --tiny exited {run.returncode}:\n{run.stdout}\n{run.stderr}"
    assert TINY_NOTE in run.stdout, f"{script.name} --tiny did not run tiny:\n{run.stdout}"
    numbers = run.stdout.replace(TINY_NOTE, "").strip()
    assert numbers, f"{script.name} --tiny printed nothing but the note"
    print(f"{script.name} --tiny: {took:.1f} s")


def test_the_shared_modules_are_not_taken_for_scripts():
    names = {script.name for script in SCRIPTS}
    assert {"engine.py", "load.py", "page.py"} <= names
    assert not {"common.py", "counted_wsgi.py", "nothing_wsgi.py", "__init__.py"} & names
