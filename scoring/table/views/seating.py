"""换人/换位 between hands: the page is scoring/table/seatingpage.py's, which 修改 of a stored seating answers with too."""

from django.http import HttpRequest, HttpResponse

from scoring.access import writable_game
from scoring.table.outbox import queued_write
from scoring.table.seatingpage import seating_page


@queued_write
def seating(request: HttpRequest, token: str) -> HttpResponse:
    """换人/换位: record one."""
    return seating_page(request, writable_game(request, token), token)
