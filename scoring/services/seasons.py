"""赛季: a 牌友圈's seasons made, changed, closed and restored (scoring/groups/seasons.py reads them;
docs/manual.md "赛季"). Each write holds the group's lock, so two phones never pass the cap together."""

from datetime import date

from django.db import transaction
from django.utils import timezone

from scoring.circle import GroupConflict
from scoring.models import Group, Season
from scoring.services.locks import lock_group

TOO_MANY = (
    f"一个牌友圈最多 {Season.MAX_PER_GROUP} 个赛季：先删掉一个旧的。",
    f"A group holds at most {Season.MAX_PER_GROUP} seasons: delete an old one first.",
)
GONE = ("这个赛季已经不在了。", "That season is gone.")
ENDED = ("这个赛季已经结束了。", "That season is over already.")
ENDS_BEFORE = (
    "赛季今天才开始：不能在开始之前结束。",
    "The season starts after today: it cannot close before it starts.",
)


def create_season(group: Group, *, name: str, start: date, end: date, min_hands: int) -> Season:
    """A new season of ``group``, refused past ``Season.MAX_PER_GROUP``; the fields already checked (SeasonForm)."""
    with transaction.atomic():
        lock_group(group)
        if Season.objects.filter(group=group).count() >= Season.MAX_PER_GROUP:
            raise GroupConflict(*TOO_MANY)
        return Season.objects.create(group=group, name=name, start=start, end=end, min_hands=min_hands)


def _locked_season(group: Group, season_id: int) -> Season:
    lock_group(group)
    season = Season.objects.filter(group=group, pk=season_id).first()
    if season is None:
        raise GroupConflict(*GONE)
    return season


def edit_season(group: Group, season_id: int, *, name: str, start: date, end: date, min_hands: int) -> None:
    """改赛季: its name, dates and the hands to be ranked, as typed."""
    with transaction.atomic():
        _locked_season(group, season_id)
        Season.objects.filter(pk=season_id).update(name=name, start=start, end=end, min_hands=min_hands)


def close_season(group: Group, season_id: int) -> Season:
    """结束赛季: it ends today (local date); refused for a season that has not begun or is over."""
    with transaction.atomic():
        season = _locked_season(group, season_id)
        today = timezone.localdate()
        if season.start > today:
            raise GroupConflict(*ENDS_BEFORE)
        if season.end < today:
            raise GroupConflict(*ENDED)
        Season.objects.filter(pk=season_id).update(end=today)
        season.end = today
        return season


def delete_season(group: Group, season_id: int) -> None:
    """删除赛季: only the season goes; its games stay in the group."""
    with transaction.atomic():
        _locked_season(group, season_id)
        Season.objects.filter(pk=season_id).delete()


def restore_seasons(group: Group, seasons: list[dict]) -> int:
    """A backup's seasons (scoring/records/backup_reader.py ``read_seasons``, already checked) made again in
    ``group``, those it already holds by name and dates skipped, up to the cap; returns how many were made."""
    with transaction.atomic():
        lock_group(group)
        held = {(s.name, s.start, s.end) for s in Season.objects.filter(group=group)}
        room = Season.MAX_PER_GROUP - len(held)
        new = [s for s in seasons if (s["name"], s["start"], s["end"]) not in held]
        if len(new) > room:
            raise GroupConflict(*TOO_MANY)
        Season.objects.bulk_create(Season(group=group, **s) for s in new)
        return len(new)
