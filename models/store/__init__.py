"""The store's writes, each on the connection of the service layer's unit
of work (``services/unit_of_work.py``), which commits: nothing here begins,
commits or rolls back.

The filings (:mod:`models.store.filings`: import, record, the derived rows),
many rows at once (:mod:`~models.store.bulk`), the town's running numbers
(:mod:`~models.store.filing_numbers`), the docket's tally, the deposit
ledger, the email outbox, the sweep's output log, uploads, parties,
corrections, enforcement cases, meetings and the assessors' parcels.
"""

__all__ = [
    "abutters",
    "bulk",
    "corrections",
    "deposit_ledger",
    "docket_tally",
    "enforcement",
    "filing_numbers",
    "filings",
    "meetings",
    "notices",
    "outbox",
    "outputs",
    "parcels",
    "parties",
    "town_fees",
    "transfer",
    "uploads",
]
