"""Alembic migrations of the record.  ``HEAD`` is the current revision; a
test holds it equal to the scripts' head."""

HEAD = "0186"

__all__ = ["HEAD"]
