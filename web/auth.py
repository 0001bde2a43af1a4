"""Who is asking: the session (Starlette's signed, HttpOnly, SameSite=Lax
cookie holds only the user's id and the CSRF token), the CSRF check every
form post passes, and the login and logout routes.

A page needs a logged-in, enabled user (:func:`current_user`); otherwise the
browser is sent to the login page and back.  A form without the session's
CSRF token is refused (403) before it is read further.
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse

from models.users import APPLICANT, LoginRefused, User

from .render import csrf_token, render

__all__ = ["LoginRequired", "StaffOnly", "current_user", "csrf_token", "checked_form", "router", "safe_next", "start_session"]

router = APIRouter()


class LoginRequired(Exception):
    def __init__(self, path: str):
        self.path = path


class StaffOnly(Exception):
    """An applicant asked for a staff page: they are sent to their own."""


def current_user(request: Request) -> User:
    uid = request.session.get("uid")
    user = request.app.state.users.get(uid) if isinstance(uid, int) else None
    if user is None:
        request.session.pop("uid", None)
        raise LoginRequired(request.url.path + (f"?{request.url.query}" if request.url.query else ""))
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
    try:
        user = request.app.state.users.authenticate(email, password)
    except LoginRefused as exc:
        return render(request, "login.html", {"next": target, "error": str(exc), "email": email}, user=None, status=401)
    start_session(request, user.id)
    if user.role == APPLICANT and not target.startswith("/my"):
        target = "/my"
    return RedirectResponse(target, status_code=303)


def start_session(request: Request, user_id: int) -> None:
    request.session.clear()  # a new session on login: no fixation
    request.session["uid"] = user_id
    request.session["csrf"] = secrets.token_urlsafe(24)


@router.post("/logout")
async def logout(request: Request):
    await checked_form(request)
    request.session.clear()
    return RedirectResponse("/login", status_code=303)
