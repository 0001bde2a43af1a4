"""The front door's account pages: register (finished by the link emailed
to the address), the link's page, "Forgot your password?" and the reset
link's page.  Each parses the form, calls one function of
:mod:`services.accounts` and renders the answer.

A registration and a reset request get the same page and status whether
or not the address has an account (staff's included); what differs goes
to the mailbox only.  The links in the emails start with
``PERMITS_BASE_URL``, never with the request's ``Host``.  The emails are
queued in the outbox in the action's transaction and handed to the SMTP
server (``PERMITS_SMTP_URL``) after the response, so a slow server delays
no page and tells nothing by its timing; a reset request looks the account
up only after its page is sent, so the page comes as soon for an unknown
address as for an account's.  A link's page (GET) changes
nothing: mail scanners that open links spend none.  Registrations and
reset requests count against the client's address, as do wrong passwords
on a registration's link (models/accounts/throttle.py).
"""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse
from starlette.background import BackgroundTask

from config import Settings
from models.errors import LinkRefused, LoginRefused, TooManyAttempts
from models.types import APPLICANT, MIN_PASSWORD, RESET_MINUTES
from services.bootstrap import AccountLinks
from services.sessions import hit_attempts
from workflows.errors import PermitsError

from ..auth import start_session
from ..bodies import PostedForm
from ..deps import AccountLinksDep, ClientAddress, Now, SettingsDep, StoreDep
from ..refusals import refusal
from ..render import render
from .limits import too_many

__all__ = ["router"]

router = APIRouter()


def _deliver_later(store, settings: Settings, response, sent):
    """Hand the action's emails to the SMTP server once the page is sent."""
    from services.accounts import deliver_now

    if settings.smtp_url and sent.notice_ids:
        response.background = BackgroundTask(deliver_now, store, settings.smtp_url, sent.notice_ids)
    return response


def _email_args(settings: Settings, now: datetime) -> dict:
    return {"base_url": settings.base_url, "now": now, "mail_from": settings.mail_from}


# -- register ------------------------------------------------------------------


def _register_page(request: Request, *, error=None, email="", status=200):
    return render(
        request, "account/register.html", {"error": error, "email": email, "min": MIN_PASSWORD}, user=None, status=status
    )


@router.get("/register")
def register_page(request: Request):
    return _register_page(request)


@router.post("/register")
def register(
    request: Request,
    form: PostedForm,
    client: ClientAddress,
    store: StoreDep,
    settings: SettingsDep,
    now: Now,
):
    """Register: the same answer for a new address and a taken one."""
    from services.accounts import register as register_address

    email, password = str(form.get("email") or ""), str(form.get("password") or "")
    try:  # every registration counts, made or not
        hit_attempts(store, "register", client)
    except TooManyAttempts as exc:
        return too_many(request, exc)
    if password != str(form.get("password2") or ""):
        return _register_page(request, error="the two passwords differ; nothing was saved", email=email, status=422)
    try:
        sent = register_address(store, email, password, **_email_args(settings, now))
    except PermitsError as exc:
        return _register_page(request, error=f"{exc}; nothing was saved", email=email, status=422)
    page = render(request, "account/check_email.html", {"address": sent.address, "what": "register"}, user=None)
    return _deliver_later(store, settings, page, sent)


def _link_refused(request: Request, exc: LinkRefused, again: str):
    detail = f"{str(exc)[0].upper()}{str(exc)[1:]}."
    ctx = {"title": "Link refused", "detail": detail, "again": again}
    return render(request, "account/link_refused.html", ctx, user=None, status=410)


def _confirm_page(request: Request, links: AccountLinks, token: str, *, error=None, status=200):
    try:
        link = links.live(token, "register")
    except LinkRefused as exc:
        return _link_refused(request, exc, "/register")
    ctx = {"token": token, "email": link.email, "error": error}
    return render(request, "account/confirm.html", ctx, user=None, status=status)


@router.get("/confirm/{token}")
def confirm_page(request: Request, token: str, links: AccountLinksDep):
    return _confirm_page(request, links, token)


@router.post("/confirm/{token}")
def confirm(
    request: Request,
    token: str,
    form: PostedForm,
    client: ClientAddress,
    store: StoreDep,
    links: AccountLinksDep,
):
    """Finish a registration: the password chosen then, and the account
    is made, its address proved, and this browser logged in."""
    from services.accounts import confirm as confirm_address

    try:  # a password is checked: a login
        _, session = confirm_address(store, token, str(form.get("password") or ""), client=client)
    except TooManyAttempts as exc:
        return too_many(request, exc)
    except LoginRefused as exc:
        return _confirm_page(request, links, token, error=f"{exc}; nothing was changed", status=401)
    except LinkRefused as exc:
        return _link_refused(request, exc, "/register")
    start_session(request, session)
    return RedirectResponse("/my", status_code=303)


# -- forgot your password? ----------------------------------------------------


def _forgot_page(request: Request, *, error=None, email="", status=200):
    return render(request, "account/forgot.html", {"error": error, "email": email}, user=None, status=status)


@router.get("/forgot")
def forgot_page(request: Request):
    return _forgot_page(request)


@router.post("/forgot")
def forgot(
    request: Request,
    form: PostedForm,
    client: ClientAddress,
    store: StoreDep,
    settings: SettingsDep,
    now: Now,
):
    """Ask for a reset link: the same answer, as soon, whether or not the
    address has an account (:func:`services.accounts.request_reset` runs
    once the page is sent)."""
    from services.accounts import normal_email

    email = str(form.get("email") or "")
    try:
        hit_attempts(store, "reset", client)
    except TooManyAttempts as exc:
        return too_many(request, exc)
    try:
        address = normal_email(email)
    except PermitsError as exc:
        return _forgot_page(request, error=refusal(exc), email=email, status=422)
    ctx = {"address": address, "what": "reset", "minutes": RESET_MINUTES}
    page = render(request, "account/check_email.html", ctx, user=None)
    # the account is looked up after the answer is sent: its time says nothing of the address
    page.background = BackgroundTask(_reset_then_send, store, address, _email_args(settings, now), settings.smtp_url)
    return page


def _reset_then_send(store, address: str, args: dict, smtp_url: str | None) -> None:
    from services.accounts import deliver_now, request_reset

    deliver_now(store, smtp_url, request_reset(store, address, **args).notice_ids)


def _reset_page(request: Request, links: AccountLinks, token: str, *, error=None, status=200):
    try:
        link = links.live(token, "reset")
    except LinkRefused as exc:
        return _link_refused(request, exc, "/forgot")
    ctx = {"token": token, "email": link.email, "error": error, "min": MIN_PASSWORD}
    return render(request, "account/reset.html", ctx, user=None, status=status)


@router.get("/reset/{token}")
def reset_page(request: Request, token: str, links: AccountLinksDep):
    return _reset_page(request, links, token)


@router.post("/reset/{token}")
def reset(request: Request, token: str, form: PostedForm, store: StoreDep, links: AccountLinksDep):
    """Choose a new password: every session of the account ends, and this
    browser is given a new one."""
    from services.accounts import reset as reset_password

    new = str(form.get("new") or "")
    if new != str(form.get("new2") or ""):
        return _reset_page(request, links, token, error="the two passwords differ; nothing was changed", status=422)
    try:
        user, session = reset_password(store, token, new)
    except LinkRefused as exc:
        return _link_refused(request, exc, "/forgot")
    except PermitsError as exc:
        return _reset_page(request, links, token, error=f"{exc}; nothing was changed", status=422)
    start_session(request, session)
    return RedirectResponse("/my" if user.role == APPLICANT else "/today", status_code=303)
