"""A game (牌局) and its hands. The truth is the replay of the hands (scoring/replay.py); the
rows also keep that replay (``Hand.result``, ``Game.state``: scoring/replay.py), which pages read."""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from scoring import live
from scoring.engine import DEFAULT_RULESET, Ruleset, get_ruleset
from scoring.engine.contract import MAX_HANDS
from scoring.engine.money import rounded_away
from scoring.engine.points import from_json

DEFAULT_NAMES = ("东家", "南家", "西家", "北家")
MAX_ROUNDS = 99  # the longest agreed length (打几圈) a game holds: 接着打 and a backup stop there
RECENT_CHANGES = 20  # Game.changes: enough for any preview a phone still shows
CHECKED = "check"  # a recent change that moved no amount (核对): ``Game.amounts_same_since``


def new_token() -> str:
    """An unguessable link token: 18 random bytes (144 bits), URL-safe."""
    return secrets.token_urlsafe(18)


# What a game's rows may hold, so that every game exports and imports (docs/contract.md "A backup").
MAX_RECORDS = 2 * MAX_HANDS  # the standing hands and as many voided ones
MAX_SEQ = MAX_REVISION = 10**6


class GameQuerySet(models.QuerySet):
    def bump_versions(self, **fields) -> None:
        """One UPDATE bumping every game here; the caller holds their row locks and announces them (scoring/live.py)."""
        self.update(version=F("version") + 1, **fields)


class Game(models.Model):
    PLAYING, FINISHED = "playing", "finished"
    STATUS_CHOICES = [(PLAYING, "进行中"), (FINISHED, "已结束")]

    ruleset = models.CharField(max_length=10, default=DEFAULT_RULESET)  # frozen with the game, like its rules
    players = models.JSONField(default=list)  # the names in seat order (东南西北; as many as its ruleset seats)
    first_dealer = models.PositiveSmallIntegerField(default=0)
    rules = models.JSONField(default=dict)  # every rule's value, frozen when the game is created
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=PLAYING)
    edit_token = models.CharField(max_length=32, unique=True, default=new_token)
    view_token = models.CharField(max_length=32, unique=True, default=new_token)
    version = models.PositiveIntegerField(default=0)  # bumped on every change to the hands
    # The replay, stored (scoring/replay.py): the next hand's table state and the totals.
    state = models.JSONField(null=True, blank=True)
    # Bets placed for the next hand (义乌 {"maizi": [seats], "xiazi": {"seat": amount}}), shown on
    # every phone and filled into the next record form; recording a hand clears them.
    pending = models.JSONField(default=dict, blank=True)
    # The latest changes, [version, zh, en] each, newest last: what a stale preview names.
    changes = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    archived_at = models.DateTimeField(null=True, blank=True)  # 归档: off the home and history lists
    # 牌友圈 (scoring/groups/evenings.py): the group whose evenings this game is one of, if any.
    group = models.ForeignKey("Group", null=True, blank=True, on_delete=models.SET_NULL, related_name="games")
    # 打几圈: the evening's length in rounds (圈), a table's setting, not a ruleset's rule; None: open.
    round_length = models.PositiveSmallIntegerField(null=True, blank=True)
    # 全部核对后才能结算: a table's setting; off, the settle screen only names the hands not checked.
    checks_required = models.BooleanField(default=False)
    # 今晚几桌: the night of several tables this game is one table of (scoring/night.py), if any.
    night = models.ForeignKey("TableNight", null=True, blank=True, on_delete=models.SET_NULL, related_name="tables")

    objects = GameQuerySet.as_manager()

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(first_dealer__lte=3), name="game_first_dealer_seat")]

    def __str__(self) -> str:
        return " · ".join(self.players)

    @property
    def seating(self) -> list[str]:
        """The names in seat order now (``players`` is the first seating)."""
        table = (self.state or {}).get("table") or {}
        return list(table.get("seating") or self.players)

    @property
    def plugin(self) -> Ruleset:
        """The game's ruleset: its engine, entry, words and rules document (scoring/engine/ruleset.py)."""
        return get_ruleset(self.ruleset)

    def house_rules(self):
        """The game's house rules as its ruleset's ``Rules`` (``rules`` holds them as JSON)."""
        return self.plugin.rules_from_dict(self.rules)

    def bump_version(self, change: tuple[str, str] | None = None, *, amounts: bool = True) -> None:
        """Mark a change to the hands for polling phones (one UPDATE); the caller holds the game's row lock.

        ``change`` (zh, en) is what a stale preview names; ``amounts`` False (a 核对) keeps earlier previews valid."""
        fields = {"updated_at": timezone.now()}
        if change is not None:
            latest = [self.version + 1, *change, *([] if amounts else [CHECKED])]
            self.changes = [*(self.changes or [])[-(RECENT_CHANGES - 1) :], latest]
            fields["changes"] = self.changes
        Game.objects.filter(pk=self.pk).bump_versions(**fields)
        self.refresh_from_db(fields=["version", "updated_at"])
        live.announce(self)

    def changes_since(self, version: int) -> list[tuple[str, str]]:
        """What changed after ``version``, oldest first (empty when no longer among the recent)."""
        return [(zh, en) for v, zh, en, *_kind in self.changes or [] if v > version]

    def amounts_same_since(self, version: int) -> bool:
        """True when every change after ``version`` moved no amount, so a preview made then still stores what it shows."""
        if not 0 <= self.version - version <= RECENT_CHANGES:
            return False
        checks = {v for v, *_words, kind in (c for c in self.changes or [] if len(c) == 4) if kind == CHECKED}
        return all(v in checks for v in range(version + 1, self.version + 1))

    def number_of(self, seq: int) -> int:
        """The 第N局 shown for hand ``seq``: the standing hands before it, plus one (one query)."""
        before = self.hands.filter(seq__lt=seq, voided_at__isnull=True).exclude(entry__outcome="seating")
        return before.count() + 1


