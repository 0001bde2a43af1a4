"""Rules of the by-laws the engine once lacked, one trap test each, citing the by-law line."""

from datetime import datetime

import pytest
from _filings import ev, replayed

from workflows.errors import TransitionRefused


def test_a_canton_emergency_project_gives_notice_within_24_hours_and_files_within_21_days():
    """canton.txt lines 10-17: advance notice "prior to commencement of work or
    within 24 hours after commencement"; "within 21 days of commencement of
    an emergency project a permit application shall be filed"."""
    r = replayed(
        "canton",
        "noi",
        ev("emergency-work-started", at="2026-06-05T22:00"),
        ev("emergency-noticed", at="2026-06-06T21:00"),
        ev("filed", "2026-06-26"),
        as_of="2026-06-27",
    )
    notice, filed = r.clock("emergency-notice"), r.clock("emergency-filing")
    assert (notice.at, notice.status) == (datetime(2026, 6, 6, 22, 0), "met")
    assert filed.date.isoformat() == "2026-06-26" and filed.status == "met"
    assert "emergency projects" in filed.rule
    late = replayed(
        "canton",
        "noi",
        ev("emergency-work-started", at="2026-06-05T22:00"),
        ev("emergency-noticed", at="2026-06-07T09:00"),
        ev("filed", "2026-06-29"),
        as_of="2026-06-30",
    )
    assert late.clock("emergency-notice").status == "late" and late.clock("emergency-filing").status == "late"


def test_a_notice_given_before_the_emergency_work_starts_meets_the_notice_clock():
    r = replayed(
        "canton",
        "noi",
        ev("emergency-noticed", at="2026-06-05T20:00"),
        ev("emergency-work-started", at="2026-06-05T22:00"),
        as_of="2026-06-06",
    )
    assert r.clock("emergency-notice").status == "met" and r.state == "emergency-work"
    assert r.clock("emergency-filing").status == "open"


def test_an_emergency_project_is_refused_where_the_by_law_provides_none():
    with pytest.raises(TransitionRefused, match="provides no emergency project"):
        replayed("saugus", "noi", ev("emergency-work-started", at="2026-06-05T22:00"))


def test_in_canton_the_applicants_objection_to_a_continuance_closes_the_hearing():
    """canton.txt lines 89-91 (15-5): "In the event the applicant objects to a
    continuance or postponement, the hearing shall be closed"; the 31-day
    decision clock runs from that day."""
    r = replayed(
        "canton",
        "noi",
        ev("filed", "2026-06-01"),
        ev("hearing-opened", "2026-06-16"),
        ev("continuance-objected", "2026-06-16"),
        as_of="2026-06-20",
    )
    assert r.state == "hearing-closed"
    assert r.clock("decision").date.isoformat() == "2026-07-17"


def test_elsewhere_an_objection_does_not_close_the_hearing():
    with pytest.raises(TransitionRefused, match="does not close a hearing on the applicant's objection"):
        replayed(
            "saugus",
            "noi",
            ev("filed", "2026-06-01"),
            ev("hearing-opened", "2026-06-16"),
            ev("continuance-objected", "2026-06-16"),
        )


def _utility(*events, as_of="2027-07-31"):
    return replayed(
        "canton",
        "street-opening",
        ev("filed", "2026-06-01", applicant="utility", length_ft=20),
        ev("dig-safe-obtained", "2026-06-01", ticket="1"),
        ev("permit-issued", "2026-06-02"),
        ev("work-noticed", at="2026-06-02T08:00"),
        ev("excavation-started", "2026-06-08"),
        ev("backfilled", "2026-06-10", material="gravel"),
        ev("temporary-patch-placed", "2026-06-15"),
        *events,
        as_of=as_of,
    )


def test_a_utility_places_its_own_permanent_patch_72_hours_after_notice():
    """canton.txt lines 1208-1212 (16-12 §11.4): public utilities or municipal
    departments "must give the Awarding Authority and its Representative not
    less than seventy-two hours prior notice"."""
    r = _utility(ev("patch-noticed", at="2027-06-21T09:00"), ev("permanent-patch-placed", at="2027-06-24T10:00"))
    c = r.clock("patch-notice")
    assert (c.at, c.status) == (datetime(2027, 6, 24, 9, 0), "passed")
    early = _utility(ev("patch-noticed", at="2027-06-21T09:00"), ev("permanent-patch-placed", "2027-06-23"))
    assert early.clock("patch-notice").status == "premature"


