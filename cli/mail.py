"""``permits outbox``: the email outbox for staff (what waits, what was
sent, what the server refused), ``permits outbox show ID`` to read one (its
headers and body in words: what the admins' Emails page shows), and
``--send`` to hand it to the SMTP server named by ``PERMITS_SMTP_URL``; ``permits invite``: a staff invitation to an
applicant, from a filing (the link printed and emailed through the outbox)."""

from __future__ import annotations

from cli.args import UsageError, in_town, open_store, settings

__all__ = ["add_commands"]

SMTP_SETTING = "PERMITS_SMTP_URL"


def _show(outbox, notice_id: int, zone: str, mail_server: bool) -> None:
    """One email, read: its headers in words, then its body as written."""
    from notices.outbox_words import size_words, status_words, when_words

    email = outbox.readable(notice_id)
    if email is None:
        raise UsageError(f"no email {notice_id} in the outbox: 'permits outbox --all' lists them")
    print(f"From:     {email.sender}")
    print(f"To:       {email.to}")
    print(f"Subject:  {email.subject}")
    print(f"Date:     {when_words(email.dated or email.entry.produced_at, zone)}")
    if email.entry.filing_id:
        print(f"Filing:   {email.entry.filing_id}")
    print(f"Sent?     {status_words(email.entry, zone, mail_server=mail_server)}")
    for a in email.attachments:
        print(f"Attached: {a.name} ({size_words(a.size)})")
    print()
    print(email.body.replace("\r\n", "\n").rstrip("\n"))


def cmd_outbox(args) -> int:
    from models.read.outbox import Outbox
    from services.mail import deliver_by_smtp

    if args.action == "show" and args.id is None:
        raise UsageError("permits outbox show ID: give the email's number (the first column of 'permits outbox --all')")
    if args.action == "show" and not 1 <= args.id <= 2**62:
        raise UsageError(f"permits outbox show {args.id}: an email's number is a whole number from 1")
    if args.action == "show" and (args.send or args.all or args.filing):
        raise UsageError("permits outbox show ID: --send, --all and --filing go with the list, not with show")
    url = settings().smtp_url
    store = open_store(args)
    try:
        outbox = Outbox(store)
        if args.action == "show":
            _show(outbox, args.id, settings().timezone, url is not None)
            return 0
        if args.send:
            if url is None:
                raise UsageError(f"--send: {SMTP_SETTING} is not set, so nothing is sent; the emails wait in the outbox")
            report = deliver_by_smtp(store, url)
            print(f"{report.sent} sent, {report.failed} failed")
            for line in report.errors or ():
                print(f"  {line}")
        entries = outbox.entries(pending_only=not args.all, filing_id=args.filing)
        if not entries:
            print("the outbox is empty" if not args.all else "no email recorded")
        for e in entries:
            when = f"{in_town(e.sent_at or e.produced_at):%Y-%m-%d %H:%M %Z}"
            line = f"{e.id:>6}  {e.status:<8}  {when}  {e.filing_id or '(account)'}  {e.kind}  to {e.address}"
            if e.attempts and e.sent_at is None:
                line += f"  (tried {e.attempts}x: {e.last_error})"
            print(line)
        if url is None and not args.send:
            print(f"({SMTP_SETTING} is not set: nothing is sent; the outbox is kept in the store)")
    finally:
        store.engine.dispose()
    return 0


def cmd_invite(args) -> int:
    from cli.args import check_id, now, user
    from services.invite import invite

    if args.days < 1:
        raise UsageError(f"--days {args.days}: must be at least 1")
    store = open_store(args)
    try:
        sent = invite(
            store,
            check_id(args.filing),
            args.email,
            by=user(args),
            base_url=args.base_url or settings().base_url,
            now=now(),
            mail_from=settings().mail_from,
            days=args.days,
        )
        print(f"invitation for {sent.address} to follow {args.filing}, until {sent.expires.isoformat()}:")
        print(sent.link)
        print("(emailed through the outbox: 'permits outbox')")
    finally:
        store.engine.dispose()
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser(
        "outbox",
        help="emails to applicants and owners: what waits, what was sent, one read (show ID; --send delivers)",
        description="List the email outbox (emails not yet sent), or every email with --all; "
        "--send hands the waiting ones to the SMTP server named by PERMITS_SMTP_URL first. "
        "'permits outbox show ID' prints one email: its headers in words, its body as written, its attachments named.",
    )
    p.add_argument("action", nargs="?", choices=("show",), help="show: read one email (its number from the list)")
    p.add_argument("id", nargs="?", type=int, metavar="ID", help="the email's number, the list's first column")
    p.add_argument("--db", metavar="URL", help="database URL (default: $PERMITS_DATABASE_URL, else the data directory's)")
    p.add_argument("--all", action="store_true", help="every email, sent ones included")
    p.add_argument("--filing", metavar="ID", help="only this filing's emails")
    p.add_argument("--send", action="store_true", help="deliver the waiting emails now")
    p.set_defaults(func=cmd_outbox, needs_calendar=False)

    p = sub.add_parser(
        "invite",
        help="invite an applicant, owner or contractor to follow a filing online (a single-use link)",
        description="Create a single-use invitation link for EMAIL to follow filing ID online, print it, "
        "and queue it by email in the outbox.",
    )
    p.add_argument("filing", metavar="ID", help="the filing to follow")
    p.add_argument("email", metavar="EMAIL", help="the address the link is sent to (the applicant's, owner's or contractor's)")
    p.add_argument("--days", type=int, default=14, help="the link expires after this many days (default 14)")
    p.add_argument("--base-url", help="the workbench's address (default: $PERMITS_BASE_URL, else http://127.0.0.1:8000)")
    p.add_argument("--db", metavar="URL", help="database URL (default: $PERMITS_DATABASE_URL, else the data directory's)")
    p.add_argument("--by", help="who invites (default: $PERMITS_USER, else the login name)")
    p.set_defaults(func=cmd_invite, needs_calendar=False)
