"""At 390×844: 「备份 JSON」 downloaded on one phone, 「恢复备份」 on another, gives a game whose
game page and settle page read the same (a settled 义乌 evening with a void, an edit, a 更正庄家 and
an 已付 mark); a backup from an earlier version says on the page what it could not keep."""

from pathlib import Path

import pytest
from django.test import Client
from playwright.sync_api import expect

from scoring.models import Game
from tests.records.test_it_full_backup import OLD_BACKUP, play_evening

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def main_text(page) -> str:
    """What the page says, without the toast (the import's 「已导入牌局」)."""
    return page.evaluate("(() => { const m = document.querySelector('main').cloneNode(true);"
                         " m.querySelector('#flash')?.remove(); return m.innerText; })()")  # fmt: skip


def test_a_downloaded_backup_restores_a_game_that_reads_the_same(live_server, browser, tmp_path, make_game, shot):
    original = play_evening(Client(), make_game(), settle=True)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN", accept_downloads=True)
    page = phone.new_page()
    page.goto(f"{live_server.url}/g/{original.view_token}/")
    with page.expect_download() as download:
        page.get_by_role("link", name="备份 JSON").click()
    backup = tmp_path / download.value.suggested_filename
    download.value.save_as(backup)
    seen = {}
    for path in ("", "settle"):
        page.goto(f"{live_server.url}/g/{original.view_token}/{path}")
        seen[path] = main_text(page)

    other = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN").new_page()
    other.goto(f"{live_server.url}/import")
    other.set_input_files("input[type=file]", backup)
    other.get_by_role("button", name="导入").click()
    expect(other.locator("#flash")).to_contain_text("已导入牌局")
    copy = Game.objects.exclude(pk=original.pk).get()
    for path in ("", "settle"):
        other.goto(f"{live_server.url}/g/{copy.view_token}/{path}")
        assert main_text(other) == seen[path]
        shot(other, f"restored-{path or 'game'}")
    expect(other.locator(".transfers")).to_contain_text("已付")
    phone.close()
    other.context.close()


def test_an_earlier_versions_backup_says_on_the_page_that_totals_may_differ(live_server, phone, db, shot):
    phone.goto(f"{live_server.url}/import")
    phone.set_input_files("input[type=file]", Path(OLD_BACKUP))
    phone.get_by_role("button", name="导入").click()
    warning = phone.locator("#flash .alert-warning")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("旧版本")
    expect(warning).to_contain_text("老王 +42")
    shot(phone, "restored-old-backup")
