"""web_session: sessions the server can end

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04 10:00:00

Until now a session was only its signed cookie: logging out cleared the
browser's copy, and a copy taken before still opened the pages for the
rest of its 10 hours.  Each login now writes a row (the SHA-256 of the
cookie's random session token); a page opens only for a session whose row
is there and unexpired.  Logging out deletes the row; a password change, a
reset by ``permits users passwd`` and disabling the account delete every
row of the user.  Sessions made before this revision carry no token: they
end, and their users log in again once.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0010'
down_revision: Union[str, None] = '0009'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('web_session',
    sa.Column('token_sha256', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], ),
    sa.PrimaryKeyConstraint('token_sha256')
    )
    with op.batch_alter_table('web_session', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_web_session_expires_at'), ['expires_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_web_session_user_id'), ['user_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('web_session', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_web_session_user_id'))
        batch_op.drop_index(batch_op.f('ix_web_session_expires_at'))
    op.drop_table('web_session')
