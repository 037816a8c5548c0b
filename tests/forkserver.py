"""``python manage.py ARGS`` in a fresh process, without paying each time for importing Django.

The settings are read from the environment when they are imported, so a test of them needs a
process of its own (tests/helpers.py ``manage``). Most of such a process's CPU is the
interpreter importing Django and the libraries the app uses, the same every time. So each test
process starts one helper, a fork server (this file run as a script): it imports those
libraries once, but neither the project's settings nor anything of the project, and then forks a
child per call. The child is given the call's environment, working folder and standard
streams, and runs manage.py as ``__main__`` the way the interpreter runs a script; its exit
status is the call's return code. The server is started with ``subprocess`` like any other
program: the test process, which has threads (live servers, Playwright), is never forked itself.

What the child gets is what a real run gets, because the server refuses to serve (and
``manage`` then starts a real process, as before) unless, after its imports:
- the settings were never read, nor asked whether they are configured, and the app registry
  never touched: a module that kept a setting from import time would be kept from the server's
  empty settings, not the call's;
- no module of the project is imported;
- nothing was printed, no warning shown (a real run would show it again to the call), no
  thread started, no file left open, and the interpreter's hooks, warning filters, signal
  handlers and limits are as they were;
and each call is served only when its environment differs from the server's in variables the
project's settings read (``DJANGO_*``, ``DATABASE_URL``, ``REDIS_URL``, ``CACHE_URL``) and in
none of them did the imports read (every read of ``os.environ`` during them is recorded).
Anything the interpreter reads as it starts (``PYTHON*``, the locale) is the server's own,
which is why a call whose other variables differ is not served. Two differences are left, neither
seen in a run's output: the children of one server share its hash seed, where real runs draw
one each (no output the tests read depends on it: they would be flaky otherwise); and what the
server imported is frozen out of the garbage collector (``finalizers_left`` says why that shows
nowhere).

tests/core/test_it_forkserver.py checks the refusals and compares a served call with a real run,
byte for byte. ``MANAGE_COMPARE=1`` makes every ``manage`` call run both ways and fail on any
difference (the whole comparison, for after a change here).
"""

import gc
import importlib
import json
import locale
import os
import selectors
import signal
import socket
import subprocess
import sys
import threading
import types
import warnings

# What every manage.py run that gets as far as django.setup() imports anyway (measured over the
# suite's runs, each module's import recorded), less what reads the settings or needs the app
# registry at import (the models, django-axes, the apps' own modules): ~500 modules, ~0.14 s.
PRELOAD = (
    "django.core.management",
    "dj_database_url",
    "email.utils",
    "tempfile",
    "django.db.models",
    "django.db.migrations",
    "django.db.backends.sqlite3.base",
    "django.http",
    "django.urls",
    "django.forms",
    "django.shortcuts",
    "django.template.defaulttags",
    "django.template.defaultfilters",
    "django.template.loader_tags",
    "django.templatetags.i18n",
    "django.views.generic.base",
    "django.views.debug",
    "django.views.i18n",
    "django.middleware.csrf",
    "django.middleware.cache",
    "django.contrib.admin",
    "django.contrib.auth.hashers",
    "django.contrib.auth.password_validation",
    "django.contrib.staticfiles.finders",
    "whitenoise.base",
    "importlib.metadata",
    "multiprocessing",
    "statistics",
    "csv",
    "getpass",
    "zipfile",
)


def read_by_the_settings(variable: str) -> bool:
    """The variables a call may set differently from the server's environment: those the
    project's settings read (yiwu_site/settings.py)."""
    return variable.startswith("DJANGO_") or variable in ("DATABASE_URL", "REDIS_URL", "CACHE_URL")


PROJECT_PACKAGES = ("scoring", "yiwu_site", "tests")
MESSAGE = 1 << 20


# --- the server (this file run as a script; imports nothing a real run would not) ---


def interpreter_state() -> dict:
    """What an import could change that a child would inherit and a real run would not have."""
    return {
        "hooks": (sys.excepthook, sys.displayhook, sys.unraisablehook, sys.breakpointhook, threading.excepthook),
        "tracing": (sys.gettrace(), sys.getprofile()),
        "import system": (list(sys.meta_path), list(sys.path_hooks), list(sys.path)),
        "limits": (sys.getrecursionlimit(), sys.getswitchinterval(), sys.get_int_max_str_digits()),
        "warning filters": list(warnings.filters),
        "signal handlers": {
            number: signal.getsignal(number)
            for number in signal.valid_signals()
            if number not in (signal.SIGKILL, signal.SIGSTOP)
        },
    }


