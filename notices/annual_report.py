"""A board's annual report for the Town report, as a PDF (or HTML): its
doings in words and figures, its receipts for the year and its charts
(Manchester-by-the-Sea General By-Laws Art. IX; Mansfield Ch. 4).  The
figures and tables are the service's (:mod:`services.reports`), handed in;
this renders ``annual-report.html.j2`` with WeasyPrint, as notices are.
"""

from __future__ import annotations

import jinja2

from .charts import bar_chart
from .errors import TemplateProblem
from .render import environment, html_to_pdf

__all__ = ["TEMPLATE", "chart_of", "render_annual_report"]

TEMPLATE = "annual-report.html.j2"


def chart_of(table, *, written=str) -> str:
    """The table's bar chart (SVG), or "" for a table drawn as a list."""
    if table.chart is None:
        return ""
    label, columns = table.chart
    rows = [r for r in table.rows if r[label] not in ("All stages",)]
    series = [(table.header[c], [_number(r[c]) for r in rows]) for c in columns]
    return bar_chart(f"chart-{table.key}", table.title, [written(r[label]) for r in rows], series)


def _number(value) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def render_annual_report(year_of, *, summary: list[str], office, written, fmt: str = "pdf") -> bytes | str:
    """The report of ``year_of`` (:class:`services.reports.BoardYear`): ``summary``
    its doings in sentences, ``office`` the board's letterhead,
    ``written`` how a cell is printed."""
    env = environment(year_of.town)
    try:
        html = env.get_template(TEMPLATE).render(
            y=year_of,
            summary=summary,
            office=office,
            tables=[(t, chart_of(t, written=written)) for t in year_of.tables],
            cell=written,
        )
    except jinja2.TemplateError as exc:
        raise TemplateProblem(f"template {TEMPLATE}: {str(exc).strip()[:200]}") from None
    return html_to_pdf(html) if fmt == "pdf" else html
