"""Work with no permit in force: the commonest violation of all.

"No activities shall commence without receiving and complying with a permit
issued pursuant to this by-law" (Canton 15-4); "No person shall remove,
fill, dredge or alter ... without ... receiving and complying with an order
of conditions" (M.G.L. c.131 §40); Saugus 508.08 §3 and Mansfield Ch. 25
Part B §4 say the same of their permits.  The rule book cites the law that
forbids it (``PermitRules.work_without_permit``), and a joint filing cites
the Act beside the by-law.

Work seen (``work-started``, ``work-observed``) is judged against what is in
force on its day:

- an Order of Conditions or permit issued (``permit-issued``), or MassDEP's
  superseding order that took its place (``superseding-issued``,
  :mod:`workflows.superseding`), until it is revoked; work after its expiry
  is :mod:`workflows.before_work`'s (``permit-expiry`` violated);
- a negative Determination of Applicability, until it expires;
- an emergency certification, for its days (310 CMR 10.06(3)); work seen
  after its last day with no Order in force marks the certification's own
  clock ``violated`` (whether or not a Notice of Intent was filed since);
- a Canton emergency project not yet certified, until its application is
  due (15-3: the application within 21 days of the start), judged by its own
  clocks meanwhile.

Anything else (before issuance, after a denial, a positive Determination, a
revocation or a withdrawal) adds the ``work-without-permit`` clock,
``violated`` on the first such day.  One act, one violation: the first
unpermitted work is named.  Pure: no I/O.
"""

from __future__ import annotations

from datetime import date, timedelta

from .before_work import WORK
from .errors import UnknownChoice

__all__ = ["CLOCK", "without_permit", "superseded_by"]

CLOCK = "work-without-permit"
#: the events that end what was in force, and how the explanation names them
_ENDS = {
    "permit-denied": "the permit was denied",
    "permit-revoked": "the permit was revoked",
    "withdrawn": "the filing was withdrawn",
}


def _order(e):
    return (e.date, e.position)


def superseded_by(rec):
    """MassDEP's superseding order or determination on record (the first),
    or None: once it issues a local decision no longer replaces it."""
    return next((e for e in rec.events if e.type == "superseding-issued"), None)


def _grants(rec, e, dep) -> bool | None:
    """True when ``e`` puts a permit in force, False when it ends one (or
    refuses it), None when it says neither.  ``dep``: MassDEP's decision."""
    kind, etype = rec.rules.kind, e.type
    if dep is not None and _order(e) > _order(dep) and etype in ("permit-issued", "permit-denied", "determination-issued"):
        return None  # a local decision after MassDEP's does not replace it
    if etype == "permit-issued" and kind != "rda":
        return True
    if etype == "determination-issued":
        return not e.get("positive")
    if etype == "superseding-issued":
        return not (e.get("denied") or e.get("positive"))
    if etype in _ENDS:
        return False
    return None


def _rule(rec) -> str:
    own = rec.rules.work_without_permit
    cited = [own] + [r.work_without_permit for _, r in rec.also_rules if r.work_without_permit]
    return "; ".join(dict.fromkeys(c for c in cited if c))


def _did(e) -> str:
    return f"{e.type} on {e.date} (event {e.position})"


def _emergency_project_until(rec) -> date | None:
    """The last day an uncertified Canton emergency project's work is its
    own clocks' to judge: the day its application is due."""
    start = rec.first("emergency-start")
    if start is None:
        return None
    try:
        clock = rec.rules.clock("emergency-filing")
    except UnknownChoice:
        return None
    moment = start[0]
    return rec.calendar.when(clock.measure, moment.date() if hasattr(moment, "date") else moment)[0]


def without_permit(rec) -> list[tuple[str, str, date, str, str, str]]:
    """The violation of the first work seen with nothing in force, as
    ``(clock id, type, day, status, rule, explanation)`` (the replay marks
    or adds the clock), or []."""
    rule = _rule(rec)
    if not rule or rec.rules.kind not in ("noi", "rda", "land-disturbance"):
        return []
    certs = [e for e in rec.events if e.type == "emergency-certified"]
    project_until = _emergency_project_until(rec)
    in_force, ended_by, dep = None, None, superseded_by(rec)
    for e in rec.events:
        granted = _grants(rec, e, dep)
        if granted is True:
            in_force, ended_by = e, None
        elif granted is False:
            in_force, ended_by = None, e
        if e.type not in WORK:
            continue
        if in_force is not None:
            if rec.rules.kind == "rda" and _after_expiry(rec, e):
                return [_violation(rec, e, rule, f"after the Determination expired on {rec.expiry()}")]
            continue  # an Order's expiry: workflows.before_work
        mine = [c for c in certs if _order(c) <= _order(e)]
        if mine:
            end = max(c.date + timedelta(days=c.get("days")) for c in mine)
            if e.date <= end:
                continue
            return [_after_certification(rec, e, end, rule)]
        if project_until is not None and e.date <= project_until and not certs:
            continue
        return [_violation(rec, e, rule, _why(rec, ended_by))]
    return []


def _after_expiry(rec, e) -> bool:
    expiry = rec.expiry()
    return expiry is not None and e.date > expiry


def _why(rec, ended_by) -> str:
    if ended_by is None:
        return "before any Order of Conditions, Determination or permit was issued"
    if ended_by.type == "determination-issued":
        return (
            f"after the positive Determination of {ended_by.date} (event {ended_by.position}), which requires a "
            f"Notice of Intent, with no Order in force"
        )
    if ended_by.type == "superseding-issued":
        return f"after MassDEP's superseding decision of {ended_by.date} (event {ended_by.position}) refused the work"
    return f"after {_ENDS[ended_by.type]} on {ended_by.date} (event {ended_by.position}), with no permit in force"


def _violation(rec, e, rule, why) -> tuple:
    text = (
        f"{_did(e)} {why}: no activity may commence without receiving and complying with a permit; a violation on record ({rule})"
    )
    return (CLOCK, "earliest", e.date, "violated", rule, text)


def _after_certification(rec, e, end, rule) -> tuple:
    try:
        cited = rec.rules.clock("emergency-certification").citation
    except UnknownChoice:  # pragma: no cover - every wetlands NOI declares it
        cited = "310 CMR 10.06"
    both = f"{cited}; {rule}"
    text = (
        f"{_did(e)} after the emergency certification's last day, {end}, with no Order of Conditions in force: "
        f"the certification allows only the certified work for its days, and work beyond it needs an Order; "
        f"a violation on record ({both})"
    )
    return ("emergency-certification", "expiry", end, "violated", both, text)
