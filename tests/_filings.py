"""Builders for filings in tests: a filing is its history (docs/reference/filing-format.md)."""

from datetime import date

from workflows.filing import parse_filing
from workflows.replay import replay

__all__ = ["filing", "replayed", "ev", "clocks_by_id"]


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
