"""Layer 5, an interface beside :mod:`cli`: the web workbench.  A FastAPI
(Starlette) app, Jinja2 templates (autoescaped, StrictUndefined) and htmx
(vendored in ``static/``, no CDN), served by uvicorn through ``permits
serve``.  Conservation agents and DPW staff work on the same store as the
command line: every route parses its input, calls one function of the
record (:mod:`models.service`, :mod:`models.workbench`, :mod:`models.users`)
or the notices, and renders the answer.

May import: :mod:`sweep`, :mod:`notices`, :mod:`models`, :mod:`workflows`,
:mod:`calendars`, FastAPI/Starlette, Jinja2 and uvicorn.  Never :mod:`cli`
(and the CLI imports this package only inside ``permits serve``).
"""

__all__ = ["app", "auth", "render", "forms", "pages", "filing_pages", "admin"]
