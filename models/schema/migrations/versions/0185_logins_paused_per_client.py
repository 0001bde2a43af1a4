"""failed logins kept per (address typed, client), and each client's last good login

Revision ID: 0185
Revises: 0184
Create Date: 2026-12-04 05:00:00

Failed logins no longer lock an account for everyone (issue 35: five wrong
passwords from strangers locked out the admin).  ``login_attempt`` keeps
each failure with the address typed and the client's address, so only
that client's logins to that address pause (models/accounts/login_pauses.py),
and each client's last good login, so a known client is not paused when
many strangers guess at once.  ``app_user.failed_logins`` and
``locked_until`` stay, unused.
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0185"
down_revision: Union[str, None] = "0184"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "login_attempt",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("email", sa.String(), nullable=False),
        sa.Column("client", sa.String(), nullable=False),
        sa.Column("ok", sa.Boolean(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_login_attempt_key", "login_attempt", ["email", "client", "at"])
    op.create_index("ix_login_attempt_at", "login_attempt", ["at"])


def downgrade() -> None:
    op.drop_index("ix_login_attempt_at", table_name="login_attempt")
    op.drop_index("ix_login_attempt_key", table_name="login_attempt")
    op.drop_table("login_attempt")
