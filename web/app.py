"""The workbench application: :func:`create_app` over one store.

The app keeps one :class:`web.deps.WebContext`, and every route takes
what it needs of it as a typed dependency (web/deps.py, the one module
beside this one that reads the app's state): the store and the
repositories over it (:func:`services.bootstrap.backends`), the settings,
the day and the moment.  ``today`` is read at this edge (a callable, so
tests fix the day; by default the town's today, config/clock.py), and so is
the moment a notice or an email is dated (``now``: today at the town's
wall-clock time, ``PERMITS_TIMEZONE``, whatever zone the server runs in).
The settings come from the caller (:class:`config.Settings`; ``permits
serve`` reads them from the environment): the secret that signs session
cookies (``PERMITS_SECRET_KEY``, else a fresh one, which logs everyone out
at a restart), whether the deployment is served over HTTPS (``PERMITS_HTTPS``:
the cookie is then ``Secure``, and HSTS is sent), the trusted proxies whose
``X-Forwarded-For`` names the client (``PERMITS_TRUSTED_PROXIES``,
web/clients.py), the largest form (``PERMITS_FORM_MAX_KB``), the uploads
folder and its limit, the sender of emails.

The middleware, outermost first: :class:`web.head.HeadAsGet` (``HEAD``
answered as ``GET`` without its body), :class:`web.headers.PageHeaders` (the
headers of every response; ``Server-Timing`` only with
``PERMITS_SERVER_TIMING=yes``), the signed session cookie (it carries the
session's token, models/accounts/sessions.py, and the CSRF token), and
:class:`web.bodies.RequestGuard` (the body's size before it is read).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from datetime import date, datetime
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.middleware.sessions import SessionMiddleware

from config import Settings
from config.clock import town_now, town_today
from models.handle import Store
from models.types import SESSION_HOURS
from services.bootstrap import backends

from .auth import LoginRequired, PasswordChangeRequired, StaffOnly, login_redirect
from .bodies import RequestGuard
from .deps import WebContext, install
from .head import HeadAsGet
from .headers import PageHeaders, tile_origin
from .render import render
from .serving import KEEP_ALIVE_SECONDS, TimedH11Protocol

__all__ = ["create_app", "from_environment", "check_settings", "SESSION_HOURS", "SERVING"]

HERE = Path(__file__).parent
TITLES = {400: "Not understood", 403: "Refused", 404: "Not found", 405: "Not allowed", 413: "Too large", 422: "Not accepted"}


def error_page(request: Request, status: int, detail: str):
    """The page of a refusal: its title by status, the detail in words."""
    return render(request, "error.html", {"title": TITLES.get(status, "Error"), "detail": detail}, user=None, status=status)


#: how ``permits serve`` runs uvicorn's connections (web/serving.py): the
#: one crossing of cli/ into web/ is this module
SERVING = {"http": TimedH11Protocol, "timeout_keep_alive": KEEP_ALIVE_SECONDS}


def create_app(
    store: Store | str,
    *,
    settings: Settings | None = None,
    secret: str | None = None,
    today: Callable[[], date] | None = None,
    trusted_proxies: str | Iterable[str] | None = None,
) -> FastAPI:
    """The workbench over ``store``.  ``settings`` default: the
    environment's (:func:`config.load`); ``secret`` and ``trusted_proxies``,
    when given, win over theirs."""
    import config

    from .clients import parse_trusted_proxies

    settings = settings or config.load()
    store = Store(store) if isinstance(store, str) else store
    app = FastAPI(title="Permits workbench", docs_url=None, redoc_url=None, openapi_url=None)
    zone = settings.timezone
    today = today or (lambda: town_today(zone))
    proxies = parse_trusted_proxies(settings.trusted_proxies if trusted_proxies is None else trusted_proxies)
    context = WebContext(
        # the plans of an application killed before its commit are tidied first
        backends=backends(store, uploads_dir=settings.uploads_dir, upload_max_bytes=settings.upload_max_bytes, tidy=True),
        settings=settings,
        today=today,
        now=lambda: datetime.combine(today(), town_now(zone).time()),
        trusted_proxies=proxies,
    )
    install(app, context)
    # the largest body any route takes: a plan or an abutter list, and its form
    from services.abutters import MAX_LIST_BYTES

    cap = max(settings.upload_max_bytes, MAX_LIST_BYTES) + settings.form_max_bytes
    app.add_middleware(RequestGuard, cap=cap, page=error_page)  # innermost: it draws pages with the session
    app.add_middleware(
        SessionMiddleware,
        secret_key=secret or settings.secret_key or secrets.token_urlsafe(32),
        session_cookie="permits_session",
        max_age=SESSION_HOURS * 3600,
        same_site="lax",
        https_only=settings.https,  # the cookie is Secure when PERMITS_HTTPS=yes
    )
    app.add_middleware(
        PageHeaders, https=settings.https, img_origin=tile_origin(settings.map_tiles_url), timing=settings.server_timing
    )
    app.add_middleware(HeadAsGet)  # outermost: HEAD is GET, its headers and no body
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    @app.exception_handler(LoginRequired)
    async def _login(request: Request, exc: LoginRequired):
        return login_redirect(exc.path)

    @app.exception_handler(StaffOnly)
    async def _applicant(request: Request, exc: StaffOnly):
        from fastapi.responses import RedirectResponse

        return RedirectResponse("/my", status_code=303)

    @app.exception_handler(PasswordChangeRequired)
    async def _temporary(request: Request, exc: PasswordChangeRequired):
        from fastapi.responses import RedirectResponse

        return RedirectResponse("/password", status_code=303)

    @app.exception_handler(HTTPException)
    def _http(request: Request, exc: HTTPException):
        detail = exc.detail if exc.status_code != 404 else "No such page or filing, or not one of yours."
        response = error_page(request, exc.status_code, str(detail))
        if exc.status_code == 413:
            response.headers["Connection"] = "close"  # the rest of the body is not read
        return response

    @app.exception_handler(RequestValidationError)
    def _invalid(request: Request, exc: RequestValidationError):
        # a route's typed parameter that does not parse: never FastAPI's JSON
        return error_page(request, 404, "No such page or filing, or not one of yours.")

    from .account import front_door, invitation, login, welcome
    from .applicant import inspection_request_pages, my_filings
    from .public import pages as public_pages
    from .staff import (
        admin,
        deposit_pages,
        documents,
        emails,
        enforcement_pages,
        fee_pages,
        filing_pages,
        map_pages,
        meeting_pages,
        pages,
        parcel_pages,
        report_pages,
        schedule_pages,
        submissions,
    )

    # the front door's (web/account/), the applicant's (web/applicant/), the staff's (web/staff/), the public's (web/public/)
    for router in (
        front_door.router,
        invitation.router,
        welcome.router,
        my_filings.router,
        submissions.router,
        login.router,
        pages.router,
        filing_pages.router,
        enforcement_pages.router,
        documents.router,
        admin.router,
        emails.router,
        map_pages.router,
        parcel_pages.router,
        meeting_pages.router,
        schedule_pages.router,
        deposit_pages.router,
        report_pages.router,
        fee_pages.router,
        inspection_request_pages.router,
        public_pages.router,
    ):
        app.include_router(router)
    return app


def check_settings(settings: Settings) -> None:
    """ValueError naming a setting the app cannot start with (a bad
    ``PERMITS_TRUSTED_PROXIES``), before any worker starts."""
    from .clients import parse_trusted_proxies

    parse_trusted_proxies(settings.trusted_proxies)


def from_environment() -> FastAPI:
    """The app of one worker process of ``permits serve --workers N``
    (uvicorn's factory, called in each worker): the settings read once
    from the environment the command handed down (:func:`config.environment`:
    one database URL and one session key for every worker), the store at
    their URL.  Nothing is kept in a worker's memory that another worker
    would need: sessions are signed cookies checked against the store's
    users, the login limits are rows in the store."""
    import config

    settings = config.load()
    return create_app(settings.store_url(), settings=settings)
