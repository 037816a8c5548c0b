"""A 500 in production leaves its traceback in the logs (stderr, which gunicorn keeps)."""

from tests.helpers import PRODUCTION, manage

BOOM = """
import scoring.table.views.games as games
def boom(request):
    raise RuntimeError("the-test-boom")
games.healthz = boom  # before the URLconf is first read
from django.test import Client
response = Client(raise_request_exception=False).get("/healthz", HTTP_HOST="mj.example.com", secure=True)
print("status", response.status_code)
"""


def test_a_500_under_production_settings_is_logged_with_its_traceback_to_stderr():
    result = manage("shell", "-c", BOOM, env={**PRODUCTION, "DJANGO_SECURE_SSL_REDIRECT": "0"})
    assert "status 500" in result.stdout, result.stderr
    assert "Internal Server Error: /healthz" in result.stderr
    assert "Traceback" in result.stderr
    assert "RuntimeError: the-test-boom" in result.stderr


def test_admins_come_from_the_environment():
    show = "from django.conf import settings; print(settings.ADMINS)"
    admins = "Lao Wang <wang@example.com>, ops@example.com"
    result = manage("shell", "-c", show, env={**PRODUCTION, "DJANGO_ADMINS": admins})
    assert result.returncode == 0, result.stderr
    assert "('Lao Wang', 'wang@example.com'), ('', 'ops@example.com')" in result.stdout


def test_a_malformed_admin_address_is_a_configuration_error():
    result = manage("check", env={**PRODUCTION, "DJANGO_ADMINS": "Lao Wang"})
    assert result.returncode != 0
    assert "DJANGO_ADMINS" in result.stderr


def production_with(tmp_path, **env) -> dict:
    """Production settings over plain HTTP, on a database of the test's own."""
    return {**PRODUCTION, "DJANGO_SECURE_SSL_REDIRECT": "0", "DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3", **env}


LOST_ANNOUNCEMENT = """
from types import SimpleNamespace
from scoring import live
live.announce(SimpleNamespace(pk=7, edit_token="E" * 24, view_token="V" * 24, version=3))
print("written", live._late == {7: (["E" * 24, "V" * 24], 3)})
"""


def test_a_lost_announcement_under_production_settings_is_logged_to_stderr_without_the_links(tmp_path):
    """The shared cache unreachable (no Redis at its address) as a write's announcement is made
    once it has committed (here: at once, outside a transaction)."""
    env = production_with(tmp_path, REDIS_URL=f"unix://{tmp_path}/no-redis-here.sock")
    result = manage("shell", "-c", LOST_ANNOUNCEMENT, env=env)
    assert "written True" in result.stdout, result.stderr  # kept for the retry; the caller went on
    assert "ERROR scoring.live: shared cache: game 7's version 3 was not announced" in result.stderr
    assert "redis.exceptions.ConnectionError" in result.stderr  # with its traceback
    for token in ("E" * 24, "V" * 24):  # the tokens are the links
        assert token not in result.stderr


WARNINGS = """
import logging
from django.db import transaction
for name in ("scoring.anything", "yiwu_site.anything", "some_library"):
    logging.getLogger(name).warning("warned by %s", name)
    logging.getLogger(name).info("informed by %s", name)
def failing_hook():
    raise RuntimeError("the-hook-failed")
transaction.on_commit(failing_hook, robust=True)
from django.test import Client
Client(raise_request_exception=False).get("/healthz", HTTP_HOST="evil.example.com")
print("done")
"""


def test_warnings_of_the_app_libraries_and_django_reach_stderr_with_debug_off(tmp_path):
    result = manage("shell", "-c", WARNINGS, env=production_with(tmp_path))
    assert "done" in result.stdout, result.stderr
    for name in ("scoring.anything", "yiwu_site.anything", "some_library"):
        assert f"WARNING {name}: warned by {name}" in result.stderr
        assert f"informed by {name}" not in result.stderr
    # An on_commit hook run with robust=True: Django logs its failure and goes on.
    assert "ERROR django.db.backends.base: Error calling" in result.stderr
    assert "RuntimeError: the-hook-failed" in result.stderr
    assert "ERROR django.security.DisallowedHost: Invalid HTTP_HOST header: 'evil.example.com'" in result.stderr


def test_a_4xx_answer_is_not_logged(tmp_path):
    """A refusal, a spent budget or a deleted game's 404 (polled every 3 s by a page left open) is
    the app answering a phone, and its address holds the game's link. (A 405 here: a 404 renders
    a page, which needs the collected static files.)"""
    show = 'from django.test import Client; print("status", Client().put("/readyz").status_code)'
    result = manage("shell", "-c", show, env=production_with(tmp_path, DJANGO_ALLOWED_HOSTS="testserver"))
    assert "status 405" in result.stdout, result.stderr
    assert "Method Not Allowed" not in result.stderr  # Django logs it as a warning of django.request


POLL_WITHOUT_REDIS = """
from django.test import Client
response = Client(raise_request_exception=False).get("/g/" + "T" * 24 + "/poll?v=0", HTTP_HOST="mj.example.com")
print("status", response.status_code)
"""


def test_a_request_the_shared_cache_fails_is_a_500_logged_with_its_traceback_to_stderr(tmp_path):
    env = production_with(tmp_path, REDIS_URL=f"unix://{tmp_path}/no-redis-here.sock")
    result = manage("shell", "-c", POLL_WITHOUT_REDIS, env=env)
    assert "status 500" in result.stdout, result.stderr
    assert "ERROR django.request: Internal Server Error: /g/" in result.stderr
    assert "redis.exceptions.ConnectionError" in result.stderr
