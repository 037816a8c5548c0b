"""`make run` on the table's Wi-Fi: LAN addresses found without sending anything, allowed in
debug, shown as a QR on the home page, and used by the invite links (no real network here)."""

import socket

import pytest
from django.test import override_settings

from tests.helpers import game_url
from yiwu_site import lan

LAN = ["192.168.1.23"]
DEBUG_LAN = {"DEBUG": True, "LAN_ADDRESSES": LAN, "ALLOWED_HOSTS": ["127.0.0.1", "localhost", "testserver", *LAN]}


class FakeSocket:
    """A UDP socket whose connect() is only recorded: nothing is sent."""

    connected = []

    def __init__(self, *args):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, address):
        FakeSocket.connected.append(address)

    def getsockname(self):
        return ("192.168.1.23", 54321)


def test_lan_addresses_are_private_ipv4_the_routed_one_first(monkeypatch):
    FakeSocket.connected = []
    monkeypatch.setattr(socket, "socket", FakeSocket)
    monkeypatch.setattr(socket, "gethostname", lambda: "table-laptop")
    infos = [(socket.AF_INET, 0, 0, "", (a, 0)) for a in ("127.0.1.1", "10.0.0.5", "192.168.1.23", "8.8.8.8")]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kw: infos)
    assert lan.lan_addresses() == ["192.168.1.23", "10.0.0.5"]
    assert FakeSocket.connected == [lan.PROBE]
    assert lan.is_lan(lan.PROBE[0])  # the probe names a private address, never an outside host


def test_no_network_means_no_lan_address(monkeypatch):
    class NoRoute(FakeSocket):
        def connect(self, address):
            raise OSError("Network is unreachable")

    monkeypatch.setattr(socket, "socket", NoRoute)
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **kw: (_ for _ in ()).throw(OSError()))
    assert lan.lan_addresses() == []
    assert lan.lan_url([]) is None


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("192.168.0.9", True),
        ("10.1.2.3", True),
        ("172.16.4.4", True),
        ("127.0.0.1", False),
        ("169.254.1.1", False),
        ("8.8.8.8", False),
        ("::1", False),
        ("x", False),
    ],
)
def test_only_private_ipv4_counts_as_lan(address, expected):
    assert lan.is_lan(address) is expected


def test_debug_allows_the_lan_addresses_beside_the_configured_hosts():
    assert lan.debug_allowed_hosts(["127.0.0.1", "localhost"], LAN) == ["127.0.0.1", "localhost", "192.168.1.23"]
    assert lan.debug_allowed_hosts(["192.168.1.23"], LAN) == ["192.168.1.23"]
    assert lan.lan_url(LAN, 8000) == "http://192.168.1.23:8000/"


def test_the_settings_allow_lan_hosts_only_in_debug_or_make_runs_server():
    from tests.core.test_it_security import manage

    code = "from django.conf import settings; print(settings.ALLOWED_HOSTS, settings.LAN_ADDRESSES)"
    result = manage(
        "shell",
        "-c",
        code,
        env={"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "x" * 50, "DJANGO_ALLOWED_HOSTS": "example.org"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "['example.org'] []"


@override_settings(**DEBUG_LAN)
def test_the_home_page_shows_the_lan_address_as_a_qr_in_debug(client, db):
    html = client.get("/", HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "http://192.168.1.23:8000/" in html
    assert "同一个 Wi-Fi 的手机扫码打开" in html
    assert html.count("<svg") >= 1


def test_no_lan_qr_on_a_server_that_knows_no_lan_address(client, db):
    """A hosted server (debug off, not `make run`): settings give no LAN address, so no QR and no link."""
    with override_settings(LAN_ADDRESSES=[], DEBUG=False):
        html = client.get("/", HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "192.168.1.23" not in html
    assert "同一个 Wi-Fi 的手机扫码打开" not in html


@override_settings(**DEBUG_LAN)
def test_invite_links_opened_on_the_machine_use_the_lan_address(client, game):
    html = client.get(game_url(game) + "share", HTTP_HOST="127.0.0.1:8000").content.decode()
    assert f"http://192.168.1.23:8000/g/{game.edit_token}/" in html
    assert "http://127.0.0.1" not in html
    phone = client.get(game_url(game) + "share", HTTP_HOST="192.168.1.23:8000").content.decode()
    assert f"http://192.168.1.23:8000/g/{game.view_token}/" in phone


def test_invite_links_have_copy_and_share_buttons_and_are_shown_whole(client, game):
    html = client.get(game_url(game) + "share").content.decode()
    assert 'data-copy="#link-edit"' in html
    assert 'data-share="#link-view" data-share-url hidden' in html
    assert f">http://testserver/g/{game.edit_token}/</a>" in html
    assert "readonly value=" not in html
