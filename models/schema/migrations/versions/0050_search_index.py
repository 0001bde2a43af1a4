"""search by index: filings found by street, parcel and applicant without reading them all; the filings list by scope in id order

Revision ID: 0050
Revises: 0009
Create Date: 2026-12-01 21:00:00

The workbench's search (models/read/workbench.py, models/read/search.py) asked
``lower(address) LIKE '%text%'`` of every filing, and the applicant's name
of every party: a scan, growing with the store.  Now:

- SQLite: ``filing_search``, an FTS5 table with the trigram tokenizer
  holding each filing's id (unindexed), address, parcel and applicant's
  name, filled from the filings already there and kept by triggers (a
  filing added, its address, parcel or applicant changed, a filing
  removed, a party renamed).
- PostgreSQL: the ``pg_trgm`` extension (a trusted extension: the owner of
  the database may create it) and GIN trigram indexes on the lower-cased
  address, parcel and party name, which answer ``LIKE '%text%'``.
- Both: ``ix_filing_town_kind_id``, so a user's filings list (their towns
  and kinds, in id order) reads one range of the index per town and kind
  and stops at the page's end, instead of sorting every filing of the
  scope; it carries the address, parcel and applicant, so a search that
  tests filings as it reads them never reads the filing's row.
"""

from typing import Sequence, Union

from alembic import op

revision: str = "0050"
down_revision: Union[str, None] = "0030"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

#: the filings list's index: a user's towns and kinds in id order, carrying
#: what a search tests of each filing, so reading a range never touches the
#: filing's row (its JSON comes first and is long)
LIST_INDEX_COLUMNS = ("town", "kind", "id", "address", "parcel", "applicant_id")
_COLUMNS = "filing_id, address, parcel, applicant"
_ROW = "(SELECT name FROM party WHERE id = {f}.applicant_id)"

SQLITE_UP = [
    f"CREATE VIRTUAL TABLE filing_search USING fts5(filing_id UNINDEXED, address, parcel, applicant, tokenize='trigram')",
    f"INSERT INTO filing_search ({_COLUMNS}) SELECT f.id, f.address, f.parcel, {_ROW.format(f='f')} FROM filing AS f",
    f"""CREATE TRIGGER filing_search_insert AFTER INSERT ON filing BEGIN
        INSERT INTO filing_search ({_COLUMNS}) VALUES (new.id, new.address, new.parcel, {_ROW.format(f='new')});
    END""",
    f"""CREATE TRIGGER filing_search_update AFTER UPDATE OF id, address, parcel, applicant_id ON filing BEGIN
        DELETE FROM filing_search WHERE filing_id = old.id;
        INSERT INTO filing_search ({_COLUMNS}) VALUES (new.id, new.address, new.parcel, {_ROW.format(f='new')});
    END""",
    """CREATE TRIGGER filing_search_delete AFTER DELETE ON filing BEGIN
        DELETE FROM filing_search WHERE filing_id = old.id;
    END""",
    f"""CREATE TRIGGER filing_search_party AFTER UPDATE OF name ON party WHEN old.name IS NOT new.name BEGIN
        DELETE FROM filing_search WHERE filing_id IN (SELECT id FROM filing WHERE applicant_id = new.id);
        INSERT INTO filing_search ({_COLUMNS}) SELECT id, address, parcel, new.name FROM filing WHERE applicant_id = new.id;
    END""",
]
SQLITE_DOWN = [
    "DROP TRIGGER IF EXISTS filing_search_party",
    "DROP TRIGGER IF EXISTS filing_search_delete",
    "DROP TRIGGER IF EXISTS filing_search_update",
    "DROP TRIGGER IF EXISTS filing_search_insert",
    "DROP TABLE IF EXISTS filing_search",
]
POSTGRESQL_UP = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX IF NOT EXISTS ix_filing_address_trgm ON filing USING gin (lower(address) gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS ix_filing_parcel_trgm ON filing USING gin (lower(parcel) gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS ix_party_name_trgm ON party USING gin (lower(name) gin_trgm_ops)",
]
POSTGRESQL_DOWN = [
    "DROP INDEX IF EXISTS ix_party_name_trgm",
    "DROP INDEX IF EXISTS ix_filing_parcel_trgm",
    "DROP INDEX IF EXISTS ix_filing_address_trgm",
]


def upgrade() -> None:
    op.create_index("ix_filing_town_kind_id", "filing", list(LIST_INDEX_COLUMNS))
    for statement in POSTGRESQL_UP if op.get_bind().dialect.name == "postgresql" else SQLITE_UP:
        op.execute(statement)


def downgrade() -> None:
    for statement in POSTGRESQL_DOWN if op.get_bind().dialect.name == "postgresql" else SQLITE_DOWN:
        op.execute(statement)
    op.drop_index("ix_filing_town_kind_id", table_name="filing")
