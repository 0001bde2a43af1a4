"""An interface beside :mod:`cli`, the top layer: the web workbench.  A
FastAPI (Starlette) app, Jinja2 templates (autoescaped, StrictUndefined) and
htmx (vendored in ``static/``, no CDN), served by uvicorn through ``permits
serve``.  Conservation agents, DPW staff and applicants work on the same
store as the command line: every route parses its input, calls one function
of the service layer (:mod:`services`) or a read of the record
(:mod:`models.read.workbench`, :mod:`models.accounts.users`), and renders the answer.

May import: every layer below, FastAPI/Starlette, Jinja2 and uvicorn.  Never
:mod:`cli` (and the CLI imports this package only inside ``permits serve``).
"""

__all__ = [
    "account_pages",
    "admin",
    "app",
    "applicant_pages",
    "apply",
    "auth",
    "bodies",
    "clients",
    "deposit_pages",
    "enforcement_pages",
    "fee_pages",
    "fee_view",
    "filing_pages",
    "forms",
    "headers",
    "inspection_request_pages",
    "inspection_request_view",
    "map_pages",
    "meeting_pages",
    "pages",
    "parcel_facts",
    "parcel_pages",
    "render",
    "schedule_pages",
    "status_view",
    "submissions",
    "submission_view",
    "documents",
    "values",
]
