"""notice identity: one row per (filing, kind, occasion, recipient)

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02 09:00:00

A notice is sent once: the database refuses a second row for the same
filing, notice kind, occasion and recipient, whoever sends it (the sweep,
``permits notices`` by hand, two of them at once).  ``occasion`` is what the
notice is for: the clock date or the event of the sweep's key
(``notice:hearing-notice:2026-12-15`` has occasion ``2026-12-15``), empty
for a notice made by hand with no scheduled occasion.  ``recipient`` becomes
NOT NULL ('' when the notice named none) so the unique index sees it.
Rows already recorded twice keep their history: every copy after the first
gets the occasion ``legacy-<id>``.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0003'
down_revision: Union[str, None] = '0002'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('notice', schema=None) as batch_op:
        batch_op.add_column(sa.Column('occasion', sqlmodel.sql.sqltypes.AutoString(), server_default='', nullable=False))
    conn = op.get_bind()
    conn.execute(sa.text("UPDATE notice SET recipient = '' WHERE recipient IS NULL"))
    rows = conn.execute(sa.text("SELECT id, output_key FROM notice WHERE output_key LIKE 'notice:%'")).all()
    for nid, key in rows:
        parts = key.split(':', 2)
        if len(parts) == 3:
            conn.execute(sa.text("UPDATE notice SET occasion = :o WHERE id = :i"), {"o": parts[2], "i": nid})
    seen = set()
    for nid, filing, kind, occasion, recipient in conn.execute(
        sa.text("SELECT id, filing_id, kind, occasion, recipient FROM notice ORDER BY id")
    ).all():
        identity = (filing, kind, occasion, recipient)
        if identity in seen:
            conn.execute(sa.text("UPDATE notice SET occasion = :o WHERE id = :i"), {"o": f"legacy-{nid}", "i": nid})
        seen.add(identity)
    with op.batch_alter_table('notice', schema=None) as batch_op:
        batch_op.alter_column('recipient', existing_type=sqlmodel.sql.sqltypes.AutoString(), nullable=False, server_default='')
        batch_op.create_index('uq_notice_identity', ['filing_id', 'kind', 'occasion', 'recipient'], unique=True)


def downgrade() -> None:
    with op.batch_alter_table('notice', schema=None) as batch_op:
        batch_op.drop_index('uq_notice_identity')
        batch_op.alter_column('recipient', existing_type=sqlmodel.sql.sqltypes.AutoString(), nullable=True, server_default=None)
        batch_op.drop_column('occasion')
