"""The admin's page of users: list them, add one, disable or enable one,
change a role and towns, unlock, set a temporary password: the same
actions as ``permits users`` (:mod:`services.users`).  Anyone but an admin
gets 404, as for a filing outside their scope."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

from models.errors import UserError
from models.types import ROLES, User
from services.bootstrap import Store, Users

from ..bodies import PostedForm
from ..deps import Admin, StoreDep, UsersDep
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
    from workflows.towns import registry

    ctx = {
        "users": users.list(),
        "locked": users.locked(),
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


@router.post("/users")
def add_user(request: Request, user: Admin, form: PostedForm, users: UsersDep, store: StoreDep):
    from services.users import add_user as add

    email, role = str(form.get("email") or ""), str(form.get("role") or "")
    towns = [str(t) for t in form.getlist("town")]
    try:
        add(store, email, str(form.get("password") or ""), role, towns)
    except UserError as exc:
        return _page(request, users, user, str(exc), {"email": email, "role": role}, status=422)
    return RedirectResponse("/users", status_code=303)


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
        return f"Temporary password for {account.email}: {password} (give it to them; they change it under Password)."

    return _act(request, users, store, user, form, action)
