"""The rule book: each town's clocks are data with citations, checked when
declared, found through one registry; and the core stays pure."""

import importlib
import json
import pkgutil
import re
import subprocess
import sys
import textwrap

import pytest

import workflows.towns
from calendars import CalendarDays, Months
from workflows.errors import RuleBookError
from workflows.rulebook import CLOCK_TYPES, KINDS, Clock, PermitRules, TownProfile
from workflows.towns import registry, town

#: The clock table of docs/reference/filing-format.md ("Clock ids"), a public interface.
FILING_FORMAT_CLOCKS = {
    "hearing-open": "deadline",
    "newspaper-notice": "deadline",
    "hearing-posting": "deadline",
    "hearing-notice": "deadline",
    "board-comment": "earliest",
    "board-reports": "earliest",
    "decision": "deadline",
    "appeal-period": "deadline",
    "permit-expiry": "expiry",
    "renewal-request": "deadline",
    "construction-notice": "deadline",
    "work-notice": "earliest",
    "emergency-filing": "deadline",
    "temporary-patch-maintenance": "expiry",
    "permanent-patch-window-opens": "earliest",
    "permanent-patch-window-closes": "deadline",
    "cdf-cure": "earliest",
    "winter-patch": "deadline",
    "settlement-answer": "deadline",
    "certification-answer": "deadline",
    "suspension-ends": "expiry",
    "revocation-notice": "deadline",
    "after-hours-payment": "deadline",
    # beyond the first clock table (docs/reference/machines.md, "Clock statuses", lists them):
    # Dig Safe, M.G.L. c.82 §40A and 220 CMR 99.07(2)
    "dig-safe-wait": "earliest",
    "dig-safe-expiry": "expiry",
    # Canton wetlands emergency projects (canton.txt lines 6-17)
    "emergency-notice": "deadline",
    # Canton 16-12 §11.4: a utility's or department's own permanent patch, 72 hours' notice
    "patch-notice": "earliest",
    # no work until the Order is recorded (M.G.L. c.131 §40; WPA Form 5), and in Saugus certified (508.08 §7.9):
    # a condition the replay adds, never declared in a rule book
    "recording-before-work": "earliest",
    # Mansfield 25 §7.G (receipts before the hearing) and §12 (surety before disturbance, released after §13, §15)
    "mail-receipts": "earliest",
    "surety": "earliest",
    # the rest of a permit's life (issue 20): the Certificate of Compliance (310 CMR 10.05, WPA Forms 8A, 8B),
    # work held back by the appeal periods (310 CMR 10.05(7)(c)), emergency certifications (310 CMR 10.06)
    # and the street's repair year (Mansfield Ch. 5 §V)
    "certificate-decision": "deadline",
    "appeal-before-work": "earliest",
    "emergency-certification": "expiry",
    "emergency-continuation": "deadline",
    # work with no permit in force (Canton 15-4; M.G.L. c.131 §40; Saugus 508.08 §3; Mansfield 25 §4)
    "work-without-permit": "earliest",
    # Canton 15-7, Saugus 508.08 §7.6: a maintenance permit's notice each year
    "annual-notice": "deadline",
    # Canton 16-12 §10.13, §10.9; Mansfield 25 §7.I, §10.A, §11.B: duties while the work goes on
    "trench-overnight": "earliest",
    "trench-length": "earliest",
    "project-change": "earliest",
    "om-plan": "earliest",
    "monthly-report": "deadline",
    "repair-liability": "expiry",
    # Canton 16-12 §10.2: the DPW's inspections (a), (b), (d) and a failed one's re-inspection
    "trench-inspection": "deadline",
    "patch-inspection": "deadline",
    "final-inspection": "deadline",
    "re-inspection": "deadline",
}

STATUTE = re.compile(r"M\.G\.L\. c\.\d+|\b\d+ CMR\b")

ALL_CLOCKS = [(profile, rules, c) for profile in registry().values() for rules in profile.permits.values() for c in rules.clocks]
CLOCK_IDS = [f"{p.id}:{r.kind}:{c.id}" for p, r, c in ALL_CLOCKS]


def a_clock(**changes):
    fields = dict(
        id="hearing-open", measure=CalendarDays(21), start="complete-application", citation="Testtown Wetlands By-Law §5"
    )
    fields.update(changes)
    return Clock(**fields)


