"""The page that refuses a client over one of the per-address limits of
the front door (models/accounts/throttle.py: logins, registrations, reset
requests), with ``Retry-After``.  The client's address is web/clients.py's
rule."""

from __future__ import annotations

from fastapi import Request

from models.errors import TooManyAttempts

from ..render import render

__all__ = ["too_many"]


def too_many(request: Request, exc: TooManyAttempts):
    """The 429 page, with Retry-After."""
    ctx = {"title": "Too many attempts", "detail": f"{str(exc)[0].upper()}{str(exc)[1:]}."}
    response = render(request, "error.html", ctx, user=None, status=429)
    response.headers["Retry-After"] = str(exc.minutes * 60)
    return response
