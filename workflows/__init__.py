"""The permit core, above date law: a filing and its events, one state machine per
permit kind (the permit's workflow: NOI, RDA, Land Disturbance, Street
Opening), the guards, the rule book with each town's clocks as cited data
(:mod:`workflows.towns`), and the replay that derives a filing's state and
clocks from its history.  The end of a permit's life (the Certificate of
Compliance, :mod:`workflows.certificates`; what must be on record before
work, :mod:`workflows.before_work`) and enforcement, a record of its own
(a case's events, machine and clocks, :mod:`workflows.enforcement`,
:mod:`workflows.enforcement_replay`; each town's fines,
:mod:`workflows.fines`).  Also the pure rules the record applies (the
docket's statuses, the deposit ledger's arithmetic), the facts of the
town's departments (:mod:`workflows.departments`), the project's one CSV
writer, formula-safe (:mod:`workflows.spreadsheet`: pure, so every CSV
maker above may use it), the one table of human names for every event,
clock, state, field and status (:mod:`workflows.vocabulary`) and dates as
people write them (:mod:`workflows.written`), a filing's stage as every
page names it (:mod:`workflows.stage`; every stage a filter offers,
:mod:`workflows.stage_choices`), the events that fit a filing now
(:mod:`workflows.offered`), a filing's particulars
(:mod:`workflows.particulars`), each town's application fee and the
payments against it (:mod:`workflows.fees`), a street opening's
inspections asked for online (:mod:`workflows.inspection_requests`), a
filing's numbers, the town's running number and the MassDEP file number
(:mod:`workflows.numbers`), site addresses made comparable, the one table
of street suffixes (:mod:`workflows.sites`), and the project's error tree (drawn in
:mod:`workflows.errors`).

May import: :mod:`calendars` and the standard library.  No database, no
templates, no Prefect, no web framework, no I/O, no clock (checked by the
import-linter contracts in pyproject.toml).
"""

__all__ = [
    "abutter_rules",
    "before_work",
    "blds",
    "certificates",
    "clock_rows",
    "clocks",
    "corrections",
    "departments",
    "deposit_events",
    "deposit_schedule",
    "deposits",
    "docket",
    "enforcement",
    "enforcement_replay",
    "errors",
    "event_fields",
    "explain",
    "extension_acts",
    "fees",
    "filing",
    "fines",
    "guards",
    "ids",
    "inputs",
    "inspection_requests",
    "inspections",
    "jurisdictions",
    "land_disturbance",
    "machine",
    "maintenance",
    "meetings",
    "noi",
    "numbers",
    "offered",
    "offices",
    "particulars",
    "rda",
    "record",
    "reports",
    "replay",
    "rulebook",
    "running_duties",
    "sites",
    "spreadsheet",
    "stage",
    "stage_choices",
    "standing",
    "street_excavation",
    "street_opening",
    "submission",
    "superseding",
    "town_file",
    "towns",
    "unpermitted",
    "violations",
    "vocabulary",
    "wetlands",
    "written",
]