class Hand(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    # The hand's id in its game (addresses), never reused; the 第N局 shown counts standing hands only.
    seq = models.PositiveIntegerField()
    entry = models.JSONField()  # exactly the scoring contract's HAND object
    result = models.JSONField(null=True, blank=True)  # this hand's replayed result, stored (scoring/replay.py)
    dealer_fix = models.PositiveSmallIntegerField(null=True, blank=True)  # correction before this hand
    streak_fix = models.PositiveSmallIntegerField(null=True, blank=True)
    entered_by = models.CharField(max_length=40, blank=True)
    # One-time per game (a resubmit is a no-op); NULL, not "", when there is none: NULLs never clash.
    form_token = models.CharField(max_length=40, null=True, blank=True)  # noqa: DJ001
    created_at = models.DateTimeField(default=timezone.now)
    edited_at = models.DateTimeField(null=True, blank=True)
    edited_by = models.CharField(max_length=40, blank=True)
    revision = models.PositiveIntegerField(default=0)  # bumped on every edit or void
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.CharField(max_length=40, blank=True)
    void_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="hand_unique_seq_per_game"),
            models.UniqueConstraint(fields=["game", "form_token"], name="hand_unique_form_token_per_game"),
        ]

    def __str__(self) -> str:
        return f"第{self.seq}局"

    @property
    def voided(self) -> bool:
        return self.voided_at is not None

    def fix(self) -> tuple[int, int] | None:
        """The (dealer, streak) correction before this hand, if any."""
        if self.dealer_fix is None:
            return None
        return self.dealer_fix, self.streak_fix or 0


class HandCheck(models.Model):
    """核对: one player said a hand's amounts are right (对) or wrong (有误, with a note); a change to them takes it back."""

    OK, WRONG = "ok", "wrong"
    VERDICTS = [(OK, "对"), (WRONG, "有误")]
    NOTE_LIMIT = 200

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="checks")
    person = models.CharField(max_length=40)  # the name as the evening spells it (``key`` compares)
    verdict = models.CharField(max_length=5, choices=VERDICTS)
    note = models.CharField(max_length=NOTE_LIMIT, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "pk"]
        constraints = [models.UniqueConstraint(fields=["hand", "person"], name="hand_check_once_per_person")]

    def __str__(self) -> str:
        return f"{self.hand} · {self.person} · {self.verdict}"


