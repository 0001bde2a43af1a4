"""The record: the SQLModel store (tables, migrations) and the service the
command line calls.  The core (calendars/, workflows/) never imports this."""

__all__ = ["db", "tables", "migrate", "service", "outputs", "notice_log"]
