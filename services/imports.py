"""Bring filings into the store: ``permits import`` (a JSON or JSONL file of
filings, an export restored) and the workbench's New filing.  Every filing
is checked (its form, its replay, duplicate ids) and then all are written in
one unit of work, with the deposit ledger lines a Canton street opening's
events call for (:func:`services.deposits.fill_imported_in`): any refusal
and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import date
from typing import Any

from .unit_of_work import UnitOfWork

__all__ = ["import_filings", "import_in"]


def import_filings(
    store,
    objects: Iterable[Mapping[str, Any]],
    *,
    by: str,
    progress: Callable[[int], None] | None = None,
    act_default: bool = False,
    today: date | None = None,
) -> list[str]:
    """Import ``objects`` (filing JSON, docs/reference/filing-format.md)
    recorded ``by``; their ids.  ``progress`` is told how many more filings
    were checked, every 100 and at the end (the command line's bar).

    ``act_default``: the filings are new ones (``permits import``, the
    workbench's New filing), so a town's NOI or RDA that names no ``also``
    is heard under the Wetlands Protection Act too, and one heard under the
    by-law alone must say why (:func:`workflows.jurisdictions.with_act_default`).
    Without it the JSON is taken as written (the demonstration's
    generated filings, which choose their own).

    ``today``: the import's day, which each filing's clocks are stored as
    of (:func:`models.store.filings.derivation_day`; None: each filing's
    last event, the day its record last changed)."""
    if act_default:
        from workflows.jurisdictions import with_act_default

        objects = (with_act_default(obj) if isinstance(obj, Mapping) else obj for obj in objects)
    with UnitOfWork(store) as uow:
        return import_in(uow, store, objects, by=by, progress=progress, today=today)


def import_in(
    uow, store, objects: Iterable[Mapping[str, Any]], *, by: str, progress=None, today: date | None = None
) -> list[str]:
    """Write ``objects`` in ``uow`` (checked first: any refusal and nothing
    is written), with the ledger lines a street opening's events call for;
    their ids.  The one way a filing enters the store, for
    :func:`import_filings` and the workbench's numbered New filing
    (:func:`services.numbering.file_new`)."""
    from models.store.filings import import_filings as write

    from .deposits import STREET, fill_imported_in

    street: list = []
    ids = write(uow.conn, store, objects, by=by, progress=progress, parsed=street, parsed_kind=STREET, day=today)
    fill_imported_in(uow, store, street, by=by)  # a street opening's fees and deposit, from its events
    return ids
