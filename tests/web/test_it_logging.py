"""A 500 in production leaves its traceback in the logs (stderr, which gunicorn keeps)."""

from tests.web.helpers import PRODUCTION, manage

BOOM = """
import scoring.views.games as games
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
