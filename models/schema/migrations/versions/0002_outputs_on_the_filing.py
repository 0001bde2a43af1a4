"""outputs on the filing: the sweep's outputs, and notices with their recipient

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 09:00:00

``sweep_output`` records what the daily sweep made for a filing, keyed by
(filing, output key), in the transaction that marks it done.  ``notice``
gains what a notice log needs: the recipient, the notice's own date, the
files written and the sweep output that made it.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0002'
down_revision: Union[str, None] = '0001'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('sweep_output',
    sa.Column('filing_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('output_key', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('as_of', sa.Date(), nullable=True),
    sa.Column('recorded_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['filing_id'], ['filing.id'], ),
    sa.PrimaryKeyConstraint('filing_id', 'output_key')
    )
    with op.batch_alter_table('notice', schema=None) as batch_op:
        batch_op.add_column(sa.Column('recipient', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.add_column(sa.Column('dated', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('files', sa.JSON(), server_default='[]', nullable=False))
        batch_op.add_column(sa.Column('output_key', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.create_index('ix_notice_filing_kind_recipient', ['filing_id', 'kind', 'recipient'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('notice', schema=None) as batch_op:
        batch_op.drop_index('ix_notice_filing_kind_recipient')
        batch_op.drop_column('output_key')
        batch_op.drop_column('files')
        batch_op.drop_column('dated')
        batch_op.drop_column('recipient')
    op.drop_table('sweep_output')
