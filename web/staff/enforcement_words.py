"""The words of enforcement in the staff's workbench: each step of a case,
each clock and each state by its name, as the cases' list and a case's
page (web/staff/enforcement_pages.py) show them."""

from __future__ import annotations

__all__ = ["STEP_LABELS", "CLOCK_LABELS", "STATE_LABELS"]

STEP_LABELS = {
    "violation-observed": "Violation observed",
    "violation-noticed": "Notice of violation sent",
    "order-issued": "Enforcement Order issued",
    "order-extended": "Order extended by the board",
    "ticket-issued": "Ticket issued (non-criminal disposition)",
    "ticket-paid": "Ticket paid",
    "ticket-contested": "Ticket contested: hearing requested",
    "town-abated": "The town abated the violation itself",
    "costs-noticed": "The town's costs noticed",
    "costs-protested": "The costs protested",
    "costs-decided": "The protest decided",
    "costs-paid": "The costs paid",
    "lien-recorded": "Lien recorded on the property",
    "complied": "The Order complied with",
    "closed": "Case closed",
    "event-voided": "A step voided",
}
CLOCK_LABELS = {
    "compliance": "Compliance with the Enforcement Order",
    "ticket-appearance": "Appearance before the clerk, or payment (21 days)",
    "ticket-mailing": "Ticket mailed within 15 days of the offense",
    "cost-notice": "The town's costs noticed (30 days after abatement)",
    "cost-protest": "Written protest of the costs (30 days from receipt)",
    "costs-due": "The costs due",
    "costs-lien": "The costs become a lien",
    "cost-interest": "Interest on unpaid costs",
}
STATE_LABELS = {
    "open": "Violation on record",
    "noticed": "Notice of violation sent",
    "ordered": "Under an Enforcement Order",
    "complied": "The Order complied with",
    "closed": "Closed",
}
