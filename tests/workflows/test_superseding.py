"""A board's silence (workflows/superseding.py).

- M.G.L. c.131 §40 and 310 CMR 10.05(6)(a): the Order within 21 days of the
  close of the hearing; 310 CMR 10.05(7): a request to MassDEP for a
  superseding order, by the applicant, the owner, an abutter, a person
  aggrieved or ten residents.
- Lippman v. Conservation Comm'n of Hopkinton, 80 Mass. App. Ct. 1 (2011):
  when no decision issued within 21 days of the hearing's close, asking
  MassDEP for a superseding order was "precisely the course that the
  plaintiffs pursued"; MassDEP's order then controls, and a local decision
  issued afterwards does not replace it (Oyster Creek v. Harwich, 449 Mass.
  859 (2007)).
"""

from datetime import date

import pytest
from _filings import ev, refused, replayed

from workflows.errors import TransitionRefused

#: a Canton NOI heard under the Act too: the hearing closed Monday 2026-03-23;
#: the Act's decision is due Monday 04-13 (21 days), the by-law's Thursday 04-23 (31)
CLOSED = (
    ev("filed", "2026-03-02"),
    ev("hearing-opened", "2026-03-16"),
    ev("hearing-closed", "2026-03-23"),
)
ASKED = ev("superseding-requested", "2026-04-14", by="applicant", ground="no-decision")
DEP = ev("superseding-issued", "2026-05-20", number="SE 073-1234")


def joint(*events, as_of="2026-12-31"):
    return replayed("canton", "noi", *CLOSED, *events, as_of=as_of, also=["wpa"])


def joint_refused(*events, match):
    with pytest.raises(TransitionRefused, match=match):
        joint(*events)


def test_a_request_for_the_boards_silence_is_refused_before_the_decision_deadline_naming_it():
    joint_refused(
        ev("superseding-requested", "2026-04-13", by="applicant", ground="no-decision"), match="due by Monday, April 13, 2026"
    )


def test_a_board_silence_replays_as_the_act_has_it():
    """The decision clock overdue when the request comes, the request
    accepted, MassDEP's order in force for expiry and work, a later local
    decision late."""
    asked = joint(ASKED, as_of="2026-04-14")
    assert asked.state == "hearing-closed"
    assert (asked.clock("wpa:decision").date, asked.clock("wpa:decision").status) == (date(2026, 4, 13), "overdue")
    r = joint(ASKED, DEP, ev("permit-issued", "2026-05-25"), ev("permit-recorded", "2026-05-27"), as_of="2026-06-15")
    assert r.state == "issued"
    assert r.clock("decision").status == "late" and r.clock("wpa:decision").status == "late"
    expiry = r.clock("permit-expiry")
    assert expiry.date == date(2029, 5, 20) and expiry.status == "active"  # three years from MassDEP's order
    work = joint(ASKED, DEP, ev("permit-recorded", "2026-05-27"), ev("work-started", "2026-06-10"), as_of="2026-06-15")
    assert work.clock("work-without-permit") is None and work.clock("recording-before-work").status == "passed"
    late_work = joint(ASKED, DEP, ev("permit-recorded", "2026-05-27"), ev("work-observed", "2029-06-01"), as_of="2029-06-02")
    assert late_work.clock("permit-expiry").status == "violated"


def test_the_boards_decision_no_one_made_is_closed_by_massdeps_order():
    r = joint(ASKED, DEP, as_of="2026-06-15")
    assert r.clock("wpa:decision").status == "superseded" and r.clock("decision").status == "superseded"
    assert "MassDEP's superseding decision controls" in r.clock("decision").explanation


def test_a_local_denial_after_massdeps_order_does_not_replace_it():
    r = joint(
        ASKED, DEP, ev("permit-denied", "2026-05-25"), ev("permit-recorded", "2026-05-27"), ev("work-started", "2026-06-10")
    )
    assert r.state == "issued" and r.clock("decision").status == "late"
    assert r.clock("work-without-permit") is None


def test_massdeps_order_may_be_renewed_and_certified_as_the_order_in_force():
    r = joint(
        ASKED,
        DEP,
        ev("renewal-requested", "2029-04-01"),
        ev("permit-renewed", "2029-04-15"),
        ev("certificate-requested", "2030-01-05", requested_by="the owner", scope="complete"),
        ev("certificate-issued", "2030-01-20", scope="complete"),
        as_of="2030-02-01",
    )
    assert r.state == "certified" and r.clock("permit-expiry").date == date(2030, 5, 20)


def test_a_superseding_denial_leaves_work_without_a_permit():
    r = joint(ASKED, ev("superseding-issued", "2026-05-20", number="SE 073-1234", denied=True), ev("work-observed", "2026-06-01"))
    assert r.state == "denied" and r.clock("work-without-permit").status == "violated"


def test_massdeps_decision_needs_a_request_and_a_well_formed_file_number():
    joint_refused(DEP, match="no request for a superseding order is on record")
    joint_refused(
        ASKED, ev("superseding-issued", "2026-05-20", number="1234"), match="a MassDEP file number reads like SE 073-1234"
    )


def test_after_a_decision_an_appeal_is_a_request_for_a_superseding_order_at_any_ground():
    issued = (*CLOSED, ev("permit-issued", "2026-04-01"))
    r = replayed(
        "wpa",
        "noi",
        *issued,
        ev("superseding-requested", "2026-04-08", by="ten-residents", ground="decision-appealed"),
        ev("superseding-issued", "2026-07-01", number="SE 073-1234"),
    )
    assert r.state == "issued" and r.clock("permit-expiry").date == date(2029, 7, 1)
    refused(
        "wpa",
        "noi",
        *CLOSED,
        ev("superseding-requested", "2026-04-20", by="abutter", ground="decision-appealed"),
        match="no decision is on record to appeal",
    )


def test_an_rda_the_board_left_undecided_gets_massdeps_determination():
    """c.131 §40: a determination within 21 days of the request."""
    r = replayed(
        "wpa",
        "rda",
        ev("filed", "2026-03-02"),
        ev("superseding-requested", "2026-03-24", by="applicant", ground="no-decision"),
        ev("superseding-issued", "2026-04-20", number="SE 073-1235"),
        ev("determination-issued", "2026-04-25", positive=True),
        ev("work-observed", "2026-05-01"),
    )
    assert r.state == "negative-determination" and r.clock("decision").status == "late"
    assert r.clock("work-without-permit") is None
