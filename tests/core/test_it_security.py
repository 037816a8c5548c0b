from tests.helpers import PRODUCTION, game_url, manage


def test_check_deploy_is_clean_with_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in PRODUCTION.items() if k != "DJANGO_SECRET_KEY"}
    result = manage("check", env=env)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_pages_send_security_headers(client, game):
    response = client.get(game_url(game))
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


def test_no_inline_script_or_style_in_any_page(client, game):
    for path in ("", "record?winner=0&win_type=zimo", "share", "rules"):
        html = client.get(game_url(game) + path).content.decode()
        assert "<script>" not in html
        assert "<script " not in html.replace('<script src="', "")
        assert " style=" not in html
        assert " onclick=" not in html
