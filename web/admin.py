"""The admin's page of users: list them, add one, disable one: the same
service as ``permits users`` (:mod:`models.users`).  Anyone but an admin
gets 404, as for a filing outside their scope."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import RedirectResponse

from models.users import ROLES, User, UserError

from .auth import current_user
from .bodies import PostedForm
from .render import render

__all__ = ["router"]

router = APIRouter()


def _admin(request: Request) -> User:
    user = current_user(request)
    if user.role != "admin":
        raise HTTPException(404)
    return user


#: the route's user, an admin (anyone else: 404)
Admin = Annotated[User, Depends(_admin)]


def _page(request: Request, user: User, error: str | None = None, values: dict | None = None, status: int = 200):
    from workflows.towns import registry

    ctx = {
        "users": request.app.state.users.list(),
        "roles": ROLES,
        "all_towns": sorted(registry()),
        "error": error,
        "values": values or {},
    }
    return render(request, "users.html", ctx, user=user, status=status)


@router.get("/users")
def users_page(request: Request):
    return _page(request, _admin(request))


@router.post("/users")
def add_user(request: Request, user: Admin, form: PostedForm):
    email, role = str(form.get("email") or ""), str(form.get("role") or "")
    towns = [str(t) for t in form.getlist("town")]
    try:
        request.app.state.users.add(email, str(form.get("password") or ""), role, towns)
    except UserError as exc:
        return _page(request, user, str(exc), {"email": email, "role": role}, status=422)
    return RedirectResponse("/users", status_code=303)


@router.post("/users/disable")
def disable_user(request: Request, user: Admin, form: PostedForm):
    email = str(form.get("email") or "")
    if email.strip().lower() == user.email:
        return _page(request, user, "You cannot disable your own account here: ask another admin.", status=422)
    try:
        request.app.state.users.disable(email)
    except UserError as exc:
        return _page(request, user, str(exc), status=422)
    return RedirectResponse("/users", status_code=303)
