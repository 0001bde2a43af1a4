"""``permits sweep``, ``permits ics`` and the sweep half of ``permits demo``:
the edge that reads today, picks the folders and runs the daily sweep, as
a Prefect flow (default) or as a plain call (``--no-prefect``)."""

from __future__ import annotations

import os
import re
import shutil
import sys
from datetime import date
from pathlib import Path

from cli.args import ProgressBar, UsageError, writable_file, writable_folder
from cli.args import as_of as _as_of
from workflows.errors import PermitsError

__all__ = ["add_commands", "run_sweep_command", "default_ledger"]

DEPARTMENT_CHOICES = ("conservation", "dpw")


class SweepFailed(PermitsError):
    pass


def _data_dir() -> Path:
    from calendars.holiday_cache import data_dir

    return data_dir()


def default_ledger(filings: str) -> str:
    """Where a sweep of ``filings`` records its outputs without --ledger: on
    the filings in the store itself; for a folder of filing JSON, the SQLite
    ledger file in the data directory."""
    from sweep.store_source import is_database_url

    return filings if is_database_url(filings) else str(_data_dir() / "sweep-ledger.sqlite")


def run_sweep_command(
    as_of: date,
    filings: str,
    ledger: str | None,
    out: str,
    *,
    chunk_size: int = 500,
    use_prefect: bool = True,
    notice_limit: int | None = None,
    dask: str | None = None,
    make_notices: bool = True,
) -> dict:
    """Run the sweep; returns ``{"counts", "digest", "paths"}`` either way.
    ``ledger`` None: :func:`default_ledger`.  ``make_notices`` false: the
    notices due are listed (pending), not made, and no email goes out."""
    import logging

    from sweep.dispatch import notice_hook
    from sweep.store_source import is_database_url, open_log, open_source

    # WeasyPrint warns about its font subsetting once per PDF: noise in a
    # sweep that makes hundreds (errors still show).
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    source = open_source(filings)
    ledger = ledger or default_ledger(filings)
    bar = ProgressBar(source.count(), "sweep")
    if use_prefect:
        from sweep.prefect_env import configure_embedded

        configure_embedded(_data_dir())
        from sweep import flows

        flows.PROGRESS, flows.NOTICE_LIMIT = bar.update, notice_limit
        try:
            sweep_flow = flows.daily_sweep.with_options(task_runner=flows.task_runner(dask)) if dask else flows.daily_sweep
            res = sweep_flow(
                as_of=as_of, filings=filings, ledger=ledger, out=out, chunk_size=chunk_size, make_notices=make_notices
            )
            return _deliver_email(res, ledger, send=make_notices)
        except PermitsError:
            raise
        except Exception as exc:
            raise SweepFailed(f"the daily-sweep flow failed: {type(exc).__name__}: {exc}") from exc
        finally:
            flows.PROGRESS = flows.NOTICE_LIMIT = None
            flows.close_logs()
    from sweep.report import write_report
    from sweep.run import run_sweep

    log = open_log(ledger, source)
    try:
        result = run_sweep(
            source,
            log,
            as_of,
            chunk_size=chunk_size,
            out_dir=out,
            progress=bar.update,
            notice_hook=notice_hook(as_of, limit=notice_limit, email=is_database_url(ledger)) if make_notices else None,
        )
    finally:
        log.close()
    try:
        return _deliver_email(write_report(result, out), ledger, send=make_notices)
    finally:
        result.close()


def _deliver_email(res: dict, ledger: str, *, send: bool = True) -> dict:
    """After a sweep on the store: hand the outbox to the SMTP server named by
    PERMITS_SMTP_URL, if one is (else the emails wait: ``permits outbox``)."""
    from sweep.mail import smtp_url
    from sweep.store_source import is_database_url

    res = {k: res[k] for k in res.keys()}  # the flow's result reads like a dict; add to a copy
    res["email"] = None
    if send and is_database_url(ledger) and smtp_url():
        from models.outbox import Outbox
        from models.service import Store
        from sweep.mail import smtp_sender

        store = Store(ledger)
        try:
            res["email"] = Outbox(store).deliver(smtp_sender(smtp_url()))
        finally:
            store.engine.dispose()
    return res


def _at_least_one(value: int, option: str) -> int:
    if value < 1:
        raise UsageError(f"{option} {value}: must be at least 1")
    return value


def _dask_address(args) -> str | None:
    """``--dask``, else ``PERMITS_DASK_ADDRESS``: a Dask scheduler, ``tcp://HOST:PORT``."""
    address = getattr(args, "dask", None) or os.environ.get("PERMITS_DASK_ADDRESS") or None
    if address is None:
        return None
    if args.no_prefect:
        raise UsageError("--dask runs the flow's chunk tasks on the cluster; it cannot go with --no-prefect")
    if not re.fullmatch(r"(tcp|tls)://[A-Za-z0-9.\-]+:\d{1,5}", address):
        raise UsageError(f"--dask {address!r}: expected a scheduler address such as tcp://10.0.0.5:8786")
    return address


