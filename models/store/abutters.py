"""A filing's abutter list replaced (an assessors' list read, or one
computed from the parcels and reviewed), on the connection of the service
layer's unit of work; read back by :func:`models.read.workbench.abutters`.
"""

from collections.abc import Iterable

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from models.errors import StaleAbutterList, StaleFiling, UnknownFiling
from models.read.workbench import ABUTTER, ABUTTER_FIELDS, FILING, abutter_rows, abutters_version
from models.store.parcels import write_source

__all__ = ["replace_abutters"]


def replace_abutters(
    conn: Connection,
    filing_id: str,
    rows: Iterable[dict],
    *,
    expect_seq: int | None = None,
    expect_version: str | None = None,
    source: dict | None = None,
) -> int:
    """The filing's abutter list becomes ``rows`` (:data:`ABUTTER_FIELDS`;
    only ``name`` is required), on the unit of work's ``conn``.  ``expect_seq``: the filing's event count when the
    form was drawn; ``expect_version``: its list's :func:`abutters_version`
    then.  If either has changed, StaleFiling (StaleAbutterList) and nothing
    written.  ``source``: where the list came from
    (:data:`models.read.parcels.SOURCE_FIELDS`), kept beside it (None: nothing
    said, and what was said of the list before is forgotten)."""
    rows = [{"filing_id": filing_id, **{n: r.get(n) for n in ABUTTER_FIELDS}} for r in rows]
    row = conn.execute(select(FILING.c.id, FILING.c.last_seq).where(FILING.c.id == filing_id).with_for_update()).first()
    if row is None:
        raise UnknownFiling(filing_id)
    if expect_seq is not None and row.last_seq != expect_seq:
        raise StaleFiling(filing_id, expect_seq, row.last_seq)
    if expect_version is not None and abutters_version(abutter_rows(conn, filing_id)) != expect_version:
        raise StaleAbutterList(filing_id)
    conn.execute(delete(ABUTTER).where(ABUTTER.c.filing_id == filing_id))
    if rows:
        conn.execute(insert(ABUTTER), rows)
    write_source(conn, filing_id, source)
    return len(rows)
