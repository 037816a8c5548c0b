"""个人统计 on a phone: at 390 px no name and no number is broken over two lines, in either
language; at 320 px nothing scrolls sideways."""

import pytest

from scoring.models import Game
from tests.factories import seeded_game
from tests.helpers import game_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NAMES = ["欧阳娜娜娜娜", "诸葛孔明先生", "Maximilian-Alexander", "小李"]  # the third: 20 characters

# Every piece of text under the elements ``selector`` picks, with the number of lines it takes on screen.
BROKEN = """(selector) => {
  const out = [];
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent.trim();
      if (!text) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) out.push(`${text} (${tops.size} lines)`);
    }
  }
  return out;
}"""


@pytest.fixture
def big_games(db):
    """Long games with four-digit totals under long names, opened on the phone's cookie."""
    games = [seeded_game(400, seed=seed) for seed in (1, 2)]
    Game.objects.filter(pk=games[0].pk).update(players=NAMES)
    return games


def open_games(page, base: str, games) -> None:
    for game in games:
        page.goto(base + game_url(game))


def test_the_long_games_pages_keep_names_and_numbers_whole(live_server, browser, phone, big_games, shot):
    """The two long games built once (their 800 hands are most of the cost) for the three checks below."""
    for language in ("zh-hans", "en"):
        no_name_or_number_breaks_over_lines_at_390_px(live_server, browser, big_games, language, shot)
    nothing_scrolls_sideways_at_320_px(live_server, browser, big_games, shot)
    the_summary_table_keeps_numbers_and_names_whole_at_390_px(live_server, phone, big_games, shot)


def no_name_or_number_breaks_over_lines_at_390_px(live_server, browser, big_games, language, shot):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    open_games(page, live_server.url, big_games)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page.goto(live_server.url + "/stats")
    assert page.locator(".stats [data-player]").count() == 7  # the two games' names
    assert page.evaluate(BROKEN, ".stats") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, f"stats-390-{language}")
    context.close()


def nothing_scrolls_sideways_at_320_px(live_server, browser, big_games, shot):
    context = browser.new_context(viewport={"width": 320, "height": 700}, locale="zh-CN")
    page = context.new_page()
    open_games(page, live_server.url, big_games)
    for path in ("/stats", "/history", "/"):
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 320, path
    page.goto(live_server.url + "/stats")
    assert page.evaluate("document.querySelector('.stats').getBoundingClientRect().right") <= 320
    shot(page, "stats-320")
    context.close()


# The 战绩 table of every hand: each hand's number, each header name and each net on one line (the
# titles may wrap between words).
SUMMARY_CELLS = ".hands-table th:not(:nth-child(2)), .hands-table td:not(.title)"


def the_summary_table_keeps_numbers_and_names_whole_at_390_px(live_server, phone, big_games, shot):
    phone.goto(live_server.url + game_url(big_games[0]) + "summary")
    assert phone.locator(".hands-table tbody tr").count() > 300
    assert phone.evaluate(BROKEN, SUMMARY_CELLS) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "summary-table-390")
