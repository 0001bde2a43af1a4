"""The record's shape: the SQLModel tables (:mod:`models.schema.tables`, with
the enforcement and parcel tables beside them), the Alembic migrations
(:mod:`models.schema.migrations`, run by :mod:`models.schema.migrate`), the
engines and URLs (:mod:`models.schema.db`) and the indexes' expressions that
queries repeat word for word.

Only the service layer and the record below it touch these; the interfaces
never do (the ``interfaces read the record`` contract in pyproject.toml).
"""

__all__ = [
    "clock_indexes",
    "db",
    "enforcement_tables",
    "location",
    "meeting_tables",
    "migrate",
    "migrations",
    "parcel_tables",
    "party_email",
    "portable",
    "tables",
    "town_fee_tables",
]
