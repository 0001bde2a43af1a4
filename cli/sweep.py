"""``permits sweep``, ``permits ics`` and ``permits demo``: the edge that
reads today and the settings, picks the folders, and calls the service
(:mod:`services.sweep`, :mod:`services.feeds`, :mod:`services.demo`)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from cli.args import ProgressBar, UsageError, settings, store_url, writable_file, writable_folder
from cli.args import as_of as _as_of

__all__ = ["add_commands", "add_demo_command"]

DEPARTMENT_CHOICES = ("conservation", "dpw")


def _at_least_one(value: int, option: str) -> int:
    if value < 1:
        raise UsageError(f"{option} {value}: must be at least 1")
    return value


def _dask_address(args, given: str | None) -> str | None:
    """``--dask``, else ``PERMITS_DASK_ADDRESS``: a Dask scheduler, ``tcp://HOST:PORT``."""
    address = getattr(args, "dask", None) or given or None
    if address is None:
        return None
    if args.no_prefect:
        raise UsageError("--dask runs the flow's chunk tasks on the cluster; it cannot go with --no-prefect")
    if not re.fullmatch(r"(tcp|tls)://[A-Za-z0-9.\-]+:\d{1,5}", address):
        raise UsageError(f"--dask {address!r}: expected a scheduler address such as tcp://10.0.0.5:8786")
    return address


def cmd_sweep(args) -> int:
    from services.sweep import run_sweep
    from sweep.report import print_docket

    _at_least_one(args.chunk_size, "--chunk-size")
    if args.notices is not None:
        _at_least_one(args.notices, "--notices")
        if args.no_notices:
            raise UsageError("--notices N makes at most N notices; it cannot go with --no-notices, which makes none")
    config = settings()
    as_of = _as_of(args)
    out = writable_folder(args.out or str(Path("out") / f"sweep-{as_of.isoformat()}"))
    res = run_sweep(
        as_of,
        args.filings or store_url(args),
        out,
        config,
        ledger=args.ledger,
        chunk_size=args.chunk_size,
        use_prefect=not args.no_prefect,
        dask=_dask_address(args, config.dask_address),
        make_notices=not args.no_notices,
        notice_limit=args.notices,
        progress=ProgressBar("sweep", unit="open filings"),
        say=_say_on_stderr,
        everything=args.all,
    )
    print_docket(res["digest"], sys.stdout)
    _print_outputs(res, out)
    return 0


def _say_on_stderr(line: str) -> None:
    """A stage of the sweep, on standard error beside its progress bar (the
    docket goes to standard output)."""
    print(f"permits: {line}", file=sys.stderr, flush=True)


def _print_outputs(res: dict, out: str) -> None:
    c = res["counts"]
    print(f"\n{c['reminders_new']} new reminders, {c['notices_made']} notices made, {c['notices_pending']} notices pending")
    if res.get("email") is not None:
        print(f"{res['email'].sent} emails sent, {res['email'].failed} failed (see 'permits outbox')")
    check = res.get("check")
    if check is not None:
        found = (
            "no differences" if check.ok else f"{len(check.differences)} difference(s) (see record-check.json; 'permits check')"
        )
        print(f"Record check: {check.filings} filing(s) of {check.total} compared with their histories: {found}")
        for d in check.differences[:8]:
            print(f"  {d.line()}")
    names = sorted(res["paths"])
    print(
        f"Outputs in {out}/: "
        + ", ".join(n for n in names if "/" not in n)
        + f", and {sum('/' in n for n in names)} ICS feeds in ics/"
    )


def cmd_ics(args) -> int:
    from services.feeds import filings_feed

    writable_file(args.out)
    as_of = _as_of(args)
    feed = filings_feed(args.filings or store_url(args), as_of=as_of, town=args.town, department=args.department)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_bytes(feed.body)
    print(f"{args.out}: {feed.events} events ({feed.name}, as of {as_of})")
    if feed.unreadable:
        print(f"permits: warning: {feed.unreadable} filings could not be read; 'permits sweep' lists them", file=sys.stderr)
    return 0


