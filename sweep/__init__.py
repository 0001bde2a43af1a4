"""The application: the daily sweep over every open filing
(:mod:`sweep.run`), what it decides (:mod:`sweep.agenda`: the docket lines,
the DPW schedule, reminders, notices due), a filing's calendar
(:mod:`sweep.calendar_items`), what it writes (the digest
:mod:`sweep.report` through its spool :mod:`sweep.spool`; the ICS feeds
through :mod:`notices.ics`), where it reads and records
(:mod:`sweep.store_source`, :mod:`sweep.ledger`), how it asks for a notice
(:mod:`sweep.dispatch`), and the Prefect flow that runs it
(:mod:`sweep.flows`, its embedded environment :mod:`sweep.prefect_env`).

May import: :mod:`config`, :mod:`notices`, :mod:`models`, :mod:`workflows`,
:mod:`calendars`, Prefect.  Never the demo beside it, the service layer or
an interface.
"""

__all__ = [
    "agenda",
    "calendar_items",
    "dispatch",
    "flows",
    "ledger",
    "prefect_env",
    "report",
    "run",
    "spool",
    "store_source",
]
