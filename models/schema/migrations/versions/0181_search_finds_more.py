"""search that finds: any part of a filing number, the MassDEP file number, an address however its suffix is written, the owner

Revision ID: 0181
Revises: 0180
Create Date: 2026-12-04 10:00:00

The workbench's search (models/read/search.py) found a filing by the
start of its id, its address, parcel or applicant as typed.  Now also:

- any part of its number ("000096"): the id is indexed too;
- its MassDEP file number: ``filing.massdep_file``, the latest
  ``file-number-assigned`` not voided, else the filing's ``massdep_file``
  field (workflows/numbers.py), kept by the store's writers;
- its address with its suffix and directions spelled out or abbreviated
  ("109 Sherman Street" finds "109 Sherman St"): ``filing.site_key``, the
  address as workflows/sites.py compares addresses (the parcels' table of
  USPS suffixes), between spaces;
- its owner's name, as its applicant's: ``ix_filing_owner_id``.

SQLite: ``filing_search`` made again with the id indexed and the new
columns, its triggers with it (a filing's row rewritten only when a
searched column changed).  PostgreSQL: trigram indexes on the lower-cased
id, site key and file number.  Both: ``ix_filing_town_kind_id`` carries
the new columns, so a search that tests each filing of a range as it
reads it still never reads the filing's row.  The columns are filled here
for the filings already in the store.
"""

import re
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0181"
down_revision: Union[str, None] = "0180"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

OLD_LIST_INDEX = ("town", "kind", "id", "address", "parcel", "applicant_id")
LIST_INDEX = (*OLD_LIST_INDEX, "owner_id", "site_key", "massdep_file")

_NAME = "(SELECT name FROM party WHERE id = {f}.{role}_id)"
_COLUMNS = "filing_id, address, parcel, applicant, owner, massdep_file, site_key"


def _values(f: str) -> str:
    return (
        f"{f}.id, {f}.address, {f}.parcel, {_NAME.format(f=f, role='applicant')}, "
        f"{_NAME.format(f=f, role='owner')}, {f}.massdep_file, {f}.site_key"
    )


_SEARCHED = ("id", "address", "parcel", "applicant_id", "owner_id", "massdep_file", "site_key")
_CHANGED = " OR ".join(f"old.{c} IS NOT new.{c}" for c in _SEARCHED)

SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS filing_search_party",
    "DROP TRIGGER IF EXISTS filing_search_delete",
    "DROP TRIGGER IF EXISTS filing_search_update",
    "DROP TRIGGER IF EXISTS filing_search_insert",
    "DROP TABLE IF EXISTS filing_search",
]
SQLITE_UP = [
    "CREATE VIRTUAL TABLE filing_search USING fts5("
    "filing_id, address, parcel, applicant, owner, massdep_file, site_key, tokenize='trigram')",
    f"INSERT INTO filing_search ({_COLUMNS}) SELECT {_values('f')} FROM filing AS f",
    f"""CREATE TRIGGER filing_search_insert AFTER INSERT ON filing BEGIN
        INSERT INTO filing_search ({_COLUMNS}) SELECT {_values('new')};
    END""",
    f"""CREATE TRIGGER filing_search_update AFTER UPDATE OF {", ".join(_SEARCHED)} ON filing WHEN {_CHANGED} BEGIN
        DELETE FROM filing_search WHERE filing_id = old.id;
        INSERT INTO filing_search ({_COLUMNS}) SELECT {_values('new')};
    END""",
    """CREATE TRIGGER filing_search_delete AFTER DELETE ON filing BEGIN
        DELETE FROM filing_search WHERE filing_id = old.id;
    END""",
    f"""CREATE TRIGGER filing_search_party AFTER UPDATE OF name ON party WHEN old.name IS NOT new.name BEGIN
        DELETE FROM filing_search WHERE filing_id IN (SELECT id FROM filing WHERE applicant_id = new.id OR owner_id = new.id);
        INSERT INTO filing_search ({_COLUMNS})
            SELECT {_values('f')} FROM filing AS f WHERE f.applicant_id = new.id OR f.owner_id = new.id;
    END""",
]
# as migration 0050 left them
_OLD_COLUMNS = "filing_id, address, parcel, applicant"
_OLD_ROW = "(SELECT name FROM party WHERE id = {f}.applicant_id)"
SQLITE_DOWN = [
    "CREATE VIRTUAL TABLE filing_search USING fts5(filing_id UNINDEXED, address, parcel, applicant, tokenize='trigram')",
    f"INSERT INTO filing_search ({_OLD_COLUMNS}) SELECT f.id, f.address, f.parcel, {_OLD_ROW.format(f='f')} FROM filing AS f",
    f"""CREATE TRIGGER filing_search_insert AFTER INSERT ON filing BEGIN
        INSERT INTO filing_search ({_OLD_COLUMNS}) VALUES (new.id, new.address, new.parcel, {_OLD_ROW.format(f='new')});
    END""",
    f"""CREATE TRIGGER filing_search_update AFTER UPDATE OF id, address, parcel, applicant_id ON filing BEGIN
        DELETE FROM filing_search WHERE filing_id = old.id;
        INSERT INTO filing_search ({_OLD_COLUMNS}) VALUES (new.id, new.address, new.parcel, {_OLD_ROW.format(f='new')});
    END""",
    """CREATE TRIGGER filing_search_delete AFTER DELETE ON filing BEGIN
        DELETE FROM filing_search WHERE filing_id = old.id;
    END""",
    f"""CREATE TRIGGER filing_search_party AFTER UPDATE OF name ON party WHEN old.name IS NOT new.name BEGIN
        DELETE FROM filing_search WHERE filing_id IN (SELECT id FROM filing WHERE applicant_id = new.id);
        INSERT INTO filing_search ({_OLD_COLUMNS}) SELECT id, address, parcel, new.name FROM filing WHERE applicant_id = new.id;
    END""",
]
POSTGRESQL_UP = [
    "CREATE INDEX IF NOT EXISTS ix_filing_id_trgm ON filing USING gin (lower(id) gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS ix_filing_site_key_trgm ON filing USING gin (lower(site_key) gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS ix_filing_massdep_file_trgm ON filing USING gin (lower(massdep_file) gin_trgm_ops)",
]
POSTGRESQL_DOWN = [
    "DROP INDEX IF EXISTS ix_filing_massdep_file_trgm",
    "DROP INDEX IF EXISTS ix_filing_site_key_trgm",
    "DROP INDEX IF EXISTS ix_filing_id_trgm",
]