def a_town(*clocks, kind="noi", declared_as="noi", **rules):
    return TownProfile(
        id="testtown",
        name="Testtown",
        county="Norfolk",
        permits={declared_as: PermitRules(kind=kind, bylaw="Testtown Wetlands By-Law", clocks=clocks, **rules)},
    )


# -- citations and clock ids ------------------------------------------------------------


@pytest.mark.parametrize("profile, rules, c", ALL_CLOCKS, ids=CLOCK_IDS)
def test_every_clock_cites_the_towns_bylaw_or_a_statute_with_a_section(profile, rules, c):
    assert c.citation.strip()
    assert profile.name.split()[0] in c.citation or STATUTE.search(c.citation), c.citation
    assert re.search(r"\d", c.citation), f"no section number in {c.citation!r}"


@pytest.mark.parametrize("profile, rules, c", ALL_CLOCKS, ids=CLOCK_IDS)
def test_every_clock_id_is_one_of_the_filing_formats(profile, rules, c):
    assert c.id in FILING_FORMAT_CLOCKS
    assert c.type == FILING_FORMAT_CLOCKS[c.id]


def test_the_rule_books_clock_table_is_the_filing_formats():
    assert dict(CLOCK_TYPES) == FILING_FORMAT_CLOCKS


def test_every_town_runs_only_known_permit_kinds_and_has_at_least_one():
    for profile in registry().values():
        assert profile.permits
        assert set(profile.permits) <= set(KINDS)


# -- malformed declarations fail at construction ----------------------------------------------


@pytest.mark.parametrize(
    "bad_clock, clock_id, problem",
    [
        (a_clock(id="hearing-opens"), "hearing-opens", "unknown clock id"),
        (a_clock(citation=""), "hearing-open", "no citation"),
        (a_clock(citation="   "), "hearing-open", "no citation"),
        (a_clock(start="filed-ish"), "hearing-open", "unknown start 'filed-ish'"),
        (a_clock(measure=21), "hearing-open", "measure must be a calendars date rule"),
        (a_clock(met_by="hearing-opened"), "hearing-open", "met_by must be a tuple"),
    ],
)
def test_a_malformed_clock_fails_naming_the_town_and_the_clock(bad_clock, clock_id, problem):
    with pytest.raises(RuleBookError) as caught:
        a_town(bad_clock)
    assert (caught.value.town, caught.value.clock) == ("testtown", clock_id)
    assert "'testtown'" in str(caught.value) and f"'{clock_id}'" in str(caught.value)
    assert problem in str(caught.value)


def test_a_well_formed_town_is_accepted():
    # The baseline the malformed cases differ from by one field each.
    profile = a_town(a_clock())
    assert profile.rules("noi").clock("hearing-open").citation == "Testtown Wetlands By-Law §5"


def test_renewals_without_a_citation_fail_naming_permit_expiry():
    with pytest.raises(RuleBookError) as caught:
        a_town(a_clock(id="permit-expiry", measure=Months(36), start="issuance"), renewal=Months(12), renewals_allowed=1)
    assert (caught.value.town, caught.value.clock) == ("testtown", "permit-expiry")
    assert "renewal" in caught.value.problem


def test_renewals_without_a_period_fail_too():
    with pytest.raises(RuleBookError, match="renewal"):
        a_town(
            a_clock(id="permit-expiry", measure=Months(36), start="issuance"),
            renewals_allowed=1,
            renewal_citation="Testtown Wetlands By-Law §7",
        )


def test_the_same_clock_declared_twice_fails():
    with pytest.raises(RuleBookError) as caught:
        a_town(a_clock(), a_clock(measure=CalendarDays(14)))
    assert (caught.value.town, caught.value.clock) == ("testtown", "hearing-open")
    assert "declared twice" in caught.value.problem


def test_permit_rules_filed_under_another_kind_fail():
    with pytest.raises(RuleBookError) as caught:
        a_town(a_clock(), kind="noi", declared_as="rda")
    assert caught.value.town == "testtown"
    assert "'rda'" in caught.value.problem and "'noi'" in caught.value.problem


def test_an_unknown_permit_kind_fails():
    with pytest.raises(RuleBookError, match="unknown permit kind 'wetlands'"):
        a_town(a_clock(), kind="wetlands", declared_as="wetlands")