def preload(names, channel: socket.socket) -> tuple[list[str], list[str]]:
    """Import ``names``; return the environment variables read meanwhile and the reasons (if any)
    why a child of this process would not be what a real run is."""
    refusals, env_read, shown = [], set(), []
    before, modules_before = interpreter_state(), set(sys.modules)
    environ_class = os._Environ
    saved_environ = {name: environ_class.__dict__[name] for name in ("__getitem__", "__iter__")}

    def getitem(self, key):
        env_read.add(key.decode() if isinstance(key, bytes) else key)
        return saved_environ["__getitem__"](self, key)

    def iterate(self):
        env_read.add("*")
        return saved_environ["__iter__"](self)

    environ_class.__getitem__, environ_class.__iter__ = getitem, iterate
    showwarning, warnings.showwarning = warnings.showwarning, lambda *shown_warning, **_: shown.append(shown_warning)
    try:
        import django.apps
        import django.conf
        import django.utils.functional
        from django.apps.registry import Apps
        from django.dispatch.dispatcher import Signal, func_accepts_kwargs

        settings_class = django.conf.LazySettings
        saved_settings = {name: settings_class.__dict__[name] for name in ("_setup", "configure", "configured")}
        connect = Signal.connect

        def settings_read(what):
            def read(self, *args, **kwargs):
                refusals.append(f"the settings were read during the imports ({what} {args[:1]})")
                raise RuntimeError("the fork server reads no settings")

            return read

        def configured(self):
            """No, here; in a real run they may be, at a module's import. Django asks only as it
            connects a signal's receiver, to check with DEBUG on that it takes **kwargs: checked
            below for every receiver connected here, so the answer changes nothing."""
            frame = sys._getframe(1)
            while frame.f_code.co_filename == django.utils.functional.__file__:
                frame = frame.f_back
            if frame.f_code is not connect.__code__:
                refusals.append(f"the settings were asked whether they are configured ({frame.f_code.co_filename})")
            return saved_settings["configured"].fget(self)

        def checked_connect(self, receiver, *args, **kwargs):
            if not (callable(receiver) and func_accepts_kwargs(receiver)):
                refusals.append(f"{receiver!r} would be refused with DEBUG on: it takes no **kwargs")
            return connect(self, receiver, *args, **kwargs)

        class WatchedApps(Apps):
            def __getattribute__(self, name):
                refusals.append(f"the app registry was used during the imports ({name})")
                return super().__getattribute__(name)

        settings_class._setup = settings_read("_setup")
        settings_class.configure = settings_read("configure")
        settings_class.configured = property(configured)
        Signal.connect = checked_connect
        django.apps.apps.__class__ = WatchedApps
        try:
            for name in names:
                try:
                    importlib.import_module(name)
                except Exception as error:
                    refusals.append(f"{name} does not import: {error!r}")
        finally:
            django.apps.apps.__class__ = Apps
            Signal.connect = connect
            for name, value in saved_settings.items():
                setattr(settings_class, name, value)
    finally:
        warnings.showwarning = showwarning
        for name, value in saved_environ.items():
            setattr(environ_class, name, value)
    if django.conf.settings._wrapped is not django.conf.empty:
        refusals.append("the settings were set up during the imports")
    project = sorted(m for m in set(sys.modules) - modules_before if m.split(".")[0] in PROJECT_PACKAGES)
    if project:
        refusals.append(f"the imports import the project: {project[:5]}")
    refusals += [f"a warning was shown during the imports: {w[:3]}" for w in shown]
    after = interpreter_state()
    refusals += [f"the imports changed the interpreter's {what}" for what in before if before[what] != after[what]]
    tasks = os.listdir("/proc/self/task")
    if threading.active_count() != 1 or len(tasks) != 1:
        refusals.append(f"the imports started threads ({threading.enumerate()}, {len(tasks)} tasks)")
    fds = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
    left_open = [fd for fd in fds if fd > 2 and fd != channel.fileno() and os.path.exists(f"/proc/self/fd/{fd}")]
    if left_open:
        refusals.append(f"the imports left files open: {[os.readlink(f'/proc/self/fd/{fd}') for fd in left_open]}")
    refusals += finalizers_left(channel)
    flush_io()  # anything printed reaches the pipes the test process checks
    return sorted(env_read), refusals


