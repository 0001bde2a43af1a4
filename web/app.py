"""The workbench application: :func:`create_app` over one store.

``today`` is read at this edge (a callable, so tests fix the day), and so
is the moment a notice or an email is dated (``app.state.now``: today at
the wall clock's time).  The settings come from the caller
(:class:`config.Settings`; ``permits serve`` reads them from the
environment): the secret that signs session cookies
(``PERMITS_SECRET_KEY``, else a fresh one, which logs everyone out at a
restart), the trusted proxies whose ``X-Forwarded-For`` names the client
(``PERMITS_TRUSTED_PROXIES``, web/clients.py), the uploads folder and its
limit, the sender of emails.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterable
from datetime import date, datetime
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.middleware.sessions import SessionMiddleware

from config import Settings
from models.service import Store
from models.users import Users

from .auth import LoginRequired, StaffOnly, login_redirect
from .render import render

__all__ = ["create_app", "SESSION_HOURS"]

HERE = Path(__file__).parent
SESSION_HOURS = 10


#: sent with every response: no framing (clickjacking), no content sniffing,
#: and no Referer to other sites (a calendar URL holds a secret)
SECURITY_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


class ServerTiming:
    """Adds ``Server-Timing: app;dur=MS`` to every response: the time the
    app took, without the network or the client (what the benchmarks read);
    and the :data:`SECURITY_HEADERS`."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        start = time.perf_counter()

        async def timed(message):
            if message["type"] == "http.response.start":
                ms = (time.perf_counter() - start) * 1000
                message.setdefault("headers", [])
                message["headers"] = [
                    *message["headers"],
                    (b"server-timing", f"app;dur={ms:.2f}".encode()),
                    *SECURITY_HEADERS,
                ]
            await send(message)

        await self.app(scope, receive, timed)


def create_app(
    store: Store | str,
    *,
    settings: Settings | None = None,
    secret: str | None = None,
    today: Callable[[], date] = date.today,
    trusted_proxies: str | Iterable[str] | None = None,
) -> FastAPI:
    """The workbench over ``store``.  ``settings`` default: the
    environment's (:func:`config.load`); ``secret`` and ``trusted_proxies``,
    when given, win over theirs."""
    import config
    from models.throttle import Throttle

    from .clients import parse_trusted_proxies

    settings = settings or config.load()
    store = Store(store) if isinstance(store, str) else store
    app = FastAPI(title="Permits workbench", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.store = store
    app.state.settings = settings
    app.state.users = Users(store.engine, now=store.now)
    app.state.today = today
    app.state.now = lambda: datetime.combine(today(), datetime.now().time()).replace(second=0, microsecond=0)
    app.state.throttle = Throttle(store.engine, now=store.now)
    proxies = settings.trusted_proxies if trusted_proxies is None else trusted_proxies
    app.state.trusted_proxies = parse_trusted_proxies(proxies)
    app.add_middleware(
        SessionMiddleware,
        secret_key=secret or settings.secret_key or secrets.token_urlsafe(32),
        session_cookie="permits_session",
        max_age=SESSION_HOURS * 3600,
        same_site="lax",
        https_only=False,
    )
    app.add_middleware(ServerTiming)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    @app.exception_handler(LoginRequired)
    async def _login(request: Request, exc: LoginRequired):
        return login_redirect(exc.path)

    @app.exception_handler(StaffOnly)
    async def _applicant(request: Request, exc: StaffOnly):
        from fastapi.responses import RedirectResponse

        return RedirectResponse("/my", status_code=303)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException):
        titles = {404: "Not found", 403: "Refused", 405: "Not allowed"}
        detail = exc.detail if exc.status_code != 404 else "No such page or filing, or not one of yours."
        return render(
            request,
            "error.html",
            {"title": titles.get(exc.status_code, "Error"), "detail": detail},
            user=None,
            status=exc.status_code,
        )

    from models.applicants import Applicants
    from models.uploads import Uploads

    from . import admin, applicant_pages, auth, enforcement_pages, filing_pages, pages, submissions

    app.state.applicants = Applicants(store)
    app.state.uploads = Uploads(store, settings.uploads_dir, settings.upload_max_bytes)
    app.state.uploads.tidy()  # the plans of an application killed before its commit
    app.include_router(applicant_pages.router)
    app.include_router(submissions.router)
    app.include_router(auth.router)
    app.include_router(pages.router)
    app.include_router(filing_pages.router)
    app.include_router(enforcement_pages.router)
    app.include_router(admin.router)
    return app
