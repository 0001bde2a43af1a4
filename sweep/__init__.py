"""Layer 5, the application: the daily sweep over every open filing
(:mod:`sweep.run`), what it decides (:mod:`sweep.agenda`: the docket lines,
the DPW schedule, reminders, notices due), what it writes (the digest
:mod:`sweep.report`, the ICS feeds :mod:`sweep.ics`), where it reads and
records (:mod:`sweep.store_source`, :mod:`sweep.ledger`), the Prefect flow
that runs it (:mod:`sweep.flows`), and the generated demonstration filings
(:mod:`sweep.generate`).

May import: :mod:`notices`, :mod:`models`, :mod:`workflows`, :mod:`calendars`,
Prefect and icalendar.  Never an interface.
"""
