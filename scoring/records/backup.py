"""备份: a game as the scoring contract's game plus a ``backup`` object the contract ignores (docs/contract.md "A backup").

Restoring it gives a game that looks and behaves the same; a file without ``backup`` restores as an open game."""

import json
from datetime import datetime

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from scoring import services
from scoring.engine import ScoringError
from scoring.engine.contract import corrections
from scoring.engine.points import fmt, from_json, to_json
from scoring.handform import hand_title
from scoring.lang import pick
from scoring.models import Game, Hand, HandCheck, Settlement
from scoring.paycodes import look_alike
from scoring.people import people_in_order
from scoring.records.backup_reader import FORMAT, BackupError, read_backup
from scoring.replay import ReplayView, table

# --- writing ------------------------------------------------------------------------------


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else timezone.localtime(moment).isoformat()


def contract_game(ledger: ReplayView) -> dict:
    """The game as the contract's input (voids left out, each 更正庄家 a correction before its hand)."""
    game = ledger.game
    active = [row.hand for row in ledger.rows if row.result is not None]
    fixes = [(i, hand.fix()) for i, hand in enumerate(active) if hand.fix() is not None]
    return {
        "ruleset": game.ruleset,
        "rules": game.house_rules().to_dict(),
        "first_dealer": game.first_dealer,
        "players": list(game.players),
        "corrections": [{"hand": i, "dealer": dealer, "streak": streak} for i, (dealer, streak) in fixes],
        "hands": [hand.entry for hand in active],
    }


def _validate_record(check: HandCheck) -> dict:
    return {"person": check.person, "verdict": check.verdict, "note": check.note, "at": _when(check.at)}


def _hand_record(hand: Hand, checks: list[HandCheck]) -> dict:
    record = {
        "seq": hand.seq,
        "entered_by": hand.entered_by,
        "created_at": _when(hand.created_at),
        "revision": hand.revision,
        "edited_at": _when(hand.edited_at),
        "edited_by": hand.edited_by,
    }
    if hand.voided:  # not in the contract's hands: its entry and correction are kept here
        record.update(
            voided_at=_when(hand.voided_at),
            voided_by=hand.voided_by,
            void_reason=hand.void_reason,
            entry=hand.entry,
            dealer_fix=hand.dealer_fix,
            streak_fix=hand.streak_fix,
        )
    if checks:  # 核对 (format 4)
        record["checks"] = [_validate_record(c) for c in checks]
    return record


def _settlement_record(game: Game) -> dict | None:
    settlement = Settlement.objects.filter(game=game).first()
    if settlement is None:
        return None
    return {
        "rate_fen": settlement.rate_fen,
        "fee_fen": settlement.fee_fen,
        "fee_mode": settlement.fee_mode,
        "fee_payee": settlement.fee_payee,
        "names": settlement.names,
        **({"round_yuan": True} if settlement.round_yuan else {}),  # absent: exact, readable by earlier versions
        "created_at": _when(settlement.created_at),
        "transfers": [
            {"payer": t.payer, "payee": t.payee, "amount_fen": t.amount_fen, "paid_at": _when(t.paid_at)}
            for t in settlement.transfers.all()
        ],
    }


def backup_json(ledger: ReplayView) -> dict:
    """The whole game (``ledger`` holds every hand, voided ones included): no link tokens."""
    game = ledger.game
    checks: dict[int, list[HandCheck]] = {}
    for check in HandCheck.objects.filter(hand__game=game).order_by("at", "pk"):
        checks.setdefault(check.hand_id, []).append(check)
    return {
        **contract_game(ledger),
        "backup": {
            "format": FORMAT,
            "status": game.status,
            "created_at": _when(game.created_at),
            "totals": [to_json(t) for t in ledger.totals],
            "pending": game.pending or {},
            "hands": [_hand_record(row.hand, checks.get(row.hand.pk, [])) for row in ledger.rows],
            "settlement": _settlement_record(game),
            "round_length": game.round_length,
            "paycodes": [
                {"name": c.name, "kind": c.kind, "address": c.address, "created_at": _when(c.created_at)}
                for c in game.paycodes.all()
            ],
            "checks_required": game.checks_required,
        },
    }


def backup_text(ledger: ReplayView) -> str:
    """``backup_json`` compact and UTF-8 as is, so the largest game fits the import's limit."""
    return json.dumps(backup_json(ledger), cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":"))


# --- restoring -----------------------------------------------------------------------------


