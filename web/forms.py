"""What every audience's forms share: the permit kinds in words, the
applicant types and the longest street opening a form takes, and
:class:`FormErrors`, a form's errors by field, shown beside the fields.
The staff's forms are web/staff/forms.py, the online application
web/applicant/apply.py."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["FormErrors", "KIND_LABELS", "APPLICANT_TYPES", "MAX_LENGTH_FT"]

KIND_LABELS = {
    "noi": "Notice of Intent (wetlands)",
    "rda": "Request for Determination of Applicability",
    "land-disturbance": "Land disturbance (stormwater) permit",
    "street-opening": "Street opening permit",
}
APPLICANT_TYPES = ("private", "utility", "municipal")
#: the longest street opening a form takes, in feet (about 19 miles)
MAX_LENGTH_FT = 100_000


class FormErrors(Exception):
    """Errors by field name (``""`` for the form as a whole)."""

    def __init__(self, errors: Mapping[str, str]):
        self.errors = dict(errors)
        super().__init__("; ".join(f"{k or 'form'}: {v}" for k, v in self.errors.items()))
