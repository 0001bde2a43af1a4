"""staff by name and title, invited by email, and a temporary password changed at the next login

Revision ID: 0180
Revises: 0140
Create Date: 2026-12-04 09:00:00

``app_user`` gains the person's ``full_name`` and ``title`` (shown on the
Users page, in the page's header and wherever a member of staff is named
instead of their address), ``must_change_password`` (a temporary password
an admin set: after logging in the user is sent to change it, and to
nothing else, until they do) and ``invited_at`` (an admin invited them by
email and they have not yet chosen a password from the link: the link is
an ``account_link`` of purpose ``invite``, models/accounts/account_links.py).
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0180"
down_revision: Union[str, None] = "0140"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # plain ADD COLUMN: SQLite has it, and a batch would copy the table
    op.add_column("app_user", sa.Column("full_name", sa.String(), nullable=False, server_default=""))
    op.add_column("app_user", sa.Column("title", sa.String(), nullable=False, server_default=""))
    op.add_column("app_user", sa.Column("must_change_password", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("app_user", sa.Column("invited_at", sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("app_user") as batch:
        batch.drop_column("invited_at")
        batch.drop_column("must_change_password")
        batch.drop_column("title")
        batch.drop_column("full_name")
