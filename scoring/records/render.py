"""The summary's table in plain Python, since it can hold thousands of rows."""

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
    """The summary's rows from (number, title, nets by person); a seating has no number and None nets."""
    return format_html_join(
        "",
        '<tr><td>{}</td><td class="title"><bdi>{}</bdi></td>{}</tr>',
        ((seq or "", title, _cells(nets, people)) for seq, title, nets in hands),
    )
