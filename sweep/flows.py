"""The Prefect flow: ``daily_sweep``.  Thin: it selects the work, cuts it into
chunks and calls the same functions as ``permits sweep --no-prefect``
(:func:`sweep.run.process_chunk`, :func:`sweep.report.write_report`).

A task per chunk of filings, not per filing; retries are declared on the
tasks.  A retried chunk is safe: its outputs are keyed in the output log, so
what the failed attempt made is not made again.

Embedded by default: :func:`sweep.prefect_env.configure_embedded`
(called by :mod:`services.sweep` before Prefect is imported) gives Prefect its home under the project's data
directory, turns analytics and telemetry off and lengthens the temporary
server's startup timeout; with ``PREFECT_API_URL`` set the same flow runs
on that server (see ``prefect.yaml``).

Everything the run needs comes in as a parameter: the progress callback
(the command line's bar, told after each chunk's outcomes arrive), the
notice limit (the demonstration's sample) and the sender of emails.  A run
a deployment starts without them reads the settings (:mod:`config`) here,
at its edge.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from datetime import date
from pathlib import Path

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from prefect.task_runners import ThreadPoolTaskRunner
from prefect.utilities.annotations import quote

__all__ = [
    "daily_sweep",
    "sweep_chunk",
    "write_sweep_outputs",
    "open_source",
    "open_log",
    "close_logs",
    "task_runner",
    "embedded_server_wanted",
    "start_embedded_server",
    "SweepReport",
    "Opaque",
    "SWEEP_THREADS",
]


_SOURCES: dict[str, object] = {}


def open_source(filings: str):
    """The filing source a flow parameter names: the store's database URL,
    or a folder or .jsonl file of filing JSON.  One per process (tasks
    share the store's engine)."""
    from sweep.store_source import open_source as _open

    if filings not in _SOURCES:
        _SOURCES[filings] = _open(filings)
    return _SOURCES[filings]


_LOGS: dict[str, object] = {}


def embedded_server_wanted() -> bool:
    """Whether a flow run in this process would start Prefect's temporary
    local server: no ``PREFECT_API_URL`` names a server, and the temporary
    one is allowed."""
    from prefect.settings import PREFECT_API_URL, PREFECT_SERVER_EPHEMERAL_ENABLED

    return not PREFECT_API_URL.value() and bool(PREFECT_SERVER_EPHEMERAL_ENABLED.value())


def start_embedded_server() -> None:
    """Start Prefect's temporary local server now (what the first flow run
    of the process would do), so the command line can say that it is
    starting and when it is up; the flow run then finds it running (one
    per process, as Prefect keeps it)."""
    from prefect.server.api.server import SubprocessASGIServer

    SubprocessASGIServer().start()


def open_log(ledger: str):
    """One output log per process for ``ledger`` (tasks share it): a
    database URL is the store (the source's own engine when the flow sweeps
    that store), anything else a SQLite ledger file."""
    from sweep.store_source import open_log as _open

    if ledger not in _LOGS:
        _LOGS[ledger] = _open(ledger, _SOURCES.get(ledger))
    return _LOGS[ledger]


def close_logs() -> None:
    _HOOKS.clear()
    _SOURCES.clear()
    while _LOGS:
        _LOGS.popitem()[1].close()


class Opaque:
    """What a task returns: one object Prefect does not walk into.  The
    engine visits a returned list or dataclass element by element (to link
    results to states); for a chunk's outcomes that is a per-filing cost
    the plain call does not pay."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class SweepReport(Opaque):
    """The flow's result: ``counts``, ``digest``, ``paths``, read like a dict."""

    __slots__ = ()

    def __getitem__(self, key):
        return self.value[key]

    def keys(self):
        return self.value.keys()


_HOOKS: dict = {}


def _hook(as_of: date, limit: int | None, email: bool, mail_from: str):
    """One notice hook per run and process, shared by the chunks (its
    sample limit is per run, not per chunk); ``email`` when the log is the
    store (its outbox)."""
    from sweep.dispatch import notice_hook

    key = (as_of, limit, email, mail_from)
    if key not in _HOOKS:
        _HOOKS.clear()
        _HOOKS[key] = notice_hook(as_of, limit=limit, email=email, mail_from=mail_from)
    return _HOOKS[key]


@task(name="sweep-chunk", retries=2, retry_delay_seconds=2, cache_policy=NO_CACHE, log_prints=False)
def sweep_chunk(
    filings: str,
    ref: tuple,
    as_of: date,
    ledger: str,
    out: str | None,
    make_notices: bool = True,
    notice_limit: int | None = None,
    mail_from: str = "permits@localhost",
) -> Opaque:
    """Load one chunk of filings (``ref``, from the source's ``chunk_refs``),
    replay them and make what is due for them."""
    from sweep.run import process_chunk
    from sweep.store_source import is_database_url

    chunk = open_source(filings).load(ref)
    hook = _hook(as_of, notice_limit, is_database_url(ledger), mail_from) if make_notices else None
    return Opaque((len(chunk), process_chunk(chunk, as_of, open_log(ledger), notice_hook=hook, out_dir=out)))


@task(name="write-sweep-outputs", retries=1, retry_delay_seconds=2, cache_policy=NO_CACHE)
def write_sweep_outputs(result, out: str) -> SweepReport:
    """The report, from the spool the flow filled (``result``: a
    :class:`~sweep.run.SweepResult`); a retry writes it again whole."""
    from sweep.report import write_report

    return SweepReport(write_report(result, out))


def task_runner(dask: str | None = None):
    """The chunk tasks' runner: threads in this process, or with ``dask``
    (a scheduler address, ``tcp://host:8786``) Prefect's DaskTaskRunner on
    that cluster: each chunk then runs in a Dask worker process, which opens
    the source and the output log itself from their URLs (the PostgreSQL
    store, for a cluster of several machines) and returns its outcomes."""
    if not dask:
        return ThreadPoolTaskRunner(max_workers=SWEEP_THREADS)
    from prefect_dask import DaskTaskRunner

    return DaskTaskRunner(address=dask)


#: Chunk tasks at once.  The work is Python under the GIL: more threads buy
#: nothing, and Prefect's default (unbounded) loads every chunk at once.
SWEEP_THREADS = 2


@flow(name="daily-sweep", log_prints=False, validate_parameters=True, task_runner=ThreadPoolTaskRunner(max_workers=SWEEP_THREADS))
def daily_sweep(
    as_of: date | None = None,
    filings: str | None = None,
    ledger: str | None = None,
    out: str | None = None,
    chunk_size: int = 500,
    make_notices: bool = True,
    notice_limit: int | None = None,
    mail_from: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> SweepReport:
    """Every open filing brought up to date on ``as_of`` (default: today),
    then the docket digest, the DPW inspection schedule, the reminders, the
    notices now due and the ICS feeds written to ``out``.  With
    ``make_notices`` false the notices due are listed, not made; at most
    ``notice_limit`` are made (None: all).  ``progress`` is told how many
    filings each chunk held as its outcomes arrive.  What is not given is
    read from the settings (a deployment's run)."""
    from sweep.run import SweepResult
    from sweep.store_source import is_database_url

    if as_of is None:  # the edge: "today" is read here, once, in the town's zone
        import config
        from config.clock import town_today

        as_of = town_today(config.load().timezone)
    if filings is None or ledger is None or mail_from is None:
        import config

        settings = config.load()
        filings = filings or settings.store_url()  # PERMITS_DATABASE_URL, else the default SQLite store
        # the store records its own outputs; a folder of filing JSON, a ledger file
        ledger = ledger or (filings if is_database_url(filings) else str(settings.sweep_ledger))
        mail_from = mail_from or settings.mail_from
    out = out or str(Path("out") / f"sweep-{as_of.isoformat()}")
    source = open_source(filings)
    result = None
    # Prefect's own objects (about 100 MB of them) would be scanned by every
    # full garbage collection the sweep's allocations trigger: 10-15% per
    # filing (benchmarks/bench_sweep.py).  Freeze them for the run.
    gc.freeze()
    try:
        futures = [
            sweep_chunk.submit(filings, ref, as_of, ledger, out, make_notices, notice_limit, mail_from)
            for ref in source.chunk_refs(chunk_size)
        ]
        # each chunk's outcomes go to the report's spool as they come, and
        # are let go: the flow holds the chunks in flight, not the sweep
        result = SweepResult(as_of, keep=False)
        for i, future in enumerate(futures):
            count, outcomes = future.result().value
            result.add(outcomes)
            futures[i] = None
            if progress is not None:
                progress(count)
        from sweep.run import case_entries

        result.add_enforcement(case_entries(source, as_of))  # the store's enforcement cases, few: in the flow itself
        return write_sweep_outputs(quote(result), out)
    finally:
        gc.unfreeze()
        if result is not None:
            result.close()
