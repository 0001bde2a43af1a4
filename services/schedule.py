"""The DPW's schedule: a street opening's inspections, expiries and windows
in the weeks ahead (overdue ones first), within the towns given; the
workbench's Schedule page and ``permits schedule`` show it.

Its rows are the store's (:func:`models.workbench.docket` with
``schedule``), and the inspection after a temporary patch the sweep's own
rule (:func:`sweep.agenda.patch_inspection_entry`: the first business day
after the patch, by the town's section), so the page and the sweep's
schedule cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from models.queries import DocketRow

__all__ = ["SCHEDULE_WITHIN", "STREET", "dpw_schedule"]

SCHEDULE_WITHIN = 42
STREET = "street-opening"


def dpw_schedule(store, *, as_of: date, within: int = SCHEDULE_WITHIN, towns: Sequence[str] | None) -> list[DocketRow]:
    """The schedule on ``as_of`` for ``within`` days, for ``towns`` (None:
    every town), soonest first, overdue ones (before ``as_of``) at the top."""
    from models import workbench

    rows = workbench.docket(store, as_of=as_of, within=within, towns=towns, kinds=[STREET], schedule=True)
    rows += _patch_inspections(store, towns, as_of)
    rows.sort(key=lambda r: (r.date, r.filing, r.clock))
    return rows


def _patch_inspections(store, towns, as_of: date) -> list[DocketRow]:
    from models import workbench
    from models.queries import DocketRow
    from sweep.agenda import patch_inspection_entry
    from workflows.departments import PATCH_EVENTS

    found = workbench.events_in_state(store, kind=STREET, state="temporary-patch", towns=towns, types=PATCH_EVENTS)
    rows = []
    for f, events in found:
        entry = patch_inspection_entry(f.town, f.id, f.state, events, as_of)
        if entry is None:
            continue
        rows.append(
            DocketRow(
                date.fromisoformat(entry.date),
                entry.status,
                f.id,
                f.town,
                f.kind,
                f.state,
                entry.what,
                entry.rule,
                entry.explanation,
                "inspect the temporary patch",
                None,
                f.address,
                f.applicant,
                f.contractor,
                f.last_seq,
            )
        )
    return rows
