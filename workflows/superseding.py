"""A board's silence, and MassDEP's superseding order or determination.

When the commission does not decide within the time the Act gives (21 days
of the hearing's close for an Order, 21 days of the request for a
Determination: M.G.L. c.131 §40), the applicant may ask MassDEP for a
superseding order: "precisely the course that the plaintiffs pursued"
(Lippman v. Conservation Comm'n of Hopkinton, 80 Mass. App. Ct. 1 (2011)).
MassDEP's order then controls, and a local decision issued afterwards does
not replace it (Oyster Creek Preservation, Inc. v. Conservation Comm'n of
Harwich, 449 Mass. 859 (2007); Regan v. Conservation Comm'n of Falmouth,
77 Mass. App. Ct. 485 (2010)).

- ``superseding-requested`` (who asked: the applicant, the owner, an
  abutter, a person aggrieved or ten residents; its ground: the board's
  silence, ``no-decision``, or an appeal of its decision,
  ``decision-appealed``): accepted after a decision (an Order, a denial, a
  Determination), and before one only once the decision deadline has
  passed with no decision (the earlier of the by-law's and the Act's, with
  any extension the applicant signed), refused before it naming the day;
- ``superseding-issued`` (MassDEP's file number; ``denied`` for a
  superseding denial, ``positive`` for a superseding Determination that
  requires a Notice of Intent): only on a request on record.  It becomes
  the Order in force: the expiry, the renewal, the appeal period before
  work, the Certificate and the work are counted from it;
- a local decision recorded afterwards is kept (it is late: the decision
  clock says so) but changes nothing; the decision clock no one met is
  ``superseded`` by MassDEP's order (:func:`settle`).

Pure: no I/O.
"""

from __future__ import annotations

from .errors import UnknownChoice
from .machine import Guard
from .machine import Transition as T
from .written import day_written

__all__ = [
    "SUPERSEDING",
    "SUPERSEDED",
    "REQUESTERS",
    "GROUNDS",
    "superseding_rows",
    "SUPERSEDING_GUARDS",
    "SUPERSEDING_CONDS",
    "note_issued",
    "settle",
]

#: the status of the board's decision clock once MassDEP's decision came first
SUPERSEDED = "superseded"
SUPERSEDING = "310 CMR 10.05(7); M.G.L. c.131 §40; Lippman v. Conservation Comm'n of Hopkinton, 80 Mass. App. Ct. 1 (2011)"
#: who may ask MassDEP for a superseding order (310 CMR 10.05(7))
REQUESTERS = ("applicant", "owner", "abutter", "aggrieved-person", "ten-residents")
#: why: the board's silence, or an appeal of its decision
GROUNDS = ("no-decision", "decision-appealed")


def _order(e):
    return (e.date, e.position)


def decision_deadline(ctx):
    """The last day for the board's decision, the earliest of the rule
    books the filing runs (a joint filing: the Act's 21 days bind), with
    an extension the applicant signed; None when no decision clock runs."""
    days = []
    for prefix, rules in (("", ctx.rules), *ctx.also_rules):
        try:
            clock = rules.clock("decision")
        except UnknownChoice:
            continue
        start = ctx.first(clock.start)
        if start is None:
            continue
        ext = ctx.extensions.get(prefix + "decision")
        days.append((ext.get("to") if ext is not None else ctx.calendar.when(clock.measure, start[0])[0], clock.citation))
    return min(days) if days else None


def silence_before_a_decision(ctx, e):
    """Before any decision, a request for a superseding order rests on the
    board's silence: its deadline passed with no decision."""
    if e.get("ground") != "no-decision":
        return (
            "no decision is on record to appeal: before one, a request for a superseding order rests on the "
            f"board's silence (ground: no-decision) once the decision deadline has passed ({SUPERSEDING})"
        )
    due = decision_deadline(ctx)
    if due is None:
        return f"no decision deadline runs yet (the hearing has not closed): the board is not silent ({SUPERSEDING})"
    day, cited = due
    if e.date <= day:
        return (
            f"the board's decision is due by {day_written(day)} ({cited}): a superseding order may be asked "
            f"for the board's silence only after that day passes with no decision ({SUPERSEDING})"
        )
    return None


def a_superseding_request_on_record(ctx, e):
    if not any(x.type == "superseding-requested" for x in ctx.events):
        return f"no request for a superseding order is on record for MassDEP to decide ({SUPERSEDING})"
    if any(x.type == "superseding-issued" for x in ctx.events):
        return f"MassDEP's superseding decision is already on record ({SUPERSEDING})"
    return None


def superseded(ctx, e) -> bool:
    """A condition: MassDEP's superseding decision is on record."""
    return ctx.superseding is not None


def superseding_denied(ctx, e) -> bool:
    return bool(e.get("denied") or e.get("positive"))


def superseding_rows(S, *, before, decided, granted, refused) -> tuple[T, ...]:
    """The rows of a request for a superseding order and MassDEP's decision,
    for a machine whose states ``before`` a decision, ``decided`` (an
    Order, a denial, a Determination), ``granted`` (MassDEP's Order in
    force) and ``refused`` (its denial, or a Determination requiring an
    NOI) are given."""
    anywhere = (*before, *decided)
    return (
        T("superseding-requested", decided, None),
        T("superseding-requested", before, None, guards=("silence_before_a_decision",)),
        T(
            "superseding-issued",
            anywhere,
            refused,
            cond="superseding_denied",
            guards=("a_superseding_request_on_record", "massdep_file_number_well_formed"),
        ),
        T(
            "superseding-issued",
            anywhere,
            granted,
            guards=("a_superseding_request_on_record", "massdep_file_number_well_formed"),
        ),
    )


def late_local_rows(decision_events, states) -> tuple[T, ...]:
    """A local decision recorded after MassDEP's: kept, late, and changing
    nothing (the state stays MassDEP's)."""
    return tuple(T(ev, states, None, cond="superseded") for ev in decision_events)


SUPERSEDING_GUARDS = {
    g.name: g
    for g in (
        Guard("silence_before_a_decision", silence_before_a_decision, SUPERSEDING),
        Guard("a_superseding_request_on_record", a_superseding_request_on_record, SUPERSEDING),
    )
}
SUPERSEDING_CONDS = {"superseded": superseded, "superseding_denied": superseding_denied}


def note_issued(rec, e) -> None:
    """MassDEP's decision becomes what is in force: the Order's issuance
    (expiry, renewal, appeal before work, Certificate) is counted from it."""
    rec.superseding = e
    if e.get("denied") or e.get("positive"):
        rec.issued = None
        rec.anchors.pop("issuance", None)
        return
    rec.issued = e
    rec.renewals, rec.renewed, rec.renewal_requested = 0, None, None
    rec.anchors["issuance"] = [(e.date, e)]


def settle(rec, clocks) -> None:
    """A decision clock no one met, once MassDEP's decision is on record, is
    ``superseded``: the board's decision is no longer due."""
    dep = rec.superseding
    if dep is None:
        return
    for c in clocks:
        if c.id.split(":", 1)[-1] == "decision" and c.status in ("open", "overdue"):
            c.status = SUPERSEDED
            c.explanation += (
                f"; superseded by superseding-issued on {day_written(dep.date)} (event {dep.position}): MassDEP's "
                f"superseding decision controls, and a local decision issued afterwards does not replace it ({SUPERSEDING})"
            )