def cmd_sweep(args) -> int:
    from models.db import resolve_url
    from sweep.report import print_docket

    _at_least_one(args.chunk_size, "--chunk-size")
    as_of = _as_of(args)
    out = writable_folder(args.out or str(Path("out") / f"sweep-{as_of.isoformat()}"))
    res = run_sweep_command(
        as_of,
        args.filings or resolve_url(args.db),
        args.ledger,
        out,
        chunk_size=args.chunk_size,
        use_prefect=not args.no_prefect,
        dask=_dask_address(args),
        make_notices=not args.no_notices,
    )
    print_docket(res["digest"], sys.stdout)
    _print_outputs(res, out)
    return 0


def _print_outputs(res: dict, out: str) -> None:
    c = res["counts"]
    print(f"\n{c['reminders_new']} new reminders, {c['notices_made']} notices made, {c['notices_pending']} notices pending")
    if res.get("email") is not None:
        print(f"{res['email'].sent} emails sent, {res['email'].failed} failed (see 'permits outbox')")
    names = sorted(res["paths"])
    print(
        f"Outputs in {out}/: "
        + ", ".join(n for n in names if "/" not in n)
        + f", and {sum('/' in n for n in names)} ICS feeds in ics/"
    )


def cmd_ics(args) -> int:
    from models.db import resolve_url
    from sweep.agenda import is_open
    from sweep.ics import build_feed, calendar_items, feed_name
    from sweep.run import BadRecord
    from sweep.store_source import open_source
    from workflows.replay import replay
    from workflows.towns import town

    if args.town:
        town(args.town)  # an unknown town is a one-line error
    writable_file(args.out)
    as_of = _as_of(args)
    source = open_source(args.filings or resolve_url(args.db))
    items, bad = [], 0
    for f in source.open_filings():
        if isinstance(f, BadRecord) or (args.town and f.town != args.town):
            bad += isinstance(f, BadRecord)
            continue
        try:
            r = replay(f, as_of)
        except PermitsError:
            bad += 1
            continue
        if is_open(r):
            items += [i for i in calendar_items(f, r, as_of) if not args.department or i.department == args.department]
    name = feed_name(args.town, args.department)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_bytes(build_feed(items, as_of, name))
    print(f"{args.out}: {len(items)} events ({name}, as of {as_of})")
    if bad:
        print(f"permits: warning: {bad} filings could not be read; 'permits sweep' lists them", file=sys.stderr)
    return 0


