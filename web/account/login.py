"""Logging in and out, and changing one's own password: the routes that
start and end a session (web/auth.py: a row in the store, its token and the
CSRF token in the cookie).

Failed logins count against the client's address (models/accounts/throttle.py)
and against the pair of the address typed and the client: five pause that
client's logins to that account, never the owner's from elsewhere
(models/accounts/login_pauses.py).  A paused client that gives the right
password is emailed a link that logs in (``/login/link/<token>``: a page
with a button, so a mail scanner that opens links logs nobody in).  A password change ends every session of the
user and starts a new one for the browser that made it.  A user who logs in
with a temporary password an admin set is sent here to choose their own,
and every other page sends them back here until they do (web/deps.py).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse
from starlette.background import BackgroundTask

from models.errors import LinkRefused, LoginPaused, LoginRefused, TooManyAttempts, UserError
from models.types import APPLICANT, MIN_PASSWORD, User

from ..auth import end_session, safe_next, start_session
from ..bodies import PostedForm
from ..deps import ClientAddress, SessionUser, SettingsDep, StoreDep
from ..render import render
from .limits import too_many

__all__ = ["router"]

router = APIRouter()


@router.get("/login")
def login_page(request: Request, next: str = "/today"):
    return render(request, "account/login.html", {"next": safe_next(next), "error": None, "email": ""}, user=None)


@router.post("/login")
def login(request: Request, form: PostedForm, client: ClientAddress, store: StoreDep, settings: SettingsDep):
    from services.accounts import deliver_now
    from services.sessions import log_in

    email, password = str(form.get("email") or ""), str(form.get("password") or "")
    target = safe_next(str(form.get("next") or ""))
    try:
        user, token = log_in(store, email, password, client=client, base_url=settings.base_url, mail_from=settings.mail_from)
    except TooManyAttempts as exc:
        return too_many(request, exc)
    except LoginRefused as exc:
        page = render(request, "account/login.html", {"next": target, "error": str(exc), "email": email}, user=None, status=401)
        if isinstance(exc, LoginPaused) and exc.notice_ids and settings.smtp_url:
            page.background = BackgroundTask(deliver_now, store, settings.smtp_url, exc.notice_ids)
        return page
    return _logged_in(request, user, token, target)


def _logged_in(request: Request, user: User, token: str, target: str):
    start_session(request, token)
    if user.must_change_password:  # a temporary password an admin set: the user's own first
        return RedirectResponse("/password", status_code=303)
    if user.role == APPLICANT and not target.startswith("/my"):
        target = "/my"
    return RedirectResponse(target, status_code=303)


@router.get("/login/link/{token}")
def login_link_page(request: Request, token: str):
    return render(request, "account/login_link.html", {"token": token}, user=None)


@router.post("/login/link/{token}")
def follow_login_link(request: Request, token: str, form: PostedForm, client: ClientAddress, store: StoreDep):
    """Follow the emailed link that logs in (services/sessions.py): a
    session for this browser; a link unknown, used or expired is refused."""
    from services.sessions import log_in_by_link

    try:
        user, session = log_in_by_link(store, token, client=client)
    except LinkRefused as exc:
        ctx = {"title": "This link cannot log you in", "detail": str(exc), "again": "/login"}
        return render(request, "account/link_refused.html", ctx, user=None, status=410)
    return _logged_in(request, user, session, "/today")


@router.post("/logout")
def logout(request: Request, form: PostedForm, store: StoreDep):
    end_session(request, store)
    return RedirectResponse("/login", status_code=303)


# -- the user's own password ------------------------------------------------


def _password_page(request: Request, user: User, *, error: str | None = None, changed: bool = False, status: int = 200):
    ctx = {"error": error, "changed": changed, "min": MIN_PASSWORD, "must_change": user.must_change_password}
    return render(request, "account/password.html", ctx, user=user, status=status)


@router.get("/password")
def password_page(request: Request, user: SessionUser, changed: str = ""):
    return _password_page(request, user, changed=changed == "1")


@router.post("/password")
def change_password(request: Request, user: SessionUser, form: PostedForm, client: ClientAddress, store: StoreDep):
    """Change one's own password: the current one, the new one twice.  On
    success every session of the user ends, and this browser is given a
    new one (a new session and CSRF token)."""
    from services.sessions import start_session as new_session
    from services.users import change_password as change

    current, new = str(form.get("current") or ""), str(form.get("new") or "")
    if new != str(form.get("new2") or ""):
        return _password_page(request, user, error="the two new passwords differ; nothing was changed", status=422)
    try:
        changed = change(store, user.id, current, new, client=client)
    except LoginRefused as exc:
        return _password_page(request, user, error=f"{exc}; nothing was changed", status=401)
    except UserError as exc:
        return _password_page(request, user, error=f"{exc}; nothing was changed", status=422)
    start_session(request, new_session(store, changed.id))
    return RedirectResponse("/password?changed=1", status_code=303)