def test_a_utilitys_permanent_patch_with_no_notice_and_no_approval_is_flagged():
    r = _utility(ev("permanent-patch-placed", "2027-06-24"))
    c = r.clock("patch-notice")
    assert c.status == "violated" and "16-12 §11.4" in c.rule
    assert "no 72 hours' notice and no approval on record" in c.explanation


def test_a_missed_winter_patch_on_one_permit_holds_back_the_applicants_refund_on_another(tmp_path, capsys):
    """Canton 16-12 §11.3(c): a winter patch not done "prior to December 1st"
    is a Default; §11.3(c) and §5: the deposit is returned "provided that the
    Applicant/Permit Holder and Contractor are not in Default"."""
    import json

    from storekit import STREET, write_json

    from cli.main import main

    db = f"sqlite:///{tmp_path / 'p.db'}"
    bakery = {"name": "Main St Bakery", "category": "private"}
    done = {
        **STREET,
        "id": "CAN-SO-2026-300",
        "applicant": bakery,
        "events": [
            {"type": "filed", "date": "2026-06-01", "applicant": "private", "length_ft": 20},
            {"type": "dig-safe-obtained", "date": "2026-06-01", "ticket": "1"},
            {"type": "permit-issued", "date": "2026-06-02"},
            {"type": "work-noticed", "at": "2026-06-02T08:00"},
            {"type": "excavation-started", "date": "2026-06-08"},
            {"type": "backfilled", "date": "2026-06-10", "material": "cdf"},
            {"type": "permanent-patch-placed", "date": "2026-06-12"},
            {"type": "inspected", "date": "2026-06-15", "stage": "permanent-patch", "result": "pass"},
        ],
    }
    open_trench = {
        **STREET,
        "id": "CAN-SO-2026-301",
        "applicant": bakery,
        "events": [
            {"type": "filed", "date": "2026-09-01", "applicant": "private", "length_ft": 45},
            {"type": "dig-safe-obtained", "date": "2026-09-01", "ticket": "2"},
            {"type": "permit-issued", "date": "2026-09-02"},
            {"type": "work-noticed", "at": "2026-09-02T08:00"},
            {"type": "excavation-started", "date": "2026-09-08"},
        ],
    }
    for argv in (
        ["init"],
        ["import", write_json(tmp_path / "a.json", done), write_json(tmp_path / "b.json", open_trench)],
        ["deposits", "Main St Bakery", "--charge", "trench-paved-way", "--quantity", "20", "--filing", "CAN-SO-2026-300"],
    ):
        assert main([*argv, "--db", db]) == 0, capsys.readouterr().err
    capsys.readouterr()
    refund = ["deposits", "Main St Bakery", "--refund", "--filing", "CAN-SO-2026-300", "--db", db, "--date"]
    assert main([*refund, "2026-12-02"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "held back: the applicant is in Default on CAN-SO-2026-301 (winter patch due 2026-11-30" in err
    assert "16-12 §5, §11.3(c)" in err
    assert main([*refund, "2026-11-30"]) == 0  # before the winter patch was missed
    capsys.readouterr()
    assert main(["deposits", "Main St Bakery", "--json", "--db", db]) == 0
    entries = json.loads(capsys.readouterr().out)["entries"]
    assert [e["entry"] for e in entries][-1] == "refund"


def test_work_before_recording_is_not_flagged_where_the_by_law_does_not_require_it():
    """The rule is Saugus's (508.08 §7.9), declared in its rule book
    (``recording_before_work``); the state defaults here declare none."""
    r = replayed(
        "wpa",
        "noi",
        ev("filed", "2026-03-02"),
        ev("hearing-opened", "2026-03-16"),
        ev("hearing-closed", "2026-03-16"),
        ev("permit-issued", "2026-03-30"),
        ev("work-started", "2026-04-20"),
        as_of="2026-06-30",
    )
    assert r.clock("recording-before-work") is None
