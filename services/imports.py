"""Bring filings into the store: ``permits import`` (a JSON or JSONL file of
filings, an export restored) and the workbench's New filing.  Every filing
is checked (its form, its replay, duplicate ids) and then all are written in
one unit of work, with the deposit ledger lines a Canton street opening's
events call for (:func:`services.deposits.fill_imported_in`): any refusal
and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .unit_of_work import UnitOfWork

__all__ = ["import_filings"]


def import_filings(
    store, objects: Iterable[Mapping[str, Any]], *, by: str, progress: Callable[[int], None] | None = None
) -> list[str]:
    """Import ``objects`` (filing JSON, docs/reference/filing-format.md)
    recorded ``by``; their ids.  ``progress`` is told how many more filings
    were checked, every 100 and at the end (the command line's bar)."""
    from models.store.filings import import_filings as write

    from .deposits import STREET, fill_imported_in

    with UnitOfWork(store) as uow:
        street: list = []
        ids = write(uow.conn, store, objects, by=by, progress=progress, parsed=street, parsed_kind=STREET)
        fill_imported_in(uow, store, street, by=by)  # a street opening's fees and deposit, from its events
        return ids
