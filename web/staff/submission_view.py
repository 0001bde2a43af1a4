"""What the filing page shows of the submission and the documents (the
project, site and parties: :mod:`workflows.particulars`; the plans; the
abutter notices whose mailing may be downloaded: :mod:`web.staff.documents`)."""

from __future__ import annotations

__all__ = ["DECISIONS", "documents_context"]

#: to whom a notice goes, as its record and its form say it (a party's key is written by its name)
RECIPIENTS = {
    "public": "the public",
    "boards": "the town's boards",
    "applicant": "the applicant",
    "applicant+owner": "the applicant and the owner",
    "holder": "the permit's holder",
}
#: the notices that are the board's or the department's decision
DECISIONS = frozenset({"permit", "denial", "determination", "street-permit", "street-refusal"})


def to_whom(recipients) -> str:
    """A sending's recipients as a line says them: a party by its name as
    the post office writes it, "the public" by its words; past three, how
    many more."""
    names = [r.split("|")[0] if "|" in r else RECIPIENTS.get(r, r) for r in recipients]
    if len(names) > 3:
        return f"{', '.join(names[:2])} and {len(names) - 2} more"
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else (names[0] if names else "")


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
        "recipient_words": RECIPIENTS,
        "to_whom": to_whom,
    }
