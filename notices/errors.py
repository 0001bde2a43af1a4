"""The notices' errors: each a :class:`~workflows.errors.PermitsError`, so
the CLI prints one line and exits with status 2.

    PermitsError
     └── NoticeError
          ├── NoticeRefused       the notice does not fit the filing's state or record
          ├── MissingField        a value the template needs is not on the filing
          ├── AbutterListError    the assessors' CSV cannot be read or mapped
          └── TemplateProblem     an unknown or broken town template
"""

from __future__ import annotations

from workflows.errors import PermitsError

__all__ = ["NoticeError", "NoticeRefused", "MissingField", "AbutterListError", "TemplateProblem", "SendingRefused"]


class NoticeError(PermitsError):
    pass


class NoticeRefused(NoticeError):
    def __init__(self, message: str, *, filing: str, notice: str, state: str | None = None):
        self.filing, self.notice, self.state = filing, notice, state
        super().__init__(f"{filing}: can't produce {notice}: {message}")


class MissingField(NoticeError):
    def __init__(self, filing: str, notice: str, name: str, hint: str = ""):
        self.filing, self.notice, self.name = filing, notice, name
        super().__init__(
            f"{filing}: {notice} needs {name}, which the filing does not give"
            + (f" ({hint})" if hint else " (see docs/reference/notices.md, 'Filing fields the notices read')")
        )


class AbutterListError(NoticeError):
    pass


class TemplateProblem(NoticeError):
    pass


class SendingRefused(NoticeError):
    """A sending staff would record that the record refuses: a way it does
    not know, a day to come, or a notice every copy of which was recorded
    as sent already (a second sending is asked for as such)."""
