"""``permits users`` and ``permits serve``: the workbench's accounts and its
web server.  Thin: the accounts are :mod:`models.accounts.users`, the app is
:mod:`web`, imported only when ``serve`` runs."""

from __future__ import annotations

import argparse
import getpass
import os
import sys

from cli.args import UsageError, open_store, settings, store_url

__all__ = ["add_commands", "serve", "default_workers", "served_address", "check_port_free", "DEFAULT_HOST", "DEFAULT_PORT"]

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8000
MAX_WORKERS = 64


def _password(args) -> str:
    if args.password_file:
        try:
            with open(args.password_file, encoding="utf-8") as fh:
                return fh.readline().rstrip("\r\n")
        except OSError as exc:
            raise UsageError(f"cannot read {args.password_file}: {exc.strerror}") from None
    if not sys.stdin.isatty():
        raise UsageError("no terminal to ask the password on: give --password-file FILE")
    first = getpass.getpass("Password: ")
    if first != getpass.getpass("Again: "):
        raise UsageError("the two passwords differ; nothing was saved")
    return first


#: what the user must do after a password someone else chose (--temporary)
_THEIR_OWN = {False: "", True: "; they choose their own at their next login"}


def cmd_users(args) -> int:
    from services import users as actions
    from services.bootstrap import backends

    store = open_store(args)
    if args.action == "add":
        if not args.email:
            raise UsageError("users add EMAIL: give the new user's email")
        u = actions.add_user(
            store,
            args.email,
            _password(args),
            args.role,
            args.town or (),
            full_name=args.name or "",
            title=args.title or "",
            temporary=args.temporary,
        )
        print(
            f"permits: user {u.email} added ({u.role}{': ' + ', '.join(u.towns) if u.towns else ''}){_THEIR_OWN[args.temporary]}"
        )
    elif args.action == "invite":
        if not args.email or not args.name:
            raise UsageError("users invite EMAIL --name NAME: give the person's email and full name")
        from cli.args import now

        s = settings()
        sent = actions.invite_staff(
            store,
            args.email,
            args.name,
            args.title or "",
            args.role,
            args.town or (),
            by=args.by or s.user,
            base_url=s.base_url,
            now=now(),
            mail_from=s.mail_from,
        )
        from services.accounts import deliver_now

        deliver_now(store, s.smtp_url, sent.notice_ids)
        print(f"permits: {sent.address} invited; the link is in the outbox ('permits outbox'), working once for a week")
    elif args.action == "name":
        if not args.email or args.name is None:
            raise UsageError("users name EMAIL --name NAME [--title TITLE]: give the user's email and full name")
        u = actions.change_person(store, args.email, args.name, args.title or "")
        print(f"permits: {u.email} is {u.signature}")
    elif args.action == "passwd":
        if not args.email:
            raise UsageError("users passwd EMAIL: give the user's email")
        u = actions.set_password(store, args.email, _password(args), temporary=args.temporary)
        print(f"permits: password of {u.email} changed; their sessions are logged out{_THEIR_OWN[args.temporary]}")
    elif args.action == "reset":
        if not args.email:
            raise UsageError("users reset EMAIL: give the user's email")
        from cli.args import now
        from services.accounts import deliver_now, request_reset

        s = settings()
        sent = request_reset(store, args.email, base_url=s.base_url, now=now(), mail_from=s.mail_from)
        deliver_now(store, s.smtp_url, sent.notice_ids)
        # the one who runs the server may know what the web never says
        if sent.notice_ids:
            print(f"permits: a reset link for {sent.address} is in the outbox ('permits outbox'); it works once, for an hour")
        else:
            raise UsageError(f"no enabled user {sent.address!r}, or a reset asked too often this hour: nothing was sent")
    elif args.action in ("disable", "enable", "unlock", "access", "temp-password"):
        if not args.email:
            raise UsageError(f"users {args.action} EMAIL: give the user's email")
        if args.action == "disable":
            u = actions.disable_user(store, args.email)
            print(f"permits: user {u.email} disabled; their sessions are logged out")
        elif args.action == "enable":
            u = actions.enable_user(store, args.email)
            print(f"permits: user {u.email} enabled")
        elif args.action == "unlock":
            u = actions.unlock_user(store, args.email)
            print(f"permits: user {u.email} unlocked: every pause on its logins ended")
        elif args.action == "access":
            u = actions.change_access(store, args.email, args.role, args.town or ())
            print(f"permits: user {u.email} is now {u.role}{': ' + ', '.join(u.towns) if u.towns else ''}")
        else:
            u, password = actions.temporary_password(store, args.email)
            print(f"permits: temporary password of {u.email}: {password} (their sessions are logged out{_THEIR_OWN[True]})")
    else:
        users = backends(store, uploads_dir=settings().uploads_dir, upload_max_bytes=settings().upload_max_bytes).users
        locked = users.locked()
        for u in users.list():
            state = "disabled" if u.disabled else ("invited, not joined yet" if u.invited else "active")
            state += ", logins paused from some place" if u.email in locked else ""
            state += ", to choose a password at the next login" if u.must_change_password else ""
            print(
                f"{u.email}  {u.role}  {', '.join(u.towns) or 'all towns'}  {state}"
                + (f"  ({u.signature})" if u.full_name else "")
            )
    return 0


