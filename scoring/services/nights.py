"""今晚几桌 (scoring/night.py): a night's tables opened, drawn and seated, a person moved between tables,
every table settled and the night's transfers netted."""

import secrets

from django.conf import settings
from django.db import transaction

from scoring import night as nights
from scoring.circle import clean_roster, last_game
from scoring.engine.seating import OUTCOME, key
from scoring.engine.transfers import settle_balances
from scoring.models import Game, Group, SettleUp, TableNight, Transfer
from scoring.night import NightConflict
from scoring.replay import ensure
from scoring.services.games import create_game, finish_game
from scoring.services.groups import add_to_roster, record_settle_up
from scoring.services.hands import record_hand
from scoring.services.locks import bump_versions_of, lock_games, lock_group


def open_night(
    group: Group,
    *,
    people: list[str],
    tables: int | list[nights.TableTerms],
    how: str,
    ruleset=None,
    rules: dict | None = None,
    round_length=None,
    rng=None,
) -> TableNight:
    """开今晚: ``people`` (new names join the roster, within its limit) drawn onto ``tables``: each table's
    terms (its own ruleset, rules and 打几圈; its ruleset's seats sit there), or a number of tables all of
    ``ruleset`` (the group's last game's, by default) with ``rules``; who is left over sits out."""
    people = clean_roster(people)
    if isinstance(tables, int):
        tables = [_same_terms(group, ruleset, rules, round_length)] * tables
    limit = settings.MAX_PEOPLE_PER_GAME
    if not nights.MIN_PEOPLE <= len(people) <= limit:
        raise NightConflict(
            f"今晚几桌要 {nights.MIN_PEOPLE} 到 {limit} 个人。",
            f"A night of several tables takes {nights.MIN_PEOPLE} to {limit} people.",
        )
    seats = [terms.ruleset.seats for terms in tables]
    if len(set(seats)) == 1 and not 1 <= len(seats) <= nights.tables_for(len(people), seats[0]):
        most = nights.tables_for(len(people), seats[0])
        raise NightConflict(
            f"{len(people)} 个人最多开 {most} 桌（每桌 {seats[0]} 人）。",
            f"{len(people)} people fill at most {most} tables of {seats[0]}.",
        )
    if not 1 <= len(seats) <= TableNight.MAX_TABLES or sum(seats) > len(people):
        raise NightConflict(
            f"{len(people)} 个人坐不满这 {len(seats)} 桌（要 {sum(seats)} 人）：少开一桌，或换成二人的玩法。",
            f"{len(people)} people cannot fill these {len(seats)} tables ({sum(seats)} seats): open one"
            " table fewer, or a two-player one.",
        )
    with transaction.atomic():
        _join_roster(group, people)
        seating, drawn = nights.seat_people(people, seats, how, rng)
        night = TableNight.objects.create(group=group, people=people, draw=how, drawn=drawn)
        for names, terms in zip(seating, tables, strict=True):
            rules = terms.rules if terms.rules is not None else terms.ruleset.rules_from_dict({}).to_dict()
            create_game(
                ruleset=terms.ruleset,
                players=names,
                first_dealer=0,
                rules=dict(rules),
                round_length=terms.round_length,
                group=group,
                checks_required=group.checks_required,
                night=night,
            )
        return night


def _same_terms(group: Group, ruleset, rules: dict | None, round_length) -> nights.TableTerms:
    """Every table's terms alike: ``ruleset`` with ``rules``, or the group's last game's ruleset and rules."""
    if ruleset is not None:
        return nights.TableTerms(ruleset, rules, round_length)
    last = last_game(group)
    if last is None:
        raise NightConflict("请先选玩法。", "Choose a ruleset first.")
    return nights.TableTerms(last.plugin, dict(last.rules), last.round_length)


def change_tables(night: TableNight, mover: str, other: str, *, by: str = "") -> list[Game]:
    """换桌 between hands: ``mover`` and ``other`` change places, at two tables or one table and sitting out;
    a seating (by person) on each table it touches, both under their locks or neither."""
    people = {key(name): name for name in night.people}
    if key(mover) not in people or key(other) not in people or key(mover) == key(other):
        raise NightConflict("请选今晚的两个人。", "Choose two people of tonight.")
    with transaction.atomic():
        ids = list(night.tables.order_by("pk").values_list("pk", flat=True)[: TableNight.MAX_TABLES])
        lock_games(ids)
        tables = list(Game.objects.filter(pk__in=ids).order_by("pk"))
        for game in tables:
            ensure(game)  # the seatings read below are the replay's now
        at_a, at_b = nights.table_of(tables, mover), nights.table_of(tables, other)
        if at_a is None and at_b is None:
            raise NightConflict(
                "两个人都没在桌上：请选一位在打的人。", "Neither sits at a table: choose one who plays."
            )
        if at_a is not None and at_a == at_b:
            raise NightConflict(
                "两个人在同一桌：同桌换位请用那一桌的「换人/换位」。",
                "Both sit at the same table: use that table's seating to swap them.",
            )
        moved = []
        for game, leaving, coming in ((at_a, mover, other), (at_b, other, mover)):
            if game is None:
                continue
            names = [people[key(coming)] if key(n) == key(leaving) else n for n in game.seating]
            hand = record_hand(
                game=game,
                entry={"outcome": OUTCOME, "players": names},
                fix=None,
                next_seq=game.state["last_seq"] + 1,
                form_token=secrets.token_urlsafe(16),
                entered_by=by,
            )
            moved.append(hand.game)
        return moved


