"""The staff's room of the web workbench: the pages conservation agents,
DPW staff and admins work in.  Today (the docket, its CSV and ICS), the
Filings list, the rule book and the calendar subscription
(:mod:`web.staff.pages`); a filing's page and the posts that change it
(:mod:`web.staff.filing_pages`, its forms :mod:`web.staff.forms`, what it
shows of the submission, the parcel and the documents); the online
applications found complete or incomplete and the invitations
(:mod:`web.staff.submissions`); enforcement, meetings, the DPW schedule,
deposits, fees and payments, the map, the parcels and abutters, and the
admin's pages of users and of emails (:mod:`web.staff.emails`).  Every route takes a staff user (``StaffUser`` or
``Admin``, web/deps.py) as its first dependency, but the calendar feed,
whose secret token is the key; an applicant is sent to their own pages.

Templates: web/staff/templates/, named ``"staff/<name>.html"``.

May import: the shared top of :mod:`web` (the app's dependencies, forms,
bodies, render, values...), every layer below the web, FastAPI/Starlette
and Jinja2.  Never another room of the web (:mod:`web.applicant`,
:mod:`web.account`, :mod:`web.public`: a contract of pyproject.toml), never
:mod:`cli`.
"""

__all__ = [
    "admin",
    "deposit_pages",
    "documents",
    "emails",
    "enforcement_pages",
    "enforcement_words",
    "fee_pages",
    "filing_pages",
    "forms",
    "map_pages",
    "meeting_pages",
    "pages",
    "parcel_facts",
    "parcel_pages",
    "report_pages",
    "schedule_pages",
    "submission_view",
    "submissions",
]
