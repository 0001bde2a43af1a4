"""The browser's session: who is in it and its CSRF token, how one starts
and ends, and the three refusals of a caller (:class:`LoginRequired`,
:class:`StaffOnly`, :class:`PasswordChangeRequired`) that web/app.py
answers with a redirect.  The
dependencies a route declares to say who may call it (``StaffUser``,
``SessionUser``, ``Admin``, ``Applicant``) are web/deps.py's; the routes
that log in and out and change a password are web/account/'s.

The session cookie (Starlette's signed, HttpOnly, SameSite=Lax cookie;
``Secure`` under ``PERMITS_HTTPS``) holds the session's token and the CSRF
token.  A page opens only when the token names a live session in the store
(models/accounts/sessions.py): logging out, a password change or reset and
disabling the account end it on the server's side, so a copy of the cookie
taken before opens nothing after; otherwise the browser is sent to the
login page and back.  Every form carries the CSRF token, checked before its
body is read further (web/bodies.py).
"""

from __future__ import annotations

import secrets
from urllib.parse import quote

from fastapi import Request
from fastapi.responses import RedirectResponse

__all__ = [
    "LoginRequired",
    "StaffOnly",
    "PasswordChangeRequired",
    "csrf_token",
    "new_csrf_token",
    "safe_next",
    "login_redirect",
    "start_session",
    "end_session",
]


class LoginRequired(Exception):
    """No live session: the browser goes to the login page, and back to ``path``."""

    def __init__(self, path: str):
        self.path = path


class StaffOnly(Exception):
    """An applicant asked for a staff page: they are sent to their own."""


class PasswordChangeRequired(Exception):
    """The user logged in with a temporary password an admin set: they are
    sent to change it (/password) before any other page."""


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


def safe_next(path: str | None) -> str:
    """A place on this site to go after logging in (never another site)."""
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/today"
    return path


def login_redirect(path: str) -> RedirectResponse:
    return RedirectResponse(f"/login?next={quote(path, safe='')}", status_code=303)


def start_session(request: Request, token: str) -> None:
    """Give this browser the session ``token`` (made by the service that
    logged the user in: services/sessions.py) and a new CSRF token."""
    request.session.clear()  # a new session on login: no fixation
    request.session["sid"] = token
    new_csrf_token(request)


def end_session(request: Request, store) -> None:
    """End this browser's session in the store (services/sessions.py), and
    clear its cookie."""
    from services.sessions import end_session as end_stored

    end_stored(store, request.session.get("sid"))
    request.session.clear()
