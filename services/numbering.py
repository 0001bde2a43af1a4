"""A new filing's number: the next of its town's running sequence for its
kind and the year it was filed (``CAN-NOI-2026-000097`` after
``CAN-NOI-2026-000096``: :mod:`workflows.numbers`), found under a lock in
the unit of work that imports the filing (:mod:`models.store.filing_numbers`),
so two filings made at once, in the workbench or online, get two
consecutive numbers on SQLite and PostgreSQL alike.  A number given by
hand (the workbench's New filing lets staff give one) is kept as given.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from .unit_of_work import UnitOfWork

__all__ = ["numbered", "file_new"]


def numbered(conn, obj: Mapping[str, Any]) -> dict:
    """``obj`` (a new filing's JSON) with its number: the one given, else
    the next of the sequence of its town, kind and the year of its first
    event (when it was filed, or submitted online), the sequence locked
    until ``conn``'s unit of work ends.  The caller imports it in that
    unit of work."""
    from models.store.filing_numbers import last_running_number
    from workflows.numbers import running_id, running_prefix

    if obj.get("id"):
        return dict(obj)
    events = obj.get("events") or [{}]
    year = date.fromisoformat(str(events[0].get("date"))[:10]).year
    prefix = running_prefix(str(obj.get("town")), str(obj.get("kind")), year)
    return {**obj, "id": running_id(prefix, last_running_number(conn, prefix) + 1)}


def file_new(store, obj: Mapping[str, Any], *, by: str) -> str:
    """Number a new filing (:func:`numbered`) and import it, recorded
    ``by``, in one unit of work: the workbench's New filing.  A town's NOI
    or RDA naming no ``also`` is heard under the Act too
    (:func:`workflows.jurisdictions.with_act_default`); a street opening's
    charges go to the ledger (:func:`services.imports.import_in`).  Its
    number."""
    from workflows.jurisdictions import with_act_default

    from .imports import import_in

    with UnitOfWork(store) as uow:
        [filing_id] = import_in(uow, store, [numbered(uow.conn, with_act_default(obj))], by=by)
    return filing_id
