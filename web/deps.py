"""The typed dependencies of the workbench's routes: everything a route
needs from the app it asks for by a parameter, typed, and this module (with
web/app.py, which stores the context) is the only one that reads the app's
state (a test reads the sources of ``web/``).

:func:`web.app.create_app` keeps one :class:`WebContext` on the app: the
store and the repositories over it (:class:`services.bootstrap.Backends`),
the settings, the town's day and moment (callables: tests fix the day), and
the proxies whose ``X-Forwarded-For`` is trusted.  A route names what it
uses, after who may call it and its form (docs/engineering/architecture.md,
"A route")::

    @router.post("/calendar/reset")
    def calendar_reset(user: StaffUser, form: PostedForm, users: UsersDep):

- **The record**: :data:`StoreDep`, and the repositories over it,
  :data:`UsersDep`, :data:`SessionsDep`, :data:`ThrottleDep`,
  :data:`ApplicantsDep`, :data:`UploadsDep`, :data:`AccountLinksDep`.
- **The settings** (:data:`SettingsDep`), **the day** (:data:`Today`, a
  ``date``) and **the moment** (:data:`Now`, a ``datetime``: today at the
  town's wall-clock time), read once a request.
- **The client's address** (:data:`ClientAddress`, web/clients.py's rule).
- **The whole context** (:data:`WebDep`) for a route that hands several of
  them to a page of many parts (a filing's page, an applicant's status page).
- **Who may call**: :data:`SessionUser` (staff or applicant),
  :data:`StaffUser`, :data:`Admin` (anyone else: 404) and :data:`Applicant`
  (the user and their applicant's account; staff: 404).  A stranger is sent
  to the login page (:class:`web.auth.LoginRequired`), an applicant on a
  staff page to their own (:class:`web.auth.StaffOnly`), a user logged in
  with a temporary password to change it (:class:`web.auth.PasswordChangeRequired`:
  only :data:`SessionUser`'s routes, the password page, let them through).

Each is a plain ``def``, as every route is: FastAPI runs it in its
threadpool, and the session is read from the store
(tests/web/test_web_threadpool.py).  What holds only the request (drawing a
page, web/render.py; the form readers, web/bodies.py) reads the context
through :func:`web_context`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Annotated

from fastapi import Depends, FastAPI, HTTPException, Request

from config import Settings
from models.types import APPLICANT, Account, User
from services.bootstrap import AccountLinks, Applicants, Backends, Sessions, Store, Throttle, Uploads, Users

from .auth import LoginRequired, PasswordChangeRequired, StaffOnly
from .clients import Networks, resolve

__all__ = [
    "WebContext",
    "install",
    "context_of",
    "web_context",
    "WebDep",
    "StoreDep",
    "UsersDep",
    "SessionsDep",
    "ThrottleDep",
    "ApplicantsDep",
    "UploadsDep",
    "AccountLinksDep",
    "SettingsDep",
    "Today",
    "Now",
    "ClientAddress",
    "session_user",
    "current_user",
    "admin_user",
    "current_applicant",
    "SessionUser",
    "StaffUser",
    "Admin",
    "Applicant",
]


@dataclass(frozen=True)
class WebContext:
    """What the workbench's routes work with, made once by
    :func:`web.app.create_app`."""

    backends: Backends
    settings: Settings
    #: the town's today (tests fix it)
    today: Callable[[], date]
    #: today at the town's wall-clock time: when a notice or an email is dated
    now: Callable[[], datetime]
    #: the proxies whose X-Forwarded-For names the client (PERMITS_TRUSTED_PROXIES)
    trusted_proxies: Networks

    @property
    def store(self) -> Store:
        return self.backends.store

    @property
    def users(self) -> Users:
        return self.backends.users

    @property
    def sessions(self) -> Sessions:
        return self.backends.sessions

    @property
    def throttle(self) -> Throttle:
        return self.backends.throttle

    @property
    def applicants(self) -> Applicants:
        return self.backends.applicants

    @property
    def uploads(self) -> Uploads:
        return self.backends.uploads

    @property
    def account_links(self) -> AccountLinks:
        return self.backends.account_links


def install(app: FastAPI, context: WebContext) -> None:
    """Keep ``context`` on ``app`` (:func:`web.app.create_app`)."""
    app.state.web = context


def context_of(app: FastAPI) -> WebContext:
    """The context ``app`` was made with (for a test, a benchmark)."""
    return app.state.web


def web_context(request: Request) -> WebContext:
    """The context of the app serving ``request``."""
    return request.app.state.web


WebDep = Annotated[WebContext, Depends(web_context)]


def _store(web: WebDep) -> Store:
    return web.store


def _users(web: WebDep) -> Users:
    return web.users


def _sessions(web: WebDep) -> Sessions:
    return web.sessions


def _throttle(web: WebDep) -> Throttle:
    return web.throttle


def _applicants(web: WebDep) -> Applicants:
    return web.applicants


def _uploads(web: WebDep) -> Uploads:
    return web.uploads


def _account_links(web: WebDep) -> AccountLinks:
    return web.account_links


def _settings(web: WebDep) -> Settings:
    return web.settings


def _today(web: WebDep) -> date:
    return web.today()


def _now(web: WebDep) -> datetime:
    return web.now()


def _client_address(request: Request, web: WebDep) -> str:
    peer = request.client.host if request.client else ""
    return resolve(peer, request.headers.getlist("x-forwarded-for"), web.trusted_proxies)


StoreDep = Annotated[Store, Depends(_store)]
UsersDep = Annotated[Users, Depends(_users)]
SessionsDep = Annotated[Sessions, Depends(_sessions)]
ThrottleDep = Annotated[Throttle, Depends(_throttle)]
ApplicantsDep = Annotated[Applicants, Depends(_applicants)]
UploadsDep = Annotated[Uploads, Depends(_uploads)]
AccountLinksDep = Annotated[AccountLinks, Depends(_account_links)]
SettingsDep = Annotated[Settings, Depends(_settings)]
#: the town's today, read once for the request
Today = Annotated[date, Depends(_today)]
#: the moment, read once for the request
Now = Annotated[datetime, Depends(_now)]
#: the client's address, for the per-address limits (web/clients.py)
ClientAddress = Annotated[str, Depends(_client_address)]


# -- who may call ----------------------------------------------------------------


def session_user(request: Request, web: WebDep) -> User:
    """The session's user, staff or applicant: the cookie's token names a
    live session in the store, of an enabled user."""
    user = web.sessions.user(request.session.get("sid"))
    if user is None:
        request.session.clear()
        raise LoginRequired(request.url.path + (f"?{request.url.query}" if request.url.query else ""))
    return user


#: a route's user, staff or applicant
SessionUser = Annotated[User, Depends(session_user)]


def current_user(user: SessionUser) -> User:
    """The session's staff user; an applicant is sent to their pages, a
    user with a temporary password to change it first."""
    if user.role == APPLICANT:
        raise StaffOnly()
    if user.must_change_password:
        raise PasswordChangeRequired()
    return user


#: a route's staff user
StaffUser = Annotated[User, Depends(current_user)]


def admin_user(user: StaffUser) -> User:
    """The session's user, an admin; anyone else gets 404, as for a filing
    outside their scope."""
    if user.role != "admin":
        raise HTTPException(404)
    return user


#: the route's user, an admin (anyone else: 404)
Admin = Annotated[User, Depends(admin_user)]


def current_applicant(request: Request, user: SessionUser, web: WebDep) -> tuple[User, Account]:
    """(the user, the applicant's account); staff get 404; an applicant
    with a temporary password changes it first."""
    if user.role != APPLICANT:
        raise HTTPException(404)
    if user.must_change_password:
        raise PasswordChangeRequired()
    account = web.applicants.account(user.id)
    if account is None:
        raise LoginRequired(request.url.path)
    return user, account


#: the route's applicant: (the user, their account)
Applicant = Annotated[tuple, Depends(current_applicant)]
