"""The permit core, above date law: a filing and its events, one state machine per
permit kind (the permit's workflow: NOI, RDA, Land Disturbance, Street
Opening), the guards, the rule book with each town's clocks as cited data
(:mod:`workflows.towns`), and the replay that derives a filing's state and
clocks from its history.  Also the pure rules the record applies (the
docket's statuses, the deposit ledger's arithmetic), the facts of the
town's departments (:mod:`workflows.departments`), the project's one CSV
writer, formula-safe (:mod:`workflows.spreadsheet`: pure, so every CSV
maker above may use it), and the project's error tree (drawn in
:mod:`workflows.errors`).

May import: :mod:`calendars` and the standard library.  No database, no
templates, no Prefect, no web framework, no I/O, no clock (checked by the
import-linter contracts in pyproject.toml).
"""

__all__ = [
    "clocks",
    "departments",
    "deposit_events",
    "deposits",
    "docket",
    "errors",
    "event_fields",
    "explain",
    "extension_acts",
    "filing",
    "guards",
    "ids",
    "inputs",
    "inspections",
    "land_disturbance",
    "machine",
    "noi",
    "rda",
    "record",
    "replay",
    "rulebook",
    "spreadsheet",
    "standing",
    "street_opening",
    "submission",
    "towns",
    "violations",
    "wetlands",
]
