"""The deploy docs' nginx site, settings table and `make serve-prod` agree with the app's own settings."""

import re
from pathlib import Path

from django.conf import settings

from scoring.records.views.records import MAX_IMPORT_BYTES

ROOT = Path(__file__).resolve().parents[2]


def test_the_nginx_examples_accept_exactly_the_bodies_the_app_accepts():
    for doc in ("docs/deploy.md",):  # the README's single-server site moved here
        sizes = re.findall(r"client_max_body_size (\d+)m;", (ROOT / doc).read_text(encoding="utf-8"))
        assert [int(size) * 1024 * 1024 for size in sizes] == [settings.DATA_UPLOAD_MAX_MEMORY_SIZE], doc


def test_a_request_carrying_the_largest_import_and_its_form_is_accepted():
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE >= MAX_IMPORT_BYTES + 64 * 1024
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE == settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def test_serve_prod_logs_errors_to_stderr_and_opens_no_control_socket():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    gunicorn = next(line for line in makefile.splitlines() if "gunicorn yiwu_site.wsgi" in line)
    assert "--no-control-socket" in gunicorn
    assert "--error-logfile -" in gunicorn


def test_the_deploy_docs_give_the_version_keys_life_and_the_readiness_bounds_the_code_has():
    from scoring import live, ready

    text = " ".join((ROOT / "docs" / "deploy.md").read_text(encoding="utf-8").split())
    assert f"(`{live.PREFIX}<token>`, {live.SECONDS} s)" in text
    assert f"every poll sees the write within {live.SECONDS} s" in text
    assert f"at most once every {live.RETRY_SECONDS} s while Redis stays down" in text
    assert f"a {ready.SECONDS:g} s deadline on an open connection" in text
    assert settings.SECURE_REDIRECT_EXEMPT == [r"^(healthz|readyz)$"]


def test_every_variable_the_settings_read_has_one_row_in_the_deploy_docs_table():
    source = (ROOT / "yiwu_site" / "settings.py").read_text(encoding="utf-8")
    read = set(re.findall(r'"((?:DJANGO|REDIS|DATABASE|CACHE)_[A-Z0-9_]+)"', source)) - {"DJANGO_SETTINGS_MODULE"}
    table = (
        (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8").split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    )
    named = [
        name
        for line in table.splitlines()
        if line.startswith("| `")
        for name in re.findall(r"`([A-Z_]+)`", line.split(" | ")[0])
    ]
    assert {"DJANGO_HSTS_PRELOAD", "REDIS_BUDGETS_URL", "CACHE_URL", "DATABASE_URL"} <= read
    assert sorted(read - set(named)) == []
    assert len(named) == len(set(named))
