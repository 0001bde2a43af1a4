"""An interface, the top layer: the ``permits`` command line.  Thin
commands: each parses its arguments, calls one function of the service
layer (or a read of the record) and prints the answer.

:mod:`cli.args` holds what the commands share (the parser, date parsing,
"today", the settings, opening the store, the progress bar of
:mod:`cli.progress`); each command module imports only
that from this package, and :mod:`cli.main` assembles them.  The holidays
cache in the data directory is this edge's too (:mod:`cli.holiday_cache`).  Commands that need the
store, Jinja or Prefect import them inside the command, so ``permits
clock`` and ``permits replay`` stay light.

May import: every layer below.  Never the web app beside it.
"""

__all__ = [
    "args",
    "backup",
    "check",
    "demo_clocks",
    "enforcement",
    "fees",
    "holiday_cache",
    "mail",
    "main",
    "meetings",
    "notices",
    "open_data",
    "parcels",
    "payments",
    "progress",
    "reading",
    "report",
    "rederive",
    "rules",
    "schedule",
    "store",
    "sweep",
    "towns",
    "web",
]
