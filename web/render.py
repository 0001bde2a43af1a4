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

import re
from functools import lru_cache
from pathlib import Path

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse

from config.clock import in_town, town_zone
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


def _town_moment(moment, zone: str) -> str:
    """A stored (UTC) moment as the town reads it, in people's words and in
    the town's zone, its abbreviation left out: "Thursday, December 3, 2026,
    6:03 p.m." (``config.clock.town_stamp`` is the command line's)."""
    from workflows.written import moment_written

    return moment_written(in_town(moment, zone).replace(tzinfo=None)) if moment else ""


def _wall_moment(moment, zone: str) -> str:
    """A wall time the record states (a notice's ``dated``), in people's words."""
    from workflows.written import moment_written

    if not moment:
        return ""
    if isinstance(moment, str):
        return moment_written(moment)
    if moment.tzinfo is not None:
        moment = moment.astimezone(town_zone(zone)).replace(tzinfo=None)
    return moment_written(moment)


ENV.filters["town_stamp"] = _town_moment  # a stored (UTC) moment in the town's zone: {{ m|town_stamp(zone) }}
ENV.filters["wall_stamp"] = _wall_moment  # a wall time the record states


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
        in_words=lambda text, kind="*": written.dates_written(vocabulary.in_words(text, kind)),
        field_value=_field_value,
        named=_named,
        who=_who,
        anchor_name=lambda anchor: ANCHORS.get(anchor, vocabulary.in_words(str(anchor))),
        town_name=_remembered(lambda town: _town_name(town)),
        notice_title=lambda kind: NOTICE_KINDS[kind].title if kind in NOTICE_KINDS else vocabulary.value_name(kind),
        day_written=written.day_written,
        short_day=_remembered(written.short_day),
        time_written=_remembered(written.time_written),
        moment_written=written.moment_written,
        when_written=written.when_written,
    )


#: fields whose value is money, in whole dollars
_DOLLARS = frozenset({"fine", "amount", "costs", "held_back"})


def _field_value(value, key: str = "", kind: str = "*") -> str:
    """An event's field as people read it: a day or a moment written, a
    clock or a choice by its name, money in dollars, a list joined."""
    from workflows import vocabulary, written

    if isinstance(value, (list, tuple)):
        return "; ".join(_field_value(v, key, kind) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key == "clock":
        return vocabulary.clock_name(str(value))
    if key in _DOLLARS and isinstance(value, (int, float)):
        return f"${value:,}"
    if isinstance(value, str) and written.dates_written(value) != value and len(value) <= 19:
        return written.dates_written(value)
    return vocabulary.value_name(value)


def _named(text, names) -> str:
    """``text`` with each id that ``names`` (id -> name) knows written as its
    name, "(event 3)" as "(step 3)", and its ISO days written (an
    enforcement case's explanations, whose entries the page calls steps)."""
    from workflows import written

    text = str(text or "")
    for key in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(key)}(?![\w-])", names[key], text)
    return written.dates_written(re.sub(r"\(event (\d+)\)", r"(step \1)", text))


@jinja2.pass_context
def _who(context, by, applicant: str = "") -> str:
    """Who recorded an entry, by name: an applicant's online act by the
    filing's applicant's name; the demo's and the daily check's by what
    they are; a member of staff by their full name (``staff_names``, read
    once a page), their account only when they have given none."""
    by = str(by or "")
    if by.startswith("applicant:"):
        return f"{applicant}, the applicant, online" if applicant else "the applicant, online"
    known = {"permits demo": "the demo", "sweep": "the daily check", "import": "an import"}.get(by)
    if known is not None:
        return known
    names = context.get("staff_names")
    return (names() if callable(names) else {}).get(by, by)


def _once(read):
    """``read`` called the first time the page asks, and remembered."""
    seen: list = []

    def value():
        if not seen:
            seen.append(read())
        return seen[0]

    return value


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
        | {"zone": web.settings.timezone, "staff_names": _once(web.users.names) if user is not None else None}
    )
    return HTMLResponse(page, status_code=status)
