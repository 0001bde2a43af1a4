"""Land Disturbance Permit (Mansfield Stormwater By-Law Ch. 25 Part B):
complete application, the boards' reports or 40 days, a hearing within 60
days, final action within 60 days of its close."""

from __future__ import annotations

from enum import Enum

from .certificates import CERTIFICATE_GUARDS, completion_rows
from .guards import COMMON_GUARDS
from .machine import ANY, Guard, Machine
from .machine import Transition as T
from .wetlands import hearing_rows, incomplete, permit_rows

__all__ = ["LandDisturbanceState", "MACHINE", "REVIEWING_BOARDS"]

#: Mansfield 25 §7.E: copies go to these boards on receipt of a complete
#: application; `board-reported` events name them by these ids.
REVIEWING_BOARDS = frozenset({"planning", "dpw", "health", "engineering", "building"})


class LandDisturbanceState(str, Enum):
    SUBMITTED = "submitted"
    INCOMPLETE = "incomplete"
    FILED = "filed"
    HEARING_SCHEDULED = "hearing-scheduled"
    HEARING_OPEN = "hearing-open"
    HEARING_CLOSED = "hearing-closed"
    ISSUED = "issued"
    RENEWED = "renewed"
    DENIED = "denied"
    REVOKED = "revoked"
    COMPLETED = "completed"
    WITHDRAWN = "withdrawn"


def boards_reported_or_40_days(ctx, e):
    """Mansfield 25 §7.E: no hearing until each board has reported or has
    been "allowed forty (40) days to elapse after receipt": the earliest
    day is the rule book's board-reports clock, day 41 (docs/reference/readings.md)."""
    notified = ctx.first("boards-notified")
    missing = REVIEWING_BOARDS - ctx.boards_reported
    if not missing:
        return None
    if notified is None:
        return (
            f"the hearing cannot open before the boards have the application: no boards-notified event "
            f"and no report from {', '.join(sorted(missing))} (Mansfield 25 §7.E)"
        )
    earliest = ctx.calendar.when(ctx.rules.clock("board-reports").measure, notified[0])[0]
    if e.date < earliest:
        return (
            f"the hearing cannot open before {earliest}: {', '.join(sorted(missing))} "
            f"ha{'s' if len(missing) == 1 else 've'} not reported and have not been allowed 40 full days "
            f"after {notified[0]} "
            f"(Mansfield 25 §7.E)"
        )
    return None


S = LandDisturbanceState
MACHINE = Machine(
    kind="land-disturbance",
    states=LandDisturbanceState,
    final=frozenset({S.DENIED.value, S.REVOKED.value, S.COMPLETED.value, S.WITHDRAWN.value}),
    transitions=hearing_rows(S, opened_guards=("boards_reported_or_40_days",))
    + permit_rows(S)
    + completion_rows(S)
    + (
        # §7.G: certified mail receipts before the hearing opens; §12: surety before land
        # disturbance, released in full only after the final report and the certificate (§13, §15)
        T("mail-receipts-submitted", (ANY,), None),
        T("surety-required", (ANY,), None),
        T("surety-posted", (ANY,), None),
        # §7.I, §11.B, §10.A: the running duties (workflows/running_duties.py)
        T("project-change-noticed", (ANY,), None),
        T("project-changed", (ANY,), None),
        T("monthly-report-filed", (ANY,), None),
        T("om-plan-recorded", (ANY,), None),
        T("final-report-filed", (S.ISSUED.value, S.RENEWED.value), None),
        T("surety-released", (S.ISSUED.value, S.RENEWED.value, S.COMPLETED.value), None),
    ),
    guards={
        **COMMON_GUARDS,
        **CERTIFICATE_GUARDS,
        "boards_reported_or_40_days": Guard("boards_reported_or_40_days", boards_reported_or_40_days, "Mansfield 25 §7.E"),
    },
    conds={"incomplete": incomplete},
)
