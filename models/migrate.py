"""Schema migrations (Alembic), run on an engine the store made.

``upgrade(engine)`` brings any database, empty or old, to ``HEAD``: a new
database is created by the same scripts an old one is upgraded by.
"""

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy.engine import Engine

from .migrations import HEAD

__all__ = ["HEAD", "alembic_config", "current_revision", "upgrade"]

_HERE = Path(__file__).parent / "migrations"


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(_HERE))
    return cfg


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        rev = MigrationContext.configure(conn).get_current_revision()
        conn.rollback()
        return rev


def upgrade(engine: Engine, target: str = "head") -> None:
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, target)