class WriteReceipt(models.Model):
    """A queued write's answer (docs/offline.md "On the server"): a resend of its form token is answered
    from here and never written again. Kept a week (``services.keep_receipt`` drops older ones)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="receipts")
    form_token = models.CharField(max_length=40)
    answer = models.JSONField()  # the JSON first answered: ok (200) or refused (409)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "form_token"], name="write_receipt_once_per_token")]
        indexes = [models.Index(fields=["game", "created_at"], name="write_receipt_game_age")]

    def __str__(self) -> str:
        return f"{self.game_id} · {self.form_token}"


class SavedGame(models.Model):
    """A signed-in person's game, saved across devices, with the strongest link they opened."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="saved_games")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="saved_by")
    token = models.CharField(max_length=32)
    saved_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="saved_game_once_per_user")]

    def __str__(self) -> str:
        return f"{self.user} · {self.game}"


class AccessMiss(models.Model):
    """Counts per kind, client and 10-minute window, for the rate limits (scoring/access.py)."""

    kind = models.CharField(max_length=10, default="miss")
    client = models.CharField(max_length=64)
    window = models.BigIntegerField()
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "client", "window"], name="access_count_once_per_window")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.client} @ {self.window}: {self.count}"


class Settlement(models.Model):
    """结算: how a finished game's points became money; ``names`` is the order every per-person field indexes."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="settlement")
    # Money in 分, 64-bit: PostgreSQL's integer stops at 21,474,836.47 元.
    rate_fen = models.PositiveBigIntegerField()  # 分 per point
    fee_fen = models.PositiveBigIntegerField(default=0)  # 台费
    fee_mode = models.CharField(max_length=10, default="equal")
    fee_payee = models.PositiveSmallIntegerField(default=0)  # the person who pays the venue
    names = models.JSONField(default=list)  # the people settled ([] before people: the game's players)
    points = models.JSONField()  # the totals settled, per person
    balances_fen = models.JSONField()  # per person, after the fee (and 抹零)
    round_yuan = models.BooleanField(default=False)  # 抹零: balances rounded to whole 元 (money.round_to_yuan)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"结算 {self.game}"

    def people(self) -> list[str]:
        return list(self.names or self.game.players)

    def rounded_away(self) -> list[int] | None:
        """抹零: what rounding to whole 元 moved each person's balance by, in 分; None when exact."""
        if not self.round_yuan:
            return None
        terms = {"rate_fen": self.rate_fen, "fee_fen": self.fee_fen, "fee_mode": self.fee_mode}
        return rounded_away([from_json(p) for p in self.points], **terms, fee_payee=self.fee_payee)


class Transfer(models.Model):
    settlement = models.ForeignKey(Settlement, on_delete=models.CASCADE, related_name="transfers")
    payer = models.PositiveSmallIntegerField()
    payee = models.PositiveSmallIntegerField()
    amount_fen = models.PositiveBigIntegerField()
    paid_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.payer}→{self.payee} {self.amount_fen}"


class Group(models.Model):
    """牌友圈: a roster of people and their games, opened by link like a game (scoring/groups/evenings.py)."""

    name = models.CharField(max_length=40)
    roster = models.JSONField(default=list)  # the people's names, in the order they joined
    edit_token = models.CharField(max_length=32, unique=True, default=new_token)
    view_token = models.CharField(max_length=32, unique=True, default=new_token)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="mahjong_groups"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # 全部核对后才能结算: what a new game of the group starts with (``Game.checks_required``).
    checks_required = models.BooleanField(default=False)

    def __str__(self) -> str:
        return self.name


class SettleUp(models.Model):
    """一起结清: unpaid transfers of a group's evenings netted into the fewest; when all are 已付, so is every part."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="settle_ups")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="settle_ups")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"一起结清 {self.group}"


class SettleUpPart(models.Model):
    """A game's transfer settled within a ``SettleUp`` (one at most)."""

    settle_up = models.ForeignKey(SettleUp, on_delete=models.CASCADE, related_name="parts")
    transfer = models.OneToOneField(Transfer, on_delete=models.CASCADE, related_name="settle_up_part")

    def __str__(self) -> str:
        return f"{self.settle_up} ∋ {self.transfer}"


