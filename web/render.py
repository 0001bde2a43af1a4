"""Rendering a page: the Jinja2 environment (autoescaped, StrictUndefined)
and the CSRF token every form carries, kept in the session."""

from __future__ import annotations

import secrets
from pathlib import Path

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse

from config.clock import town_stamp, wall_stamp
from models.users import User

__all__ = ["render", "csrf_token", "new_csrf_token", "ENV"]

HERE = Path(__file__).parent

ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(HERE / "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
ENV.filters["weekday"] = lambda d: d.strftime("%a") if d else ""
ENV.filters["town_stamp"] = town_stamp  # a stored (UTC) moment in the town's zone: {{ m|town_stamp(zone) }}
ENV.filters["wall_stamp"] = wall_stamp  # a wall time the record states, with the town's zone named


def csrf_token(request: Request) -> str:
    """The session's CSRF token, made on first use."""
    token = request.session.get("csrf")
    if not token:
        token = new_csrf_token(request)
    return token


def new_csrf_token(request: Request) -> str:
    """A fresh CSRF token for the session (at login)."""
    token = request.session["csrf"] = secrets.token_urlsafe(24)
    return token


def render(request: Request, name: str, ctx: dict, *, user: User | None, status: int = 200) -> HTMLResponse:
    """A page: the template with the user, the CSRF token and today."""
    page = ENV.get_template(name).render(
        {**ctx, "user": user, "csrf": csrf_token(request), "today": request.app.state.today(), "path": request.url.path}
        | {"zone": request.app.state.settings.timezone}
    )
    return HTMLResponse(page, status_code=status)
