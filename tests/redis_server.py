"""A private Redis for the tests of the shared cache: Debian's redis-server (`apt-get install
redis-server`; `.ci/run` installs it), started on a Unix socket in a temporary folder, one per
test process, with nothing saved to disk. No other Redis on the machine is touched."""

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def start(port: int | None = None, *, options: tuple[str, ...] = ()) -> tuple[subprocess.Popen, str, Path]:
    """The server, its address (unix://…, or redis://127.0.0.1:``port``/0 when a port is
    given: bench/load.py) and its folder, once it answers PING. ``options``: more of
    redis-server's, e.g. ``("--maxmemory", "2mb")``."""
    import redis  # the client, before any server is started

    if not Path(REDIS_SERVER).exists():
        raise RuntimeError("The shared-cache tests need redis-server: apt-get install redis-server")
    folder = Path(tempfile.mkdtemp(prefix="yiwu-redis-"))
    socket = folder / "redis.sock"
    listen = (
        ["--port", "0", "--unixsocket", str(socket)] if port is None else ["--port", str(port), "--bind", "127.0.0.1"]
    )
    server = subprocess.Popen(
        [REDIS_SERVER, *listen, "--save", "", "--appendonly", "no", *options],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"unix://{socket}" if port is None else f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    for _ in range(100):
        try:
            client.ping()
            return server, url, folder
        except redis.exceptions.ConnectionError:
            time.sleep(0.05)
    server.kill()
    raise RuntimeError("redis-server did not answer on its socket")


def stop(server: subprocess.Popen, folder: Path) -> None:
    server.terminate()
    server.wait(10)
    shutil.rmtree(folder, ignore_errors=True)
