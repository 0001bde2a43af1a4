"""A Certificate ends what it certifies (310 CMR 10.05, its Certificates of
Compliance; WPA Form 8B; Mansfield Stormwater By-Law Ch. 25 Part B §15;
docs/reference/readings.md, "A Certificate ends its Order").

- A complete Certificate closes the Order on the day it issues: the expiry
  no longer runs, no renewal request is due, a work clock still waiting
  stops; each is ``closed`` and its explanation names the Certificate and
  its day.  The filing leaves every list of what is due: the sweep's
  docket and reminders, the store's docket, Today's counts.
- A partial Certificate certifies the part it names and leaves the rest of
  the Order in force: its clocks run on, and the docket still lists them.
- ``certificate-recorded`` may give the Registry of Deeds' book and page.

The pure replay first, then the store on SQLite and PostgreSQL (a
recording through the service layer, the docket, Today's tally, a sweep).
"""

from datetime import date

import pytest
from _filings import ev, replayed

from sweep.agenda import docket_entries, reminders_due
from workflows.certificates import CLOSABLE, CLOSED, recorded_at

#: a state Order (310 CMR 10.05), issued Friday 2026-03-20: it expires
#: 2029-03-20 (10.05(6)(d)); the renewal is asked 30 days before, by
#: 2029-02-18 (10.05(8)(a))
ORDER = (
    ev("filed", "2026-03-02"),
    ev("hearing-opened", "2026-03-16"),
    ev("hearing-closed", "2026-03-16"),
    ev("permit-issued", "2026-03-20"),
    ev("permit-recorded", "2026-03-25"),
)
ASKED = ev("certificate-requested", "2027-02-12", requested_by="the owner", scope="complete")
COMPLETE = ev("certificate-issued", "2027-03-01", scope="complete", continuing=["The swale is maintained."])
PARTIAL = ev("certificate-issued", "2027-03-01", scope="partial", portion="Lot 1, the driveway and its swale")
#: the renewal request is on the 14-day docket; both reminders are within their lead
DOCKET_DAY, REMINDER_DAY = "2029-02-10", "2029-02-01"
#: every status of a clock still to come (the store keeps a deadline's as "due" or "runs")
STILL_TO_COME = {s for statuses in CLOSABLE.values() for s in statuses}


def state_noi(*more, as_of=DOCKET_DAY, also=None):
    return replayed("wpa", "noi", *ORDER, *more, as_of=as_of, also=also)


def test_a_complete_certificate_310_cmr_10_05_leaves_no_clock_open_or_due_and_closes_expiry_and_renewal():
    r = state_noi(ASKED, COMPLETE)
    assert r.state == "certified"
    assert [c.id for c in r.clocks if c.status in STILL_TO_COME] == []
    expiry, renewal = r.clock("permit-expiry"), r.clock("renewal-request")
    assert (expiry.status, expiry.date) == (CLOSED, date(2029, 3, 20))
    assert (renewal.status, renewal.date) == (CLOSED, date(2029, 2, 18))
    for c in (expiry, renewal):  # the Certificate and its day, in the explanation
        assert "closed by certificate-issued on Monday, March 1, 2027 (event 7)" in c.explanation
        assert "the Order no longer runs" in c.explanation and "310 CMR 10.05" in c.explanation
    assert r.clock("certificate-decision").status == "met"  # what the record shows stays
    # before it, the same Order had both due
    before = state_noi(ASKED)
    assert (before.clock("permit-expiry").status, before.clock("renewal-request").status) == ("active", "open")


def test_a_complete_certificate_310_cmr_10_05_takes_the_filing_off_the_docket_and_the_reminders():
    certified, in_force = state_noi(ASKED, COMPLETE), state_noi()
    assert [e.what for e in docket_entries(in_force, date.fromisoformat(DOCKET_DAY))] == ["renewal-request"]
    assert docket_entries(certified, date.fromisoformat(DOCKET_DAY)) == []
    reminded = state_noi(as_of=REMINDER_DAY)
    assert {x.clock for x in reminders_due(reminded, date.fromisoformat(REMINDER_DAY))} == {"permit-expiry", "renewal-request"}
    assert reminders_due(state_noi(ASKED, COMPLETE, as_of=REMINDER_DAY), date.fromisoformat(REMINDER_DAY)) == []
    # recorded at the Registry of Deeds, the filing ends; its clocks stay closed
    done = state_noi(ASKED, COMPLETE, ev("certificate-recorded", "2027-03-08", book="41234", page="12"))
    assert done.state == "completed"
    assert {done.clock("permit-expiry").status, done.clock("renewal-request").status} == {CLOSED}
    assert docket_entries(done, date.fromisoformat(DOCKET_DAY)) == []


