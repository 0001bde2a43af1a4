"""Schema migrations (Alembic), run on the connection of the service
layer's unit of work (``services/database.py``).

``upgrade(conn)`` brings any database, empty or old, to ``HEAD``: a new
database is created by the same scripts an old one is upgraded by.

Alembic is imported only when a migration runs: every store command checks
the schema first, and ``current_revision`` reads the one row of
``alembic_version`` itself (importing Alembic was most of a command's start).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.exc import DBAPIError

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy.engine import Connection, Engine

from models.read.queries import SCHEMA_REVISION
from models.schema.migrations import HEAD

__all__ = ["HEAD", "alembic_config", "current_revision", "upgrade"]

_HERE = Path(__file__).parent / "migrations"


def alembic_config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(_HERE))
    return cfg


def current_revision(engine: Engine) -> str | None:
    """The schema revision in ``alembic_version``, or None when the table
    is missing or empty (a database never migrated): what Alembic's
    ``MigrationContext.get_current_revision`` answers, in one query."""
    with engine.connect() as conn:
        try:
            rows = conn.exec_driver_sql(SCHEMA_REVISION).fetchall()
        except DBAPIError:  # no such table (leaving the block rolls the read back)
            rows = []
    if len(rows) > 1:
        raise RuntimeError(f"alembic_version holds {len(rows)} revisions; this store has one line of migrations")
    return rows[0][0] if rows else None


def upgrade(conn: Connection, target: str = "head") -> None:
    """Migrate the store to ``target`` on ``conn``, in the caller's
    transaction (the service layer's unit of work), which commits: Alembic
    finds the transaction begun and leaves it to its owner."""
    from alembic import command

    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, target)
