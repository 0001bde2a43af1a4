"""The public's room of the web workbench, for the public site the next
issues add: what a town publishes for anyone, without a login (a filing's
public record, a hearing's agenda, a decision once issued...).

What it may show: nothing that is behind a login anywhere else, and only
what a town marks public; no route here takes a user, reads a session or
a form that changes the record.  Its routes go in :mod:`web.public.pages`
(its router is already included by :func:`web.app.create_app`), its
templates in web/public/templates/, named ``"public/<name>.html"``.

May import: the shared top of :mod:`web`, every layer below the web,
FastAPI/Starlette and Jinja2.  Never another room of the web
(:mod:`web.staff`, :mod:`web.applicant`, :mod:`web.account`: a contract
of pyproject.toml), never :mod:`cli`.
"""

__all__ = ["pages"]
