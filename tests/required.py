"""What a test needs from the machine (Chromium, PostgreSQL): missing in CI (.ci/run sets CI), the test fails, since
a check never skips silently there; missing elsewhere, it skips and says how to get it."""

import os
from typing import NoReturn

import pytest


def unavailable(message: str) -> NoReturn:
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)