def test_a_renewal_request_without_a_permit_expiry_fails():
    with pytest.raises(RuleBookError) as caught:
        a_town(a_clock(id="renewal-request", measure=CalendarDays(0), start="expiry"))
    assert caught.value.clock == "renewal-request"


# -- the registry ----------------------------------------------------------------------------


def test_the_registry_holds_exactly_the_town_modules_that_define_a_profile_and_the_town_files():
    from pathlib import Path

    from workflows.town_file import read_town

    expected = {}
    for info in pkgutil.iter_modules(workflows.towns.__path__):
        module = importlib.import_module(f"workflows.towns.{info.name}")
        if hasattr(module, "PROFILE"):
            expected[module.PROFILE.id] = module.PROFILE
    for path in sorted(Path(workflows.towns.__path__[0]).glob("*.toml")):
        profile = read_town(path.read_text(encoding="utf-8"), path.name)
        expected[profile.id] = profile
    assert dict(registry()) == expected
    assert {"canton", "saugus", "mansfield", "wpa", "manchester-by-the-sea"} <= set(expected)


def test_a_new_town_is_found_by_adding_a_file(tmp_path, monkeypatch):
    (tmp_path / "newtown_for_test.py").write_text(
        textwrap.dedent("""
        from workflows.rulebook import TownProfile, adopting
        from workflows.towns import wpa
        PROFILE = TownProfile(id="newtown", name="Newtown", county="Middlesex",
                              permits={"noi": adopting(wpa.NOI, "Newtown By-Law §1")})
    """)
    )
    (tmp_path / "newtown_helpers_for_test.py").write_text("HELPER = 1\n")
    monkeypatch.setattr(workflows.towns, "__path__", [*workflows.towns.__path__, str(tmp_path)])
    registry.cache_clear()
    try:
        assert "newtown" in registry()
        assert town("newtown").rules("noi").clock("decision").citation.endswith("as Newtown By-Law §1 adopts it")
        assert set(registry()) == {"canton", "saugus", "mansfield", "manchester-by-the-sea", "wpa", "newtown"}
    finally:
        registry.cache_clear()
        for name in ("newtown_for_test", "newtown_helpers_for_test"):
            sys.modules.pop(f"workflows.towns.{name}", None)


def test_a_town_file_whose_profile_is_not_a_town_profile_fails_naming_it(tmp_path, monkeypatch):
    (tmp_path / "brokentown_for_test.py").write_text("PROFILE = {'id': 'brokentown'}\n")
    monkeypatch.setattr(workflows.towns, "__path__", [*workflows.towns.__path__, str(tmp_path)])
    registry.cache_clear()
    try:
        with pytest.raises(RuleBookError, match="brokentown_for_test"):
            registry()
    finally:
        registry.cache_clear()
        sys.modules.pop("workflows.towns.brokentown_for_test", None)


# -- the core is pure --------------------------------------------------------------------------

IO_LIBRARIES = ("sqlmodel", "sqlalchemy", "prefect", "jinja2", "sqlite3", "httpx", "requests")


def test_the_core_imports_no_io_library():
    script = textwrap.dedent("""
        import json, sys
        from datetime import date
        import calendars, workflows.rulebook, workflows.towns
        # Use it, so that lazy imports (the holidays package) happen too.
        for profile in workflows.towns.registry().values():
            profile.calendar.add_business_days(date(2026, 3, 30), 21)
        print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    loaded = set(json.loads(result.stdout))
    assert {"calendars", "workflows", "holidays"} <= loaded  # the check saw the real imports
    assert loaded.isdisjoint(IO_LIBRARIES), sorted(loaded & set(IO_LIBRARIES))


def test_an_abutter_rule_without_its_citation_or_with_a_distance_that_is_none_fails_at_import():
    from workflows.abutter_rules import AbutterRule
    from workflows.errors import RuleBookError
    from workflows.rulebook import PermitRules

    with pytest.raises(RuleBookError, match="an abutter rule without the section that sets it"):
        PermitRules("rda", "A By-Law", (), hearing_required=False, abutters=AbutterRule(" ")).check("testtown")
    with pytest.raises(RuleBookError, match="abutters_to_abutters_feet=-3: a whole number of feet"):
        PermitRules("rda", "A By-Law", (), abutters=AbutterRule("§1", abutters_to_abutters_feet=-3)).check("testtown")
