"""Rendering a page: the Jinja2 environment (autoescaped, StrictUndefined),
and every page's context: the user, the session's CSRF token that every
form carries (web/auth.py), the town's today and time zone.

Each audience's templates are in its room's ``templates/`` folder and are
named with the room first, so two rooms never collide on a name:
``render(request, "staff/today.html", ...)`` draws web/staff/templates/today.html.
What every audience shares is in web/templates/, named bare: the page
every page extends (``base.html``), the refusal (``error.html``) and the
partials two rooms include (``_fee.html``, ``particulars.html``,
``site_picker.html``)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse

from config.clock import town_stamp, wall_stamp
from models.types import User

from .auth import csrf_token
from .deps import web_context

__all__ = ["render", "ENV", "ROOMS"]

HERE = Path(__file__).parent
#: the web's rooms, one audience each: their templates are named "<room>/<name>.html"
ROOMS = ("staff", "applicant", "account", "public")


ENV = jinja2.Environment(
    loader=jinja2.ChoiceLoader(
        [
            jinja2.PrefixLoader({room: jinja2.FileSystemLoader(HERE / room / "templates") for room in ROOMS}),
            jinja2.FileSystemLoader(HERE / "templates"),
        ]
    ),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
ENV.filters["weekday"] = lambda d: d.strftime("%a") if d else ""
ENV.filters["town_stamp"] = town_stamp  # a stored (UTC) moment in the town's zone: {{ m|town_stamp(zone) }}
ENV.filters["wall_stamp"] = wall_stamp  # a wall time the record states, with the town's zone named


def _remembered(fn):
    """``fn``, a pure function of its arguments, remembering its answers: a
    table of 200 rows asks the same few towns, kinds, statuses and days
    hundreds of times.  An argument that cannot be a key is answered
    directly."""
    remembered = lru_cache(maxsize=4096)(fn)

    def filter_(*args):
        try:
            return remembered(*args)
        except TypeError:  # unhashable
            return fn(*args)

    return filter_


def _words() -> None:
    """The human names (workflows/vocabulary.py) and the written dates
    (workflows/written.py) as filters: ``{{ e.type|event_name(kind) }}``.
    The names and the days a docket's rows repeat are remembered."""
    from notices.kinds import NOTICE_KINDS
    from workflows import vocabulary, written
    from workflows.rulebook import ANCHORS

    ENV.filters.update(
        event_name=lambda etype, kind: vocabulary.event_name(kind, etype),
        clock_name=_remembered(vocabulary.clock_name),
        state_name=_remembered(lambda state, kind: vocabulary.state_name(kind, str(state))),
        field_name=vocabulary.field_name,
        status_name=_remembered(vocabulary.status_name),
        value_name=vocabulary.value_name,
        kind_name=_remembered(vocabulary.kind_name),
        in_words=lambda text, kind="*": vocabulary.in_words(text, kind),
        anchor_name=lambda anchor: ANCHORS.get(anchor, vocabulary.in_words(str(anchor))),
        town_name=_remembered(lambda town: _town_name(town)),
        notice_title=lambda kind: NOTICE_KINDS[kind].title if kind in NOTICE_KINDS else vocabulary.value_name(kind),
        day_written=written.day_written,
        short_day=_remembered(written.short_day),
        time_written=_remembered(written.time_written),
        moment_written=written.moment_written,
        when_written=written.when_written,
    )


def _town_name(town_id: str) -> str:
    from workflows.towns import registry

    profile = registry().get(town_id)
    return profile.name if profile is not None else town_id.capitalize()


_words()


def render(request: Request, name: str, ctx: dict, *, user: User | None, status: int = 200) -> HTMLResponse:
    """A page: the template with the user, the CSRF token and today."""
    web = web_context(request)
    page = ENV.get_template(name).render(
        {**ctx, "user": user, "csrf": csrf_token(request), "today": web.today(), "path": request.url.path}
        | {"zone": web.settings.timezone}
    )
    return HTMLResponse(page, status_code=status)
