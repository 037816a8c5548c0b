"""A settled (or not yet settled) evening as a few lines for WeChat: the settle page's and the summary's share text."""

from django.utils import timezone

from scoring.circle import netted_fewest, together_at
from scoring.engine import SEATS_EN, SEATS_ZH
from scoring.engine.points import fmt, from_json
from scoring.engine.seating import key
from scoring.engine.transfers import NOT_FEWEST, proven_fewest
from scoring.lang import chinese
from scoring.replay import ReplayView, who_played
from scoring.yuan import money, rounding_words, won_or_lost, yuan_text


def share_text(ledger: ReplayView, settlement=None) -> str:
    """A few lines for WeChat in the page's language: totals, hand count and, once settled, 元, rate, fee and transfers."""
    game, zh = ledger.game, chinese()
    seats = SEATS_ZH if zh else SEATS_EN
    count = ledger.active_count()
    when = timezone.localtime(game.created_at)
    head = f"{game.plugin.zh} {when:%m-%d} · 共{count}局" if zh else f"{game.plugin.en} {when:%m-%d} · {count} hands"
    lines = [head]
    people = who_played(game)
    if settlement is not None:  # as settled (the game's people then are its people now: it is finished)
        people = list(zip(settlement.people(), [from_json(p) for p in settlement.points], strict=True))
    names, totals = [name for name, _t in people], [total for _name, total in people]
    seat_of = {key(name): s for s, name in enumerate(ledger.state.seating)}
    balances = settlement.balances_fen if settlement is not None else None
    order = sorted(range(len(names)), key=lambda i: -totals[i])
    for i in order:
        seat = seat_of.get(key(names[i]))
        if seat is None:  # sitting out
            where = " "
        else:
            where = f"（{seats[seat]}）" if zh else f" ({seats[seat]}) "
        line = f"{names[i]}{where}{fmt(totals[i], signed=True)}"
        if balances is not None:
            line += f" · {won_or_lost(balances[i], zh)}"
        lines.append(line)
    if settlement is None:
        return "\n".join(lines)
    if (moved := settlement.rounded_away()) is not None:
        lines.append(rounding_words(names, moved, zh))
    rate, fee = yuan_text(settlement.rate_fen), yuan_text(settlement.fee_fen)
    lines.append(f"每点 {rate} 元 · 台费 {fee} 元" if zh else f"¥{rate} a point · table fee ¥{fee}")
    if settlement.fee_fen:
        payer, paid = names[settlement.fee_payee], money(settlement.fee_fen, zh)
        lines.append(
            f"{payer} 垫付台费 {paid}（已算入）" if zh else f"{payer} advanced the table fee {paid} (counted in)"
        )
    together = together_lines(game, zh)
    if together:  # tonight's transfers were netted with earlier unpaid ones: only those are paid
        return "\n".join(lines + together)
    transfers = list(settlement.transfers.all())
    lines.append("转账：" if zh else "Transfers:")
    lines += [f"{names[t.payer]} → {names[t.payee]} {money(t.amount_fen, zh)}" for t in transfers]
    if not transfers:
        lines.append("没有人需要转账。" if zh else "Nobody needs to pay.")
    if not proven_fewest(settlement.balances_fen):
        lines.append(NOT_FEWEST[0] if zh else NOT_FEWEST[1])
    return "\n".join(lines)


def together_lines(game, zh: bool) -> list[str]:
    """The 一起结清 made at ``game`` (``together_at``) as share-text lines; none if settled alone."""
    together = together_at(game)
    if together is None:
        return []
    dates, transfers = together
    dates = ("、" if zh else ", ").join(dates)
    lines = [
        f"转账（连同 {dates} 没付的一起结清）："
        if zh
        else f"Transfers (settled together with what was unpaid from {dates}):"
    ]
    lines += [f"{payer} → {payee} {money(fen, zh)}" for payer, payee, fen in transfers]
    if not transfers:
        lines.append("正好抵消：谁也不用转账。" if zh else "It all cancels out: nobody needs to pay.")
    if not netted_fewest(transfers):
        lines.append(NOT_FEWEST[0] if zh else NOT_FEWEST[1])
    return lines
