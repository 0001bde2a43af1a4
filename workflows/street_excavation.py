"""A street excavation permit under a by-law that sets only its core, as
Mansfield's General By-Laws Ch. 5 §IV-V do: a written permit (from the
Board of Selectmen or the Town Manager), barriers and lanterns while the
street is open, the street restored immediately on completion, and the
permittee answerable for repairs accruing within one year after.

    filed -> applied -> issued -> excavating -> restored -> closed

Dig Safe (M.G.L. c.82 §40A) holds every excavation back, whatever the
by-law: the clocks are the rule book's, the violations
:mod:`workflows.violations`' (excavation with no notice, or after it
lapsed).  Canton 16-12's richer rules (work notices, patches and their
windows, inspections, deposits, suspension, revocation) are Canton's: this
machine has none of those events, and the replay refuses them naming the
town's by-law.  A town's rule book picks this machine with
``PermitRules.machine = "street-excavation"``."""

from __future__ import annotations

from enum import Enum

from .fees import payment_rows
from .guards import COMMON_GUARDS
from .machine import ANY, START, Guard, Machine
from .machine import Transition as T
from .submission import submission_rows

__all__ = ["StreetExcavationState", "MACHINE", "VARIANT"]

VARIANT = "street-excavation"


class StreetExcavationState(str, Enum):
    SUBMITTED = "submitted"
    APPLIED = "applied"
    ISSUED = "issued"
    EXCAVATING = "excavating"
    RESTORED = "restored"
    CLOSED = "closed"
    DENIED = "denied"
    WITHDRAWN = "withdrawn"


S = StreetExcavationState
V = lambda *states: tuple(s.value for s in states)  # noqa: E731


def the_repair_year_has_ended(ctx, e):
    """Ch. 5 §V: the permittee pays for repairs "accruing within one year
    thereafter": the file closes once that year has run."""
    start = ctx.first("restoration")
    clock = ctx.rules.clock("repair-liability")
    last = ctx.calendar.when(clock.measure, start[0])[0]
    if e.date <= last:
        return (
            f"the permittee answers for repairs accruing within one year after the restoration of {start[0]}: "
            f"the year runs to {last}; close the file after it ({clock.citation})"
        )
    return None


MACHINE = Machine(
    kind="street-opening",
    states=StreetExcavationState,
    final=frozenset(V(S.CLOSED, S.DENIED, S.WITHDRAWN)),
    transitions=(
        *submission_rows(S.SUBMITTED.value),
        *payment_rows(),
        T("filed", (START, S.SUBMITTED.value), S.APPLIED.value),
        T("dig-safe-obtained", (ANY,), None),
        T("permit-issued", V(S.APPLIED), S.ISSUED.value),
        T("permit-denied", V(S.APPLIED), S.DENIED.value),
        T("withdrawn", V(S.SUBMITTED, S.APPLIED, S.ISSUED), S.WITHDRAWN.value),
        T("excavation-started", V(S.ISSUED), S.EXCAVATING.value),
        T("backfilled", V(S.EXCAVATING), None),
        T("street-restored", V(S.EXCAVATING), S.RESTORED.value),
        T("repair-required", V(S.RESTORED), None),
        T("liability-ended", V(S.RESTORED), S.CLOSED.value, guards=("the_repair_year_has_ended",)),
        T("clock-extended", (ANY,), None, guards=("extension_names_a_clock_of_this_filing",)),
    ),
    guards={
        **COMMON_GUARDS,
        "the_repair_year_has_ended": Guard("the_repair_year_has_ended", the_repair_year_has_ended, "Mansfield Ch. 5 §V"),
    },
)
