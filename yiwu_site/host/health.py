"""Does it answer? A request to a server on this machine under the site's own name, retried until a
deadline: the upgrade waits on it before letting the old release go."""

import http.client
import os
import signal
import socket
import ssl
import time

POLL = 0.1  # seconds between tries: a connection to this machine costs next to nothing, a late answer a wait


def ask(
    path: str,
    *,
    domain: str,
    port: int,
    tls: bool = False,
    ca: str | None = None,
    address: str = "127.0.0.1",
    headers: dict[str, str] | None = None,
):
    """(status, body, headers) of one GET; over TLS the certificate must be valid for ``domain`` (``ca`` if given)."""
    sock = socket.create_connection((address, port), timeout=5)
    if tls:
        context = ssl.create_default_context(cafile=ca)
        sock = context.wrap_socket(sock, server_hostname=domain)
    connection = http.client.HTTPConnection(domain, port, timeout=5)
    connection.sock = sock
    try:
        # As Caddy forwards it: behind HTTPS, so the app does not redirect to it.
        connection.request("GET", path, headers={"Host": domain, "X-Forwarded-Proto": "https", **(headers or {})})
        response = connection.getresponse()
        return response.status, response.read(2000).decode("utf-8", "replace"), dict(response.getheaders())
    finally:
        connection.close()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return False


def wait(path: str, *, seconds: float, expect: int = 200, pid: int | None = None, **where) -> tuple[bool, str]:
    """Ask every POLL s until it answers ``expect``, ``seconds`` pass or ``pid`` ends: (answered, what it said last)."""
    deadline = time.monotonic() + seconds
    last = "no answer"
    while True:
        if pid is not None and not alive(pid):
            return False, f"{last}; the server (pid {pid}) has ended"
        try:
            status, body, _headers = ask(path, **where)
        except (OSError, ssl.SSLError, http.client.HTTPException) as error:
            last = f"{type(error).__name__}: {error}"
        else:
            last = f"{status} {body.strip()[:200]}"
            if status == expect:
                return True, last
        if time.monotonic() >= deadline:
            return False, last
        time.sleep(POLL)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a gunicorn master's workers)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


def runs(pid: int) -> list[str]:
    """Where each worker of ``pid`` works (its resolved working directory): the releases it runs."""
    return [path for path in map(_cwd, children(pid)) if path]


def switched(pid: int, release: str, *, seconds: float) -> tuple[bool, str]:
    """Wait until every worker of ``pid`` works in ``release`` (after a HUP, the old ones have gone)."""
    deadline = time.monotonic() + seconds
    target = os.path.realpath(release)
    while True:
        where = runs(pid)
        if where and all(path == target for path in where):
            return True, f"{len(where)} workers in {os.path.basename(target)}"
        if not alive(pid) or time.monotonic() >= deadline:
            others = sorted({os.path.basename(path) for path in where if path != target})
            return False, f"workers still in {', '.join(others) or 'nothing'}"
        time.sleep(POLL)


def roll(pid: int, release: str, *, seconds: float) -> tuple[bool, str]:
    """Gunicorn master ``pid``'s workers replaced, none stopped before its replacements serve: one more
    worker per worker (TTIN; each imports ``release`` through the symlink, then moves into it), and
    once they all have, as many fewer (TTOU: gunicorn stops the oldest, gracefully). One signal at a
    time, each seen done: two of a kind pending at once are one."""
    target = os.path.realpath(release)
    old = set(children(pid))
    if not old:
        return False, f"gunicorn (pid {pid}) has no workers"
    deadline = time.monotonic() + seconds

    def until(done) -> bool:
        while not done():
            if not alive(pid) or time.monotonic() >= deadline:
                return False
            time.sleep(POLL)
        return True

    for count in range(1, len(old) + 1):
        os.kill(pid, signal.SIGTTIN)
        if not until(lambda count=count: len(set(children(pid)) - old) >= count):
            return False, f"gunicorn (pid {pid}) started {count - 1} of {len(old)} new workers"
    ready = lambda: [child for child in set(children(pid)) - old if _cwd(child) == target]  # noqa: E731
    if not until(lambda: len(ready()) >= len(old)):
        return False, f"{len(ready())} of {len(old)} new workers loaded {os.path.basename(target)} in {seconds:.0f} s"
    for _ in old:
        before = len(children(pid))
        os.kill(pid, signal.SIGTTOU)
        until(lambda before=before: len(children(pid)) < before)
    return switched(pid, release, seconds=max(1.0, deadline - time.monotonic()))


def _cwd(pid: int) -> str:
    try:
        return os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return ""