def test_a_complete_certificate_closes_the_work_clocks_still_waiting():
    """No work until the appeal periods have passed (WPA Form 5; 310 CMR
    10.05(7)(c)): a Certificate issued inside them (the work was done under
    an emergency, say) leaves nothing to wait for."""
    quick = (
        ev("filed", "2026-03-02"),
        ev("hearing-opened", "2026-03-16"),
        ev("hearing-closed", "2026-03-16"),
        ev("permit-issued", "2026-03-20"),
    )
    waiting = replayed("wpa", "noi", *quick, as_of="2026-03-24")
    assert waiting.clock("appeal-before-work").status == "waiting"
    closed = replayed("wpa", "noi", *quick, ev("certificate-issued", "2026-03-23", scope="complete"), as_of="2026-03-24")
    assert closed.clock("appeal-before-work").status == CLOSED
    assert docket_entries(closed, date(2026, 3, 24)) == []


def test_a_joint_filings_state_and_town_expiry_are_both_closed():
    r = replayed("canton", "noi", *ORDER, ASKED, COMPLETE, as_of=DOCKET_DAY, also=["wpa"])
    expiries = {c.id: c.status for c in r.clocks if c.type == "expiry"}
    assert expiries == {"permit-expiry": CLOSED, "wpa:permit-expiry": CLOSED}
    assert [c.id for c in r.clocks if c.status in STILL_TO_COME] == []


def test_a_partial_certificate_310_cmr_10_05_leaves_the_rest_of_the_order_due():
    r = state_noi(ev("certificate-requested", "2027-02-12", requested_by="the owner", scope="partial"), PARTIAL)
    assert r.state == "issued"
    expiry, renewal = r.clock("permit-expiry"), r.clock("renewal-request")
    assert (expiry.status, renewal.status) == ("active", "open")
    assert "certifies Lot 1, the driveway and its swale: the rest of the Order stays in force" in expiry.explanation
    assert [e.what for e in docket_entries(r, date.fromisoformat(DOCKET_DAY))] == ["renewal-request"]
    # and a complete Certificate after it closes the rest
    rest = state_noi(PARTIAL, ev("certificate-issued", "2028-05-01", scope="complete"))
    assert rest.clock("permit-expiry").status == CLOSED
    assert "closed by certificate-issued on Monday, May 1, 2028" in rest.clock("permit-expiry").explanation


def test_a_voided_certificate_puts_the_order_back_in_force():
    r = state_noi(ASKED, COMPLETE, ev("event-voided", "2027-03-02", voids=7, reason="issued on the wrong filing"))
    assert r.state == "issued"
    assert (r.clock("permit-expiry").status, r.clock("renewal-request").status) == ("active", "open")


def test_the_older_completion_certified_closes_the_order_too():
    r = state_noi(ev("completion-certified", "2027-03-01"))
    assert r.state == "completed"
    assert r.clock("permit-expiry").status == CLOSED
    assert reminders_due(state_noi(ev("completion-certified", "2027-03-01"), as_of=REMINDER_DAY), date(2029, 2, 1)) == []


def test_a_land_disturbance_certificate_of_completion_mansfield_25_s15_ends_the_permit():
    """§15: "a letter certifying completion", always for all the work: the
    permit ends (its machine's final state), nothing of it is still to come
    and no docket lists it."""
    from sweep.agenda import is_open

    issued = (
        ev("filed", "2026-03-02"),
        ev("boards-notified", "2026-03-02"),
        *(ev("board-reported", "2026-03-20", board=b) for b in ("building", "dpw", "engineering", "health", "planning")),
        ev("mail-receipts-submitted", "2026-04-01"),
        ev("hearing-opened", "2026-04-21"),
        ev("hearing-closed", "2026-05-05"),
        ev("permit-issued", "2026-06-01"),
        ev("construction-noticed", "2026-10-01", start="2026-11-15"),
        ev("om-plan-recorded", "2026-10-10"),  # §10.A: before the certificate, or a violation on record
    )
    done = replayed(
        "mansfield", "land-disturbance", *issued, ev("certificate-issued", "2026-10-15", scope="complete"), as_of="2026-10-20"
    )
    assert done.state == "completed" and not is_open(done)
    assert [c.id for c in done.clocks if c.status in STILL_TO_COME] == []
    assert docket_entries(done, date(2026, 10, 20)) == []


