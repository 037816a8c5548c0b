"""Running totals as a server-rendered SVG line chart: no JavaScript, readable on a phone."""

from django.utils.html import escape

from scoring.engine.points import fmt
from scoring.lang import chinese, pick
from scoring.people import by_person
from scoring.replay import all_nets

# One per person of the evening, in order of first appearance.
COLOURS = ("#c62828", "#1565c0", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f", "#5d4037", "#ad1457")
# Colour is not the only tell (a deuteranope sees the red and green lines alike): each person's line
# also has its own dash pattern and its own mark at the line's end and in the legend.
DASHES = ("", "7 3", "2 2.5", "9 3 2 3", "4 2", "1 3", "12 4", "6 2 1 2")
# Two names a legend row leave room for 8 CJK characters beside a total of 7; each further row adds 16.
LEGEND_SLOTS, LEGEND_ROW = 2, 16
# The legend's totals take the money colours of app.css: 红涨绿跌 in Chinese, the other way in English.
RED, GREEN, EVEN = "#c62828", "#2e7d32", "#222"


def money_colour(value) -> str:
    gain, loss = (RED, GREEN) if chinese() else (GREEN, RED)
    return gain if value > 0 else loss if value < 0 else EVEN


WIDTH, HEIGHT = 360, 200
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 34, 8, 8, 36


def chart_height(people: int) -> int:
    """The chart's height in its own units: one legend row per two people."""
    return HEIGHT + LEGEND_ROW * (max(1, -(-people // LEGEND_SLOTS)) - 1)


def running_totals(nets: list[list[int]]) -> list[list[int]]:
    """Each person's total after each hand (0 while they sit out), starting from 0 before the first."""
    seats = len(nets[0]) if nets else 4
    series = [[0] for _ in range(seats)]
    for net in nets:
        for seat in range(seats):
            series[seat].append(series[seat][-1] + net[seat])
    return series


def _scale(lo, hi, top: float, bottom: float):
    """Points to a y coordinate as a plain decimal, since ``round()`` keeps 诸暨's Fraction halves, which SVG cannot read."""
    span = (hi - lo) or 1
    return lambda v: round(float(bottom - (v - lo) * (bottom - top) / span), 1)


def running_totals_svg(names: list[str], nets: list[list[int]], title: str, place: tuple | None = None) -> str:
    """An accessible SVG of each player's running total; ``place`` draws it inside a larger picture."""
    series = running_totals(nets) if nets else [[0] for _ in names]
    hands = len(nets)
    values = [v for line in series for v in line]
    lo, hi = min(values), max(values)  # every line starts at 0
    lo_text, hi_text = fmt(lo), fmt(hi)
    y = _scale(lo, hi, PAD_TOP, HEIGHT - PAD_BOTTOM)
    step = (WIDTH - PAD_LEFT - PAD_RIGHT) / max(hands, 1)
    where = 'x="{}" y="{}" width="{}" height="{}"'.format(*place) if place else 'class="chart"'
    label = escape(chart_words(title, names, series))
    height = chart_height(len(names))
    parts = [
        f'<svg {where} viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{label}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{label}</title>",
        f'<line x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" y1="{y(0)}" y2="{y(0)}" stroke="#999" stroke-dasharray="3 3"/>',
        f'<text x="{PAD_LEFT - 4}" y="{y(hi) + 4}" text-anchor="end" font-size="10" fill="#555">{hi_text}</text>',
        f'<text x="{PAD_LEFT - 4}" y="{y(lo)}" text-anchor="end" font-size="10" fill="#555">{lo_text}</text>',
        f'<text x="{PAD_LEFT - 4}" y="{y(0) + 3}" text-anchor="end" font-size="10" fill="#555">0</text>',
    ]
    for seat, line in enumerate(series):
        points = " ".join(f"{round(PAD_LEFT + i * step, 1)},{y(v)}" for i, v in enumerate(line))
        dash = DASHES[seat % len(DASHES)]
        dash = f' stroke-dasharray="{dash}"' if dash else ""
        colour = COLOURS[seat % len(COLOURS)]
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{points}"/>')
        parts.append(_mark(seat, round(PAD_LEFT + hands * step, 1), y(line[-1])))
    slots = min(len(names), LEGEND_SLOTS)
    for seat, name in enumerate(names):
        row, slot = divmod(seat, LEGEND_SLOTS)
        x = PAD_LEFT + slot * (WIDTH - PAD_LEFT) / slots
        bottom = HEIGHT + row * LEGEND_ROW
        total = series[seat][-1]
        shown = fmt(total, signed=True)
        text = f'{escape(legend_name(name, slots))} <tspan class="total" fill="{money_colour(total)}" font-weight="700">{shown}</tspan>'
        parts.append(_mark(seat, x + 5, bottom - 11))
        parts.append(f'<text x="{x + 13}" y="{bottom - 7}" font-size="11" fill="#222">{text}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _mark(seat: int, x: float, y: float) -> str:
    """The person's mark (● ■ ▲ ◆, hollow from the fifth person) centred at (x, y), in their colour."""
    colour, r = COLOURS[seat % len(COLOURS)], 4.5
    if seat % len(COLOURS) >= 4:
        solid = _mark(seat % 4, x, y)
        return solid.replace(f'fill="{COLOURS[seat % 4]}"', f'fill="#fff" stroke="{colour}" stroke-width="2"')
    if seat == 0:
        return f'<circle cx="{x}" cy="{y}" r="{r}" fill="{colour}"/>'
    if seat == 1:
        return f'<rect x="{x - r}" y="{y - r}" width="{2 * r}" height="{2 * r}" fill="{colour}"/>'
    if seat == 2:
        return f'<polygon points="{x},{y - r - 1} {x + r + 1},{y + r} {x - r - 1},{y + r}" fill="{colour}"/>'
    return f'<polygon points="{x},{y - r - 1} {x + r + 1},{y} {x},{y + r + 1} {x - r - 1},{y}" fill="{colour}"/>'


def chart_words(title: str, names: list[str], series: list[list]) -> str:
    """The chart in words, for a screen reader: each player's total now, highest and lowest."""
    hands = len(series[0]) - 1 if series else 0
    each = [
        pick(
            f"{name} {fmt(line[-1], signed=True)}（最高 {fmt(max(line), signed=True)}，最低 {fmt(min(line), signed=True)}）",
            f"{name} {fmt(line[-1], signed=True)} (high {fmt(max(line), signed=True)}, low {fmt(min(line), signed=True)})",
        )
        for name, line in zip(names, series, strict=False)
    ]
    return pick(f"{title}，{hands} 局后：", f"{title} after {hands} hands: ") + pick("；", "; ").join(each)


def legend_name(name: str, players: int) -> str:
    """A name cut with … to fit its legend slot (about 8 narrow characters)."""
    return clip(name, 16 // players * 2 if players > 2 else 16)


def width(text: str) -> int:
    """``text``'s width in narrow characters: a CJK character counts two."""
    return sum(2 if ord(c) > 0x2E80 else 1 for c in text)


def clip(name: str, room: int) -> str:
    """``name`` cut to ``room`` narrow characters (a CJK character counts two), ending with …"""
    if width(name) <= room:
        return name
    out, used = "", 0
    for char in name:
        used += 2 if ord(char) > 0x2E80 else 1
        if used > room - 1:
            break
        out += char
    return out + "…"


def ledger_chart(ledger) -> str:
    """The running totals of every person of a game whose every row is loaded (the summary page)."""
    seen = by_person(ledger.game, ledger.rows)
    return running_totals_svg(seen.people, seen.nets(), pick("每人总分走势", "Running totals"))


def game_chart(game) -> str:
    """The same chart from the stored nets alone, one query (the 走势图 fold, the settle page)."""
    people, nets = all_nets(game)
    return running_totals_svg(people, nets, pick("每人总分走势", "Running totals"))
