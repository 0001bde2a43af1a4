"""account_link: registrations proved by their email link, password resets

Revision ID: 0060
Revises: 0010
Create Date: 2026-12-01 22:00:00

A registration used to make a usable account at once, for whatever address
was typed.  It now waits, as an ``account_link`` row (the address, the
password's argon2 hash, the SHA-256 of the emailed link's token), until
its link is followed; a forgotten password is reset by a link of the same
table, valid one hour.  The emails of an account (no filing) go through
the outbox like every other: ``notice.filing_id`` may now be empty.
"""
import warnings
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0060'
down_revision: Union[str, None] = "0040"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('account_link',
    sa.Column('token_sha256', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('purpose', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('email', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('password_hash', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.Column('used_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], ),
    sa.PrimaryKeyConstraint('token_sha256')
    )
    with op.batch_alter_table('account_link', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_account_link_email'), ['email'], unique=False)
        batch_op.create_index(batch_op.f('ix_account_link_user_id'), ['user_id'], unique=False)
    with warnings.catch_warnings():  # SQLite's copy reflects filing's expression indexes, which it leaves alone
        warnings.filterwarnings("ignore", "Skipped unsupported reflection of expression-based index")
        with op.batch_alter_table('notice', schema=None) as batch_op:
            batch_op.alter_column('filing_id', existing_type=sqlmodel.sql.sqltypes.AutoString(), nullable=True)


def downgrade() -> None:
    op.execute("DELETE FROM email_message WHERE notice_id IN (SELECT id FROM notice WHERE filing_id IS NULL)")
    op.execute("DELETE FROM notice WHERE filing_id IS NULL")
    with op.batch_alter_table('notice', schema=None) as batch_op:
        batch_op.alter_column('filing_id', existing_type=sqlmodel.sql.sqltypes.AutoString(), nullable=False)
    with op.batch_alter_table('account_link', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_account_link_user_id'))
        batch_op.drop_index(batch_op.f('ix_account_link_email'))
    op.drop_table('account_link')