def test_the_registry_book_and_page_are_shown_when_given():
    from workflows.filing import parse_filing

    def recorded(**where):
        events = [*ORDER, ASKED, COMPLETE, ev("certificate-recorded", "2027-03-08", **where)]
        return parse_filing({"town": "wpa", "kind": "noi", "id": "WPA-NOI-2026-9", "events": events}).events[-1]

    assert recorded_at(recorded(book="41234", page="12")) == "Book 41234, Page 12"
    assert recorded_at(recorded()) == ""


# -- the store: the docket, Today's tally and the sweep agree ----------------------------------------


def _noi(fid: str, *events) -> dict:
    return {
        "town": "wpa",
        "kind": "noi",
        "id": fid,
        "address": "9 Bolivar St",
        "applicant": "A. Holder",
        "events": [*ORDER, *events],
    }


@pytest.mark.parametrize("certificate, listed", [(COMPLETE, False), (PARTIAL, True)])
def test_recorded_through_the_service_the_certificate_decides_the_docket_today_and_the_sweep(
    db_url, tmp_path, certificate, listed
):
    import json

    from sqlalchemy import select

    import config
    from models.handle import Store
    from models.read.docket_counts import docket_counts
    from models.read.workbench import docket as workbench_docket
    from models.schema.tables import FilingClock
    from services.database import upgrade_store
    from services.imports import import_filings
    from services.record import record_event
    from services.sweep import run_sweep

    store = Store(db_url)
    try:
        upgrade_store(store)
        import_filings(store, [_noi("WPA-NOI-2026-000001"), _noi("WPA-NOI-2026-000002")], by="test")
        fid = "WPA-NOI-2026-000001"
        today = date(2027, 3, 8)
        counts = dict(as_of=date.fromisoformat(DOCKET_DAY), within=14, towns=["wpa"], kinds=["noi"])
        assert docket_counts(store, **counts)["due"] == 2  # both renewal requests
        for raw in ({**ASKED, "date": "2027-02-12"}, certificate):
            record_event(store, fid, raw, by="agent@wpa.example", today=today, now=None, mail_from="t@example.org")
        with store.reader.connect() as conn:
            clock = FilingClock.__table__
            stored = dict(conn.execute(select(clock.c.clock_id, clock.c.status).where(clock.c.filing_id == fid)).all())
        if listed:
            assert (stored["permit-expiry"], stored["renewal-request"]) == ("active", "runs")
        else:
            assert (stored["permit-expiry"], stored["renewal-request"]) == (CLOSED, CLOSED)
            assert not {"due", "runs", "active", "waiting"} & set(stored.values())
        on_docket = {r.filing for r in store.docket(as_of=date.fromisoformat(DOCKET_DAY), within=14)}
        today_rows = {
            r.filing
            for r in workbench_docket(store, as_of=date.fromisoformat(DOCKET_DAY), within=14, towns=["wpa"], kinds=["noi"])
        }
        assert (fid in on_docket, fid in today_rows) == (listed, listed)
        assert "WPA-NOI-2026-000002" in on_docket  # the other Order is still due
        assert docket_counts(store, **counts)["due"] == (2 if listed else 1)  # Today's counts, from the tally
        done = run_sweep(
            date.fromisoformat(DOCKET_DAY), db_url, str(tmp_path / "out"), config.load(), use_prefect=False, make_notices=False
        )
        digest = json.dumps(done["digest"], default=str)
        assert ("WPA-NOI-2026-000002" in digest) and ((fid in digest) == listed)
        assert docket_counts(store, **counts)["due"] == (2 if listed else 1)  # the sweep rewrote what it read, the same
    finally:
        store.engine.dispose()
