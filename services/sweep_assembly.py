"""One sweep run, assembled in one place for the plain call
(:func:`services.sweep.run_sweep`) and for every task of the Prefect flow
(:mod:`services.sweep_flow`): the filings' source, the output log, the
notice hook; and what a run takes from the settings when it is not told
(a Prefect deployment's run, a folder of filings' ledger).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from config import Settings

__all__ = ["SweepParts", "assemble", "notice_budget", "sweep_defaults", "default_ledger"]


def default_ledger(filings: str, settings: Settings) -> str:
    """Where a sweep of ``filings`` records its outputs when no ledger is
    named: on the filings in the store itself; for a folder of filing JSON,
    the SQLite ledger file in the data directory."""
    from sweep.store_source import is_database_url

    return filings if is_database_url(filings) else str(settings.sweep_ledger)


@dataclass(frozen=True)
class SweepParts:
    """What one sweep run works on: the filings' source, the output log and
    the notice hook (None: notices listed, not made)."""

    source: Any
    log: Any
    hook: Any

    def close(self) -> None:
        self.log.close()


def assemble(
    filings: str,
    ledger: str,
    *,
    as_of: date,
    make_notices: bool,
    notice_limit: int | None,
    mail_from: str,
    everything: bool = False,
) -> SweepParts:
    """The parts of a sweep of ``filings`` (a database URL, or a folder or
    .jsonl file of filing JSON) recording its outputs in ``ledger``: the
    output log on the source's own store and engine when they are one, and
    the notices' emails queued in the store's outbox when the log is the
    store.  Over the store, only the filings whose next change has come on
    ``as_of`` (the incremental sweep), unless ``everything`` (``permits
    sweep --all``: every open filing)."""
    from sweep.store_source import open_source

    from .sweep_log import open_log

    source = open_source(filings, None if everything else as_of)
    log = open_log(ledger, source)
    hook = notice_budget(ledger, as_of, notice_limit, mail_from) if make_notices else None
    return SweepParts(source, log, hook)


def notice_budget(ledger: str, as_of: date, limit: int | None, mail_from: str):
    """The notice hook of a run recording in ``ledger``: it makes at most
    ``limit`` notices (None: all), with their emails queued in the store's
    outbox when the ledger is the store."""
    from sweep.dispatch import notice_hook
    from sweep.store_source import is_database_url

    return notice_hook(as_of, limit=limit, email=is_database_url(ledger), mail_from=mail_from)


def sweep_defaults(as_of: date | None, filings: str | None, ledger: str | None, mail_from: str | None, out: str | None):
    """What a run not given them sweeps (a deployment's run): today in the
    town's zone, the configured store, the outputs recorded on it, its
    sender, ``out/sweep-DATE``; read from the settings here, once."""
    import config
    from config.clock import town_today

    settings = config.load()
    as_of = as_of or town_today(settings.timezone)
    filings = filings or settings.store_url()  # PERMITS_DATABASE_URL, else the default SQLite store
    ledger = ledger or default_ledger(filings, settings)
    mail_from = mail_from or settings.mail_from
    out = out or str(Path("out") / f"sweep-{as_of.isoformat()}")
    return as_of, filings, ledger, mail_from, out
