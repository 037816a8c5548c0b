"""The page checks of tests/browser/test_accessibility.py (axe, nothing covered) and of the tap
targets (44×44 px, tests/browser/tours.py), and the phone's width, run where an evening already
stands (tests/browser/test_evenings.py) instead of on a game built and opened again for them."""

from tests.browser.tours import TAP_TARGETS, audited

WIDTH = 390
# Every fold opened for the tap targets, and those it opened shut again: the evening goes on.
UNFOLD = "document.querySelectorAll('details:not([open])').forEach(d => { d.dataset.unfolded = 1; d.open = true; })"
REFOLD = (
    "document.querySelectorAll('details[data-unfolded]').forEach(d => { d.open = false; delete d.dataset.unfolded; })"
)
SETTLED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


class Looks:
    """``look(name)`` checks the page as it stands; what it finds is kept in ``found`` by name, for
    the test to assert at its end (``{}``): axe's critical and serious findings and covered links
    (in Chinese; the English audit stays in test_accessibility.py), tap targets if ``taps``, and
    that the page fits the phone's width."""

    def __init__(self, page, shot):
        self.page, self.shot, self.found, self.names = page, shot, {}, []

    def __call__(self, name: str, *, axe: bool = True, taps: bool = False) -> None:
        page, problems = self.page, []
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
        if page.evaluate("document.documentElement.scrollWidth") > WIDTH:
            problems.append(f"wider than {WIDTH} px")
        if taps:
            page.evaluate(UNFOLD)
            page.evaluate(SETTLED)
            page.wait_for_function("() => !document.querySelector('.htmx-request')")
            self.shot(page, f"taps-{name}")
            problems += [f"tap target: {problem}" for problem in page.evaluate(TAP_TARGETS, 44)]
            page.evaluate(REFOLD)
        if axe:
            problems += audited(page)
        self.names.append(name)
        if problems:
            self.found[name] = problems
