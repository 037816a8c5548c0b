"""What a test needs from the machine: outside CI a missing piece skips and says how to get it; in
CI (``.ci/run`` sets ``CI``) it fails."""

from pathlib import Path

import pytest

from tests.required import unavailable

ROOT = Path(__file__).resolve().parents[1]


def test_a_missing_piece_fails_in_ci(monkeypatch):
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="Chromium not found"):
        unavailable("Chromium not found")


def test_a_missing_piece_skips_elsewhere_saying_why(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install"):
        unavailable("apt-get install -y chromium")


def test_ci_runs_the_suite_with_ci_set():
    lines = (ROOT / ".ci/run").read_text().splitlines()
    first_run = next(i for i, line in enumerate(lines) if line.startswith("make test"))
    assert any(line.startswith("export CI=1") for line in lines[:first_run])
