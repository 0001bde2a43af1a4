"""The sweep's decisions, on hand-made replays: what goes on the docket, the
DPW schedule, the reminders and the notices, and under which keys."""

from dataclasses import dataclass, field
from datetime import date

from sweep.agenda import docket_entries, inspection_schedule, is_open, notices_due, reminders_due
from workflows.filing import parse_filing

AS_OF = date(2026, 11, 30)


@dataclass
class C:
    id: str
    date: date
    status: str
    type: str = "deadline"
    rule: str = "a rule"
    explanation: str = "how"
    at: object = None


@dataclass
class R:
    kind: str
    state: str
    clocks: list = field(default_factory=list)
    town: str = "canton"
    id: str = "F-1"


def whats(entries, category=None):
    return [(e.what, e.category) for e in entries if category in (None, e.category)]


def test_docket_sorts_clocks_into_overdue_due_waiting_expiring_and_late():
    r = R(
        "noi",
        "hearing-closed",
        [
            C("decision", date(2026, 11, 20), "overdue"),
            C("newspaper-notice", date(2026, 12, 10), "open"),
            C("hearing-posting", date(2027, 1, 10), "open"),  # beyond 14 days: not yet
            C("board-comment", date(2026, 12, 5), "waiting", "earliest"),
            C("permit-expiry", date(2026, 12, 20), "active", "expiry"),
            C("hearing-open", date(2026, 10, 1), "late"),
            C("appeal-period", date(2026, 10, 1), "met"),
        ],
    )
    assert whats(docket_entries(r, AS_OF)) == [
        ("decision", "overdue"),
        ("newspaper-notice", "due"),
        ("board-comment", "waiting"),
        ("permit-expiry", "expiring"),
        ("hearing-open", "late"),
    ]
    overdue = docket_entries(r, AS_OF)[0]
    assert overdue.days == -10 and overdue.department == "conservation" and overdue.rule == "a rule"


def test_a_renewal_request_is_on_the_docket_while_open_and_not_once_missed():
    missed = [C("permit-expiry", date(2026, 1, 1), "expired", "expiry"), C("renewal-request", date(2026, 1, 1), "overdue")]
    assert docket_entries(R("street-opening", "temporary-patch", missed), AS_OF) == []
    assert docket_entries(R("noi", "issued", missed), AS_OF) == []
    soon = [C("wpa:renewal-request", date(2026, 12, 5), "open")]
    assert whats(docket_entries(R("noi", "issued", soon), AS_OF)) == [("wpa:renewal-request", "due")]


def test_open_and_closed_follow_the_machines_final_states():
    assert is_open(R("street-opening", "temporary-patch"))
    assert is_open(R("street-opening", "final-inspected"))  # the deposit is still to be refunded
    assert not is_open(R("street-opening", "closed"))
    assert not is_open(R("noi", "completed"))


def _street(events):
    return parse_filing(
        {
            "town": "canton",
            "kind": "street-opening",
            "id": "CAN-SOP-1",
            "events": [{"type": "filed", "date": "2026-10-01"}] + events,
        }
    )


def test_schedule_lists_patch_windows_winter_patch_and_uninspected_temporary_patch():
    f = _street([{"type": "temporary-patch-placed", "date": "2026-11-27"}])
    r = R(
        "street-opening",
        "temporary-patch",
        [
            C("permanent-patch-window-opens", date(2026, 12, 20), "waiting", "earliest"),
            C("permanent-patch-window-closes", date(2027, 5, 27), "open"),  # beyond the 6 weeks
            C("winter-patch", date(2026, 11, 30), "open"),
            C("temporary-patch-maintenance", date(2026, 12, 28), "active", "expiry"),
            C("suspension-ends", date(2026, 11, 10), "expired", "expiry"),  # history
        ],
        id="CAN-SOP-1",
    )
    s = inspection_schedule(r, AS_OF, f.events)
    assert [(e.date, e.what) for e in s] == [
        ("2026-11-27", "temporary patch inspection"),
        ("2026-11-30", "winter preparation patch due before December 1"),
        ("2026-12-20", "permanent patch window opens: inspect during the window"),
        ("2026-12-28", "temporary patch maintenance year ends"),
    ]
    assert s[0].status == "overdue" and s[0].rule.endswith("§10.2")


