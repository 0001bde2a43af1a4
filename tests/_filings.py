"""Builders for filings in tests: a filing is its history (docs/reference/filing-format.md).

Below them, the helpers that tests/workflows/ shares with its towns/ folder
(one file per town): a test moved to its town's file keeps the helper it
used, and the topic file it came from keeps it too."""

import copy
from datetime import date

import pytest

from workflows.errors import TransitionRefused
from workflows.filing import parse_filing
from workflows.replay import replay
from workflows.towns import town

__all__ = [
    "filing",
    "replayed",
    "ev",
    "clocks_by_id",
    "OYSTER",
    "clock",
    "refused",
    "DIG",
    "street",
    "CANTON_NOI_OPEN",
    "_street_issued",
    "MINIMAL",
    "_minimal",
    "_text",
]


def ev(type_, day=None, **fields):
    """One event; ``day`` is the ISO date (or, for an `at` event, pass at=)."""
    out = {"type": type_}
    if day is not None:
        out["date"] = day
    out.update(fields)
    return out


def filing(town, kind, *events, also=None, id_="TEST-1"):
    obj = {"town": town, "kind": kind, "id": id_, "events": list(events)}
    if also:
        obj["also"] = list(also)
    return obj


def replayed(town, kind, *events, as_of="2026-12-31", also=None):
    return replay(parse_filing(filing(town, kind, *events, also=also)), date.fromisoformat(as_of))


def clocks_by_id(result):
    return {c.id: c for c in result.clocks}


# -- shared by tests/workflows/ and tests/workflows/towns/ ------------------------------

#: The case a late wetlands decision cites in its explanation.
OYSTER = "Oyster Creek v. Harwich, 449 Mass. 859 (2007)"


def clock(town_id, kind, clock_id):
    profile = town(town_id)
    measure = profile.rules(kind).clock(clock_id).measure
    return lambda start, count=None: measure.reckon(profile.calendar, start, count)


def refused(town, kind, *events, match):
    with pytest.raises(TransitionRefused, match=match) as err:
        replayed(town, kind, *events)
    return err.value


# Canton: a wetlands hearing opened, a street opening permit issued (16-12)

CANTON_NOI_OPEN = (
    ev("filed", "2026-06-01"),
    ev("hearing-scheduled", "2026-06-02", hearing="2026-06-16"),
    ev("hearing-opened", "2026-06-16"),
)

DIG = ev("dig-safe-obtained", "2026-06-01", ticket="20262201234")


def street(*events, as_of="2026-07-31"):
    return replayed(
        "canton",
        "street-opening",
        ev("filed", "2026-06-01", applicant="private", length_ft=20),
        DIG,
        ev("permit-issued", "2026-06-01"),
        *events,
        as_of=as_of,
    )


def _street_issued(*rest):
    return (
        ev("filed", "2026-06-01"),
        ev("dig-safe-obtained", "2026-06-01", ticket="1"),
        ev("permit-issued", "2026-06-01"),
        *rest,
    )


# A notice from a filing that gives only the site, the applicant and the project
# (the notice modules are imported when a notice is rendered, not with this module).

MINIMAL = {
    "site": {"address": "12 Pleasant St", "parcel": "7-101"},
    "applicant": {
        "name": "Ana Lopes",
        "address": {"street": "12 Pleasant St", "city": "Canton", "state": "MA", "zip": "02021"},
    },
    "project": {"description": "a deck within the buffer zone"},
}


def _minimal(town_id, kind, notice, **extra):
    """The fixture's events for ``notice``, on a filing that gives only the
    site, the applicant and the project (plus ``extra``)."""
    from notice_fixtures import _street_events, _wetlands_events

    events = _street_events(notice) if kind == "street-opening" else _wetlands_events(kind, town_id, notice)
    return parse_filing({"town": town_id, "kind": kind, "id": "MIN-1", **MINIMAL, **extra, "events": copy.deepcopy(events)})


def _text(filing, kind, notice):
    from notice_fixtures import ABUTTERS_CSV, DATED, as_of_for

    from notices.abutters import merge_same_owner, parse_abutters
    from notices.produce import produce

    abutters = merge_same_owner(parse_abutters(ABUTTERS_CSV)) if notice == "abutter-notice" else None
    outs = produce(filing, replay(filing, as_of_for(kind, notice)), notice, abutters=abutters, fmt="txt", dated=DATED)
    return "\n".join(o.content for o in outs if o.filename.endswith(".txt"))
