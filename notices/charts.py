"""Bar charts as SVG, written by hand, for the Reports page and the annual
report's PDF alike.

Why by hand: a chart here is a few bars; a charting library would bring a
plotting stack (or JavaScript, which the workbench's Content Security
Policy forbids inline) for what thirty lines of SVG draw.  The SVG uses
presentation attributes (``fill``, ``font-size``), never a ``style``
attribute, so the CSP's ``style-src`` has nothing to refuse, and WeasyPrint
draws the same markup in a PDF.  The chart is an image with a title
(``role="img"``, ``aria-labelledby``); its figures are in the data table
printed beside it, which is what a screen reader reads.

Every label is escaped: the labels are the project's own words, but a chart
never trusts its input.  Pure: values in, text out.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

__all__ = ["PALETTE", "bar_chart"]

#: the series' colours: dark enough on white for the 3:1 of WCAG 1.4.11
PALETTE = ("#1f5f8b", "#b5541c", "#3d7a3d", "#6b4c9a")
WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 28, 56


def bar_chart(chart_id: str, title: str, labels: Sequence[str], series: Sequence[tuple[str, Sequence[float]]]) -> str:
    """A grouped bar chart: one group of bars per label, one bar per series
    (``(name, values)``, a value per label), its scale from 0 to the largest
    value, a legend when there is more than one series."""
    top_value = max((v for _, values in series for v in values), default=0) or 1
    scale = _nice(top_value)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    group = plot_w / max(len(labels), 1)
    bar = group * 0.8 / max(len(series), 1)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" '
        f'role="img" aria-labelledby="{escape(chart_id)}-title" class="chart">',
        f'<title id="{escape(chart_id)}-title">{escape(title)}</title>',
    ]
    for i in range(5):  # the scale's lines and numbers
        value = scale * i / 4
        y = TOP + plot_h - plot_h * i / 4
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#cccccc" stroke-width="1"/>')
        out.append(
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11" fill="#333333">{_number(value)}</text>'
        )
    for g, label in enumerate(labels):
        x0 = LEFT + g * group + group * 0.1
        for s, (_, values) in enumerate(series):
            v = values[g] if g < len(values) else 0
            h = plot_h * v / scale
            out.append(
                f'<rect x="{x0 + s * bar:.1f}" y="{TOP + plot_h - h:.1f}" width="{max(bar - 1, 1):.1f}" '
                f'height="{h:.1f}" fill="{PALETTE[s % len(PALETTE)]}"/>'
            )
        out.append(
            f'<text x="{LEFT + g * group + group / 2:.1f}" y="{TOP + plot_h + 16}" text-anchor="middle" '
            f'font-size="11" fill="#333333">{escape(label)}</text>'
        )
    if len(series) > 1:
        x = LEFT
        for s, (name, _) in enumerate(series):
            out.append(f'<rect x="{x}" y="{HEIGHT - 20}" width="12" height="12" fill="{PALETTE[s % len(PALETTE)]}"/>')
            out.append(f'<text x="{x + 16}" y="{HEIGHT - 10}" font-size="11" fill="#333333">{escape(name)}</text>')
            x += 24 + 7 * len(name)
    out.append("</svg>")
    return "".join(out)


def _nice(top: float) -> float:
    """The scale's top: the next of 1, 2, 2.5, 5 times a power of ten at or above ``top``."""
    power = 1.0
    while power * 10 < top:
        power *= 10
    for step in (1, 2, 2.5, 5, 10):
        if step * power >= top:
            return step * power
    return 10 * power


def _number(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"
