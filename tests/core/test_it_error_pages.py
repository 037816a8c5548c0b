"""The app's own error pages (Chinese first, English beside it), and the refusals a phone
meets when another phone was quicker: a message on the game page, not a bare error."""

import pytest
from django.template.loader import get_template

from scoring.models import Hand
from tests.factories import add_hand
from tests.helpers import game_url, messages_of, version_of

DRAW = {"outcome": "draw"}


def is_app_page(html: str) -> bool:
    return "/static/css/app.css" in html and "义乌麻将记分" in html


def test_404_is_the_apps_page(client, db):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    html = response.content.decode()
    assert is_app_page(html)
    assert "找不到" in html
    assert "Not found" in html


def test_a_view_link_on_a_write_url_is_the_apps_403_with_the_reason(client, game):
    response = client.get(game_url(game, view=True) + "record?winner=0")
    assert response.status_code == 403
    html = response.content.decode()
    assert is_app_page(html)
    assert "只读链接不能记分或修改。" in html


def test_400_is_the_apps_page(client, db):
    response = client.get("/", HTTP_HOST="evil.example.com")
    assert response.status_code == 400
    assert is_app_page(response.content.decode())


def test_too_many_wrong_tokens_is_the_apps_429_page(client, db):
    for i in range(31):
        response = client.get(f"/g/guess-{i}/")
    assert response.status_code == 429
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert is_app_page(html)
    assert "请求太多" in html
    assert "Too many" in html


def test_500_renders_without_a_request_and_without_inline_script_or_style():
    html = get_template("500.html").render()
    assert "服务器出错了" in html
    assert "Server error" in html
    assert "/static/css/app.css" in html
    assert "<script" not in html
    assert "<style" not in html
    assert " style=" not in html


def test_a_crash_answers_the_apps_500_page(client, game, monkeypatch):
    import scoring.table.pages as pages

    def boom(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(pages, "game_context", boom)  # the game page's presenter
    client.raise_request_exception = False
    response = client.get(game_url(game))
    assert response.status_code == 500
    assert "服务器出错了" in response.content.decode()


@pytest.mark.parametrize(
    ("method", "path", "data"), [("get", "hand/1/edit", {}), ("post", "hand/1/void", {"reason": "x", "revision": "0"})]
)
def test_a_hand_voided_meanwhile_is_named_on_the_game_page(client, game, method, path, data):
    add_hand(game, DRAW)
    add_hand(game, DRAW)
    client.post(game_url(game) + "hand/1/void", {"version": version_of(game), "reason": "另一台手机", "revision": "0"})
    client.get(game_url(game))  # read that message
    response = getattr(client, method)(game_url(game) + path, data, follow=True)
    assert response.redirect_chain[-1][0] == game_url(game)
    assert "第1局已被作废。" in messages_of(response)


def test_an_overlong_void_reason_is_shown_as_an_error(client, game):
    add_hand(game, DRAW)
    response = client.post(
        game_url(game) + "hand/1/void", {"version": version_of(game), "reason": "长" * 201, "revision": "0"}
    )
    assert response.status_code == 200
    assert "invalid-feedback" in response.content.decode()
    assert "200" in response.content.decode()
    assert not Hand.objects.get().voided


def test_the_voided_meanwhile_message_reads_in_english_too(client, game):
    client.cookies["django_language"] = "en"
    add_hand(game, DRAW)
    client.post(game_url(game) + "hand/1/void", {"version": version_of(game), "reason": "x", "revision": "0"})
    client.get(game_url(game))
    response = client.get(game_url(game) + "hand/1/edit", follow=True)
    assert "Hand 1 has been voided." in messages_of(response)


def test_no_template_shows_a_comment_as_text():
    """A Django comment {# … #} spans one line only: one that runs over two is printed on the page."""
    from tests.helpers import template_dirs

    spilled = [
        f"{path.name}:{n}"
        for templates in template_dirs()
        for path in templates.rglob("*.html")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if "{#" in line and "#}" not in line.split("{#", 1)[1]
    ]
    assert spilled == []
