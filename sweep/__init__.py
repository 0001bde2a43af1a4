"""The application: the daily sweep over every open filing
(:mod:`sweep.run`), what it decides (:mod:`sweep.agenda`: the docket lines,
the DPW schedule, reminders, notices due), a filing's calendar
(:mod:`sweep.calendar_items`), what it writes (the digest
:mod:`sweep.report` through its spool :mod:`sweep.spool`; the ICS feeds
through :mod:`notices.ics`), where it reads and records
(:mod:`sweep.store_source`, :mod:`sweep.ledger`), how it asks for a notice
(:mod:`sweep.dispatch`), a notice limit kept once for a run whose chunks
run apart (:mod:`sweep.notice_budget`), and Prefect's embedded environment
(:mod:`sweep.prefect_env`).  A run is assembled, and run as a Prefect
flow, by the service layer (``services/sweep.py``, ``services/sweep_flow.py``),
which records its outputs on the store in its units of work
(``services/sweep_log.py``).

May import: :mod:`config`, :mod:`notices`, the record's reads
(:mod:`models`), :mod:`workflows`, :mod:`calendars`.  Never the demo beside
it, the service layer or an interface; it writes to the store only through
the output log it is handed.
"""

__all__ = [
    "agenda",
    "calendar_items",
    "dispatch",
    "ledger",
    "next_change",
    "notice_budget",
    "prefect_env",
    "report",
    "run",
    "spool",
    "store_source",
]
