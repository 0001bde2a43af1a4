"""The applicant's room of the web workbench: what an applicant (an
account with the role ``applicant``) sees under ``/my``.  My filings, the
online application and its site picker, and each filing's status page
with its notices, emails and plans, the application sent back to be
corrected and the renewal request (:mod:`web.applicant.my_filings`); the
online form and the filing it becomes (:mod:`web.applicant.apply`); what
the status page shows (:mod:`web.applicant.status_view`); inspections asked
for online (:mod:`web.applicant.inspection_request_pages`).  Every route
takes the ``Applicant`` as its first dependency and finds the filing among
those the account may see: anything else is the same 404.

Templates: web/applicant/templates/, named ``"applicant/<name>.html"``.

May import: the shared top of :mod:`web`, every layer below the web,
FastAPI/Starlette and Jinja2.  Never another room of the web
(:mod:`web.staff`, :mod:`web.account`, :mod:`web.public`: a contract of
pyproject.toml), never :mod:`cli`.
"""

__all__ = ["apply", "inspection_request_pages", "my_filings", "status_view"]
