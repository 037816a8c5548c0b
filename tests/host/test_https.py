"""The server `make host` sets up, for real on this machine: a Caddy started with the Caddyfile it
renders (its local authority, as for DOMAIN=localhost, on 127.0.0.1 and ports of the test's) in
front of gunicorn started with the service's own command and environment, the production settings
on; and a phone's Chromium that trusts that authority because its root is in Chromium's
certificate store (an NSS database in the profile's home), not because certificate errors are
ignored. The site's name, mj.test, maps to 127.0.0.1 in Chromium alone: a name that is not
localhost, so the service worker runs only because the page came over valid HTTPS.

One test, one gunicorn and one Caddy: each is a second or more to start."""

import http.client
import os
import socket
import ssl
import subprocess
import time
from urllib.parse import quote

import pytest
from django.db import connection
from playwright.sync_api import expect

from bench.common import static_files_lock
from scoring.models import AccessMiss, Game, Hand
from scoring.rulesets.yiwu.engine import Rules
from tests.browser.test_installed_app import CONTROLLED
from tests.browser.test_offline_steps import BUNDLE_KEPT, keep_from_the_screen
from tests.chromium import CHROMIUM_ARGS, chromium_or_stop
from tests.helpers import game_url
from tests.host.tools import need
from yiwu_site.host import config, health
from yiwu_site.settings import BASE_DIR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM between Playwright's calls
NAME = "mj.test"
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = BASE_DIR / "tests/browser/screenshots"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url_of_the_test() -> str:
    """The test's own database, for gunicorn to share (the test's rows are committed)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    login = quote(db["USER"] or "") + (":" + quote(db["PASSWORD"]) if db["PASSWORD"] else "")
    return f"postgres://{login}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{quote(db['NAME'])}"


def production_environment() -> dict[str, str]:
    """The service's environment file as `make host` writes it for the name, on the test's database."""
    text, _made = config.environment("", domain=NAME, database=config.Database())
    return {
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "HOME": str(BASE_DIR),
        **config.read_env(text),
        "DATABASE_URL": database_url_of_the_test(),
    }


def collect_static(environment: dict[str, str]) -> None:
    """The release's collectstatic (yiwu_site/host/release.py), into this checkout's staticfiles/."""
    with static_files_lock():
        command = [str(BASE_DIR / ".venv/bin/python"), "manage.py", "collectstatic", "--no-input", "--verbosity", "0"]
        subprocess.run(command, cwd=BASE_DIR, env=environment, check=True)


def started(command: list[str], environment: dict[str, str], log) -> subprocess.Popen:
    return subprocess.Popen(command, cwd=BASE_DIR, env=environment, stdout=log, stderr=subprocess.STDOUT)


@pytest.fixture
def site(tmp_path):
    """gunicorn and Caddy, stopped after the test: (https origin, http port, the local authority's root)."""
    caddy = need("caddy")
    app_port, http_port, https_port = free_port(), free_port(), free_port()
    environment = production_environment()
    collect_static(environment)
    app = config.App(domain=NAME, port=app_port, workers=2)
    log = open(tmp_path / "servers.log", "w")  # open while the servers run
    processes = [started(config.gunicorn_argv(app, str(BASE_DIR)), environment, log)]
    storage = tmp_path / "caddy"
    site = config.Site(
        domain=NAME,
        upstream=f"127.0.0.1:{app_port}",
        local_ca=True,
        bind=("127.0.0.1",),
        http_port=http_port,
        https_port=https_port,
        admin="off",
        storage=str(storage),
    )
    caddyfile = tmp_path / "Caddyfile"
    caddyfile.write_text(config.caddyfile(site))
    caddy_env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    validated = subprocess.run(
        [caddy, "validate", "--config", str(caddyfile)], env=caddy_env, capture_output=True, text=True
    )
    assert validated.returncode == 0, validated.stderr
    processes.append(started([caddy, "run", "--config", str(caddyfile), "--adapter", "caddyfile"], caddy_env, log))
    root = storage / "pki/authorities/local/root.crt"
    try:
        ok, said = health.wait("/healthz", seconds=30, domain=NAME, port=app_port, pid=processes[0].pid)
        assert ok, said
        for _ in range(100):
            if root.exists():
                break
            time.sleep(0.1)
        ok, said = health.wait("/healthz", seconds=30, domain=NAME, port=https_port, tls=True, ca=str(root))
        assert ok, said + (tmp_path / "servers.log").read_text()[-3000:]
        yield f"https://{NAME}:{https_port}", http_port, root
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(10)
        log.close()


def phone_home(tmp_path, root) -> str:
    """A home whose NSS database (where Chromium on Linux reads the certificates a person added)
    trusts the local authority's root to certify sites, and nothing else added."""
    database = tmp_path / "home/.pki/nssdb"
    database.mkdir(parents=True)
    certutil = need("certutil")
    subprocess.run([certutil, "-d", f"sql:{database}", "-N", "--empty-password"], check=True)
    subprocess.run(
        [certutil, "-d", f"sql:{database}", "-A", "-t", "C,,", "-n", "yiwu-local", "-i", str(root)], check=True
    )
    return str(tmp_path / "home")


def through_caddy(origin: str, root, path: str, headers: dict[str, str]) -> int:
    port = int(origin.rsplit(":", 1)[1])
    return health.ask(path, domain=NAME, port=port, tls=True, ca=str(root), headers=headers)[0]


def test_the_app_behind_caddy_s_https_installs_works_offline_and_counts_the_real_client(site, tmp_path, playwright):
    origin, http_port, root = site
    https_port = int(origin.rsplit(":", 1)[1])

    # The certificate is the local authority's: good with its root, refused by the system's trust.
    with pytest.raises(ssl.SSLCertVerificationError):
        health.ask("/healthz", domain=NAME, port=https_port, tls=True)
    plain = http.client.HTTPConnection("127.0.0.1", http_port, timeout=5)
    plain.request("GET", "/healthz", headers={"Host": NAME})
    redirect = plain.getresponse()
    assert (redirect.status, redirect.getheader("Location")) == (308, f"https://{NAME}/healthz")
    plain.close()

    # The client address the app counts is the connection's, whatever the client claims.
    forged = {"X-Real-IP": "203.0.113.9", "X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "http"}
    assert through_caddy(origin, root, "/g/not-a-game-token-at-all/", forged) == 404
    assert list(AccessMiss.objects.filter(kind="miss").values_list("client", flat=True)) == ["127.0.0.1"]

    game = Game.objects.create(players=["老王", "小李", "阿华", "大刘"], rules=Rules().to_dict())
    url = f"{origin}{game_url(game)}"
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"),  # a profile on disk: Chromium offers no install in an incognito one
        executable_path=chromium_or_stop(),
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"],
        env={"HOME": phone_home(tmp_path, root), "PATH": "/usr/bin:/bin"},
        viewport=PHONE,
        locale="zh-CN",
        service_workers="allow",
    )
    try:
        context.set_default_timeout(15_000)
        page = context.pages[0] if context.pages else context.new_page()
        response = page.goto(url)
        assert response.status == 200
        assert response.security_details()["protocol"].startswith("TLS 1.3")
        assert page.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol") == "h2"
        assert page.evaluate("window.isSecureContext")
        assert page.evaluate(CONTROLLED) == f"{origin}/sw.js"
        assert context.new_cdp_session(page).send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
        assert page.evaluate(BUNDLE_KEPT)
        if os.environ.get("YIWU_SCREENSHOTS") == "1" or os.environ.get("YIWU_HOST_SCREENSHOT"):
            SCREENSHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "host-https-game-page.png"), animations="disabled")

        # The table's Wi-Fi drops: a hand entered from the page as it is, kept on the phone, sent
        # once when the network is back, and nothing sent again.
        context.set_offline(True)
        page.locator("section.record a[href*='winner=0&']").click()
        expect(page.locator(".question")).to_contain_text("老王 胡了 — 怎么胡？")  # from the bundle, no request
        page.locator("a[href$='win_type=zimo']").first.click()
        keep_from_the_screen(page, "老王 自摸 ×2")
        assert Hand.objects.filter(game=game).count() == 0
        context.set_offline(False)
        expect(page.locator("#hands details.hand-row")).to_have_count(1)
        expect(page.locator("#flash")).to_have_text("存在这台手机上的一局已记上，是第1局。")
        expect(page.locator("#hands .pending-row")).to_have_count(0)
        page.wait_for_timeout(3500)  # a poll's interval more: nothing is sent again
        assert list(Hand.objects.filter(game=game).values_list("seq", "entry")) == [
            (1, {"outcome": "win", "winner": 0, "win_type": "zimo"})
        ]
        assert page.evaluate("localStorage.length") == 0

        # No network at all: the worker answers the reload with the page as it kept it.
        context.set_offline(True)
        page.reload()
        expect(page.locator(".kept-copy")).to_contain_text("信号弱或离线")
        expect(page.locator(".tile")).to_have_count(4)
    finally:
        context.close()
