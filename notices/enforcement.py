"""The notices of an enforcement case, one for each step
(:data:`notices.kinds.CASE_NOTICE_KINDS`): the notice of violation, the
Enforcement Order, the notice of non-criminal disposition (the ticket) and
the notice of the town's costs.  Rendered from the case's record and its
replay (:func:`workflows.enforcement_replay.replay_case`) with the same
templates' environment, letterhead and formats as a filing's notices
(:mod:`notices.produce`); nothing is typed.

The step a notice speaks for is the latest of its kind on record, or the
event ``position`` names.  A ticket's notice lists every ticket issued with
it (the same day).  Each goes to the violator, with a copy to the site's
owner where the case names one who is not the violator.  Pure apart from
reading the templates; nothing is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import jinja2

from workflows.towns import town

from .context import EventView, Party, Record, party_from_record, with_office_defaults
from .errors import MissingField, NoticeRefused, TemplateProblem
from .kinds import CaseNoticeKind, case_notice_kind
from .produce import FORMATS, RenderedNotice, merged_pdf, render_page
from .render import environment, html_to_text

__all__ = ["produce_case_notice", "fitting_case_notices", "schedule_lines"]


def _step(case, kind: CaseNoticeKind, position: int | None):
    """The event the notice is for."""
    from workflows.replay import live_events

    events = [e for e in live_events(case) if e.type == kind.needs_event]
    if position is not None:
        events = [e for e in events if e.position == position]
    if not events:
        what = f"event {position}" if position is not None else f"no {kind.needs_event} on record"
        raise NoticeRefused(
            f"{what}: a {kind.title.lower()} speaks for a {kind.needs_event} event", filing=case.id, notice=kind.id
        )
    return events[-1]


def _refusal(case, replay, kind: CaseNoticeKind, schedule) -> NoticeRefused | None:
    if kind.needs_costs and schedule.costs is None:
        return NoticeRefused(f"{schedule.bylaw} sets no recovery of the town's costs", filing=case.id, notice=kind.id)
    from workflows.replay import live_events

    if not any(e.type == kind.needs_event for e in live_events(case)):
        return NoticeRefused(f"no {kind.needs_event} on record", filing=case.id, notice=kind.id)
    return None


def _view(e) -> EventView:
    return EventView(e.type, e.date, e.at, e.fields)


def fitting_case_notices(case, replay) -> list[CaseNoticeKind]:
    """The case's notices that fit it now (its steps on record)."""
    from .kinds import CASE_NOTICE_KINDS

    schedule = town(case.town).fine_schedule(case.bylaw)
    return [k for k in CASE_NOTICE_KINDS.values() if _refusal(case, replay, k, schedule) is None]


def schedule_lines(schedule) -> list[str]:
    """The schedule's fines in words, one line per offense number."""
    from workflows.fines import ordinal

    if not schedule.amounts:
        return [f"not enforced by tickets: {schedule.no_tickets}"]
    out = []
    last = len(schedule.amounts)
    for n, dollars in enumerate(schedule.amounts, start=1):
        label = ordinal(n) + (" and each later" if n == last and n > 1 else "") + " offense"
        if dollars is None:
            given = schedule.given.get(n)
            shown = f"${given[0]}" if given else "the amount set by the town (lost from its copy of the by-law)"
        else:
            shown = "a warning" if dollars == 0 else f"${dollars}"
        out.append(f"{label}: {shown}" if last > 1 else f"each offense: {shown}")
    return out


def _mailed_to(step) -> dict | None:
    """The mailing address a ticket was issued with (its ``mail_*`` fields), or None."""
    parts = {k: step.fields.get(f"mail_{k}") for k in ("street", "city", "state", "zip")}
    return parts if all(isinstance(v, str) and v.strip() for v in parts.values()) else None


