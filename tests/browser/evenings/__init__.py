"""Each ruleset's evening on a phone, as steps the one test of tests/browser/test_evenings.py runs."""

import re

from playwright.sync_api import expect


def void(page, seq: int) -> None:
    """作废 hand ``seq`` from its row, through the void screen, until the row shows it voided."""
    page.locator(f"#hand-{seq} summary").click()
    page.locator(f"#hand-{seq}").get_by_role("link", name="作废").click()
    expect(page.get_by_text(f"作废第{seq}局？")).to_be_visible()
    page.get_by_role("button", name="确认作废").click()
    expect(page.locator(".alert-success")).to_be_visible()
    expect(page.locator(f"#hand-{seq}")).to_have_class(re.compile("voided"))
