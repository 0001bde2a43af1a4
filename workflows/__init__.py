"""Permit lifecycles, the rule book and the command line.

The domain half (rule book, towns, machines, replay) is pure core: no I/O,
no clock.  ``workflows.cli`` is the edge."""