def _validate_voided(records: list[dict], ruleset, players: list[str]) -> None:
    """A voided hand is only shown, so it must be readable and titled, but need not score where it stands."""
    game = Game(ruleset=ruleset.code, players=players)
    for record in records:
        if "voided_at" not in record:
            continue
        try:
            ruleset.parse_hand(record["entry"])
            hand_title(game, record["entry"], None, players)
        except ScoringError as error:
            refusal = error.zh, error.en
        except (KeyError, IndexError, TypeError):  # read, but lacking what a title names (a win's winner)
            refusal = "这不是一局完整的记录", "it is not a whole hand"
        else:
            continue
        seq = record["seq"]
        raise BackupError(f"第{seq}局（已作废）：{refusal[0]}", f"Hand {seq} (voided): {refusal[1]}", "backup")


def _rows(records: list[dict], entries: list, fixes: dict) -> list[Hand]:
    """The hand rows; a standing record takes the next contract hand and its correction."""
    rows, standing = [], iter(enumerate(entries))
    for record in records:
        checks = record.get("checks", [])
        hand = Hand(**{k: v for k, v in record.items() if k != "checks"})
        hand.restored_checks = [HandCheck(**check) for check in checks]  # saved once the hand is
        if not hand.voided:
            index, hand.entry = next(standing)
            hand.dealer_fix, hand.streak_fix = fixes.get(index, (None, None))
        rows.append(hand)
    return rows


def seatings_in(data: dict) -> list[list[str]]:
    """The seatings among a contract game's hands (the standing ones), in order."""
    return [hand["players"] for hand in data["hands"] if isinstance(hand, dict) and hand.get("outcome") == "seating"]


def restore_game(*, data: dict, ruleset, players: list[str], rules) -> Game:
    """Create the game ``data`` describes; ``BackupError`` (nothing created) if ``backup`` cannot be restored."""
    saved = read_backup(data, ruleset, people=people_in_order(players, seatings_in(data)))
    if saved:
        _validate_voided(saved["hands"], ruleset, players)
    now = timezone.now()
    records = (
        saved["hands"]
        if saved
        else [
            {"seq": i, "entered_by": "", "created_at": now, "revision": 0, "edited_at": None, "edited_by": ""}
            for i in range(1, len(data["hands"]) + 1)
        ]
    )
    return services.restore_game(
        ruleset=ruleset,
        players=players,
        first_dealer=data.get("first_dealer", 0),
        rules=rules.to_dict(),
        hands=_rows(records, data["hands"], corrections(data, ruleset.seats)),
        settlement=saved["settlement"] if saved else None,
        status=saved["status"] if saved else Game.PLAYING,
        round_length=saved["round_length"] if saved else None,
        checks_required=saved["checks_required"] if saved else False,
        pending=saved["pending"] if saved else {},
        created_at=saved["created_at"] if saved else now,
        paycodes=saved["paycodes"] if saved else [],
    )


def notes(data: dict, game: Game) -> list[str]:
    """What the restored game could not take from the file, said on the page rather than silently other totals."""
    return [*_total_notes(data, game), *_look_alike_notes(data)]


def _look_alike_notes(data: dict) -> list[str]:
    """The 收款码 left out because their address only looks like one (scoring/paycodes.py ``look_alike``)."""
    codes = data.get("backup", {}).get("paycodes") or []
    names = [c["name"] for c in codes if look_alike(c["address"])]
    if not names:
        return []
    zh, en = "、".join(names), ", ".join(names)
    return [
        pick(
            f"备份里{zh}的收款码不是真的（网址里有冒充英文字母的字符，例如 ı、ſ、K），没有恢复。请本人在结算页重新上传。",
            f"The payment code of {en} in the backup is not real (its address has characters posing as English "
            "letters, such as ı, ſ or K) and was not restored. Its owner can upload it again on the settle page.",
        )
    ]


def _total_notes(data: dict, game: Game) -> list[str]:
    names, totals = game.players, table(game)[0].totals
    if "backup" not in data:
        if not data["hands"]:
            return []
        now = " · ".join(f"{n} {fmt(t, signed=True)}" for n, t in zip(names, totals, strict=True))
        return [
            pick(
                "这是旧版本的备份：旧版本不保存中途的更正庄家、作废的局、修改记录和结算，已恢复成进行中的牌局。"
                f"原牌局如果中途更正过庄家，总分会与原来不同。现在的总分：{now}，请与原来的对照。",
                "This backup comes from an earlier version, which kept no mid-game dealer corrections, voided "
                "hands, edits or settlement: it was restored as an open game. If the dealer was corrected "
                f"mid-game, the totals differ from the original. The totals now: {now}; compare them with yours.",
            )
        ]
    saved = data["backup"]["totals"]
    changed = [
        f"{n} {fmt(from_json(was), signed=True)} → {fmt(now, signed=True)}"
        for n, was, now in zip(names, saved, totals, strict=True)
        if from_json(was) != now
    ]
    if not changed:
        return []
    return [
        pick(
            f"备份里的总分与按牌局记录重算的不同：{' · '.join(changed)}。",
            f"The backup's totals differ from the replay of its hands: {' · '.join(changed)}.",
        )
    ]
