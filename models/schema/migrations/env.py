"""Alembic environment: runs on the connection models.schema.migrate hands over."""

from alembic import context
from sqlmodel import SQLModel

import models.schema.tables  # noqa: F401 - registers the tables on SQLModel.metadata

config = context.config
target_metadata = SQLModel.metadata


def run_migrations_online() -> None:
    connection = config.attributes["connection"]
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():  # pragma: no cover - not offered by the CLI
    raise SystemExit("offline migrations are not supported: use permits db upgrade")
run_migrations_online()