def cmd_demo_sweep(args) -> int:
    """Generate a demonstration store, sweep it, print the docket and leave
    every output in a folder it names."""
    from models.service import Store
    from sweep.generate import generate
    from sweep.report import print_docket

    _at_least_one(args.count, "--count")
    as_of = _as_of(args)
    demo = _data_dir() / "demo"
    if demo.exists():
        shutil.rmtree(demo)
    demo.mkdir(parents=True)
    url = f"sqlite:///{demo / 'permits.db'}"
    store = Store(url)
    store.upgrade()
    n = len(store.import_filings(generate(args.count, as_of, seed=args.seed), by="permits demo"))
    store.engine.dispose()
    out = Path(args.out) if args.out else Path("out") / f"demo-{as_of.isoformat()}"
    if not args.out and out.exists():
        shutil.rmtree(out)
    print(
        f"Demonstration store: {n} generated filings for Canton, Saugus, Mansfield and the state defaults, "
        f"as of {as_of} ({url})\n"
    )
    res = run_sweep_command(as_of, url, None, str(out), use_prefect=not args.no_prefect, notice_limit=args.notices)
    print_docket(res["digest"], sys.stdout, limit=4)
    _print_outputs(res, str(out))
    print("The clock demonstration: permits demo --clocks")
    from cli.web import DEFAULT_HOST, DEFAULT_PORT, serve
    from models.users import Users
    from sweep.demo_users import seed_demo_applicant, seed_demo_users

    store = Store(url)
    logins = seed_demo_users(Users(store.engine))
    applicant, password, filings = seed_demo_applicant(store, as_of)
    store.engine.dispose()
    where = f"serve it with 'permits serve --db {url}'" if args.no_serve else "open http://127.0.0.1:8000/"
    print(f"\nThe workbench: {where} and log in as one of these demo users:")
    for email, pw, role, towns in logins:
        print(f"  {email:<26} password {pw}   ({role}{': ' + ', '.join(towns) if towns else ', every town'})")
    print(f"  {applicant:<26} password {password}   (applicant: {', '.join(filings) or 'no filing yet'})")
    print("Staff start on Today (the docket, overdue first); click a filing to see its clocks and record an event.")
    print("The applicant lands on My filings: where each stands, what is due, and Apply online.")
    if args.no_serve:
        return 0
    serve(url, DEFAULT_HOST, DEFAULT_PORT)
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser(
        "sweep",
        help="the daily sweep: docket, inspection schedule, reminders, notices, ICS feeds",
        description="Bring every open filing up to date on a day and write the docket digest "
        "(HTML, JSON), the DPW inspection schedule, reminders, the notices now due and "
        "the ICS feeds. Runs as a Prefect flow on Prefect's temporary local server "
        "unless PREFECT_API_URL names a server. Safe to re-run: nothing is made twice.",
    )
    p.add_argument("--as-of", help="the day to sweep for, YYYY-MM-DD (default: today)")
    p.add_argument("--out", help="output folder (default: out/sweep-DATE)")
    p.add_argument("--db", help="the store's database URL (default: PERMITS_DATABASE_URL, else DATA_DIR/permits.db)")
    p.add_argument("--filings", help="sweep a folder or .jsonl file of filing JSON instead of the store")
    p.add_argument(
        "--ledger",
        metavar="FILE",
        help="record what was made in this SQLite ledger file instead (default: on each filing in the "
        "store; with --filings, DATA_DIR/sweep-ledger.sqlite)",
    )
    p.add_argument("--chunk-size", type=int, default=500, help="filings per flow task (default: 500)")
    p.add_argument("--no-prefect", action="store_true", help="run the same sweep as a plain call, without Prefect")
    p.add_argument(
        "--no-notices",
        action="store_true",
        help="list the notices due without making them (no PDFs, no emails): a later sweep makes them",
    )
    p.add_argument(
        "--dask",
        metavar="tcp://HOST:PORT",
        help="run the chunk tasks on this Dask cluster's workers (default: PERMITS_DASK_ADDRESS, else threads here)",
    )
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser(
        "ics",
        help="an iCalendar feed of hearings, deadlines, inspections and patch windows",
        description="Write an ICS feed for a town and department. Event UIDs are stable "
        "(FILING/CLOCK@permits.TOWN): a calendar that re-imports it updates events.",
    )
    p.add_argument("--town", help="only this town, e.g. canton (default: every town)")
    p.add_argument("--department", choices=DEPARTMENT_CHOICES, help="conservation or dpw (default: both)")
    p.add_argument("--out", required=True, help="the .ics file to write")
    p.add_argument("--as-of", help="the day the feed is judged by, YYYY-MM-DD (default: today)")
    p.add_argument("--db", help="the store's database URL (default: PERMITS_DATABASE_URL, else DATA_DIR/permits.db)")
    p.add_argument("--filings", help="read a folder or .jsonl file of filing JSON instead of the store")
    p.set_defaults(func=cmd_ics)


def cmd_demo(args) -> int:
    if args.clocks:
        from cli.demo_clocks import run_demo

        return run_demo(sys.stdout)
    return cmd_demo_sweep(args)


def add_demo_command(sub) -> None:
    p = sub.add_parser(
        "demo",
        help="the main job on generated filings: the daily sweep, its outputs, and the workbench",
        description="Fill a demonstration store with generated filings for Canton, Saugus and "
        "Mansfield (every permit kind, some overdue, street openings at every stage), "
        "run the daily sweep on it, print the docket and leave the digest, the "
        "inspection schedule, the ICS feeds and sample notices in an output folder; then add demo users (staff of "
        "each role and an applicant with two filings of their own), print their logins and serve the web workbench "
        "at http://127.0.0.1:8000 until Ctrl-C (--no-serve: stop there).",
    )
    p.add_argument("--clocks", action="store_true", help="instead, show a few clocks of each town and how they are counted")
    p.add_argument("--as-of", help="the day to generate and sweep for, YYYY-MM-DD (default: today)")
    p.add_argument("--count", type=int, default=400, help="how many filings to generate (default: 400)")
    p.add_argument("--seed", type=int, default=2026, help="generator seed (default: 2026)")
    p.add_argument("--out", help="output folder (default: out/demo-DATE, replaced each run)")
    p.add_argument("--notices", type=int, default=12, help="make at most this many notices, a sample (default: 12)")
    p.add_argument("--no-prefect", action="store_true", help="run the sweep as a plain call, without Prefect")
    p.add_argument(
        "--no-serve", action="store_true", help="stop after the sweep and the demo users instead of serving the workbench"
    )
    p.set_defaults(func=cmd_demo)
