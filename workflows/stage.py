"""A filing's stage: where it stands, named once for every reader.

The machine's state is what the guards read; the stage is what people are
told, in the filing's header, the Filings list and its filter, Today, the
applicant's pages and the command line.  The two are the same but for one
act: an online application the town found incomplete stays ``submitted``
in its machine (:mod:`workflows.submission`: the next submission answers
the finding), but it is no longer waiting for the town.  Its stage is
``incomplete``, the stage of an application filed on paper and found
incomplete, "Incomplete, sent back to the applicant"; a resubmission puts
it back to ``submitted``, "Submitted online, to check".

The store keeps the stage in the filing's ``state`` column (written by
:func:`models.store.filings.derived_from` from :attr:`Replay.stage
<workflows.replay.Replay.stage>`), so the Filings filter, Today and the
applicant's list read the same word the filing's page shows.  Every stage
a kind can show, for a filter, is in :mod:`workflows.stage_choices` (it
reads the machines, which replay a filing into its stage here).

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable

from .filing import VOID, Filing
from .vocabulary import state_name

__all__ = ["INCOMPLETE", "stage_of", "stage_of_events", "stage_name"]

#: the stage of an application sent back to its applicant, online or on paper
INCOMPLETE = "incomplete"
SUBMITTED = "submitted"
#: the events that answer one another while an online application waits
_SUBMISSION = frozenset({"submitted", "found-incomplete"})


def stage_of_events(state: str, live: Iterable) -> str:
    """The stage of a filing in machine ``state`` whose live events (voided
    ones left out) are ``live``, in the replay's order: ``incomplete`` when
    the application is ``submitted`` and its last submission was answered
    by an incomplete finding, else the state itself."""
    state = str(state)
    if state != SUBMITTED:
        return state
    last = None
    for e in live:
        if e.type in _SUBMISSION:
            last = e.type
    return INCOMPLETE if last == "found-incomplete" else state


def stage_of(filing: Filing, state: str) -> str:
    """The stage of ``filing`` in machine ``state`` (its replay's), read
    from its history."""
    if str(state) != SUBMITTED:
        return str(state)
    voided = {e.get("voids") for e in filing.events if e.type == VOID}
    live = sorted((e for e in filing.events if e.type != VOID and e.position not in voided), key=lambda e: (e.date, e.position))
    return stage_of_events(state, live)


def stage_name(kind: str, stage: str) -> str:
    """The stage in people's words ("Incomplete, sent back to the applicant")."""
    return state_name(kind, str(stage))
