"""The Prefect flow: ``daily_sweep``.  Thin: it selects the work, cuts it into
chunks and calls the same functions as ``permits sweep --no-prefect``
(:func:`sweep.run.process_chunk`, :func:`sweep.report.write_report`) on the
same parts, assembled in one place (:func:`services.sweep_assembly.assemble`).
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
a deployment starts without them takes them from the settings
(:func:`services.sweep_assembly.sweep_defaults`), at its edge.

On a Dask cluster (``permits sweep --dask``) the chunk tasks run in the
workers' processes, and what a task takes travels there pickled, the flow
run's parameters with it.  So nothing a worker cannot take is a parameter:
the progress callback comes wrapped in a :class:`Relay` (in the process
that made it, it tells the callback; a copy anywhere else tells no one),
the tasks return how many filings they swept, and the flow, in the
client's process, tells the bar as each chunk's outcomes arrive.  The
notice limit is the run's, once: with a limit each chunk lists the notices
due and the flow makes them, in the chunks' order, while the run's one
hook has some left (:mod:`sweep.notice_budget`); a worker's own hook would
count only its own.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from datetime import date

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from prefect.task_runners import ThreadPoolTaskRunner
from prefect.utilities.annotations import quote

__all__ = [
    "daily_sweep",
    "sweep_chunk",
    "write_sweep_outputs",
    "parts",
    "close_parts",
    "task_runner",
    "embedded_server_wanted",
    "start_embedded_server",
    "SweepReport",
    "Opaque",
    "Relay",
    "SWEEP_THREADS",
]

_PARTS: dict[tuple, object] = {}


def parts(
    filings: str,
    ledger: str,
    *,
    as_of: date,
    make_notices: bool,
    notice_limit: int | None,
    mail_from: str,
    everything: bool = False,
):
    """The run's parts in this process (:func:`services.sweep_assembly.assemble`),
    made once and shared by its tasks: one source and one output log on the
    store's engine, one notice hook.  With a ``notice_limit`` the hook makes
    no notice (it lists them, and makes the reminder emails): the flow makes
    them, the limit counted once for the run (:mod:`sweep.notice_budget`),
    whichever process ran the chunk."""
    from services.sweep_assembly import assemble

    key = (filings, ledger, as_of, make_notices, notice_limit, mail_from, everything)
    if key not in _PARTS:
        close_parts()
        _PARTS[key] = assemble(
            filings,
            ledger,
            as_of=as_of,
            make_notices=make_notices,
            notice_limit=None if notice_limit is None else 0,
            mail_from=mail_from,
            everything=everything,
        )
    return _PARTS[key]


def close_parts() -> None:
    """Let this process's parts go (their output logs closed)."""
    while _PARTS:
        _PARTS.popitem()[1].close()


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


class Opaque:
    """What a task returns: one object Prefect does not walk into.  The
    engine visits a returned list or dataclass element by element (to link
    results to states); for a chunk's outcomes that is a per-filing cost
    the plain call does not pay."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Relay:
    """A progress callback that can travel with the flow run's parameters:
    called in the process that made it, it tells ``callback``; pickled (as
    Prefect pickles the flow run's context with each task it sends to a Dask
    worker) it leaves the callback behind, and the copy tells no one.  The
    command line's bar holds a lock, which cannot be pickled."""

    __slots__ = ("callback",)

    def __init__(self, callback: Callable[[int], None] | None = None):
        self.callback = callback

    def __call__(self, n: int) -> None:
        if self.callback is not None:
            self.callback(n)

    def __reduce__(self):
        return (Relay, ())


class SweepReport(Opaque):
    """The flow's result: ``counts``, ``digest``, ``paths``, read like a dict."""

    __slots__ = ()

    def __getitem__(self, key):
        return self.value[key]

    def keys(self):
        return self.value.keys()


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
    everything: bool = False,
) -> Opaque:
    """Load one chunk of filings (``ref``, from the source's ``chunk_refs``),
    replay them and make what is due for them (with a ``notice_limit``, the
    notices are listed and the flow makes them).  Returns how many filings
    the chunk held, and their outcomes."""
    from sweep.run import process_chunk

    run = parts(
        filings,
        ledger,
        as_of=as_of,
        make_notices=make_notices,
        notice_limit=notice_limit,
        mail_from=mail_from,
        everything=everything,
    )
    chunk = run.source.load(ref)
    return Opaque((len(chunk), process_chunk(chunk, as_of, run.log, notice_hook=run.hook, out_dir=out)))


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
    everything: bool = False,
) -> SweepReport:
    """Every open filing whose day has come brought up to date on ``as_of`` (default: today),
    then the docket digest, the DPW inspection schedule, the reminders, the
    notices now due and the ICS feeds written to ``out``.  With
    ``make_notices`` false the notices due are listed, not made; at most
    ``notice_limit`` are made in the whole run (None: all), however many
    workers ran the chunks.  ``progress`` (in this process; wrap it in a
    :class:`Relay` for a Dask cluster) is told how many filings each chunk
    held as its outcomes arrive.  Over the store only the filings whose
    next change has come are swept, unless ``everything`` (``permits sweep
    --all``).  What is not given is taken from the settings (a
    deployment's run)."""
    from services.sweep_assembly import notice_budget, sweep_defaults
    from sweep.notice_budget import make_pending_notices
    from sweep.run import SweepResult, case_entries

    if as_of is None or filings is None or ledger is None or mail_from is None or out is None:
        as_of, filings, ledger, mail_from, out = sweep_defaults(as_of, filings, ledger, mail_from, out)
    run = parts(
        filings,
        ledger,
        as_of=as_of,
        make_notices=make_notices,
        notice_limit=notice_limit,
        mail_from=mail_from,
        everything=everything,
    )
    # the run's one notice hook, when the run has a limit: the chunks list, the flow makes
    budget = notice_budget(ledger, as_of, notice_limit, mail_from) if make_notices and notice_limit is not None else None
    result = None
    # Prefect's own objects (about 100 MB of them) would be scanned by every
    # full garbage collection the sweep's allocations trigger: 10-15% per
    # filing (benchmarks/bench_sweep.py).  Freeze them for the run.
    gc.freeze()
    try:
        refs = run.source.chunk_refs(chunk_size)
        futures = [
            sweep_chunk.submit(filings, ref, as_of, ledger, out, make_notices, notice_limit, mail_from, everything)
            for ref in refs
        ]
        # each chunk's outcomes go to the report's spool as they come, and
        # are let go: the flow holds the chunks in flight, not the sweep
        result = SweepResult(as_of, keep=False)
        for i, future in enumerate(futures):
            count, outcomes = future.result().value
            if budget is not None:
                make_pending_notices(refs[i], outcomes, run.source, run.log, budget, as_of, out)
            result.add(outcomes)
            futures[i] = None
            if progress is not None:
                progress(count)
        result.add_enforcement(case_entries(run.source, as_of))  # the store's enforcement cases, few: in the flow itself
        return write_sweep_outputs(quote(result), out)
    finally:
        gc.unfreeze()
        if result is not None:
            result.close()
