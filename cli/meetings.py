"""``permits meetings``: a conservation commission's meetings, their
agendas and their Open Meeting Law postings (the workbench's Meetings
page), through :mod:`services.meetings`."""

from __future__ import annotations

from pathlib import Path

from cli.args import UsageError, as_of, check_id, now, open_store, parse_moment, settings, user, writable_folder

__all__ = ["add_commands", "ACTIONS"]

ACTIONS = ("list", "add", "hear", "continue", "business", "posting", "agenda")


def _word() -> dict:
    """The moment and the sender of the applicant's email of the hearing (PERMITS_MAIL_FROM)."""
    return {"now": now(), "mail_from": settings().mail_from}


def _meeting_id(args) -> int:
    text = args.meeting or ""
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) < 2**31:
        raise UsageError(f"--meeting {text!r}: give the meeting's number (permits meetings list --town TOWN)")
    return int(text)


def _moment(text: str | None, option: str):
    from datetime import datetime

    if not text:
        raise UsageError(f"{option}: give the meeting's date and time, YYYY-MM-DDTHH:MM")
    value = parse_moment(text, option)
    if not isinstance(value, datetime):
        raise UsageError(f"{option} {text!r}: give a date and a time, YYYY-MM-DDTHH:MM")
    return value


def _time(text: str | None):
    from datetime import time

    if not text:
        return None
    try:
        return time.fromisoformat(text) if len(text) == 5 and text[2] == ":" else None
    except ValueError:
        return None


def _print_meeting(v) -> None:
    m = v.meeting
    posted = f"posted {m.posted_at:%Y-%m-%d %H:%M}" if m.posted_at else f"to be posted by {v.deadline.at:%Y-%m-%d %H:%M}"
    print(f"{m.id:>5}  {m.starts_at:%Y-%m-%d %a %H:%M}  {m.town}  {m.place}  ({posted}, M.G.L. c.30A §20(b))")
    for i in v.items:
        when = f"{i.at:%H:%M} " if i.at else ""
        if i.kind == "business":
            print(f"         business: {i.title}")
        else:
            label = "continued hearing" if i.kind == "continued" else "hearing"
            print(f"         {when}{label}: {i.filing_id} {i.permit}, {i.applicant}, {i.address}")


def cmd_meetings(args) -> int:
    from services import meetings

    day = as_of(args)
    store = open_store(args)
    if args.action == "list":
        if not args.town:
            raise UsageError("--town: name the town whose commission's meetings to list")
        views = meetings.meetings_view(store, args.town, since=day)
        if not views:
            print(f"no meeting from {day} on")
        for v in views:
            _print_meeting(v)
        return 0
    if args.action == "add":
        if not args.town:
            raise UsageError("--town: name the town whose commission meets")
        if args.count < 1 or (args.count > 1 and not args.every_weeks):
            raise UsageError("--count N needs --every-weeks W (a run of meetings, every W weeks)")
        ids = meetings.schedule_meetings(
            store,
            town=args.town,
            first=_moment(args.at, "--at"),
            every_weeks=args.every_weeks or 0,
            count=args.count,
            place=args.place or "",
            by=user(args),
            today=day,
        )
        print(f"permits: scheduled meeting(s) {', '.join(str(i) for i in ids)}")
        return 0
    mid = _meeting_id(args)
    if args.action in ("hear", "continue"):
        if not args.filing:
            raise UsageError("--filing: name the filing whose hearing it is")
        check_id(args.filing)
        if args.action == "hear":
            seq, state = meetings.hear_at_meeting(store, mid, args.filing, by=user(args), today=day, **_word())
        else:
            at = _time(args.time)
            if args.time and at is None:
                raise UsageError(f"--time {args.time!r}: the hearing's time that evening, HH:MM")
            seq, state = meetings.continue_hearing(store, args.filing, mid, at=at, day=day, by=user(args), today=day, **_word())
        print(f"permits: {args.filing}: recorded event {seq}; state {state}; on the agenda of meeting {mid}")
        return 0
    if args.action == "business":
        meetings.add_business(store, mid, args.title or "")
        print(f"permits: added to the agenda of meeting {mid}")
        return 0
    folder = Path(writable_folder(args.out or str(Path("out") / "meetings")))
    name, content = meetings.produce_posting(store, mid, now=now() if args.action == "posting" else None, fmt=args.format)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content, encoding="utf-8")
    print(path)
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser(
        "meetings",
        help="a conservation commission's meetings, agendas and Open Meeting Law postings",
        description="List, schedule and post a commission's meetings: put a hearing on a meeting's agenda, "
        "continue a hearing to a later meeting with its time, add other business, and write the "
        "meeting's posting (stamped now, checked against 48 hours not counting Saturdays, Sundays and "
        "legal holidays, M.G.L. c.30A §20(b)) or its agenda.",
    )
    p.add_argument("action", choices=ACTIONS, help="what to do: " + ", ".join(ACTIONS))
    p.add_argument("--town", help="the town (list, add)")
    p.add_argument("--at", help="add: the meeting's date and time, YYYY-MM-DDTHH:MM (the town's time)")
    p.add_argument("--place", help="add: where it meets (default: where the commission's hearings meet)")
    p.add_argument("--every-weeks", type=int, default=0, help="add: a run of meetings every N weeks (1-4)")
    p.add_argument("--count", type=int, default=1, help="add: how many meetings in the run (default 1)")
    p.add_argument("--meeting", help="the meeting's number (hear, continue, business, posting, agenda)")
    p.add_argument("--filing", help="hear, continue: the filing whose hearing it is")
    p.add_argument("--time", help="continue: the continued session's time that evening, HH:MM (default: the meeting's)")
    p.add_argument("--title", help="business: the item's title")
    p.add_argument("--format", choices=("pdf", "html", "txt"), default="pdf", help="posting, agenda: the file's format")
    p.add_argument("--out", help="posting, agenda: the folder to write into (default: out/meetings)")
    p.add_argument("--as-of", help="the day it is done on, YYYY-MM-DD (default: today); continue: the session continued")
    p.add_argument("--by", help="who does it (default: $PERMITS_USER, else the login name)")
    p.add_argument("--db", metavar="URL", help="database URL (default: $PERMITS_DATABASE_URL, else DATA_DIR/permits.db)")
    p.set_defaults(func=cmd_meetings)