def settle_tables(night: TableNight, *, rate_fen: int, round_yuan: bool) -> list[Game]:
    """结算每一桌: every table still playing settled at ``rate_fen`` (and 抹零), no table fee; all or none."""
    settled = []
    with transaction.atomic():
        for game in night.tables.filter(status=Game.PLAYING).order_by("pk")[: TableNight.MAX_TABLES]:
            terms = {"fee_fen": 0, "fee_mode": "equal", "fee_payee": 0}
            finish_game(game=game, rate_fen=rate_fen, round_yuan=round_yuan, **terms)
            settled.append(game)
    return settled


def settle_all(night: TableNight, *, rate_fen: int, round_yuan: bool, **fee) -> SettleUp | None:
    """结算每一桌 (``settle_tables``) and 今晚一起结清 with ``fee`` (``settle_night``): both, or neither; the
    group's lock first, then the tables' (scoring/services/locks.py)."""
    with transaction.atomic():
        lock_group(night.group)
        settle_tables(night, rate_fen=rate_fen, round_yuan=round_yuan)
        return settle_night(night, round_yuan=round_yuan, **fee)


def settle_night(
    night: TableNight, *, fee_fen: int = 0, fee_mode: str = "equal", fee_payee: str = "", round_yuan: bool = False
) -> SettleUp | None:
    """今晚一起结清: the night's unpaid table transfers and its one fee (if any, split as a table's fee is)
    netted into the fewest; None when there is nothing to net (no fee, and one transfer or none)."""
    with transaction.atomic():
        lock_group(night.group)
        if night.tables.filter(status=Game.PLAYING).exists():
            raise NightConflict("还有桌没结算：先结算每一桌。", "A table is not settled yet: settle every table first.")
        if fee_fen and key(fee_payee) not in {key(name) for name in night.people}:
            raise NightConflict(
                "垫付台费的人不是今晚的人。", "Whoever advanced the fee is not one of tonight's people."
            )
        earlier = nights.settle_ups_of(night)
        if earlier.filter(transfers__paid_at__isnull=False).exists():
            raise NightConflict(
                "今晚的转账已经有人付了：先取消「已付」，再重新结清。",
                "Part of tonight's transfers is already paid: untick 已付 first, then settle again.",
            )
        terms = {"fee_fen": fee_fen, "fee_mode": fee_mode, "fee_payee": fee_payee if fee_fen else ""}
        TableNight.objects.filter(pk=night.pk).update(**terms, round_yuan=round_yuan)
        for name, value in {**terms, "round_yuan": round_yuan}.items():
            setattr(night, name, value)
        tables = nights.tables_of(night)
        lock_games([game.pk for game in tables])
        given_up = list(earlier.values_list("pk", flat=True))  # unpaid plans of tonight's, given up for this one
        Transfer.objects.filter(settle_up_part__settle_up__in=given_up).update(paid_at=None)  # one that cancelled out
        SettleUp.objects.filter(pk__in=given_up).delete()
        owed = nights.owed_tonight(night)
        if not fee_fen and len(owed) < 2:
            return None
        shown = nights.to_net(night, tables, owed)
        netted = [(shown.names[a], shown.names[b], fen) for a, b, fen in settle_balances(shown.balances).transfers]
        settle_up = record_settle_up(night.group, tables[0], [o.transfer for o in owed], netted)
        bump_versions_of([game.pk for game in tables])  # their settle pages and the board change
        return settle_up


def restore_night(group: Group, *, people: list[str], draw: str, drawn: list, fee: dict, tables) -> TableNight:
    """A night restored from its backup (scoring/nights/backup.py) in ``group``: ``tables()`` makes its
    games (each a restored backup); its people join the roster within its limit; all or nothing."""
    with transaction.atomic():
        _join_roster(group, people)
        night = TableNight.objects.create(group=group, people=people, draw=draw, drawn=drawn, **fee)
        games = tables()
        Game.objects.filter(pk__in=[game.pk for game in games]).update(night=night, group=group)
        return night


def _join_roster(group: Group, people: list[str]) -> None:
    """Tonight's people join the roster (``add_to_roster``, under the group's lock); refused past its limit,
    inside the caller's transaction, so nothing is written."""
    if add_to_roster(group, people):
        cap = settings.MAX_PEOPLE_PER_GROUP
        raise NightConflict(
            f"牌友圈名单最多 {cap} 人：新名字放不下了。可以在牌友圈页删掉不来的人。",
            f"The group's roster holds at most {cap} people: the new names do not fit. Remove people who"
            " no longer come on the group page.",
        )
