"""The client address the rate limits count: behind a proxy, the entry the trusted proxy wrote
(the rightmost of X-Forwarded-For, or as many from the right as there are proxies), never one
the client chose; never raw header text as a throttle key."""

import pytest
from django.test import RequestFactory

from scoring.access import LIMITS, client_of
from scoring.models import AccessMiss
from tests.helpers import manage


def address(settings, value: str, proxies: int = 1, remote: str = "127.0.0.1") -> str:
    settings.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    settings.TRUSTED_PROXIES = proxies
    return client_of(RequestFactory().get("/", HTTP_X_FORWARDED_FOR=value, REMOTE_ADDR=remote))


def test_the_address_is_the_one_the_proxy_appended_not_the_clients_first_entry(settings):
    assert address(settings, "6.6.6.6, 203.0.113.7") == "203.0.113.7"
    assert address(settings, "203.0.113.7") == "203.0.113.7"


def test_with_two_proxies_the_address_is_the_second_from_the_right(settings):
    assert address(settings, "6.6.6.6, 203.0.113.7, 198.51.100.2", proxies=2) == "203.0.113.7"


def test_a_header_with_fewer_entries_than_proxies_falls_back_to_the_connection(settings):
    assert address(settings, "203.0.113.7", proxies=2, remote="10.0.0.5") == "10.0.0.5"


@pytest.mark.parametrize(
    "value",
    ["not-an-address", "a\x00b", "x" * 500, "1.2.3.4 ; drop", "\ud800", "fe80::1%a\x00b", "fe80::1%" + "x" * 99],
)
def test_a_value_that_is_no_address_is_never_the_key_itself(settings, value):
    key = address(settings, value)
    assert key != value
    assert key.isascii()
    assert key.isprintable()
    assert len(key) <= 64


def test_an_ipv6_address_is_one_key_however_it_is_written(settings):
    assert address(settings, "2001:DB8::0:1") == address(settings, "2001:db8::1") == "2001:db8::1"


def test_wrong_tokens_with_varied_first_entries_are_counted_as_one_client(client, db, settings):
    settings.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    statuses = [
        client.get(f"/g/guess-{i}/", HTTP_X_FORWARDED_FOR=f"10.{i}.0.1, 203.0.113.7").status_code
        for i in range(LIMITS["miss"] + 15)
    ]
    assert statuses[: LIMITS["miss"]] == [404] * LIMITS["miss"]
    assert set(statuses[LIMITS["miss"] :]) == {429}
    assert list(AccessMiss.objects.values_list("client", flat=True)) == ["203.0.113.7"]


def test_a_nul_in_the_address_header_is_no_500(client, db, settings):
    settings.CLIENT_IP_HEADER = "HTTP_X_REAL_IP"
    assert client.get("/g/guess/", HTTP_X_REAL_IP="1.2.3.4\x00").status_code == 404
    response = client.post("/accounts/signup", {"username": "a", "password1": "x"}, HTTP_X_REAL_IP="\x00")
    assert response.status_code == 200
    assert all("\x00" not in key for key in AccessMiss.objects.values_list("client", flat=True))


DEV = {"DJANGO_DEBUG": "1"}


def test_start_up_warns_that_a_client_can_choose_its_address_when_debug_serves_it_directly():
    result = manage("check", env={**DEV, "DJANGO_CLIENT_IP_HEADER": "HTTP_X_FORWARDED_FOR"})
    assert result.returncode == 0, result.stderr
    assert "DJANGO_CLIENT_IP_HEADER" in result.stderr
    assert "scoring.W001" in result.stderr


def test_start_up_warns_about_a_header_name_no_request_can_carry():
    result = manage("check", env={**DEV, "DJANGO_CLIENT_IP_HEADER": "X-Forwarded-For"})
    assert "scoring.W002" in result.stderr
    assert "HTTP_X_FORWARDED_FOR" in result.stderr  # the spelling it should have


def test_start_up_is_quiet_without_a_header():
    result = manage("check", env=DEV)
    assert result.returncode == 0, result.stderr
    assert "DJANGO_CLIENT_IP_HEADER" not in result.stderr


def test_a_trusted_proxy_count_below_one_names_the_variable():
    result = manage("check", env={**DEV, "DJANGO_TRUSTED_PROXIES": "0"})
    assert result.returncode != 0
    assert "DJANGO_TRUSTED_PROXIES" in result.stderr


def test_failed_logins_are_locked_out_by_the_proxy_appended_address_whatever_the_first_entry(client, db, settings):
    from django.contrib.auth.models import User

    settings.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    User.objects.create_user("laowang", password="mahjong-2026!")
    statuses = [
        client.post(
            "/accounts/login",
            {"username": "laowang", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=f"10.{i}.0.1, 203.0.113.7",
        ).status_code
        for i in range(settings.AXES_FAILURE_LIMIT)
    ]
    assert statuses[-1] == 429
    elsewhere = client.post(
        "/accounts/login", {"username": "laowang", "password": "mahjong-2026!"}, HTTP_X_FORWARDED_FOR="198.51.100.9"
    )
    assert elsewhere.status_code == 302  # the owner, from their own address, still gets in
