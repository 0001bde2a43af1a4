"""A party's email address in a filing's JSON, as one SQL expression per
database: the text of the indexes of migration 0006, so the database finds
a proved applicant's filings through them (tests/models/test_applicant_email_index.py
checks the plans).  The roles are the fixed tuple below, never user text."""

from __future__ import annotations

from sqlalchemy import String, literal_column
from sqlalchemy.sql.elements import ColumnElement

__all__ = ["PARTY_EMAIL_ROLES", "PARTY_EMAIL_INDEXES", "party_email"]

PARTY_EMAIL_ROLES = ("applicant", "owner", "contractor")
#: The indexes of these expressions (migration 0006).  Alembic cannot
#: compare an expression index with the models on every database, so the
#: schema test leaves these names out and tests/models/test_applicant_email_index.py
#: checks the plans instead.
PARTY_EMAIL_INDEXES = frozenset(f"ix_filing_{role}_email" for role in PARTY_EMAIL_ROLES)


def _expression(dialect: str, role: str, table: str = "") -> str:
    if role not in PARTY_EMAIL_ROLES:
        raise ValueError(f"not a party role: {role!r}")
    column = f"{table}.extra" if table else "extra"
    if dialect == "postgresql":
        return f"lower(({column} #>> '{{{role},email}}'))"
    return f"lower(json_extract({column}, '$.{role}.email'))"


def party_email(dialect: str, role: str) -> ColumnElement:
    """The lower-cased ``{role}.email`` of the filing row, as indexed."""
    return literal_column(_expression(dialect, role, "filing"), String)
