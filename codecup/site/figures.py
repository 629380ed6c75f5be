"""Small inline SVG figures for the results site (no scripts, no network)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from codecup.tournament.ratings import Rating
from codecup.tournament.standings import Standings

ROW = 22
LABEL = 130
WIDTH = 520


def bars(title: str, labels: Sequence[str], values: Sequence[float], unit: str = "") -> str:
    """A horizontal bar chart."""
    top = max([*values, 1e-9])
    height = ROW * len(labels) + 30
    parts = [
        f'<svg class="figure" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'role="img" aria-label="{escape(title)}">',
        f'<text x="4" y="14" font-weight="bold">{escape(title)}</text>',
    ]
    span = WIDTH - LABEL - 70
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        y = 24 + i * ROW
        w = max(1.0, span * value / top) if value > 0 else 0
        parts.append(f'<text x="4" y="{y + 14}">{escape(label)}</text>')
        parts.append(f'<rect x="{LABEL}" y="{y + 3}" width="{w:.1f}" height="{ROW - 8}" fill="#4a78b5"/>')
        parts.append(f'<text x="{LABEL + w + 6:.1f}" y="{y + 14}">{value:g}{unit}</text>')
    parts.append("</svg>")
    return "".join(parts)


def clock_bars(standings: Standings, limit: float) -> str:
    """Mean (dark) and maximum (light) clock used per player, against the clock limit."""
    rows = standings.rows
    height = ROW * len(rows) + 30
    span = WIDTH - LABEL - 110
    parts = [
        f'<svg class="figure" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        'role="img" aria-label="clock used">',
        f'<text x="4" y="14" font-weight="bold">Clock used (mean / max of {limit:g}s)</text>',
    ]
    for i, row in enumerate(rows):
        y = 24 + i * ROW
        mx = span * min(row.clock_max / limit, 1.0) if limit else 0
        mean = span * min(row.clock_mean / limit, 1.0) if limit else 0
        parts.append(f'<text x="4" y="{y + 14}">{escape(row.standing.player)}</text>')
        parts.append(f'<rect x="{LABEL}" y="{y + 3}" width="{span}" height="{ROW - 8}" fill="#eee"/>')
        parts.append(f'<rect x="{LABEL}" y="{y + 3}" width="{mx:.1f}" height="{ROW - 8}" fill="#b8cbe6"/>')
        parts.append(f'<rect x="{LABEL}" y="{y + 3}" width="{mean:.1f}" height="{ROW - 8}" fill="#4a78b5"/>')
        parts.append(
            f'<text x="{LABEL + span + 6}" y="{y + 14}">{row.clock_mean:.2f}/{row.clock_max:.2f}s</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def rating_plot(ratings: Sequence[Rating]) -> str:
    """Each rating as a dot with its 95% interval."""
    if not ratings:
        return ""
    lo = min(r.interval[0] for r in ratings)
    hi = max(r.interval[1] for r in ratings)
    lo, hi = min(lo, -50.0), max(hi, 50.0)
    span = WIDTH - LABEL - 20

    def x(v: float) -> float:
        return LABEL + span * (v - lo) / (hi - lo)

    height = ROW * len(ratings) + 44
    parts = [
        f'<svg class="figure" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        'role="img" aria-label="ratings">',
        '<text x="4" y="14" font-weight="bold">Ratings (Elo, 95% interval)</text>',
        f'<line x1="{x(0):.1f}" y1="22" x2="{x(0):.1f}" y2="{height - 18}" stroke="#999" '
        'stroke-dasharray="3,3"/>',
    ]
    for i, r in enumerate(ratings):
        y = 24 + i * ROW + ROW / 2
        a, b = r.interval
        parts.append(f'<text x="4" y="{y + 4}">{escape(r.player)}</text>')
        parts.append(
            f'<line x1="{x(a):.1f}" y1="{y}" x2="{x(b):.1f}" y2="{y}" stroke="#4a78b5" stroke-width="2"/>'
        )
        parts.append(f'<circle cx="{x(r.elo):.1f}" cy="{y}" r="4" fill="#1f3f6e"/>')
    parts.append(f'<text x="{LABEL}" y="{height - 4}">{lo:+.0f}</text>')
    parts.append(f'<text x="{WIDTH - 50}" y="{height - 4}">{hi:+.0f}</text>')
    parts.append("</svg>")
    return "".join(parts)
