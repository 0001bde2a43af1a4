"""Permits for recurring maintenance: a longer term with a notice each year.

Canton 15-7: "the Commission in its discretion may issue a permit expiring
five years from the date of issuance for recurring or continuous
maintenance work, provided that annual notification of time and location
of work is given to the Commission"; Saugus 508.08 §7.6: "for a period up
to five (5) years".  The rule book says how long a town allows
(``PermitRules.maintenance_years``, cited); ``permit-issued`` gives the
term (``term_years``), refused above it with the rule, and the expiry is
counted from it (:class:`workflows.record.Record` ``term``).

Each year of a longer term is an ``annual-notice`` clock: a deadline at
the year's end, met by ``maintenance-noticed`` (the time and place of the
year's work) within that year.  A year not yet begun is not listed.
Pure: no I/O.
"""

from __future__ import annotations

from datetime import date

from calendars import Months

__all__ = ["term_the_bylaw_allows", "annual_notices"]


def term_the_bylaw_allows(ctx, e):
    years = e.get("term_years")
    if years is None:
        return None
    allowed, cited = ctx.rules.maintenance_years, ctx.rules.maintenance_citation
    if not allowed:
        return f"{ctx.rules.bylaw} sets the permit's term; it allows no other (term_years: {years})"
    if not 1 <= years <= allowed:
        return (
            f"a permit for recurring or continuous maintenance runs at most {allowed} years from issuance, not {years} ({cited})"
        )
    return None


def annual_notices(rec, as_of: date, clock) -> list:
    """One ``annual-notice`` clock for each year of a longer term begun by
    ``as_of``: due at the year's end, met by a notice within the year.
    ``clock`` makes each (the replay passes ClockResult: the clocks import
    the machines, whose guards import this module, so it is not imported
    here)."""

    issued = rec.issued
    years = issued.get("term_years") if issued is not None else None
    if not years or years <= 3 or not rec.rules.maintenance_citation:
        return []
    cited = rec.rules.maintenance_citation
    notices = [e for e in rec.events if e.type == "maintenance-noticed"]
    out = []
    for k in range(1, years + 1):
        begins = rec.calendar.when(Months(12 * (k - 1)), issued.date)[0] if k > 1 else issued.date
        if begins > as_of:
            break
        ends = rec.calendar.when(Months(12 * k), issued.date)[0]
        met = next((n for n in notices if begins <= n.date <= ends), None)
        if met is not None:
            status = "met"
        elif rec.certified is not None:
            status = "closed"
        else:
            status = "open" if as_of <= ends else "overdue"
        text = (
            f"year {k} of the {years}-year maintenance permit issued {issued.date} (event {issued.position}), "
            f"{begins} to {ends}: notice of the time and location of the year's work to the Commission"
            + (f"; maintenance-noticed on {met.date} (event {met.position})" if met else "")
        )
        out.append(clock("annual-notice", "deadline", ends, status, cited, text, start_position=issued.position))
    return out
