"""An invitation accepted: the link a member of staff had emailed to an
applicant, owner or contractor (web/staff/submissions.py's invite form,
:func:`services.invite.invite`) opens this page, which makes the account
with the password chosen there, or, for an address that has one, checks
its password, and logs the browser in to follow the filing under ``/my``.

It is a step of the front door, not of the applicant's pages: it makes or
opens an account and starts a session, as the registration's link does
(web/account/front_door.py), and counts a wrong password against the
client's address as a failed login does (models/accounts/throttle.py);
every route of web/applicant/ starts from the session this page begins.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

from models.errors import ApplicantError, TooManyAttempts
from models.types import MIN_PASSWORD
from services.bootstrap import Applicants

from ..auth import start_session
from ..bodies import PostedForm
from ..deps import ApplicantsDep, ClientAddress, StoreDep
from ..refusals import refusal
from ..render import render
from .limits import too_many

__all__ = ["router"]

router = APIRouter()


def _invitation_page(request: Request, applicants: Applicants, token: str, error=None, status=200):
    try:
        email, fid = applicants.invitation(token)
    except ApplicantError as exc:
        ctx = {"title": "Invitation refused", "detail": str(exc)}
        return render(request, "error.html", ctx, user=None, status=410 if "expired" in str(exc) or "used" in str(exc) else 404)
    ctx = {"token": token, "email": email, "filing": fid, "error": error, "min": MIN_PASSWORD}
    return render(request, "account/invitation.html", ctx, user=None, status=status)


@router.get("/invitation/{token}")
def invitation_page(request: Request, token: str, applicants: ApplicantsDep):
    return _invitation_page(request, applicants, token)


@router.post("/invitation/{token}")
def accept_invitation(
    request: Request, token: str, form: PostedForm, client: ClientAddress, store: StoreDep, applicants: ApplicantsDep
):
    from services.invite import accept_invitation as accept

    password = str(form.get("password") or "")
    try:  # accepting for an existing account checks its password: a login
        _, session = accept(store, token, password, client=client)
    except TooManyAttempts as exc:
        return too_many(request, exc)
    except ApplicantError as exc:
        return _invitation_page(request, applicants, token, error=refusal(exc), status=422)
    start_session(request, session)
    return RedirectResponse("/my", status_code=303)
