"""The fork server that runs ``manage`` (tests/forkserver.py) gives what a real ``python manage.py``
gives, and refuses to serve when it could not."""

import os
import textwrap

from tests import helpers
from tests.forkserver import ForkServer
from tests.helpers import ROOT, fork_server, manage, real_manage, run_to_run

# A run's whole state as a script sees it, its settings, its warnings, its atexit handlers, and
# an exit status of its own.
SHOW_THE_RUN = """
import atexit, os, sys, warnings, __main__
from django.conf import settings
print(sys.argv, sys.orig_argv, sys.path, os.getcwd(), sys.flags, sys.warnoptions)
print({k: v for k, v in vars(__main__).items() if k not in ("__builtins__", "__loader__")}, type(__main__.__loader__))
print([(s.name, s.encoding, s.errors, s.line_buffering, s.write_through, s.isatty()) for s in (sys.stdin, sys.stdout, sys.stderr)])
print(sorted((k, v) for k, v in os.environ.items() if k.startswith(("DJANGO_", "LANG", "PYTHON"))))
print(settings.DEBUG, settings.ALLOWED_HOSTS, settings.RATE_LIMITS)
warnings.warn("a warning as a real run prints it")
print("to stderr", file=sys.stderr)
atexit.register(print, "atexit handlers run")
sys.exit(2)
"""


def clean_env() -> dict:
    return {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))}


def test_a_served_run_is_a_real_run_byte_for_byte():
    full = {**clean_env(), "DJANGO_DEBUG": "1", "DJANGO_LIMIT_IMPORTS": "3"}
    served = manage("shell", "--no-imports", "-c", SHOW_THE_RUN, env=full)
    server = fork_server(clean_env())
    assert server.ready, server.refusals
    assert server.serves(full)  # so manage was served
    real = real_manage(["shell", "--no-imports", "-c", SHOW_THE_RUN], full)
    assert served.returncode == real.returncode == 2, real.stderr
    assert run_to_run(served.stdout) == run_to_run(real.stdout)
    assert "'imports': 3" in served.stdout
    assert served.stdout.endswith("atexit handlers run\n")
    assert served.stderr == real.stderr
    assert "UserWarning: a warning as a real run prints it" in served.stderr


def test_a_settings_error_is_the_same_traceback_and_status_as_a_real_run():
    env = {"DJANGO_DEBUG": "1", "DJANGO_TRUSTED_PROXIES": "none"}
    served, real = manage("check", env=env), real_manage(["check"], {**clean_env(), **env})
    assert served.returncode == real.returncode == 1
    assert served.stderr.startswith(f'Traceback (most recent call last):\n  File "{ROOT / "manage.py"}", line 9')
    assert (served.stdout, served.stderr) == (real.stdout, real.stderr)


def test_only_calls_that_differ_in_what_the_settings_read_are_served(monkeypatch):
    server, env = fork_server(clean_env()), clean_env()
    assert server.ready, server.refusals
    assert server.serves({**env, "DJANGO_DEBUG": "1", "DATABASE_URL": "x", "REDIS_URL": "", "CACHE_URL": "y"})
    # What the interpreter reads as it starts up is the server's: such a call is a real run.
    assert not server.serves({**env, "DJANGO_DEBUG": "1", "PYTHONWARNINGS": "error"})
    assert not server.serves({**env, "LANG": "en_GB.ISO-8859-1"})
    assert not server.serves({k: v for k, v in env.items() if k != "PATH"})
    assert "HOME" in server.env_read  # the imports' reads are recorded (sysconfig's), and none is Django's
    assert not {name for name in server.env_read if name.startswith("DJANGO_")}
    # A variable the imports had read (see the next test) is the server's for good.
    monkeypatch.setattr(server, "env_read", {*server.env_read, "DJANGO_FLAVOUR"})
    assert server.serves({**env, "DJANGO_DEBUG": "1"})
    assert not server.serves({**env, "DJANGO_FLAVOUR": "spicy"})


MODULES = {
    "reads_a_setting": "from django.conf import settings\ntry:\n    DEBUG = settings.DEBUG\nexcept Exception:\n    DEBUG = False\n",
    "asks_if_configured": "from django.conf import settings\nREADY = settings.configured\n",
    "uses_the_apps": "from django.apps import apps\nREADY = apps.ready\n",
    "reads_the_environment": "import os\nFLAVOUR = os.environ.get('DJANGO_FLAVOUR', 'plain')\n",
    "prints": "print('hello')\n",
    "warns": "import warnings\nwarnings.warn('careful')\n",
    "starts_a_thread": "import threading, time\nthreading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n",
    "opens_a_file": "LOG = open(__file__)\n",
    "imports_the_project": "import yiwu_site.lan\n",
    "sets_a_hook": "import sys\nsys.excepthook = print\n",
}


def test_the_server_refuses_imports_whose_state_a_child_would_inherit_wrongly(tmp_path):
    for name, source in MODULES.items():
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    env = {**clean_env(), "PYTHONPATH": str(tmp_path)}
    server = ForkServer(ROOT, env, preload_names=list(MODULES))
    assert not server.ready
    said = "\n".join(server.refusals)
    for reason in [
        "the settings were read during the imports (_setup",
        "the settings were asked whether they are configured",
        "the app registry was used during the imports (ready)",
        "something was printed during the imports: b'hello\\n'",
        "a warning was shown during the imports: (UserWarning('careful')",
        "the imports started threads",
        "the imports left files open",
        "objects with a finalizer were made during the imports: ['_io.BufferedReader', '_io.FileIO', '_io.TextIOWrapper']",
        "the imports import the project: ['yiwu_site', 'yiwu_site.lan']",
        "the imports changed the interpreter's hooks",
    ]:
        assert reason in said
    assert "DJANGO_FLAVOUR" in server.env_read
    assert len(server.refusals) == 10


def test_without_a_server_every_call_is_a_real_run(tmp_path, monkeypatch):
    server = ForkServer(tmp_path / "nowhere", clean_env())  # cannot start: no such folder
    assert not server.ready
    assert server.refusals[0].startswith("the server did not start: FileNotFoundError")
    monkeypatch.setattr(helpers, "_servers", [server])
    result = manage("check", env={"DJANGO_DEBUG": "maybe"})
    assert result.returncode == 1
    assert "DJANGO_DEBUG='maybe' is neither yes nor no" in result.stderr
    assert server.calls == 0