def cmd_demo_sweep(args) -> int:
    """Generate a demonstration store, sweep it, print the docket and leave
    every output in a folder it names; then the demo logins, and serve on
    ``--port``, the emails' links on the address served.  One demo per data
    directory at a time (:func:`services.demo.demo_lock`)."""
    from cli.web import DEFAULT_HOST, check_port_free
    from services.demo import demo_lock

    _at_least_one(args.count, "--count")
    if not 0 < args.port < 65536:
        raise UsageError(f"--port {args.port}: a port number, 1-65535")
    if not args.no_serve:
        check_port_free(DEFAULT_HOST, args.port)  # before the demo is built, not after
    config = settings()
    with demo_lock(config.data_dir):
        return _demo(args, config, DEFAULT_HOST)


def _demo(args, config, host: str) -> int:
    from cli.web import serve
    from services.demo import run_demo, served_settings
    from sweep.report import print_docket

    demo, res, out, logins = run_demo(
        config,
        as_of=_as_of(args),
        count=args.count,
        seed=args.seed,
        out=args.out,
        use_prefect=not args.no_prefect,
        notice_limit=args.notices,
        say=lambda line: print(line, flush=True),
        # every counted stage of the demonstration, however small
        progress=lambda name: ProgressBar(name, minimum=0, unit="open filings" if name == "sweep" else "filings"),
    )
    print_docket(res["digest"], sys.stdout, limit=4)
    _print_outputs(res, str(out))
    print("The clock demonstration: permits demo --clocks")
    served = served_settings(config, host, args.port)
    print(
        f"\nThe demo's data directory: {config.data_dir} (PERMITS_DATA_DIR); its store: {demo.url}, made again by the next "
        "demo on this data directory. A second demo at the same time needs a data directory of its own: "
        f"PERMITS_DATA_DIR=/another/folder permits demo --port {args.port + 1}"
    )
    where = f"serve it with 'permits serve --db {demo.url}'" if args.no_serve else f"open {served.base_url}/"
    print(f"\nThe workbench: {where} and log in as one of these demo users:")
    for email, pw, role, towns in logins.staff:
        print(f"  {email:<36} password {pw}   ({role}{': ' + ', '.join(towns) if towns else ', every town'})")
    print(
        f"  {logins.applicant:<36} password {logins.password}   "
        f"(applicant: {', '.join(logins.applicant_filings) or 'no filing yet'})"
    )
    print("Staff start on Today (the docket, overdue first); click a filing to see its clocks and record an event.")
    print("Agents also have Enforcement: a case in each town with a fine schedule, from a violation seen to tickets and costs.")
    print("The applicant lands on My filings: where each stands, what is due, and Apply online.")
    if config.smtp_url is None:
        print(
            "Emails: no mail server is set (PERMITS_SMTP_URL), so every email is kept in the store: an admin reads "
            "each on the Emails page, its links followed from there (a registration's, a reset's), or with "
            f"'permits outbox show ID'; the links open this demo, {served.base_url}/."
        )
    if args.no_serve:
        return 0
    serve(demo.url, host, args.port, given=served)
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser(
        "sweep",
        help="the daily sweep: docket, inspection schedule, reminders, notices, ICS feeds",
        description="Bring the open filings up to date on a day and write the docket digest "
        "(HTML, JSON), the DPW inspection schedule, reminders, the notices now due and "
        "the ICS feeds. Over the store it sweeps only the filings that have work that day: "
        "recorded on or imported since the last sweep, or with a clock, reminder or notice "
        "that may change that day (--all sweeps every open filing). Runs as a Prefect flow on Prefect's temporary local server "
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
        "--all",
        action="store_true",
        help="sweep every open filing of the store, not only those with work today: after an upgrade, "
        "or for a digest and feeds of every open filing (a folder of filings is always swept whole)",
    )
    p.add_argument(
        "--no-notices",
        action="store_true",
        help="list the notices due without making them (no PDFs, no emails): a later sweep makes them",
    )
    p.add_argument(
        "--notices",
        type=int,
        metavar="N",
        help="make at most N of the notices due in this run, however many Dask workers run it; "
        "the rest stay due and a later sweep makes them (default: every notice due)",
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
        "at http://127.0.0.1:PORT (--port, default 8000) until Ctrl-C (--no-serve: stop there); the emails' links "
        "open it. The store is the data directory's (PERMITS_DATA_DIR), one demo at a time on each.",
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
    p.add_argument(
        "--port",
        type=int,
        default=8000,
        help="serve the workbench on this port of 127.0.0.1, its emails' links too (default 8000)",
    )
    p.set_defaults(func=cmd_demo)
