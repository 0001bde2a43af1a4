"""Run the daily sweep: as a Prefect flow (the default,
:mod:`services.sweep_flow`) or as a plain call, over the store or a folder
of filing JSON, with the progress callback and the notice limit passed in;
then hand the outbox to the SMTP server when one is configured.
``permits sweep`` and ``permits demo`` call :func:`run_sweep`.

A run is assembled in one place, :func:`services.sweep_assembly.assemble`
(the filings' source, the output log, the notice hook), for the plain call
and for every task of the flow alike; a run a Prefect deployment starts
takes what it is not given from the settings through
:func:`services.sweep_assembly.sweep_defaults`, as :func:`run_sweep` does.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any, Protocol

from config import Settings
from workflows.errors import PermitsError

from .sweep_assembly import assemble, default_ledger

__all__ = ["SweepFailed", "Progress", "run_sweep", "check_sample"]


class SweepFailed(PermitsError):
    """The Prefect flow failed for a reason of its own (not a filing's)."""


class Progress(Protocol):
    """What a sweep tells of its progress (the command line's bar): how many
    open filings it will read, then how many more it has swept."""

    def start(self, total: int) -> None: ...

    def update(self, n: int) -> None: ...


def run_sweep(
    as_of: date,
    filings: str,
    out: str,
    settings: Settings,
    *,
    ledger: str | None = None,
    chunk_size: int = 500,
    use_prefect: bool = True,
    notice_limit: int | None = None,
    dask: str | None = None,
    make_notices: bool = True,
    progress: Progress | None = None,
    say: Callable[[str], None] | None = None,
    everything: bool = False,
) -> dict[str, Any]:
    """Sweep ``filings`` (a database URL, or a folder or .jsonl file of
    filing JSON) for ``as_of`` into ``out``; returns ``{"counts", "digest",
    "paths", "email"}`` either way.  ``make_notices`` false: the notices due
    are listed (pending), not made, and no email goes out.  ``progress`` is
    told the open filings' count, then how many were swept, chunk by chunk;
    ``say`` is told the stages that have no count (Prefect starting, and
    how long it took).  Over the store only the open filings whose next
    change has come on ``as_of`` are swept (recorded on, imported, or due
    by a clock, a reminder or a notice: :mod:`sweep.next_change`), unless
    ``everything`` (``permits sweep --all``).  Over the store, a sample of its filings is then
    checked against their histories (``PERMITS_SWEEP_CHECK_SAMPLE``:
    :func:`check_sample`; ``"check"``, else None)."""
    from sweep.store_source import is_database_url

    # WeasyPrint warns about its font subsetting once per PDF: noise in a
    # sweep that makes hundreds (errors still show).
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    ledger = ledger or default_ledger(filings, settings)
    if use_prefect:
        res = _with_prefect(
            as_of,
            filings,
            ledger,
            out,
            settings,
            chunk_size,
            notice_limit,
            dask,
            make_notices,
            progress,
            say or _quiet,
            everything,
        )
    else:
        res = _plain(as_of, filings, ledger, out, settings, chunk_size, notice_limit, make_notices, progress, everything)
    res = {k: res[k] for k in res.keys()}  # the flow's result reads like a dict; add to a copy
    res["email"] = None
    if make_notices and is_database_url(ledger) and settings.smtp_url:
        res["email"] = _deliver(ledger, settings.smtp_url)
    res["check"] = None
    if is_database_url(filings) and settings.sweep_check_sample:
        res["check"] = check_sample(filings, settings.sweep_check_sample, as_of, out)
        res["paths"]["record-check.json"] = str(Path(out) / "record-check.json")
    return res


def check_sample(url: str, sample: int, as_of: date, out: str):
    """After the sweep, ``sample`` filings of the store, chosen at random
    (the same ones on a rerun of the day), checked against their histories
    (:func:`services.record_check.check_record`): what it found is written
    to ``record-check.json`` in ``out`` and each difference logged as a
    warning (``permits.sweep``).  A store whose rows drift from what its
    histories imply is a fault to look into (``permits check`` lists every
    difference, ``permits rederive`` repairs)."""
    import json

    from models.handle import Store

    from .record_check import check_record

    store = Store(url)
    try:
        found = check_record(store, sample=sample, seed=as_of.toordinal())
    finally:
        store.engine.dispose()
    log = logging.getLogger("permits.sweep")
    for d in found.differences:
        log.warning("record check: %s", d.line())
    Path(out).mkdir(parents=True, exist_ok=True)
    (Path(out) / "record-check.json").write_text(json.dumps(found.as_dict(), indent=2) + "\n", encoding="utf-8")
    return found


def _quiet(line: str) -> None:
    pass


def _with_prefect(as_of, filings, ledger, out, settings, chunk_size, notice_limit, dask, make_notices, progress, say, everything):
    from sweep.prefect_env import configure_embedded

    configure_embedded(settings.prefect_home)
    started = time.monotonic()
    say("Loading Prefect...")
    from . import sweep_flow as flows

    if flows.embedded_server_wanted():
        say("Starting Prefect's local server (a first run creates its database: 20-30 s)...")
        flows.start_embedded_server()
    say(f"Prefect is ready ({time.monotonic() - started:.0f} s); sweeping...")

    if progress is not None:  # the flow's own parts (one per process): counted once
        run = flows.parts(
            filings,
            ledger,
            as_of=as_of,
            make_notices=make_notices,
            notice_limit=notice_limit,
            mail_from=settings.mail_from,
            everything=everything,
        )
        progress.start(run.source.count())
    try:
        sweep_flow = flows.daily_sweep.with_options(task_runner=flows.task_runner(dask)) if dask else flows.daily_sweep
        return sweep_flow(
            as_of=as_of,
            filings=filings,
            ledger=ledger,
            out=out,
            chunk_size=chunk_size,
            make_notices=make_notices,
            notice_limit=notice_limit,
            mail_from=settings.mail_from,
            # a Relay: the flow run's parameters travel to Dask workers, pickled, and a bar holds a lock
            progress=flows.Relay(progress.update) if progress is not None else None,
            everything=everything,
        )
    except PermitsError:
        raise
    except Exception as exc:
        raise SweepFailed(f"the daily-sweep flow failed: {type(exc).__name__}: {exc}") from exc
    finally:
        flows.close_parts()


def _plain(as_of, filings, ledger, out, settings, chunk_size, notice_limit, make_notices, progress, everything):
    from sweep.report import write_report
    from sweep.run import run_sweep as sweep_filings

    run = assemble(
        filings,
        ledger,
        as_of=as_of,
        make_notices=make_notices,
        notice_limit=notice_limit,
        mail_from=settings.mail_from,
        everything=everything,
    )
    if progress is not None:
        progress.start(run.source.count())
    try:
        result = sweep_filings(
            run.source,
            run.log,
            as_of,
            chunk_size=chunk_size,
            out_dir=out,
            progress=progress.update if progress is not None else None,
            notice_hook=run.hook,
        )
    finally:
        run.close()
    try:
        return write_report(result, out)
    finally:
        result.close()


def _deliver(ledger: str, smtp_url: str):
    """Hand the store's outbox to the SMTP server (else the emails wait:
    ``permits outbox``)."""
    from models.handle import Store
    from services.mail import deliver_by_smtp

    store = Store(ledger)
    try:
        return deliver_by_smtp(store, smtp_url)
    finally:
        store.engine.dispose()
