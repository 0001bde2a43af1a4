"""Duties while the work goes on (workflows/running_duties.py).

- Canton 16-12 §10.13 (canton.txt 1022-1027): "At the end of each day, all
  trenches must be plated ... No open un-plated trenches are permitted
  overnight."
- §10.9 (canton.txt 983-990): "An open trench may not exceed three hundred
  (300) feet unless specifically permitted by the Awarding Authority or its
  Representative."
- Mansfield Ch. 25 Part B §7.I: "The Permittee ... must notify the agent of
  the Conservation Commission in writing of any change or alteration ...
  before the change or alteration occurs"; §11.B: "The permittee ... shall
  submit monthly reports"; §10.A: the O&M Plan "shall be recorded at the
  Bristol County Registry of Deeds by the Permittee".
"""

from datetime import date

from _filings import ev, replayed, street

WORK = (
    ev("work-noticed", at="2026-06-01T08:00"),
    ev("excavation-started", "2026-06-08"),
)


def test_a_trench_found_unplated_overnight_is_a_violation_of_10_13():
    r = street(*WORK, ev("inspected", "2026-06-09", stage="pre-backfill", result="fail", unplated_overnight=True))
    c = r.clock("trench-overnight")
    assert (c.status, c.date, c.rule) == ("violated", date(2026, 6, 9), "Canton Street Opening By-Law 16-12 §10.13")
    assert "open and un-plated overnight" in c.explanation
    ok = street(*WORK, ev("inspected", "2026-06-09", stage="pre-backfill", result="pass", unplated_overnight=False))
    assert ok.clock("trench-overnight") is None


def test_more_than_300_feet_of_open_trench_needs_the_authoritys_permission():
    over = ev("inspected", "2026-06-10", stage="pre-backfill", result="fail", open_trench_ft=420)
    r = street(*WORK, over)
    c = r.clock("trench-length")
    assert c.status == "violated" and c.rule == "Canton Street Opening By-Law 16-12 §10.9"
    assert "420 feet of open trench, with no permission of the Authority on record" in c.explanation
    permitted = street(*WORK, ev("open-trench-permitted", "2026-06-05", feet=500), over)
    assert permitted.clock("trench-length") is None
    short = street(*WORK, ev("open-trench-permitted", "2026-06-05", feet=400), over)
    assert "the Authority permitted 400 feet" in short.clock("trench-length").explanation
    at_300 = street(*WORK, ev("inspected", "2026-06-10", stage="pre-backfill", result="pass", open_trench_ft=300))
    assert at_300.clock("trench-length") is None


ISSUED = (
    ev("filed", "2026-03-02"),
    ev("boards-notified", "2026-03-02"),
    *(ev("board-reported", "2026-03-05", board=b) for b in ("planning", "dpw", "health", "engineering", "building")),
    ev("mail-receipts-submitted", "2026-03-06"),
    ev("hearing-opened", "2026-03-10"),
    ev("hearing-closed", "2026-03-10"),
    ev("permit-issued", "2026-03-20"),
)


def ld(*events, as_of="2026-12-31"):
    return replayed("mansfield", "land-disturbance", *ISSUED, *events, as_of=as_of)


def test_a_change_to_the_project_without_notice_before_it_is_a_violation_of_7i():
    r = ld(ev("project-changed", "2026-05-01"))
    c = r.clock("project-change")
    assert c.status == "violated" and c.rule == "Mansfield Stormwater By-Law Ch. 25 Part B §7.I"
    assert ld(ev("project-change-noticed", "2026-04-20"), ev("project-changed", "2026-05-01")).clock("project-change") is None


def test_a_monthly_report_is_due_each_month_while_the_work_goes_on():
    r = ld(ev("work-started", "2026-04-01"), ev("monthly-report-filed", "2026-04-28"), as_of="2026-06-15")
    months = [(c.date, c.status) for c in r.clocks if c.id == "monthly-report"]
    assert months == [(date(2026, 5, 1), "met"), (date(2026, 6, 1), "overdue"), (date(2026, 7, 1), "open")]
    assert all(c.rule == "Mansfield Stormwater By-Law Ch. 25 Part B §11.B" for c in r.clocks if c.id == "monthly-report")
    done = ld(ev("work-started", "2026-04-01"), ev("final-report-filed", "2026-04-20"), as_of="2026-06-15")
    assert [c.date for c in done.clocks if c.id == "monthly-report"] == [date(2026, 5, 1)]


def test_the_certificate_of_completion_before_the_om_plan_is_recorded_is_a_violation_of_10a():
    cert = (ev("final-report-filed", "2026-09-01"), ev("certificate-issued", "2026-09-15", scope="complete"))
    r = ld(ev("work-started", "2026-04-01"), *cert)
    c = r.clock("om-plan")
    assert c.status == "violated" and c.rule == "Mansfield Stormwater By-Law Ch. 25 Part B §10.A"
    ok = ld(ev("work-started", "2026-04-01"), ev("om-plan-recorded", "2026-08-20"), *cert)
    assert ok.clock("om-plan") is None
