"""Clocks counted in hours are met or missed by the hour, not the day."""

from _filings import ev, replayed


def _posted(at):
    return replayed(
        "canton",
        "noi",
        ev("filed", "2026-12-01"),
        ev("hearing-scheduled", "2026-12-02", hearing="2026-12-15", at="2026-12-15T19:00"),
        ev("notice-posted", at=at),
        ev("hearing-opened", "2026-12-15"),
        as_of="2026-12-20",
    ).clock("hearing-posting")


def test_meeting_posted_an_hour_after_the_48_business_hour_mark_is_late_though_on_the_same_day():
    # Tue 19:00 less 48 business hours: Tue 19 h, Mon 24 h, then Fri 5 h -> Fri 19:00
    clock = _posted("2026-12-11T20:00")
    assert clock.at.isoformat(timespec="minutes") == "2026-12-11T19:00"
    assert clock.status == "late"
    assert "2026-12-11T20:00, after the deadline" in clock.explanation


def test_meeting_posted_before_the_48_business_hour_mark_is_met():
    assert _posted("2026-12-11T18:59").status == "met"
    assert _posted("2026-12-11T19:00").status == "met"
