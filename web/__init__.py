"""An interface beside :mod:`cli`, the top layer: the web workbench.  A
FastAPI (Starlette) app, Jinja2 templates (autoescaped, StrictUndefined) and
htmx (vendored in ``static/``, no CDN), served by uvicorn through ``permits
serve``.  Conservation agents, DPW staff and applicants work on the same
store as the command line: every route parses its input, calls one function
of the service layer (:mod:`services`) or a read of the record (the read
models, :mod:`models.read`; a user and who sees what, :mod:`models.types`;
the repositories' reads through what :mod:`services.bootstrap` made), and
renders the answer: never the record's schema, the store's writes or the
account repositories themselves (the ``Interfaces read the record``
contract in pyproject.toml).

A room for each audience, each with its routes and its ``templates/``:
:mod:`web.staff` (the staff's workbench), :mod:`web.applicant` (the
applicant's pages under ``/my``), :mod:`web.account` (the front door:
register, log in, reset a password, accept an invitation) and
:mod:`web.public` (the public site, to come).  What they share is here at
the top: the app (:mod:`web.app`), what a route takes as typed
dependencies (:mod:`web.deps`: the store, the settings, the day, who may
call...), the session (:mod:`web.auth`), the forms' bodies and limits
(:mod:`web.bodies`), a refusal in people's words (:mod:`web.refusals`), the client's address
(:mod:`web.clients`), the headers (:mod:`web.headers`), ``HEAD`` as ``GET`` (:mod:`web.head`), drawing a page
(:mod:`web.render`, the shared templates in ``templates/``), the values a
form carries (:mod:`web.values`, :mod:`web.forms`), and the sections and
answers two rooms both show (:mod:`web.fee_view`,
:mod:`web.inspection_request_view`, :mod:`web.site_picker`).  A room
imports the top, never another room.

May import: every layer below, FastAPI/Starlette, Jinja2 and uvicorn.  Never
:mod:`cli` (and the CLI imports this package only inside ``permits serve``).
"""

__all__ = [
    "account",
    "app",
    "applicant",
    "auth",
    "bodies",
    "clients",
    "deps",
    "fee_view",
    "forms",
    "head",
    "headers",
    "inspection_request_view",
    "public",
    "refusals",
    "render",
    "serving",
    "site_picker",
    "staff",
    "values",
]
