"""The front door's room of the web workbench: the account pages anyone
reaches before a session, and one's own password after.  Register, the
emailed link that finishes it, "Forgot your password?" and the reset link
(:mod:`web.account.front_door`); an invitation accepted
(:mod:`web.account.invitation`: it makes or opens an account and starts a
session, a step of the front door); a member of staff joining from the
link an admin's invitation emailed them (:mod:`web.account.welcome`); logging in and out and changing one's
password (:mod:`web.account.login`); the page that refuses a client over a
per-address limit (:mod:`web.account.limits`).

Templates: web/account/templates/, named ``"account/<name>.html"``.

May import: the shared top of :mod:`web` (the session's start and end are
web/auth.py's), every layer below the web, FastAPI/Starlette and Jinja2.
Never another room of the web (:mod:`web.staff`, :mod:`web.applicant`,
:mod:`web.public`: a contract of pyproject.toml), never :mod:`cli`.
"""

__all__ = ["front_door", "invitation", "limits", "login", "welcome"]
