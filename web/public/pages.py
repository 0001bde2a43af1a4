"""The public site's pages: none yet.  A route added to :data:`router` is
served (web/app.py includes it); it takes no user and shows only what a
town marks public (web/public/__init__.py)."""

from __future__ import annotations

from fastapi import APIRouter

__all__ = ["router"]

router = APIRouter()
