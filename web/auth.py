"""Who is asking: the session, how one starts and ends (the routes that
log in and out and change a password are web/account/login.py's), and the
dependencies a route declares to say who may call it (:data:`StaffUser`,
:data:`SessionUser`).

The session cookie (Starlette's signed, HttpOnly, SameSite=Lax cookie;
``Secure`` under ``PERMITS_HTTPS``) holds the session's token and the CSRF
token.  A page opens only when the token names a live session in the store
(models/accounts/sessions.py): logging out, a password change or reset and
disabling the account end it on the server's side, so a copy of the cookie
taken before opens nothing after; otherwise the browser is sent to the
login page and back.  Every form carries the CSRF token, checked before its body is read further
(web/bodies.py).
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import Depends, Request
from fastapi.responses import RedirectResponse

from models.accounts.users import APPLICANT, User

from .render import new_csrf_token

__all__ = [
    "LoginRequired",
    "StaffOnly",
    "current_user",
    "session_user",
    "safe_next",
    "login_redirect",
    "start_session",
    "end_session",
    "StaffUser",
    "SessionUser",
]


class LoginRequired(Exception):
    def __init__(self, path: str):
        self.path = path


class StaffOnly(Exception):
    """An applicant asked for a staff page: they are sent to their own."""


def session_user(request: Request) -> User:
    """The session's user, staff or applicant: the cookie's token names a
    live session in the store, of an enabled user."""
    user = request.app.state.sessions.user(request.session.get("sid"))
    if user is None:
        request.session.clear()
        raise LoginRequired(request.url.path + (f"?{request.url.query}" if request.url.query else ""))
    return user


def current_user(request: Request) -> User:
    """The session's staff user; an applicant is sent to their pages."""
    user = session_user(request)
    if user.role == APPLICANT:
        raise StaffOnly()
    return user


#: a route's staff user (a plain ``def`` dependency: the store is read in the threadpool)
StaffUser = Annotated[User, Depends(current_user)]
#: a route's user, staff or applicant
SessionUser = Annotated[User, Depends(session_user)]


def safe_next(path: str | None) -> str:
    """A place on this site to go after logging in (never another site)."""
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/today"
    return path


def login_redirect(path: str) -> RedirectResponse:
    return RedirectResponse(f"/login?next={quote(path, safe='')}", status_code=303)


def start_session(request: Request, user: User | int) -> None:
    """A new session for ``user`` (or the user with this id): a row in the
    store, its token and a new CSRF token in the cookie."""
    user_id = user if isinstance(user, int) else user.id
    token = request.app.state.sessions.start(user_id)
    request.session.clear()  # a new session on login: no fixation
    request.session["sid"] = token
    new_csrf_token(request)


def end_session(request: Request) -> None:
    """End this browser's session in the store, and clear its cookie."""
    request.app.state.sessions.end(request.session.get("sid"))
    request.session.clear()
