"""party email index: an applicant's "My filings" by index, not by reading every filing

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30 20:10:00

A proved applicant sees the filings whose ``applicant``, ``owner`` or
``contractor`` names their email address (models/accounts/applicants.py).  These
three indexes hold each party's address, lower-cased, as it sits in the
filing's JSON ``extra``: the query uses the same expressions
(``models.accounts.applicants.party_email``), so it reads the index instead of every
filing's JSON.
"""

from typing import Sequence, Union

from alembic import op

revision: str = "0006"
down_revision: Union[str, None] = "0005"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


_ROLES = ("applicant", "owner", "contractor")


def PARTY_EMAIL_INDEXES(dialect: str) -> list[tuple[str, str]]:
    """The expressions of models/schema/party_email.py as they were at 0006 (a
    test holds the query to them: tests/models/test_applicant_email_index.py)."""
    if dialect == "postgresql":
        return [(f"ix_filing_{r}_email", f"lower((extra #>> '{{{r},email}}'))") for r in _ROLES]
    return [(f"ix_filing_{r}_email", f"lower(json_extract(extra, '$.{r}.email'))") for r in _ROLES]


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    for name, expression in PARTY_EMAIL_INDEXES(dialect):
        op.execute(f"CREATE INDEX IF NOT EXISTS {name} ON filing ({expression})")


def downgrade() -> None:
    for name, _ in PARTY_EMAIL_INDEXES(op.get_bind().dialect.name):
        op.execute(f"DROP INDEX IF EXISTS {name}")
