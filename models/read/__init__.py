"""The read models: what the pages, the command line and the sweep read of
the record, never writing.  The queries as SQL text
(:mod:`models.read.queries`, run on SQLite by the standard library's driver
too: :mod:`~models.read.sqlite_reader`), the workbench's reads
(:mod:`~models.read.workbench`), search and the filings list, the docket's
counts, the map's sites, the DPW schedule and the applications to check.

The interfaces (``cli/``, ``web/``) may import these, the record's errors
and its types, and nothing else of :mod:`models`.
"""

__all__ = [
    "deposits",
    "derived",
    "docket_counts",
    "enforcement",
    "filing_list",
    "hearings",
    "inspection_requests",
    "inspection_schedule",
    "map_sites",
    "meetings",
    "notices",
    "open_data",
    "outbox",
    "parcels",
    "queries",
    "reports",
    "search",
    "snapshot",
    "sqlite_reader",
    "submitted",
    "sweep_work",
    "town_fees",
    "workbench",
]
