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
applicant's list read the same word the filing's page shows.

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .filing import VOID, Filing
from .vocabulary import ANY, STATE_NAMES, state_name

__all__ = ["INCOMPLETE", "stage_of", "stage_of_events", "stage_name", "stages", "stage_choices"]

#: the stage of an application sent back to its applicant, online or on paper
INCOMPLETE = "incomplete"
_SUBMITTED = "submitted"
#: the events that answer one another while an online application waits
_SUBMISSION = frozenset({"submitted", "found-incomplete"})


def stage_of_events(state: str, live: Iterable) -> str:
    """The stage of a filing in machine ``state`` whose live events (voided
    ones left out) are ``live``, in the replay's order: ``incomplete`` when
    the application is ``submitted`` and its last submission was answered
    by an incomplete finding, else the state itself."""
    state = str(state)
    if state != _SUBMITTED:
        return state
    last = None
    for e in live:
        if e.type in _SUBMISSION:
            last = e.type
    return INCOMPLETE if last == "found-incomplete" else state


def stage_of(filing: Filing, state: str) -> str:
    """The stage of ``filing`` in machine ``state`` (its replay's), read
    from its history."""
    if str(state) != _SUBMITTED:
        return str(state)
    voided = {e.get("voids") for e in filing.events if e.type == VOID}
    live = sorted((e for e in filing.events if e.type != VOID and e.position not in voided), key=lambda e: (e.date, e.position))
    return stage_of_events(state, live)


def stage_name(kind: str, stage: str) -> str:
    """The stage in people's words ("Incomplete, sent back to the applicant")."""
    return state_name(kind, str(stage))


def stages(kind: str) -> tuple[str, ...]:
    """Every stage a filing of ``kind`` can show: its machine's states
    (and those of a machine a town picks for the kind instead,
    :data:`workflows.replay.VARIANTS`), and ``incomplete`` where an
    application may be submitted online."""
    from .replay import MACHINES, VARIANTS
    from .rulebook import KINDS

    if kind not in KINDS:
        return ()
    machines = [MACHINES[kind]] + [m for m in VARIANTS.values() if m.kind == kind]
    out: list[str] = []
    for m in machines:
        for s in m.states:
            if s.value not in out:
                out.append(s.value)
    if _SUBMITTED in out and INCOMPLETE not in out:
        out.insert(out.index(_SUBMITTED) + 1, INCOMPLETE)
    return tuple(out)


def stage_choices(kinds: Sequence[str]) -> list[tuple[str, str]]:
    """The stages of ``kinds`` as (stage, name) for a filter, each stage
    once: named as its kind names it when one kind is in view, else by its
    common name (an NOI's "issued" is an Order of Conditions, a street
    opening's a permit: "Permit issued")."""
    seen: dict[str, str] = {}
    for kind in kinds:
        for s in stages(kind):
            seen.setdefault(s, stage_name(kind, s) if len(kinds) == 1 else STATE_NAMES.get((ANY, s)) or stage_name(kind, s))
    return list(seen.items())