def _recipients(case, kind, step=None) -> list[tuple[Party | None, str]]:
    """The violator (and the owner of the site, named and not the violator);
    a ticket goes to the mailing address it was issued with, when given."""
    out: list[tuple[Party | None, str]] = []
    for role in ("violator", "owner"):
        who = case.extra.get(role)
        if not isinstance(who, Mapping):
            continue
        name = who.get("name")
        if not isinstance(name, str) or not name.strip():
            continue
        mailed = _mailed_to(step) if role == "violator" and step is not None and step.type == "ticket-issued" else None
        if mailed is not None:
            who = {**who, "address": mailed}
        if isinstance(who.get("address"), Mapping):
            try:
                party = party_from_record(Record(who, f"case.{role}"), role)
            except AttributeError as exc:
                raise MissingField(case.id, kind.id, f"field {exc.args[0]}") from None
        else:
            party = Party(name, "", "", "", "", role=role)
        if role == "owner" and out and out[0][0] is not None and out[0][0].name.strip().upper() == party.name.strip().upper():
            continue
        out.append((party, party.key))
    if not out:
        raise MissingField(case.id, kind.id, "field case.violator.name")
    return out


def produce_case_notice(
    case, replay, kind_id: str, *, fmt: str = "html", dated: datetime, position: int | None = None, town_templates_dir=None
) -> list[RenderedNotice]:
    """Render one notice of the case, every copy, in memory.  Raises a
    NoticeError (or UnknownChoice) when it does not fit the case."""
    if fmt not in FORMATS:
        raise TemplateProblem(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    kind = case_notice_kind(kind_id)
    profile = town(case.town)
    schedule = profile.fine_schedule(case.bylaw)
    refused = _refusal(case, replay, kind, schedule)
    if refused is not None:
        raise refused
    step = _step(case, kind, position)
    env = environment(case.town, town_templates_dir)
    try:
        template = env.get_template(kind.template)
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateProblem(f"template {exc.name or kind.template}, line {exc.lineno}: {exc.message}") from None
    office = profile.offices.get("conservation")
    record = with_office_defaults(case.extra, office)
    if not isinstance(record.get("site"), Mapping):
        record["site"] = {"address": "(no address on the case)"}
    from workflows.replay import live_events

    events = live_events(case)
    tickets = [t for t in replay.tickets if step.type == "ticket-issued" and t.date == step.date]
    variables = {
        "schedule_lines": schedule_lines(schedule),
        "notice": kind,
        "town": profile,
        "filing_id": case.id,
        "filing": Record(record),
        "case": replay,
        "schedule": schedule,
        "step": _view(step),
        "observed": [_view(e) for e in events if e.type == "violation-observed"],
        "tickets": tickets,
        "clocks": {c.id: c for c in replay.clocks},
        "appear_by": next(
            (c.date for c in replay.clocks if c.id == "ticket-appearance" and c.start_position == step.position), None
        ),
        "on_filing": case.filing,
        "dated": dated,
        "permit": {"kind": "enforcement", "label": "enforcement case", "bylaw": schedule.bylaw, "laws": schedule.bylaw},
        # where a ticket is paid by mail and answered (M.G.L. c.40 §21D), and to whom a fine is payable
        "clerk": profile.clerk,
        "court": profile.court,
        "payee": f"Town of {profile.name}",
    }
    pages = []
    for i, (party, key) in enumerate(_recipients(case, kind, step), start=1):
        copy = {
            "recipient": party if party.street else None,
            "addressee": party,
            "copy_for": f"case-{party.role}",
            "copy_number": i,
        }
        html = render_page(template, {**variables, **copy}, case, kind)
        pages.append((party, key, html))
    stem = f"{case.id}-{kind.id}" + (f"-{step.position}" if position is not None else "")
    if fmt == "pdf":
        return [
            RenderedNotice(kind.id, f"{stem}.pdf", "pdf", merged_pdf([h for _, _, h in pages]), tuple(k for _, k, _ in pages))
        ]
    out = []
    for i, (party, key, html) in enumerate(pages, start=1):
        suffix = "" if len(pages) == 1 else f"-{i:03d}-{party.role}"
        out.append(RenderedNotice(kind.id, f"{stem}{suffix}.{fmt}", fmt, html if fmt == "html" else html_to_text(html), (key,)))
    return out
