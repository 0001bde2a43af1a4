"""Layer 6, an interface: the ``permits`` command line.  Thin commands:
argument parsing and printing, over the layers below.

:mod:`cli.args` holds what the commands share (the parser, date parsing,
"today", opening the store); each command module imports only that from
this package, and :mod:`cli.main` assembles them.  Commands that need the
store, Jinja or Prefect import them inside the command, so ``permits
clock`` and ``permits replay`` stay light.

May import: every layer below.  Never the web app beside it.
"""