def test_an_inspected_temporary_patch_needs_no_inspection():
    f = _street(
        [
            {"type": "temporary-patch-placed", "date": "2026-11-20"},
            {"type": "inspected", "date": "2026-11-23", "stage": "temporary-patch", "result": "pass"},
        ]
    )
    assert inspection_schedule(R("street-opening", "temporary-patch", []), AS_OF, f.events) == []


def test_overdue_window_close_stays_on_the_schedule_and_wetlands_have_none():
    r = R("street-opening", "temporary-patch", [C("permanent-patch-window-closes", date(2026, 6, 1), "overdue")])
    assert [e.what for e in inspection_schedule(r, AS_OF)] == ["permanent patch window closes"]
    assert inspection_schedule(R("noi", "issued", r.clocks), AS_OF) == []


def test_reminders_within_lead_time_keyed_by_clock_and_date():
    r = R(
        "noi",
        "issued",
        [
            C("renewal-request", date(2026, 12, 30), "open"),
            C("wpa:appeal-period", date(2026, 12, 4), "open"),
            C("permit-expiry", date(2027, 6, 1), "active", "expiry"),  # too far
            C("appeal-period", date(2026, 11, 1), "met"),
        ],
    )
    got = reminders_due(r, AS_OF)
    assert [x.key for x in got] == ["reminder:renewal-request:2026-12-30", "reminder:wpa:appeal-period:2026-12-04"]
    assert "no work until it has ended" in got[1].text


def test_street_permit_expiry_is_not_a_reminder():
    r = R("street-opening", "issued", [C("permit-expiry", date(2026, 12, 10), "active", "expiry")])
    assert reminders_due(r, AS_OF) == []


def test_hearing_notices_are_keyed_by_the_hearing_date_once_for_town_and_state():
    r = R(
        "noi",
        "hearing-scheduled",
        [
            C("newspaper-notice", date(2026, 12, 8), "open"),
            C("wpa:newspaper-notice", date(2026, 12, 8), "open"),
            C("hearing-posting", date(2026, 12, 11), "open"),
            C("hearing-open", date(2026, 12, 20), "open"),
        ],
    )
    assert [n.key for n in notices_due(r, AS_OF)] == ["notice:legal-notice:2026-12-08", "notice:hearing-posting:2026-12-11"]
    moved = R("noi", "hearing-scheduled", [C("newspaper-notice", date(2026, 12, 22), "open")])
    assert [n.key for n in notices_due(moved, AS_OF)] == ["notice:legal-notice:2026-12-22"]


def test_event_notices_only_for_the_latest_recent_event_of_each_type():
    f = _street(
        [
            {"type": "permit-issued", "date": "2026-10-05"},
            {"type": "inspected", "date": "2026-11-02", "stage": "pre-backfill", "result": "fail"},
            {"type": "inspected", "date": "2026-11-03", "stage": "pre-backfill", "result": "pass"},
        ]
    )
    keys = [n.key for n in notices_due(R("street-opening", "excavating", id="CAN-SOP-1"), AS_OF, f.events)]
    assert keys == ["notice:inspection-result:event-4"]  # the permit of 2026-10-05 is older than 30 days


def test_a_certificate_issued_or_denied_is_a_notice_due_and_a_land_disturbance_letter_too():
    """310 CMR 10.05: the Certificate (WPA Form 8B) or the written denial goes
    to the holder; Mansfield 25 §15: the letter certifying completion."""
    events = parse_filing(
        {
            "town": "wpa",
            "kind": "noi",
            "id": "WPA-NOI-1",
            "events": [
                {"type": "filed", "date": "2023-03-02"},
                {"type": "permit-issued", "date": "2023-04-03"},
                {"type": "certificate-requested", "date": "2026-11-02", "requested_by": "the owner", "scope": "complete"},
                {"type": "certificate-issued", "date": "2026-11-20", "scope": "complete"},
            ],
        }
    ).events
    keys = [n.key for n in notices_due(R("noi", "certified", town="wpa", id="WPA-NOI-1"), AS_OF, events)]
    assert keys == ["notice:certificate-of-compliance:event-4"]
    keys = [n.key for n in notices_due(R("land-disturbance", "completed", town="mansfield"), AS_OF, events)]
    assert keys == ["notice:certificate-of-completion:event-4"]
