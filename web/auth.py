"""Who is asking: the session, the routes that start and end one (login,
logout, the password change), and the dependencies a route declares to
say who may call it (:data:`StaffUser`, :data:`SessionUser`).

The session cookie (Starlette's signed, HttpOnly, SameSite=Lax cookie;
``Secure`` under ``PERMITS_HTTPS``) holds the session's token and the CSRF
token.  A page opens only when the token names a live session in the store
(models/accounts/sessions.py): logging out, a password change or reset and
disabling the account end it on the server's side, so a copy of the cookie
taken before opens nothing after; otherwise the browser is sent to the
login page and back.  Failed logins count against the client's address as
well as the account (models/accounts/throttle.py).  A password change ends every
session of the user and starts a new one for the browser that made it.
Every form carries the CSRF token, checked before its body is read further
(web/bodies.py).
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse

from models.accounts.throttle import TooManyAttempts
from models.accounts.users import APPLICANT, MIN_PASSWORD, LoginRefused, User, UserError

from .bodies import PostedForm, read_form
from .clients import client_address, too_many
from .render import csrf_token, new_csrf_token, render

__all__ = [
    "LoginRequired",
    "StaffOnly",
    "current_user",
    "session_user",
    "csrf_token",
    "checked_form",
    "router",
    "safe_next",
    "start_session",
    "end_session",
    "StaffUser",
    "SessionUser",
]

router = APIRouter()


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


async def checked_form(request: Request):
    """The posted form without a file, once its CSRF token matches the
    session's (web/bodies.py's limits).  Kept for routes written before
    the dependencies: a new route declares :data:`web.bodies.PostedForm`
    instead, and is a plain ``def`` (docs/engineering/architecture.md)."""
    return await read_form(request, max_bytes=request.app.state.settings.form_max_bytes)


def safe_next(path: str | None) -> str:
    """A place on this site to go after logging in (never another site)."""
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/today"
    return path


def login_redirect(path: str) -> RedirectResponse:
    return RedirectResponse(f"/login?next={quote(path, safe='')}", status_code=303)


@router.get("/login")
def login_page(request: Request, next: str = "/today"):
    return render(request, "login.html", {"next": safe_next(next), "error": None, "email": ""}, user=None)


@router.post("/login")
def login(request: Request, form: PostedForm):
    email, password = str(form.get("email") or ""), str(form.get("password") or "")
    target = safe_next(str(form.get("next") or ""))
    throttle, client = request.app.state.throttle, client_address(request)
    try:
        throttle.check("login", client)
    except TooManyAttempts as exc:
        return too_many(request, exc)
    try:
        user = request.app.state.users.authenticate(email, password)
    except LoginRefused as exc:
        throttle.record("login", client)
        return render(request, "login.html", {"next": target, "error": str(exc), "email": email}, user=None, status=401)
    start_session(request, user)
    if user.role == APPLICANT and not target.startswith("/my"):
        target = "/my"
    return RedirectResponse(target, status_code=303)


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


@router.post("/logout")
def logout(request: Request, form: PostedForm):
    end_session(request)
    return RedirectResponse("/login", status_code=303)


# -- the user's own password ------------------------------------------------


def _password_page(request: Request, user: User, *, error: str | None = None, changed: bool = False, status: int = 200):
    ctx = {"error": error, "changed": changed, "min": MIN_PASSWORD}
    return render(request, "password.html", ctx, user=user, status=status)


@router.get("/password")
def password_page(request: Request, changed: str = ""):
    user = session_user(request)
    return _password_page(request, user, changed=changed == "1")


@router.post("/password")
def change_password(request: Request, user: SessionUser, form: PostedForm):
    """Change one's own password: the current one, the new one twice.  On
    success every session of the user ends, and this browser is given a
    new one (a new session and CSRF token)."""
    current, new = str(form.get("current") or ""), str(form.get("new") or "")
    if new != str(form.get("new2") or ""):
        return _password_page(request, user, error="the two new passwords differ; nothing was changed", status=422)
    try:
        changed = request.app.state.users.change_password(user.id, current, new)
    except LoginRefused as exc:
        return _password_page(request, user, error=f"{exc}; nothing was changed", status=401)
    except UserError as exc:
        return _password_page(request, user, error=f"{exc}; nothing was changed", status=422)
    start_session(request, changed)
    return RedirectResponse("/password?changed=1", status_code=303)
