"""The line-by-line ICS writer gives the same feeds as icalendar's objects:
byte for byte, and event by event when both are parsed back with icalendar,
on a generated sweep's items and on hostile text (commas, semicolons,
backslashes, carets, line breaks, characters of several bytes at the fold)."""

from datetime import date, datetime

import icalendar
from hypothesis import given, settings
from hypothesis import strategies as st

from demo.generate import generate
from notices.ics import CalendarItem, build_feed, build_feed_icalendar, fold
from sweep.calendar_items import calendar_items
from workflows.filing import parse_filing
from workflows.replay import replay

AS_OF = date(2026, 11, 30)
PROPS = ("UID", "SUMMARY", "DESCRIPTION", "SEQUENCE", "TRANSP")


def _events(feed: bytes) -> list[dict]:
    out = []
    for e in icalendar.Calendar.from_ical(feed).walk("VEVENT"):
        row = {p: str(e[p]) for p in PROPS}
        row["DTSTART"], row["DTEND"] = e.decoded("DTSTART"), e.decoded("DTEND")
        row["CATEGORIES"] = [str(c) for c in e["CATEGORIES"].cats]
        out.append(row)
    return out


def _generated_items(n: int) -> list[CalendarItem]:
    items = []
    for raw in generate(n, AS_OF, seed=5):
        f = parse_filing(raw)
        try:
            items += calendar_items(f, replay(f, AS_OF), AS_OF)
        except Exception:  # noqa: BLE001 - a generated bad record has no calendar
            continue
    return items


def test_a_generated_sweeps_feed_is_the_same_bytes_and_the_same_events_as_icalendars():
    items = _generated_items(600)
    assert any(i.at is not None for i in items) and any(i.at is None for i in items)
    assert any("§" in i.description for i in items)  # characters of two bytes in the folded text
    new, old = build_feed(items, AS_OF, "all"), build_feed_icalendar(items, AS_OF, "all")
    assert _events(new) == _events(old)
    assert len(_events(new)) == len(items)
    assert new == old


def test_a_feed_without_timed_items_has_no_timezone_like_icalendars():
    items = [i for i in _generated_items(200) if i.at is None]
    new = build_feed(items, AS_OF, "dates")
    assert b"VTIMEZONE" not in new
    assert new == build_feed_icalendar(items, AS_OF, "dates")


HOSTILE = st.text(alphabet=st.sampled_from(list('ab ,;\\^:\n\r"§é€😀xN')), max_size=300)


@settings(max_examples=150, deadline=None)
@given(summary=HOSTILE, description=HOSTILE, uid=st.text(alphabet="abc-/@.\\,;^§", min_size=1, max_size=120))
def test_hostile_text_is_escaped_and_folded_exactly_as_icalendar_does(summary, description, uid):
    items = [
        CalendarItem(uid, "canton", "dpw", "F-1", "decision", date(2026, 12, 1), None, summary, description, 2),
        CalendarItem(uid + "x", "canton", "dpw", "F-1", "hearing", date(2026, 12, 2), datetime(2026, 12, 2, 19), "s", "d"),
    ]
    new, old = build_feed(items, AS_OF, "t"), build_feed_icalendar(items, AS_OF, "t")
    assert new == old
    assert _events(new) == _events(old)


@given(st.text(alphabet=st.sampled_from(list("a\\^§😀")), min_size=60, max_size=400))
def test_folded_lines_are_at_most_75_octets_and_unfold_to_the_line(text):
    folded = fold("DESCRIPTION:" + text)
    lines = folded.split(b"\r\n")
    assert all(len(line) <= 75 for line in lines)
    assert b"".join(line[1:] if i else line for i, line in enumerate(lines)).decode() == "DESCRIPTION:" + text
