"""Where a filing stands, in words, for its applicant: the state as a
sentence, the next things the applicant must do and the town must do (each
with its day and rule), and the hearing.  Pure: the replay and today come in.

Whose turn a clock is: :data:`APPLICANT_CLOCKS` are the applicant's (or the
permit holder's) to meet; every other open deadline is the town's.

Before the town finds an online application complete no clock runs, yet
someone has a turn: the town's, to check that it is complete
(:data:`COMPLETENESS_CHECK`: no by-law gives the check a day,
docs/reference/readings.md), or, once the town has found it incomplete, the
applicant's, to correct what the town named and submit it again
(:data:`CORRECT_AND_RESUBMIT`, no day either).  Such a step has ``by`` None.

The decision, once issued (:data:`DECISIONS`), is read from its event: its
name, its day and the conditions recorded with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime

from .filing import VOID
from .submission import submission_of
from .written import day_written

__all__ = [
    "APPLICANT_CLOCKS",
    "TOWN_ACTIONS",
    "COMPLETENESS_CHECK",
    "CORRECT_AND_RESUBMIT",
    "DECISIONS",
    "Step",
    "Decision",
    "Standing",
    "standing_of",
    "applicant_clock",
]

#: Clocks the applicant (or permit holder) must meet: what to do, and the
#: towns where it is theirs (None: wherever the clock exists).  The
#: newspaper notice is the applicant's where the by-law puts it at their
#: expense (Canton 15-5, Mansfield 25 §7.G).
APPLICANT_CLOCKS: Mapping[str, tuple[str, frozenset | None]] = {
    "renewal-request": ("ask the town in writing to renew the permit", None),
    "construction-notice": ("give the town written notice before construction starts", None),
    "newspaper-notice": ("have the hearing notice published in the newspaper", frozenset({"canton", "mansfield"})),
    "emergency-filing": ("file the application for the emergency work", None),
    "winter-patch": ("place the winter preparation patch", None),
    "permanent-patch-window-closes": ("place the permanent patch", None),
    "after-hours-payment": ("pay the after-hours inspection invoice", None),
    "monthly-report": ("send the Commission this month's report of your inspections", None),
    "annual-notice": ("tell the Commission the time and place of this year's maintenance work", None),
    "emergency-continuation": ("file a Notice of Intent for the work to go on past the emergency certification", None),
}

#: What the town does to meet its clocks, in words.
TOWN_ACTIONS: Mapping[str, str] = {
    "hearing-open": "open the public hearing",
    "newspaper-notice": "publish the hearing notice",
    "hearing-posting": "post the hearing notice at Town Hall",
    "hearing-notice": "give notice of the hearing",
    "decision": "issue its decision",
    "settlement-answer": "answer the settlement inspection",
    "certification-answer": "answer the certification request",
    "revocation-notice": "give written notice of the revocation hearing",
    "certificate-decision": "issue the Certificate of Compliance or deny it in writing",
}

#: The town's step while an online application waits to be checked.  None
#: of the by-laws sets a day for the check: their deadlines count from the
#: receipt of a complete application (Canton 15-5, Saugus 508.08 §5.2;
#: Mansfield 25 §7.D: "completeness is determined first").
COMPLETENESS_CHECK = (
    "check that the application is complete",
    "no by-law sets a day for this check; the deadlines count from the day the town finds it complete",
)
#: The applicant's step once the town has found the application incomplete.
CORRECT_AND_RESUBMIT = (
    "correct what the town named and submit the application again",
    "no day is set; no deadline runs until the town finds the application complete",
)
#: The events that are a decision on the application, and the certificate at the end.
DECISIONS = ("permit-issued", "permit-denied", "determination-issued", "certificate-issued", "certificate-denied")

_STATES: Mapping[str, str] = {
    "incomplete": "The town has the application but found it incomplete.",
    "filed": "The application is complete and on file; the hearing is to be scheduled.",
    "applied": "The application is complete and on file; the permit is to be issued or refused.",
    "hearing-scheduled": "The public hearing is scheduled.",
    "hearing-open": "The public hearing is open.",
    "hearing-closed": "The hearing has closed; the decision is to be issued.",
    "issued": "The permit is issued.",
    "renewed": "The permit is issued and was renewed.",
    "denied": "The application was denied.",
    "revoked": "The permit was revoked.",
    "completed": "The work is certified complete.",
    "certified": "The Certificate of Compliance is issued; recorded at the Registry of Deeds, it closes the Order.",
    "restored": "The street is restored; the permittee answers for repairs the digging makes necessary for one year.",
    "withdrawn": "The application was withdrawn.",
    "negative-determination": "Negative determination: the by-law does not require a Notice of Intent for this work.",
    "positive-determination": "Positive determination: a Notice of Intent is required for this work.",
    "emergency-work": "Emergency work was started; the application is to follow.",
    "excavating": "The permit is issued and the excavation is under way.",
    "backfilled": "The trench is backfilled; the temporary patch comes next.",
    "temporary-patch": "The temporary patch is in place.",
    "permanent-patch": "The permanent patch is in place; the final inspection comes next.",
    "final-inspected": "The final inspection passed; the deposit is to be refunded.",
    "closed": "Closed: the work is done and the deposit settled.",
}


@dataclass(frozen=True)
class Step:
    """One thing to do: ``by`` its day (None: no rule sets one), under ``rule``."""

    what: str
    by: date | None
    rule: str
    overdue: bool = False
    clock: str = ""


@dataclass(frozen=True)
class Decision:
    """A decision on the record: its event, its day and the conditions given with it."""

    event: str
    on: date
    conditions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Standing:
    words: str
    applicant_next: list[Step] = field(default_factory=list)
    town_next: list[Step] = field(default_factory=list)
    hearing: date | None = None
    hearing_at: datetime | None = None
    #: what the town named when it found the application incomplete (None: not sent back)
    asked: str | None = None
    #: the decisions on the record, in order (the permit, then its certificate)
    decisions: tuple[Decision, ...] = ()


def applicant_clock(clock_id: str, town: str) -> str | None:
    """What the applicant must do for this clock, or None if it is not theirs."""
    got = APPLICANT_CLOCKS.get(clock_id.split(":")[-1])
    if got is None or (got[1] is not None and town not in got[1]):
        return None
    return got[0]


def standing_of(filing, replay, today: date) -> Standing:
    """The filing's standing on ``today`` from its replay (its own clocks,
    not another jurisdiction's, which the town tracks)."""
    sub = submission_of(filing)
    state = str(replay.state)
    if state == "submitted":
        if sub.awaiting_applicant:
            words = (
                f"The town found the application incomplete on {day_written(sub.incomplete_on)}: {sub.reasons} "
                f"Correct it and submit it again; no deadline runs until the town finds it complete."
            )
        else:
            words = (
                f"Submitted online on {day_written(sub.submitted_on)}; the town is checking that it is complete. "
                f"No deadline runs until it is."
            )
    else:
        words = _STATES.get(state, f"The filing is {state}.")
        if sub.complete_on is not None:
            words += f" The town received the complete application on {day_written(sub.complete_on)}."
    mine, theirs = [], []
    if state == "submitted":
        what, rule = CORRECT_AND_RESUBMIT if sub.awaiting_applicant else COMPLETENESS_CHECK
        (mine if sub.awaiting_applicant else theirs).append(Step(what, None, rule))
    for c in replay.clocks:
        if c.type != "deadline" or c.status not in ("open", "overdue") or ":" in c.id:
            continue
        what = applicant_clock(c.id, filing.town)
        step = Step(what or TOWN_ACTIONS.get(c.id, c.id.replace("-", " ")), c.date, c.rule, c.status == "overdue", c.id)
        (mine if what else theirs).append(step)
    hearing = hearing_at = None
    decisions = []
    voided = {e.get("voids") for e in filing.events if e.type == VOID}
    for e in filing.events:
        if e.position in voided:
            continue
        if e.type == "hearing-scheduled":
            hearing, hearing_at = e.get("hearing"), e.at
        elif e.type == "hearing-continued":
            hearing, hearing_at = e.get("to"), e.at
        elif e.type in DECISIONS:
            decisions.append(Decision(e.type, e.date, tuple(e.get("conditions") or e.get("continuing") or ())))
    key = lambda s: (s.by is not None, s.by or date.min, s.clock)  # noqa: E731  (a step without a day first)
    asked = sub.reasons if state == "submitted" and sub.awaiting_applicant else None
    return Standing(words, sorted(mine, key=key), sorted(theirs, key=key), hearing, hearing_at, asked, tuple(decisions))