class SettleUpTransfer(models.Model):
    """One of a ``SettleUp``'s netted transfers, between two people (by name)."""

    settle_up = models.ForeignKey(SettleUp, on_delete=models.CASCADE, related_name="transfers")
    payer = models.CharField(max_length=40)
    payee = models.CharField(max_length=40)
    amount_fen = models.PositiveBigIntegerField()
    paid_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.payer}→{self.payee} {self.amount_fen}"


class PayCode(models.Model):
    """收款码: a person's WeChat or Alipay payment address (scoring/paycodes.py), never the image."""

    WECHAT, ALIPAY = "wechat", "alipay"
    KIND_CHOICES = [(WECHAT, "微信"), (ALIPAY, "支付宝")]

    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="paycodes")
    group = models.ForeignKey(Group, null=True, blank=True, on_delete=models.CASCADE, related_name="paycodes")
    name = models.CharField(max_length=40)  # the person, as named in the game or the group's roster
    person = models.CharField(max_length=40)  # ``key(name)``: one code of each kind per person
    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    address = models.CharField(max_length=200)  # what the code says, as decoded
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(game__isnull=False, group__isnull=True) | Q(game__isnull=True, group__isnull=False),
                name="paycode_game_or_group",
            ),
            models.UniqueConstraint(
                fields=["game", "person", "kind"], condition=Q(game__isnull=False), name="paycode_once_per_game"
            ),
            models.UniqueConstraint(
                fields=["group", "person", "kind"], condition=Q(group__isnull=False), name="paycode_once_per_group"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.kind}"


class Season(models.Model):
    """赛季: a 牌友圈's named period, its first and last local dates inclusive, and the hands a person plays
    in it to be ranked (scoring/groups/seasons.py; docs/manual.md "赛季")."""

    NAME_LIMIT = 20
    MIN_HANDS = 16  # one evening's 四圈 of four: whoever sat in fewer is listed, unranked
    MAX_MIN_HANDS = 10_000
    MAX_PER_GROUP = 50

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=NAME_LIMIT)
    start = models.DateField()
    end = models.DateField()
    min_hands = models.PositiveIntegerField(default=MIN_HANDS)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-start", "-pk"]
        constraints = [models.CheckConstraint(condition=Q(end__gte=models.F("start")), name="season_ends_after_start")]

    def __str__(self) -> str:
        return self.name


class TableNight(models.Model):
    """今晚几桌: a night of several tables of a 牌友圈 (docs/manual.md 「今晚几桌」); each table is a ``Game``
    with ``night`` set, its own ruleset and rules. The board and the settle-up read scoring/night.py."""

    RANDOM, WINDS, AS_SEATED = "random", "winds", "seated"
    DRAWS = [(RANDOM, "随机"), (WINDS, "扳位"), (AS_SEATED, "按座")]
    MAX_TABLES = 8  # 16 people at 2-seat tables; 4 tables of 4 at most otherwise

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="table_nights")
    people = models.JSONField(default=list)  # everyone tonight, in the order they were named
    draw = models.CharField(max_length=10, choices=DRAWS, default=RANDOM)
    # What the draw gave, [name, table, seat] each (table -1: sits out); 扳位 shows it as the tile drawn.
    drawn = models.JSONField(default=list)
    edit_token = models.CharField(max_length=32, unique=True, default=new_token)
    view_token = models.CharField(max_length=32, unique=True, default=new_token)
    created_at = models.DateTimeField(default=timezone.now)
    # One table fee for the whole night (0: none, or each table's own on its settlement), split as a
    # game's is (engine/money.py ``fee_shares``) among everyone who played tonight; advanced by ``fee_payee``.
    fee_fen = models.PositiveBigIntegerField(default=0)
    fee_mode = models.CharField(max_length=10, default="equal")
    fee_payee = models.CharField(max_length=40, blank=True)
    round_yuan = models.BooleanField(default=False)  # 抹零 of the night's balances once its fee is split

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"今晚 {self.group} {self.created_at:%m-%d}"
