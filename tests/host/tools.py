"""The Debian programs the host tests run for real (tests/required.py: missing in CI, a test fails;
elsewhere it skips saying how to get them). `.ci/run` installs them."""

import shutil

from tests.required import unavailable

PACKAGES = {"caddy": "caddy", "systemd-analyze": "systemd", "certutil": "libnss3-tools", "pg_dump": "postgresql"}


def need(command: str) -> str:
    path = shutil.which(command)
    if path is None:
        unavailable(f"{command} not found: apt-get install -y {PACKAGES[command]}")
    return path
