"""Who is asking: the session (Starlette's signed, HttpOnly, SameSite=Lax
cookie holds only the user's id, their session version and the CSRF
token), the CSRF check every form post passes, and the login, logout and
password-change routes.

A page needs a logged-in, enabled user whose session version is still the
one on their row (:func:`session_user`); otherwise the browser is sent to
the login page and back.  Failed logins count against the client's
address as well as the account (models/throttle.py).  Changing the password bumps the version, so the
user's other sessions end there; the session that changed it is given the
new version.  A form without the session's CSRF token is refused (403)
before it is read further.
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse

from models.throttle import TooManyAttempts
from models.users import APPLICANT, MIN_PASSWORD, LoginRefused, User, UserError

from .clients import client_address, too_many
from .render import csrf_token, render

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
]

router = APIRouter()


class LoginRequired(Exception):
    def __init__(self, path: str):
        self.path = path


class StaffOnly(Exception):
    """An applicant asked for a staff page: they are sent to their own."""


def session_user(request: Request) -> User:
    """The session's user, staff or applicant: enabled, and the session
    made at their current session version (not before a password change)."""
    uid = request.session.get("uid")
    user = request.app.state.users.get(uid) if isinstance(uid, int) else None
    if user is None or request.session.get("sv", 0) != user.session_version:
        request.session.clear()
        raise LoginRequired(request.url.path + (f"?{request.url.query}" if request.url.query else ""))
    return user


def current_user(request: Request) -> User:
    """The session's staff user; an applicant is sent to their pages."""
    user = session_user(request)
    if user.role == APPLICANT:
        raise StaffOnly()
    return user


async def checked_form(request: Request):
    """The posted form, once its CSRF token matches the session's."""
    form = await request.form()
    sent = form.get("csrf")
    expected = request.session.get("csrf")
    if not isinstance(sent, str) or not expected or not hmac.compare_digest(sent, expected):
        raise HTTPException(403, "This form is out of date or did not come from this site: reload the page and try again.")
    return form


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
async def login(request: Request):
    form = await checked_form(request)
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
    """A new session for ``user`` (or the user with this id) at their
    current session version."""
    if isinstance(user, int):
        user = request.app.state.users.get(user)
    request.session.clear()  # a new session on login: no fixation
    request.session["uid"] = user.id
    request.session["sv"] = user.session_version
    request.session["csrf"] = secrets.token_urlsafe(24)


@router.post("/logout")
async def logout(request: Request):
    await checked_form(request)
    request.session.clear()
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
async def change_password(request: Request):
    """Change one's own password: the current one, the new one twice.  On
    success the other sessions end and this one carries on (a new session
    and CSRF token, at the new version)."""
    user = session_user(request)
    form = await checked_form(request)
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
