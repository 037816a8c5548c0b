"""The row locks every write holds, the version check of a preview, and the refusals a write raises."""

from scoring import live
from scoring.engine.errors import BilingualError
from scoring.models import Game, Group, Hand


class Conflict(BilingualError):
    """Another phone got there first; the message says what happened, in Chinese and English."""

    def __init__(self, zh: str, en: str, hand: Hand | None = None):
        super().__init__(zh, en)
        self.hand = hand


class AlreadyRecorded(Conflict):
    """The form token was already spent on ``hand`` (a resubmitted form or a resent queued hand)."""


class StalePreview(Conflict):
    """Another phone changed the game since the preview; the message names what (``Game.changes``)."""

    def __init__(self, changes: list[tuple[str, str]] | None = None):
        changes = (changes or [])[-3:]
        what_zh = "；".join(zh for zh, _en in changes) or "牌局刚被别的手机修改"
        what_en = "; ".join(en for _zh, en in changes) or "The game was just changed on another phone"
        super().__init__(f"{what_zh}，金额变了，请看新的预览。", f"{what_en}: check the new preview.")


def require_version(game: Game, version: int | None) -> None:
    """``version``: the game's version at the preview; None is an internal caller with no preview."""
    if version is not None and version != game.version and not game.amounts_same_since(version):
        raise StalePreview(game.changes_since(version))


def lock_game(game: Game, playing: bool = True) -> Game:
    """The game's row, locked (PostgreSQL serialises one game's writers; SQLite's IMMEDIATE already does)."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if playing and game.status != Game.PLAYING:
        raise Conflict("牌局已结束；要修改请先重新打开。", "The game is finished: reopen it to change hands.")
    return game


def lock_games(game_ids) -> None:
    """Several games' row locks, always in key order, so two writers never deadlock."""
    list(Game.objects.select_for_update().filter(pk__in=game_ids).order_by("pk").values_list("pk"))


def lock_group(group: Group) -> Group:
    """The group's row, locked: a group's writers one at a time (taken before its games')."""
    return Group.objects.select_for_update().get(pk=group.pk)


def bump_versions_of(game_ids) -> None:
    """Bump the versions of games a group write changed and tell every server's polls once it commits."""
    Game.objects.filter(pk__in=game_ids).bump_versions()
    live.announce_versions(Game.objects.filter(pk__in=game_ids))
