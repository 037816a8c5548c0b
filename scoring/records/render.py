"""The summary's table in plain Python (2,000 rows). The game page's hand list is a template,
templates/table/_hand_row.html, each row cached (scoring/table/presenters.py ``hand_rows_html``)."""

from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

from scoring.engine.points import fmt


def _cells(nets, people: int) -> SafeString:
    """Each person's net (empty for one sitting out); a seating (nets None) spans them all."""
    if nets is None:
        return mark_safe(f'<td colspan="{people}"></td>')
    return mark_safe(
        "".join('<td class="text-end">' + ("" if n is None else fmt(n, signed=True)) + "</td>" for n in nets)
    )


def summary_rows_html(hands, people: int) -> SafeString:
    """The summary's table of every standing row, from (number, title, nets by person; None for a
    seating, which has no number either): 2,000 rows take ~20 ms this way and ~200 ms through the
    template engine."""
    return format_html_join(
        "",
        '<tr><td>{}</td><td class="title"><bdi>{}</bdi></td>{}</tr>',
        ((seq or "", title, _cells(nets, people)) for seq, title, nets in hands),
    )
