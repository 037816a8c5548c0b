"""Recording a hand on a slow network: one round trip per tap (bench/taps.py times them).

- an htmx confirm is answered with the game page itself and the URL to show, not a redirect
  the phone must follow (a plain form POST still gets Post/Redirect/Get);
- every step link is inside a ``preload`` element, so it is fetched on touchstart;
- the steps htmx fetches are kept in the phone's cache for seconds, so the preload is used.
"""

from html.parser import HTMLParser

from scoring.models import Hand
from tests.factories import add_hand
from tests.helpers import form_fields, game_url, record, version_of

ZIMO = {"outcome": "win", "winner": 0, "win_type": "zimo"}
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_BOOSTED": "true"}
VOID_ELEMENTS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Links(HTMLParser):
    """Each link's href and whether it or an element around it has a ``preload`` attribute."""

    def __init__(self):
        super().__init__()
        self.stack: list[bool] = []
        self.links: list[tuple[str, bool]] = []

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        preload = "preload" in names or any(self.stack)
        if tag == "a" and "href" in names:
            self.links.append((names["href"], preload))
        if tag not in VOID_ELEMENTS:
            self.stack.append("preload" in names)

    def handle_endtag(self, tag):
        if tag not in VOID_ELEMENTS and self.stack:
            self.stack.pop()


def links(html: str) -> list[tuple[str, bool]]:
    parser = Links()
    parser.feed(html)
    return parser.links


def test_an_htmx_confirm_answers_the_game_page_in_one_response(client, game):
    data = {**form_fields(ZIMO, game), "confirm": "1", "next_seq": "1", "version": version_of(game)}
    response = client.post(game_url(game) + "record", data, **HTMX)
    assert response.status_code == 200
    assert response["HX-Push-Url"] == game_url(game)
    html = response.content.decode()
    assert "记一局：谁胡了？" in html  # the game page, with the new hand and the message
    assert "已记录第1局。" in html
    assert "第1局" in html
    assert Hand.objects.count() == 1
    assert response.wsgi_request.path.endswith("/record")
    # the page is the game page's own: its links and language switch point at it
    assert f'name="next" type="hidden" value="{game_url(game)}"' in html
    assert f"record?v={version_of(game)}&amp;winner=0&amp;outcome=win" in html
    # the message was shown once: the next page does not repeat it
    assert "已记录第1局。" not in client.get(game_url(game)).content.decode()


def test_a_plain_confirm_still_redirects_to_the_game_page(client, game):
    response = record(client, game, ZIMO)
    assert response.status_code == 302
    assert response["Location"] == game_url(game)
    assert "HX-Push-Url" not in response
    assert "已记录第1局。" in client.get(game_url(game)).content.decode()


def test_an_htmx_void_confirm_answers_the_game_page_too(client, game):
    add_hand(game, ZIMO)
    response = client.post(
        game_url(game) + "hand/1/void", {"version": version_of(game), "reason": "记错了", "revision": "0"}, **HTMX
    )
    assert response.status_code == 200
    assert response["HX-Push-Url"] == game_url(game)
    assert "第1局已作废。" in response.content.decode()


def test_an_htmx_preview_refresh_still_gets_only_the_preview(client, game):
    """The refresh the form's changes trigger targets the panel; the boosted 「更新预览」 gets the
    whole page (test_it_whole_pages)."""
    data = {**form_fields(ZIMO, game), "next_seq": "1"}
    response = client.post(game_url(game) + "record", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "HX-Push-Url" not in response
    assert 'id="preview-panel"' in response.content.decode()
    assert "记一局：谁胡了？" not in response.content.decode()


def test_every_step_link_is_preloaded(client, game):
    game_page = client.get(game_url(game)).content.decode()
    steps = [href for href, _ in links(game_page) if "/record?" in href]
    assert len(steps) == 6  # four winners, 流局 and 手动记分
    assert all(preload for href, preload in links(game_page) if "/record?" in href)

    win_type = client.get(steps[0]).content.decode()
    taps = [(href, preload) for href, preload in links(win_type) if "win_type=" in href]
    assert any("win_type=zimo" in href for href, _ in taps)
    assert sum("discarder=" in href for href, _ in taps) == 3
    assert len(taps) > 6  # 自摸, three discarders, the other types and 飘
    assert all(preload for _, preload in taps), [href for href, preload in taps if not preload]

    discarder = client.get(game_url(game) + "record?winner=1&win_type=qidui").content.decode()
    assert all(preload for href, preload in links(discarder) if "discarder=" in href)


def test_step_links_carry_the_game_version(client, game):
    html = client.get(game_url(game)).content.decode()
    assert f"record?v={game.version}&amp;winner=0&amp;outcome=win" in html
    win_type = client.get(game_url(game) + f"record?v={game.version}&winner=0&outcome=win").content.decode()
    assert f"record?v={game.version}&amp;winner=0&amp;outcome=win&amp;win_type=zimo" in win_type


def test_htmx_steps_at_the_current_version_are_kept_by_the_phone_for_seconds(client, game):
    url = game_url(game) + f"record?winner=0&v={game.version}"
    response = client.get(url, **HTMX, HTTP_HX_PRELOADED="true")
    assert response["Cache-Control"] == "private, max-age=30"
    assert "HX-Request" in response["Vary"]
    assert "Cookie" in response["Vary"]
    preview = client.get(url + "&outcome=win&win_type=zimo", **HTMX)
    assert preview["Cache-Control"] == "private, max-age=30"


def test_other_entry_pages_are_still_not_stored(client, game):
    url = game_url(game) + "record?winner=0"
    assert client.get(url + f"&v={game.version}")["Cache-Control"] == "private, no-store"  # not htmx
    assert client.get(url, **HTMX)["Cache-Control"] == "private, no-store"  # no version
    assert client.get(url + f"&v={game.version + 1}", **HTMX)["Cache-Control"] == "private, no-store"
    add_hand(game, ZIMO)
    edit = client.get(game_url(game) + "hand/1/edit?winner=0&v=99", **HTMX)
    assert edit["Cache-Control"] == "private, no-store"
    assert client.get(game_url(game), **HTMX)["Cache-Control"] == "private, no-store"
