"""How hard the property tests try: quick by default, the full counts under ``HYPOTHESIS_PROFILE=ci``.

``tests/conftest.py`` loads the profile. A test that names its own count writes
``@settings(max_examples=examples(300))``: 300 in CI, an eighth of it (at least 10) elsewhere.
"""

import os

from hypothesis import settings

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
FULL = PROFILE == "ci"

settings.register_profile("ci", deadline=None, print_blob=True)  # counts as each test names them
settings.register_profile("dev", max_examples=30, deadline=None)


def examples(n: int) -> int:
    """``n`` under the ci profile; otherwise a fraction of it, never fewer than 10 (nor more than n)."""
    return n if FULL else min(n, max(10, n // 8))


def load() -> None:
    settings.load_profile(PROFILE)
