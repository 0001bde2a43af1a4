"""A meeting's Open Meeting Law posting: the notice of the meeting and its
agenda, listing every hearing heard at it (first sessions and continued
ones) and other business (M.G.L. c.30A §20(b)).

:func:`render_posting` is pure apart from reading the template
(``meeting-posting.html.j2``, which a town may override like any other):
the caller hands it the meeting, its items as :class:`PostingItem`, the
posting's deadline (workflows.meetings.posting_deadline) and the stamp
(``dated``: the town's wall time the posting goes up, or None for the
agenda printed before it is posted).  A stamp after the deadline is refused
here, before anything is rendered.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import jinja2

from .bounded import TemplateLimit
from .errors import MissingField, NoticeRefused, TemplateProblem
from .kinds import MEETING_NOTICE_KINDS
from .render import environment, html_to_pdf, html_to_text

__all__ = ["PostingItem", "render_posting", "posting_filename"]


@dataclass(frozen=True)
class PostingItem:
    """One line of the agenda, in words: ``kind`` is ``hearing``,
    ``continued`` or ``business``; for a hearing, the filing's id, the
    permit's name, who filed, where and what, and the law it is heard
    under."""

    kind: str
    title: str = ""
    at: datetime | None = None
    filing_id: str = ""
    permit: str = ""
    applicant: str = ""
    address: str = ""
    description: str = ""
    bylaw: str = ""


def posting_filename(meeting, fmt: str) -> str:
    return f"{meeting.town}-meeting-{meeting.day.isoformat()}-posting.{fmt}"


def render_posting(
    meeting,
    items,
    *,
    profile,
    office,
    deadline,
    dated: datetime | None,
    fmt: str = "pdf",
    town_templates_dir: str | Path | None = None,
) -> str | bytes:
    """The posting as ``fmt`` (pdf, html or txt).  ``dated``: the stamp;
    :class:`NoticeRefused` when it is after ``deadline.at``, naming the rule."""
    kind = MEETING_NOTICE_KINDS["meeting-posting"]
    if dated is not None and dated > deadline.at:
        raise NoticeRefused(
            f"a posting stamped {dated:%Y-%m-%d %H:%M} is too late for the meeting of {meeting.starts_at:%Y-%m-%d %H:%M}: "
            f"it must be up by {deadline.at:%Y-%m-%d %H:%M}, 48 hours before, not counting Saturdays, Sundays and "
            f"legal holidays (M.G.L. c.30A §20(b))",
            filing=f"meeting of {meeting.day.isoformat()}",
            notice=kind.id,
        )
    env = environment(meeting.town, town_templates_dir)
    try:
        template = env.get_template(kind.template)
        html = template.render(
            notice=kind,
            town=profile,
            office=office,
            meeting=meeting,
            items=list(items),
            hearings=[i for i in items if i.kind != "business"],
            business=[i for i in items if i.kind == "business"],
            deadline=deadline,
            dated=dated,
        )
    except jinja2.UndefinedError as exc:
        raise MissingField(f"meeting {meeting.id}", kind.id, str(exc)) from None
    except TemplateLimit as exc:  # a town template over its bounds: the message names it and its line
        raise TemplateProblem(str(exc)) from None
    except jinja2.TemplateError as exc:
        raise TemplateProblem(f"template {kind.template}: {str(exc).strip()[:200]}") from None
    if fmt == "pdf":
        return html_to_pdf(html)
    return html if fmt == "html" else html_to_text(html)
