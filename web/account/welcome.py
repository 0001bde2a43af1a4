"""A member of staff joins the workbench: the link an admin's invitation
emailed them (:func:`services.users.invite_staff`) opens a page that
names them and asks for a password of their own; choosing it takes the
invitation up (the link works once), logs the browser in and opens Today.
A link's page (GET) changes nothing: mail scanners that open links spend
none.  An expired or used link says so; "Forgot your password?" sends a
new one to the same address."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

from models.errors import LinkRefused
from models.types import MIN_PASSWORD
from services.bootstrap import AccountLinks
from workflows.errors import PermitsError

from ..auth import start_session
from ..bodies import PostedForm
from ..deps import AccountLinksDep, StoreDep
from ..render import render

__all__ = ["router"]

router = APIRouter()


def _refused(request: Request, exc: LinkRefused):
    said = str(exc).removesuffix(": ask for a new one").removesuffix("; ask for a new one")
    detail = f"{said[0].upper()}{said[1:]}. Ask whoever invited you to send it again, or use “Forgot your password?”."
    ctx = {"title": "Link refused", "detail": detail, "again": "/forgot"}
    return render(request, "account/link_refused.html", ctx, user=None, status=410)


def _page(request: Request, links: AccountLinks, token: str, *, error=None, status=200):
    try:
        link = links.live(token, "invite")
    except LinkRefused as exc:
        return _refused(request, exc)
    ctx = {"token": token, "email": link.email, "error": error, "min": MIN_PASSWORD}
    return render(request, "account/welcome.html", ctx, user=None, status=status)


@router.get("/welcome/{token}")
def welcome_page(request: Request, token: str, links: AccountLinksDep):
    return _page(request, links, token)


@router.post("/welcome/{token}")
def welcome(request: Request, token: str, form: PostedForm, store: StoreDep, links: AccountLinksDep):
    """Choose one's password: the invitation taken up, this browser logged in."""
    from services.accounts import join_staff

    new = str(form.get("new") or "")
    if new != str(form.get("new2") or ""):
        return _page(request, links, token, error="the two passwords differ; nothing was changed", status=422)
    try:
        _, session = join_staff(store, token, new)
    except LinkRefused as exc:
        return _refused(request, exc)
    except PermitsError as exc:
        return _page(request, links, token, error=f"{exc}; nothing was changed", status=422)
    start_session(request, session)
    return RedirectResponse("/today", status_code=303)