def finalizers_left(channel: socket.socket) -> list[str]:
    """The server freezes what it imported (gc.freeze) before it forks: each child then neither
    copies it (a collection writes to every object it walks) nor walks it again as it exits,
    ~45 ms less CPU per call. Frozen objects are never collected as cyclic garbage; that can
    show only through a finalizer that runs on collection, and none of them has one but the
    standard streams, which the interpreter flushes itself as it exits (and the server's channel,
    which each child closes first). Any other is a refusal."""
    streams = {id(channel)}
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        streams |= {id(stream), id(stream.buffer), id(getattr(stream.buffer, "raw", stream.buffer))}
    found = {
        f"{type(obj).__module__}.{type(obj).__qualname__}"
        for obj in gc.get_objects()
        if getattr(type(obj), "__del__", None) is not None and id(obj) not in streams
    }
    return [f"objects with a finalizer were made during the imports: {sorted(found)}"] if found else []


def flush_io():
    """As the interpreter flushes the standard streams when a script ends (errors ignored)."""
    for stream in (sys.stderr, sys.stdout):
        try:
            stream.flush()
        except Exception:
            pass


def serve(channel: socket.socket):
    """Answer calls until the test process closes the channel. In a child, return its call."""
    while True:
        message, fds, _, _ = socket.recv_fds(channel, MESSAGE, 3)
        if not message:
            return None
        call = json.loads(message)
        pid = os.fork()
        if pid == 0:
            channel.close()
            return call, fds
        for fd in fds:
            os.close(fd)
        _, status, usage = os.wait4(pid, 0)
        cpu = usage.ru_utime + usage.ru_stime
        channel.send(json.dumps({"returncode": os.waitstatus_to_exitcode(status), "cpu": cpu}).encode())


def run_as_a_script(call: dict, fds: list[int]):
    """Become ``python manage.py …`` with the call's environment and streams, and run it as the
    interpreter runs a script (CPython's pymain_run_file and _PyRun_SimpleFileObject): a fresh
    ``__main__``, sys.argv, sys.path[0] the script's folder; an uncaught exception printed by
    sys.excepthook from the script's first frame on, exit status 1; SystemExit left to the
    interpreter, which exits with its code as for any script."""
    for target, fd in zip((0, 1, 2), fds, strict=True):
        os.dup2(fd, target)
    for fd in fds:
        os.close(fd)
    os.chdir(call["cwd"])
    os.environ.clear()
    os.environ.update(call["env"])
    sys.argv, sys.orig_argv = call["argv"][1:], call["argv"]
    filename = os.path.join(os.getcwd(), sys.argv[0])
    sys.path[0] = os.path.dirname(os.path.realpath(filename))
    importlib.invalidate_caches()
    import builtins
    from importlib.machinery import SourceFileLoader

    main = types.ModuleType("__main__")
    scope = main.__dict__
    scope.update(__annotations__={}, __builtins__=builtins, __loader__=SourceFileLoader("__main__", filename))
    scope.update(__file__=filename, __cached__=None)
    sys.modules["__main__"] = main
    with open(filename, "rb") as source:
        code = compile(source.read(), filename, "exec", dont_inherit=True)
    try:
        exec(code, scope)
    except SystemExit:
        flush_io()
        raise
    except BaseException as error:
        flush_io()
        traceback = error.__traceback__
        while traceback is not None and traceback.tb_frame.f_code is not code:
            traceback = traceback.tb_next
        error.__traceback__ = traceback
        sys.last_type, sys.last_value, sys.last_traceback = type(error), error, traceback
        sys.excepthook(type(error), error, traceback)
        scope.pop("__file__", None)
        scope.pop("__cached__", None)
        del error, traceback
        if issubclass(sys.last_type, KeyboardInterrupt):  # the interpreter ends itself by SIGINT then
            import atexit

            atexit._run_exitfuncs()
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
        raise SystemExit(1) from None
    flush_io()
    scope.pop("__file__", None)
    scope.pop("__cached__", None)


def server_main():
    channel = socket.socket(fileno=int(sys.argv[1]))
    names = json.loads(sys.argv[2]) if len(sys.argv) > 2 else PRELOAD
    # Imports resolve as in a real run: the script's folder first, not this file's.
    sys.path[0] = os.path.dirname(os.path.realpath(os.path.join(os.getcwd(), "manage.py")))
    env_read, refusals = preload(names, channel)
    gc.collect()
    gc.freeze()
    channel.send(json.dumps({"env_read": env_read, "refusals": refusals}).encode())
    return None if refusals else serve(channel)


# --- the test process's side ---


