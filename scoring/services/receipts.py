"""A queued write's receipt (docs/offline.md "On the server"): the answer its form token got, so that a
resend is answered from it and never written again."""

from datetime import timedelta

from django.utils import timezone

from scoring.models import Game, WriteReceipt
from scoring.services.locks import lock_game

KEEP = timedelta(days=7)  # a phone that sent, lost the answer and stayed away a week writes again


def receipt_for(*, game: Game, form_token: str) -> dict | None:
    """In the queued write's transaction: the game's row locked first, so one game's queued writes go one
    at a time and a resend waits for its first send's commit; then the answer ``form_token`` got, if any."""
    lock_game(game, playing=False)
    return receipt_of(game=game, form_token=form_token)


def receipt_of(*, game: Game, form_token: str) -> dict | None:
    """The answer ``form_token`` got in ``game``, or None."""
    return WriteReceipt.objects.filter(game=game, form_token=form_token).values_list("answer", flat=True).first()


def keep_receipt(*, game: Game, form_token: str, answer: dict) -> None:
    """Keep ``answer`` for ``form_token``, in the write's own transaction (the unique constraint makes a
    racing second send fail and roll back whole); the game's receipts older than ``KEEP`` go."""
    WriteReceipt.objects.filter(game=game, created_at__lt=timezone.now() - KEEP).delete()
    WriteReceipt.objects.create(game=game, form_token=form_token, answer=answer)