def default_workers() -> int:
    """The cores this process may run on (its CPU affinity), else the machine's."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no sched_getaffinity (macOS, Windows)
        return os.cpu_count() or 1


def served_address(host: str, port: int) -> str:
    """The address a browser on this machine reaches ``host:port`` at
    (every interface, ``0.0.0.0`` or ``::``, is reached at 127.0.0.1)."""
    return f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else host}:{port}"


def check_port_free(host: str, port: int) -> None:
    """UsageError if ``host:port`` cannot be listened on now (another
    server has it), before anything slow is done."""
    import socket

    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            raise UsageError(f"--port {port}: something else is listening on {host}:{port}; give another port") from None


def serve(url: str, host: str, port: int, workers: int | None = None, *, given=None) -> None:
    """Serve the workbench over the store at ``url`` until interrupted, in
    ``workers`` processes (default: :func:`default_workers`).  One worker
    runs the app in this process.  Several: uvicorn's supervisor listens
    once and starts each worker, which builds its own app
    (:func:`web.app.from_environment`) from the settings this command hands
    down in the environment (:func:`config.environment`): the database URL
    and one session key for all (``PERMITS_SECRET_KEY``, else one made here
    for this run), so a session made by one worker is good on every other.
    ``given``: the settings to serve with (default: the environment's);
    with ``PERMITS_BASE_URL`` left at its default, the emails' links start
    with the address served instead (:func:`served_address`)."""
    import secrets

    import uvicorn

    import config
    from config.settings import DEFAULT_BASE_URL
    from models.handle import Store
    from web.app import SERVING, check_settings, create_app

    workers = workers or default_workers()
    store = Store(url)
    store.check_schema()
    given = given or settings()
    if given.base_url == DEFAULT_BASE_URL:  # not set: the links open this server
        given = given._replace(base_url=served_address(host, port))
    try:
        check_settings(given)  # before any worker starts
    except ValueError as exc:  # a bad PERMITS_TRUSTED_PROXIES
        raise UsageError(str(exc)) from None
    processes = "one process" if workers == 1 else f"{workers} worker processes"
    print(f"Workbench at http://{host}:{port}/  ({processes}; Ctrl-C to stop)", flush=True)
    # the app reads X-Forwarded-For itself, from PERMITS_TRUSTED_PROXIES only
    # (uvicorn's own proxy headers trust 127.0.0.1 by default)
    # deadlines on what a client sends: a silent or trickling connection is
    # closed (web/serving.py), the keep-alive after a response too
    options = {"host": host, "port": port, "log_level": "warning", "proxy_headers": False, **SERVING}
    if workers == 1:
        uvicorn.run(create_app(store, settings=given), **options)
        return
    store.engine.dispose()  # the workers open their own
    handed = given._replace(database_url=url, secret_key=given.secret_key or secrets.token_urlsafe(32))
    os.environ.update(config.environment(handed))
    uvicorn.run("web.app:from_environment", factory=True, workers=workers, **options)


def cmd_serve(args) -> int:
    if not 0 < args.port < 65536:
        raise UsageError(f"--port {args.port}: a port number, 1-65535")
    if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
        raise UsageError(f"--workers {args.workers}: between 1 and {MAX_WORKERS} processes")
    check_port_free(args.host, args.port)
    serve(store_url(args), args.host, args.port, args.workers)
    return 0


def add_commands(sub) -> None:
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", metavar="URL", help="database URL (default: $PERMITS_DATABASE_URL, else DATA_DIR/permits.db)")
    p = sub.add_parser(
        "users",
        parents=[db],
        help="the workbench's users: invite, add, list, name, passwd, reset, disable, enable, unlock, access, temp-password",
        description="Manage who may log in to the web workbench. An agent works on the wetlands and stormwater "
        "filings of their towns, dpw on the street openings of theirs, an admin on everything. The password is "
        "asked on the terminal (twice) or read from the first line of --password-file; never on the command line. "
        "passwd sets a user's password (staff or applicant) without the old one, unlocks the account and logs out "
        "the user's sessions. reset emails the user the same single-use link, valid one hour, that 'Forgot your "
        "password?' sends (its address from $PERMITS_BASE_URL), through the outbox. invite emails a member of staff "
        "(--name, --title, --role, --town) a single-use link, valid a week, with which they choose their own password, "
        "as the Users page's invitation does; a temporary password (temp-password) is changed by the user at their "
        "next login.",
    )
    p.add_argument(
        "action",
        choices=("invite", "add", "list", "name", "passwd", "reset", "disable", "enable", "unlock", "access", "temp-password"),
        help="invite a member of staff by email, add a user, list them, correct one's name and title (name), set one's "
        "password, email one a reset link, disable or enable one, unlock one, change one's role and towns (access, with "
        "--role and --town), or set a temporary password (temp-password: printed once, changed at the next login)",
    )
    p.add_argument("email", nargs="?", help="the user's email (every action but list)")
    p.add_argument("--role", choices=("agent", "dpw", "admin"), default="agent", help="the user's role (default: agent)")
    p.add_argument("--town", action="append", metavar="T", help="a town the user works for (repeat for more)")
    p.add_argument("--password-file", metavar="FILE", help="read the password from the first line of FILE")
    p.add_argument(
        "--temporary",
        action="store_true",
        help="add, passwd: the password is one you give the person, who must choose their own at their next login",
    )
    p.add_argument("--name", metavar="NAME", help="the person's full name (invite, add, name), e.g. 'Pat Rivera'")
    p.add_argument("--title", metavar="TITLE", help="the person's title (invite, add, name), e.g. 'Conservation Agent'")
    p.add_argument("--by", help="who invites, as the invitation names them (default: $PERMITS_USER, else the login name)")
    p.set_defaults(func=cmd_users)

    p = sub.add_parser(
        "serve",
        parents=[db],
        help="the web workbench over the store",
        description="Serve the web workbench (Today, Filings, a filing, New filing, DPW schedule, Rule book, "
        "Calendar) over the store until Ctrl-C. Sessions are signed with $PERMITS_SECRET_KEY, else a key made "
        "at start and handed to every worker (a restart logs everyone out). It runs --workers processes, by "
        "default one per core, each serving any session. Behind a proxy or load balancer, $PERMITS_TRUSTED_PROXIES names "
        "it (addresses or networks, comma-separated) so that the per-address login limit reads X-Forwarded-For.",
    )
    p.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default: {DEFAULT_HOST})")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default: {DEFAULT_PORT})")
    p.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="worker processes sharing the port, each with its own app over the same store "
        "(default: the machine's cores; 1 serves from this process)",
    )
    p.set_defaults(func=cmd_serve)
