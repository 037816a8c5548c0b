"""What the browser tests do the same way on every ruleset's pages."""

import re
from fractions import Fraction

from playwright.sync_api import expect


def form_ready(page) -> None:
    """The entry form is on screen and htmx listens to it (a tap before that would go unseen)."""
    page.wait_for_selector("#hand-form[data-ready]")


def confirm(page) -> None:
    """确认 under the preview, then the game page's 「已记录」 toast: the sheet gone first, since a
    toast an earlier page left on screen is not this one's. A new hand goes through the phone's
    outbox (static/js/offline.js): its waiting row gives way to the server's once the poll brings
    it, with the totals."""
    page.locator("#preview-panel").get_by_role("button", name=re.compile("^确认")).click()
    expect(page.locator("#preview-panel")).to_have_count(0)
    expect(page.locator(".alert-success")).to_be_visible()
    expect(page.locator("#hands .pending-row")).to_have_count(0)


def number(text: str) -> Fraction:
    """A total as the page writes it (+12, −3.5, with the typographic minus), exactly."""
    return Fraction(text.strip().replace("\u2212", "-").replace("+", ""))


def screen_totals(page) -> list[Fraction]:
    """The tiles' totals in seat order (ints compare equal to them)."""
    return [number(t) for t in page.locator(".tile .total").all_inner_texts()]