# -- the rules, as they are at 0181 (workflows/sites.py, workflows/numbers.py) ----------

_SUFFIXES = {
    "STREET": "ST", "AVENUE": "AVE", "AV": "AVE", "ROAD": "RD", "DRIVE": "DR", "LANE": "LN", "COURT": "CT",
    "PLACE": "PL", "TERRACE": "TER", "CIRCLE": "CIR", "BOULEVARD": "BLVD", "PARKWAY": "PKWY", "HIGHWAY": "HWY",
    "TURNPIKE": "TPKE", "SQUARE": "SQ", "WAY": "WAY",
}  # fmt: skip
_DIRECTIONS = {"NORTH": "N", "SOUTH": "S", "EAST": "E", "WEST": "W"}


def _spaced_key(address):
    words = re.sub(r"[^A-Z0-9# ]+", " ", (address or "").upper()).split()
    key = " ".join(_SUFFIXES.get(w, _DIRECTIONS.get(w, w)) for w in words)
    return f" {key} " if key else None


def _fill(conn) -> None:
    """Each filing's site key, and its MassDEP file number: the latest
    ``file-number-assigned`` not voided, else its ``massdep_file`` field."""
    filing = sa.table("filing", sa.column("id", sa.String), sa.column("address", sa.String), sa.column("extra", sa.JSON))
    event = sa.table(
        "event", sa.column("filing_id", sa.String), sa.column("seq", sa.Integer), sa.column("type", sa.String),
        sa.column("raw", sa.JSON),
    )  # fmt: skip
    assigned: dict[str, list] = {}
    voided: dict[str, set] = {}
    rows = conn.execute(
        sa.select(event.c.filing_id, event.c.seq, event.c.type, event.c.raw)
        .where(event.c.type.in_(["file-number-assigned", "event-voided"]))
        .order_by(event.c.filing_id, event.c.seq)
    )
    for fid, seq, etype, raw in rows:
        if etype == "file-number-assigned":
            assigned.setdefault(fid, []).append((seq, str(raw.get("number"))))
        else:
            voided.setdefault(fid, set()).add(raw.get("voids"))
    changes = []
    for fid, address, extra in conn.execute(sa.select(filing.c.id, filing.c.address, filing.c.extra)):
        number = next((n for seq, n in reversed(assigned.get(fid, [])) if seq not in voided.get(fid, ())), None)
        given = (extra or {}).get("massdep_file") if isinstance(extra, dict) else None
        number = number or (str(given) if given else None)
        key = _spaced_key(address)
        if number is not None or key is not None:
            changes.append({"fid": fid, "key": key, "number": number})
    if changes:
        conn.execute(
            sa.text("UPDATE filing SET site_key = :key, massdep_file = :number WHERE id = :fid"), changes
        )


def upgrade() -> None:
    bind = op.get_bind()
    # plain ADD COLUMN (SQLite has it): a batch would copy the table
    op.add_column("filing", sa.Column("site_key", sa.String(), nullable=True))
    op.add_column("filing", sa.Column("massdep_file", sa.String(), nullable=True))
    if bind.dialect.name == "sqlite":
        for statement in SQLITE_DROP:
            op.execute(statement)
    _fill(bind)
    op.drop_index("ix_filing_town_kind_id", table_name="filing")
    op.create_index("ix_filing_town_kind_id", "filing", list(LIST_INDEX))
    op.create_index("ix_filing_owner_id", "filing", ["owner_id"])
    for statement in POSTGRESQL_UP if bind.dialect.name == "postgresql" else SQLITE_UP:
        op.execute(statement)


def downgrade() -> None:
    bind = op.get_bind()
    for statement in POSTGRESQL_DOWN if bind.dialect.name == "postgresql" else SQLITE_DROP:
        op.execute(statement)
    op.drop_index("ix_filing_owner_id", table_name="filing")
    op.drop_index("ix_filing_town_kind_id", table_name="filing")
    op.create_index("ix_filing_town_kind_id", "filing", list(OLD_LIST_INDEX))
    with op.batch_alter_table("filing") as batch:
        batch.drop_column("massdep_file")
        batch.drop_column("site_key")
    if bind.dialect.name == "sqlite":
        for statement in SQLITE_DOWN:
            op.execute(statement)
