"""The Prefect flow: ``daily_sweep``.  Thin: it selects the work, cuts it into
chunks and calls the same functions as ``permits sweep --no-prefect``
(:func:`workflows.sweep.process_chunk`, :func:`workflows.report.write_outputs`).

A task per chunk of filings, not per filing; retries are declared on the
tasks.  A retried chunk is safe: its outputs are keyed in the output log, so
what the failed attempt made is not made again.

Embedded by default: :func:`workflows.prefect_env.configure_embedded`
(called by the CLI before Prefect is imported) gives Prefect its home under the project's data
directory, turns analytics and telemetry off and lengthens the temporary
server's startup timeout; with ``PREFECT_API_URL`` set the same flow runs
on that server (see ``prefect.yaml``).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Callable

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from prefect.utilities.annotations import quote

__all__ = ["daily_sweep", "sweep_chunk", "write_sweep_outputs", "open_source",
           "open_log", "PROGRESS"]

#: Called with the number of filings each finished chunk held (the CLI's
#: progress bar).  Module state, not a flow parameter: it is not data.
PROGRESS: Callable[[int], None] | None = None
#: At most this many notices made per run (the demonstration's sample).
NOTICE_LIMIT: int | None = None


def open_source(filings: str):
    """The filing source a flow parameter names: a directory or JSONL file
    today; the store's URL once issue 4 lands."""
    from .ledger import DirectorySource

    return DirectorySource(filings)


_LOGS: dict[str, object] = {}


def open_log(ledger: str):
    """One output log per ledger path per process (tasks share it)."""
    from .ledger import SqliteLedger

    if ledger not in _LOGS:
        _LOGS[ledger] = SqliteLedger(ledger)
    return _LOGS[ledger]


def close_logs() -> None:
    _HOOKS.clear()
    while _LOGS:
        _LOGS.popitem()[1].close()




_HOOKS: dict = {}


def _hook(as_of: date):
    """One notice hook per run, shared by the chunks (its sample limit is
    per run, not per chunk)."""
    from .dispatch import notice_hook

    key = (as_of, NOTICE_LIMIT)
    if key not in _HOOKS:
        _HOOKS.clear()
        _HOOKS[key] = notice_hook(as_of, limit=NOTICE_LIMIT)
    return _HOOKS[key]


@task(name="sweep-chunk", retries=2, retry_delay_seconds=2, cache_policy=NO_CACHE, log_prints=False)
def sweep_chunk(filings: list, as_of: date, ledger: str, out: str | None) -> list:
    """Replay one chunk of filings and make what is due for them."""
    from .sweep import process_chunk

    outcomes = process_chunk(filings, as_of, open_log(ledger), notice_hook=_hook(as_of), out_dir=out)
    if PROGRESS is not None:
        PROGRESS(len(filings))
    return outcomes


@task(name="write-sweep-outputs", retries=1, retry_delay_seconds=2, cache_policy=NO_CACHE)
def write_sweep_outputs(outcomes: list, as_of: date, out: str) -> dict:
    from .report import build_digest, write_outputs
    from .sweep import SweepResult

    result = SweepResult(as_of, outcomes)
    paths = write_outputs(result, out)
    return {"counts": result.counts(), "digest": build_digest(result), "paths": {k: str(v) for k, v in paths.items()}}


@flow(name="daily-sweep", log_prints=False, validate_parameters=True)
def daily_sweep(as_of: date | None = None, filings: str | None = None, ledger: str | None = None,
                out: str | None = None, chunk_size: int = 500) -> dict:
    """Every open filing brought up to date on ``as_of`` (default: today),
    then the docket digest, the DPW inspection schedule, the reminders, the
    notices now due and the ICS feeds written to ``out``."""
    from .holiday_cache import data_dir
    from .sweep import chunked

    as_of = as_of or date.today()  # the edge: "today" is read here, once
    base = data_dir()
    filings = filings or str(base / "filings")
    ledger = ledger or str(base / "sweep-ledger.sqlite")
    out = out or str(Path("out") / f"sweep-{as_of.isoformat()}")
    source = open_source(filings)
    futures = [sweep_chunk.submit(quote(chunk), as_of, ledger, out)
               for chunk in chunked(source.open_filings(), chunk_size)]
    outcomes = [o for f in futures for o in f.result()]
    return write_sweep_outputs(quote(outcomes), as_of, out)
