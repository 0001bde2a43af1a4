"""docs/reference/town-offices.md is the towns' declarations: for each town,
each office's letterhead, telephone, hours, who signs and the members who
sign its decisions, the Town Clerk and the District Court a ticket names,
each fact with where it comes from (the by-law's section, or a
demonstration value the town replaces).  The tables are made from
workflows/towns/ here and must be the page's."""

from pathlib import Path

from workflows.towns import registry

DOC = Path(__file__).resolve().parents[2] / "docs" / "reference" / "town-offices.md"
DEMO = "demonstration value"


def _row(what: str, value: str, source: str) -> str:
    return f"| {what} | {value.replace('|', '/')} | {source} |"


def town_tables() -> str:
    """The page's tables, one section per town."""
    out = []
    for profile in registry().values():
        if not profile.offices:
            continue
        out += [f"### {profile.name}", "", "| fact | value | source |", "|---|---|---|"]
        for office in profile.offices.values():
            demo = set(office.demonstration)
            facts = [
                ("address", office.address, DEMO if "address" in demo else "the town"),
                ("telephone", office.telephone, DEMO if "telephone" in demo else "the town"),
                ("hours", office.hours, DEMO if "hours" in demo else office.hours_citation),
                ("signs its letters", f"{office.signer_name}, {office.signer}" if office.signer_name else office.signer,
                 DEMO + " (the name)" if "signer_name" in demo else "the town"),
                ("members who sign its decisions", "; ".join(m.line for m in office.members) or "none declared",
                 DEMO if "members" in demo else "the town"),
            ]  # fmt: skip
            out += [
                _row(f"{office.name}: {what}", value, source)
                for what, value, source in facts
                if value and value != "none declared"
            ]
        places = (
            ("Town Clerk (fines paid by mail)", profile.clerk, "M.G.L. c.40 §21D"),
            ("District Court (tickets)", profile.court, ""),
        )
        for what, place, named_by in places:
            if place is None:
                continue
            demo = set(place.demonstration)
            out.append(_row(f"{what}: name", place.name, DEMO if "name" in demo else named_by or place.citation or "the town"))
            out.append(_row(f"{what}: address", place.address, DEMO if "address" in demo else place.citation or "the town"))
            if place.telephone:
                out.append(_row(f"{what}: telephone", place.telephone, DEMO if "telephone" in demo else "the town"))
            if place.hours:
                out.append(_row(f"{what}: hours", place.hours, DEMO if "hours" in demo else place.citation or "the town"))
        out.append("")
    return "\n".join(out)


def test_the_page_holds_every_towns_offices_as_declared_with_their_sources():
    text = DOC.read_text(encoding="utf-8")
    assert town_tables() in text, "regenerate the tables: python -c 'from tests.docs.test_town_offices_doc import town_tables'"


def test_every_fact_a_letter_prints_is_the_towns_or_marked_a_demonstration_value():
    for profile in registry().values():
        for office in profile.offices.values():
            for fact in ("telephone", "signer_name", "members"):
                if getattr(office, fact):
                    assert fact in office.demonstration or fact == "hours", (profile.id, office.name, fact)
            if office.hours:
                assert office.hours_citation or "hours" in office.demonstration, (profile.id, office.name)
