"""What the filing page shows of the submission and the documents (the
project, site and parties: :mod:`workflows.particulars`; the plans; the
abutter notices whose mailing may be downloaded: :mod:`web.staff.documents`)."""

from __future__ import annotations

__all__ = ["DECISIONS", "documents_context"]

#: the notices that are the board's or the department's decision
DECISIONS = frozenset({"permit", "denial", "determination", "street-permit", "street-refusal"})


def documents_context(uploads, filing, notices, abutters) -> dict:
    """What the filing page shows of the submission and the documents:
    ``notices`` are those that fit now, ``abutters`` the stored list."""
    from services.mailing import mailing_kinds
    from workflows.particulars import particulars

    return {
        "particulars": particulars(filing),
        "plans": uploads.of_filing(filing.id),
        "mailings": mailing_kinds(notices) if abutters else [],
        "decisions": DECISIONS,
    }
