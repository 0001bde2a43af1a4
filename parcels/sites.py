"""Site addresses as the assessors write them and as people type them,
made comparable: ``"40 Washington Street"``, ``"40 WASHINGTON ST"`` and
``"40 washington st."`` have one :func:`site_key`.  The table of suffixes
and the rule are the core's (:mod:`workflows.sites`), which the filings'
search reads too: one table, handed on here for the parcels."""

from __future__ import annotations

from workflows.sites import SUFFIXES, site_key

__all__ = ["site_key", "SUFFIXES"]
