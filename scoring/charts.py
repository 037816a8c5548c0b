"""Running totals as a server-rendered SVG line chart: no JavaScript, readable on a phone."""

from django.utils.html import escape

from scoring.cache import all_nets
from scoring.engine.points import fmt
from scoring.lang import chinese, pick

COLOURS = ("#c62828", "#1565c0", "#2e7d32", "#ef6c00")  # one per seat, fixed: the lines
# The legend's totals take the money colours of app.css: 红涨绿跌 in Chinese, the other way in English.
RED, GREEN, EVEN = "#c62828", "#2e7d32", "#222"


def money_colour(value) -> str:
    gain, loss = (RED, GREEN) if chinese() else (GREEN, RED)
    return gain if value > 0 else loss if value < 0 else EVEN


WIDTH, HEIGHT = 360, 200
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 34, 8, 8, 36


def running_totals(nets: list[list[int]]) -> list[list[int]]:
    """Each seat's total after each hand, starting from 0 before the first."""
    seats = len(nets[0]) if nets else 4
    series = [[0] for _ in range(seats)]
    for net in nets:
        for seat in range(seats):
            series[seat].append(series[seat][-1] + net[seat])
    return series


def _scale(lo, hi, top: float, bottom: float):
    """Points to a y coordinate. Totals may be exact halves (诸暨's ``Fraction``): coordinates are
    drawn as plain decimals, since ``round()`` of a Fraction stays a Fraction (``971/10``), which
    SVG cannot read."""
    span = (hi - lo) or 1
    return lambda v: round(float(bottom - (v - lo) * (bottom - top) / span), 1)


def running_totals_svg(names: list[str], nets: list[list[int]], title: str, place: tuple | None = None) -> str:
    """An accessible SVG: one line per player over the hands, a zero line, a legend below.
    ``place`` (x, y, width, height) draws it inside a larger picture (scoring/picture.py)."""
    series = running_totals(nets) if nets else [[0] for _ in names]
    hands = len(nets)
    values = [v for line in series for v in line]
    lo, hi = min(values), max(values)  # every line starts at 0
    lo_text, hi_text = fmt(lo), fmt(hi)
    y = _scale(lo, hi, PAD_TOP, HEIGHT - PAD_BOTTOM)
    step = (WIDTH - PAD_LEFT - PAD_RIGHT) / max(hands, 1)
    where = 'x="{}" y="{}" width="{}" height="{}"'.format(*place) if place else 'class="chart"'
    parts = [
        f'<svg {where} viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<line x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" y1="{y(0)}" y2="{y(0)}" stroke="#999" stroke-dasharray="3 3"/>',
        f'<text x="{PAD_LEFT - 4}" y="{y(hi) + 4}" text-anchor="end" font-size="10" fill="#555">{hi_text}</text>',
        f'<text x="{PAD_LEFT - 4}" y="{y(lo)}" text-anchor="end" font-size="10" fill="#555">{lo_text}</text>',
        f'<text x="{PAD_LEFT - 4}" y="{y(0) + 3}" text-anchor="end" font-size="10" fill="#555">0</text>',
    ]
    for seat, line in enumerate(series):
        points = " ".join(f"{round(PAD_LEFT + i * step, 1)},{y(v)}" for i, v in enumerate(line))
        parts.append(f'<polyline fill="none" stroke="{COLOURS[seat]}" stroke-width="2" points="{points}"/>')
    for seat, name in enumerate(names):
        x = PAD_LEFT + seat * (WIDTH - PAD_LEFT) / len(names)
        total = series[seat][-1]
        label = f'{escape(legend_name(name, len(names)))} <tspan class="total" fill="{money_colour(total)}" font-weight="700">{fmt(total, signed=True)}</tspan>'
        parts.append(f'<rect x="{x}" y="{HEIGHT - 16}" width="10" height="10" fill="{COLOURS[seat]}"/>')
        parts.append(f'<text x="{x + 13}" y="{HEIGHT - 7}" font-size="11" fill="#222">{label}</text>')
    parts.append("</svg>")
    return "".join(parts)


def legend_name(name: str, players: int) -> str:
    """A name short enough for its slot of the legend (about 8 narrow characters between four
    players, with the total beside it): longer names end with …"""
    return clip(name, 16 // players * 2 if players > 2 else 16)


def clip(name: str, room: int) -> str:
    """``name`` cut to ``room`` narrow characters (a CJK character counts two), ending with …"""
    width = sum(2 if ord(c) > 0x2E80 else 1 for c in name)  # CJK characters are twice as wide
    if width <= room:
        return name
    out, used = "", 0
    for char in name:
        used += 2 if ord(char) > 0x2E80 else 1
        if used > room - 1:
            break
        out += char
    return out + "…"


def ledger_chart(ledger) -> str:
    """The running totals of a game whose every row is loaded (the summary page)."""
    nets = [row.result.net for row in ledger.rows if row.result is not None]
    return running_totals_svg(ledger.game.players, nets, pick("每人总分走势", "Running totals"))


def game_chart(game) -> str:
    """The same chart from the stored nets alone, one query (the 走势图 fold, the settle page)."""
    return running_totals_svg(game.players, all_nets(game), pick("每人总分走势", "Running totals"))
