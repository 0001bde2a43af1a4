"""The admin's page of users: list them by name and title, invite a
member of staff by email (name, title, role, towns: they choose their own
password from the emailed link), send an invitation again, add one with a
temporary password (changed at their first login), correct a name and
title, disable or enable one, change a role and towns, unlock, set a
temporary password (changed at their next login): the same actions as
``permits users`` (:mod:`services.users`).  The invitation's email is
handed to the mail server once the page is sent (with none set, it waits
on the Emails page).  Anyone but an admin gets 404, as for a filing
outside their scope."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

from models.errors import UserError
from models.types import ROLES, User
from services.bootstrap import Store, Users

from ..bodies import PostedForm
from ..deps import Admin, Now, SettingsDep, StoreDep, UsersDep
from ..render import render

__all__ = ["router"]

router = APIRouter()


def _page(
    request: Request,
    users: Users,
    user: User,
    error: str | None = None,
    values: dict | None = None,
    status: int = 200,
    done: str | None = None,
):
    from models.types import INVITATION_DAYS, PAUSE_AFTER, PAUSE_WINDOW
    from workflows.towns import registry

    ctx = {
        "users": users.list(),
        "locked": users.locked(),
        "failed": users.failed_logins(),
        "pause_after": PAUSE_AFTER,
        "pause_minutes": PAUSE_WINDOW.seconds // 60 + PAUSE_WINDOW.days * 24 * 60,
        "invitation_days": INVITATION_DAYS,
        "roles": ROLES,
        "all_towns": sorted(registry()),
        "error": error,
        "done": done,
        "values": values or {},
    }
    return render(request, "staff/users.html", ctx, user=user, status=status)


@router.get("/users")
def users_page(request: Request, user: Admin, users: UsersDep):
    return _page(request, users, user)


def _person(form) -> dict:
    return {k: str(form.get(k) or "") for k in ("email", "full_name", "title", "role")}


def _sent_later(response, store: Store, settings, sent):
    """Hand the invitation's email to the mail server once the page is sent."""
    from starlette.background import BackgroundTask

    from services.accounts import deliver_now

    if settings.smtp_url and sent.notice_ids:
        response.background = BackgroundTask(deliver_now, store, settings.smtp_url, sent.notice_ids)
    return response


def _invited(sent, settings) -> str:
    from models.types import INVITATION_DAYS

    where = "" if settings.smtp_url else " (no mail server is set: it waits on the Emails page)"
    return f"An invitation was emailed to {sent.address}{where}; its link works once, for {INVITATION_DAYS} days."


@router.post("/users/invite")
def invite_user(
    request: Request, user: Admin, form: PostedForm, users: UsersDep, store: StoreDep, settings: SettingsDep, now: Now
):
    """Invite a member of staff by email: the page again, saying so."""
    from services.users import invite_staff

    values = _person(form)
    towns = [str(t) for t in form.getlist("town")]
    try:
        sent = invite_staff(
            store,
            values["email"],
            values["full_name"],
            values["title"],
            values["role"],
            towns,
            by=user.signature,
            base_url=settings.base_url,
            now=now,
            mail_from=settings.mail_from,
        )
    except UserError as exc:
        return _page(request, users, user, str(exc), values, status=422)
    return _sent_later(_page(request, users, user, done=_invited(sent, settings)), store, settings, sent)


@router.post("/users/invite-again")
def invite_again(
    request: Request, user: Admin, form: PostedForm, users: UsersDep, store: StoreDep, settings: SettingsDep, now: Now
):
    from services.users import invite_again as again

    try:
        sent = again(
            store,
            str(form.get("email") or ""),
            by=user.signature,
            base_url=settings.base_url,
            now=now,
            mail_from=settings.mail_from,
        )
    except UserError as exc:
        return _page(request, users, user, str(exc), status=422)
    return _sent_later(_page(request, users, user, done=_invited(sent, settings)), store, settings, sent)


@router.post("/users")
def add_user(request: Request, user: Admin, form: PostedForm, users: UsersDep, store: StoreDep):
    """Add a user with a temporary password the admin gives them: they
    choose their own at their first login."""
    from services.users import add_user as add

    values = _person(form)
    towns = [str(t) for t in form.getlist("town")]
    try:
        add(
            store,
            values["email"],
            str(form.get("password") or ""),
            values["role"],
            towns,
            full_name=values["full_name"],
            title=values["title"],
            temporary=True,
        )
    except UserError as exc:
        return _page(request, users, user, str(exc), values, status=422)
    return RedirectResponse("/users", status_code=303)


@router.post("/users/person")
def change_person(request: Request, user: Admin, form: PostedForm, users: UsersDep, store: StoreDep):
    """Correct a user's full name and title."""
    from services.users import change_person as change

    full_name, title = str(form.get("full_name") or ""), str(form.get("title") or "")
    return _act(request, users, store, user, form, lambda store, email: change(store, email, full_name, title))


def _act(request: Request, users: Users, store: Store, user: User, form, action) -> object:
    """One account action on the form's ``email``: the page again, with the
    refusal in words (nothing written), or a redirect to the list."""
    email = str(form.get("email") or "")
    try:
        done = action(store, email)
    except UserError as exc:
        return _page(request, users, user, str(exc), status=422)
    if isinstance(done, str):
        return _page(request, users, user, done=done)
    return RedirectResponse("/users", status_code=303)


@router.post("/users/disable")
def disable_user(request: Request, user: Admin, form: PostedForm, users: UsersDep, store: StoreDep):
    from services.users import disable_user as disable

    return _act(request, users, store, user, form, lambda store, email: disable(store, email, by=user.email))


@router.post("/users/enable")
def enable_user(request: Request, user: Admin, form: PostedForm, users: UsersDep, store: StoreDep):
    from services.users import enable_user as enable

    return _act(request, users, store, user, form, enable)


@router.post("/users/unlock")
def unlock_user(request: Request, user: Admin, form: PostedForm, users: UsersDep, store: StoreDep):
    from services.users import unlock_user as unlock

    return _act(request, users, store, user, form, unlock)


@router.post("/users/access")
def change_access(request: Request, user: Admin, form: PostedForm, users: UsersDep, store: StoreDep):
    from services.users import change_access as change

    role, towns = str(form.get("role") or ""), [str(t) for t in form.getlist("town")]
    return _act(request, users, store, user, form, lambda store, email: change(store, email, role, towns, by=user.email))


@router.post("/users/temporary-password")
def temporary_password(request: Request, user: Admin, form: PostedForm, users: UsersDep, store: StoreDep):
    """A temporary password, shown once on the page that answers."""
    from services.users import temporary_password as temporary

    def action(store, email):
        account, password = temporary(store, email)
        return (
            f"Temporary password for {account.email}: {password} (give it to them; they choose their own when they next log in)."
        )

    return _act(request, users, store, user, form, action)