class ForkServer:
    """One server per test process, started with the environment ``env``."""

    def __init__(self, root, env: dict, preload_names=None):
        self.root, self.env, self.stdin = str(root), dict(env), stdin_identity()
        self.calls, self.cpu = 0, 0.0  # calls served and their children's CPU seconds
        self.lock, self.env_read, self.refusals = threading.Lock(), set(), []
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        argv = [sys.executable, __file__, str(theirs.fileno())]
        if preload_names is not None:
            argv.append(json.dumps(list(preload_names)))
        self.channel, self.process = ours, None
        try:
            # Its stdout and stderr are pipes, as a call's are: the interpreter sets its streams
            # up by what they are when it starts (buffers, seekable), and the children keep them.
            self.process = subprocess.Popen(
                argv, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, pass_fds=[theirs.fileno()]
            )
            theirs.close()
            self.channel.settimeout(60)
            hello = self.channel.recv(MESSAGE)
            self.channel.settimeout(None)
        except OSError as error:  # it could not start, or never said it was ready
            theirs.close()
            self.refusals.append(f"the server did not start: {error!r}")
        else:
            said = (
                json.loads(hello) if hello else {"env_read": [], "refusals": ["the server ended before it was ready"]}
            )
            self.env_read, self.refusals = set(said["env_read"]), said["refusals"]
            printed = self._printed()
            if printed:
                self.refusals.append(f"something was printed during the imports: {printed!r}")
        if self.stdin is None:
            self.refusals.append("this process has no stdin to give a call")
        if self.refusals:
            self.close()

    def _printed(self) -> bytes:
        os.set_blocking(self.process.stdout.fileno(), False)
        os.set_blocking(self.process.stderr.fileno(), False)
        return (self.process.stdout.read() or b"") + (self.process.stderr.read() or b"")

    @property
    def ready(self) -> bool:
        return not self.refusals and self.process is not None and self.process.poll() is None

    def serves(self, env: dict) -> bool:
        """Whether a child of this server, given ``env``, is what a real run given it is."""
        if not self.ready or "*" in self.env_read or stdin_identity() != self.stdin:
            return False  # the server's interpreter set its sys.stdin up from the stdin it had
        differ = {key for key in env.keys() | self.env.keys() if env.get(key) != self.env.get(key)}
        return all(read_by_the_settings(key) and key not in self.env_read for key in differ)

    def run(self, args, env: dict) -> subprocess.CompletedProcess:
        """``python manage.py ARGS`` as subprocess.run(…, capture_output=True, text=True) would."""
        argv = [sys.executable, "manage.py", *args]
        call = json.dumps({"argv": argv, "cwd": self.root, "env": env}).encode()
        with self.lock:
            out_read, out_write = os.pipe()
            err_read, err_write = os.pipe()
            try:
                # stdin: this process's own, as a real subprocess inherits it.
                socket.send_fds(self.channel, [call], [0, out_write, err_write])
            finally:
                os.close(out_write)
                os.close(err_write)
            stdout, stderr = read_until_closed(out_read, err_read)
            answer = self.channel.recv(MESSAGE)
        if not answer:
            raise RuntimeError(f"the manage.py fork server ended: {self._printed().decode(errors='replace')}")
        answer = json.loads(answer)
        self.calls, self.cpu = self.calls + 1, self.cpu + answer["cpu"]
        return subprocess.CompletedProcess(argv, answer["returncode"], as_text(stdout), as_text(stderr))

    def close(self):
        self.channel.close()
        if self.process is None:
            return
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()
        self.process.stderr.close()


def stdin_identity():
    """What this process's stdin (fd 0) is, which a real subprocess would inherit."""
    try:
        status = os.fstat(0)
    except OSError:
        return None
    return status.st_dev, status.st_ino, status.st_mode


def read_until_closed(*fds: int) -> list[bytes]:
    """Everything written to the pipes ``fds`` until every writer has closed them."""
    chunks = {fd: [] for fd in fds}
    with selectors.DefaultSelector() as selector:
        for fd in fds:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            for key, _ in selector.select():
                data = os.read(key.fd, 32768)
                if data:
                    chunks[key.fd].append(data)
                else:
                    selector.unregister(key.fd)
                    os.close(key.fd)
    return [b"".join(chunks[fd]) for fd in fds]


def as_text(data: bytes) -> str:
    """As subprocess decodes a text-mode pipe: the locale's encoding (UTF-8 in UTF-8 mode),
    strict, universal newlines."""
    encoding = "utf-8" if sys.flags.utf8_mode else locale.getencoding()
    return data.decode(encoding).replace("\r\n", "\n").replace("\r", "\n")


if __name__ == "__main__":
    job = server_main()
    if job is not None:  # a child: from here on it is manage.py
        run_as_a_script(*job)
