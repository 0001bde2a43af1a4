"""An abutter list computed from the imported parcels (services/parcel_abutters.py):
the same list from the command line and the service, written as the CSV
the notices read, used as a filing's list with the fiscal year it came
from (kept when the parcels are imported again), never over an uploaded
assessors' list, and refused, with nothing written, when it is no longer
the list reviewed or an owner has no mailing address."""

from datetime import UTC, datetime

import parcelkit as kit
import pytest
from storekit import snapshot

from cli.main import main
from models.handle import Store
from models.read import parcels as stored
from models.read import workbench
from notices.abutters import read_abutters
from notices.errors import AbutterListError
from parcels.errors import NoParcels, UnknownParcel
from services.abutters import stored_abutters, upload_abutter_list
from services.database import upgrade_store
from services.imports import import_filings
from services.parcel_abutters import (
    ComputedListChanged,
    UploadedListWins,
    abutters_csv,
    compute_abutters,
    filing_abutters,
    use_parcel_abutters,
)
from workflows.abutter_rules import NoAbutterRule

NOW = datetime(2026, 12, 3, 15, 0, tzinfo=UTC)
FID = kit.FILING["id"]


@pytest.fixture
def parcel_store(db_url, tmp_path):
    store = Store(db_url)
    upgrade_store(store)
    import_filings(store, [kit.FILING], by="clerk")
    kit.import_towns(store, tmp_path)
    yield store
    store.engine.dispose()


def test_the_command_line_writes_the_list_the_service_computes_and_the_notices_read_it_back(parcel_store, tmp_path, capsys):
    csv_path = tmp_path / "abutters.csv"
    argv = ["abutters", "--town", "saugus", "--parcel", "1-3", "--csv", str(csv_path), "--db", parcel_store.url]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "from the FY2026 parcels: 12 letter(s) for 12 parcel(s)" in out
    assert "Saugus Wetlands By-Law 508.08 §5.4" in out
    computed = compute_abutters(parcel_store, "saugus", "1-3")
    assert read_abutters(csv_path) == computed.parties
    assert csv_path.read_text(encoding="utf-8") == abutters_csv(computed)


def test_one_letter_per_owner_and_mailing_address(parcel_store):
    parties = compute_abutters(parcel_store, "saugus", "L_S3").parties
    maple = [p for p in parties if p.name == "MAPLE REALTY TRUST"]
    assert len(maple) == 1 and maple[0].parcels == ("1-2", "1-4")  # two lots, one address: one letter
    smith = sorted((p.street, p.parcels) for p in parties if p.name == "J. SMITH")
    assert smith == [("1 ELM ST", ("3-2",)), ("9 OAK RD", ("3-4",))]  # one name at two addresses: two letters
    condo = sorted(p.name for p in parties if p.parcels == ("3-3",))
    assert condo == ["A. ALVAREZ", "B. BROWN"]  # two units of the lot opposite: two owners


def test_a_lot_of_the_next_town_is_labelled_with_its_town(parcel_store):
    parties = compute_abutters(parcel_store, "saugus", "5-1").parties
    assert {p.parcels[0] for p in parties if p.city == "CANTON"} == {"9-1 (Canton)", "9-2 (Canton)", "9-3 (Canton)"}


def test_feet_replaces_the_towns_rule(parcel_store):
    computed = compute_abutters(parcel_store, "saugus", "1-3", feet=40)
    assert {p.parcels[0] for p in computed.parties} == {"1-2", "2-2", "2-3", "2-4", "3-2", "3-3", "3-4"}
    assert computed.rule_text.startswith("owners of land within 40 feet")


def test_a_parcel_the_town_does_not_have_a_town_without_parcels_and_a_kind_without_notices_are_refused(parcel_store):
    with pytest.raises(UnknownParcel, match=r"no parcel '7-7' in saugus's parcels \(FY2026\)"):
        compute_abutters(parcel_store, "saugus", "7-7")
    with pytest.raises(NoParcels, match="mansfield has no parcels imported"):
        compute_abutters(parcel_store, "mansfield", "1-3")
    with pytest.raises(NoAbutterRule, match="street-opening filing sends no abutter notice"):
        compute_abutters(parcel_store, "canton", "9-1", kind="street-opening")
    with pytest.raises(AbutterListError, match="a distance of 1 to 5280 feet"):
        compute_abutters(parcel_store, "saugus", "1-3", feet=0)


def test_a_reviewed_list_becomes_the_filings_with_the_fiscal_year_it_came_from(parcel_store, tmp_path):
    computed = filing_abutters(parcel_store, FID)
    use_parcel_abutters(parcel_store, FID, digest=computed.digest, by="agent@saugus.example", now=NOW)
    assert stored_abutters(parcel_store, FID) == computed.parties  # what the abutter notice and certified mail read
    source = stored.abutter_source(parcel_store, FID)
    assert (source["source"], source["fiscal_year"], source["parcel"], source["made_by"]) == (
        "parcels",
        2026,
        "1-3",
        "agent@saugus.example",
    )
    assert ["saugus", "L_N3"] in source["parcels"]
    kit.import_towns(parcel_store, tmp_path / "next", fiscal_year=2027, towns=("saugus",))  # next year's parcels
    assert stored.abutter_source(parcel_store, FID)["fiscal_year"] == 2026  # the list says where it came from
    assert filing_abutters(parcel_store, FID).fiscal_year == 2027


def test_a_list_computed_again_from_other_parcels_is_not_the_one_reviewed(parcel_store, tmp_path):
    reviewed = filing_abutters(parcel_store, FID).digest
    kit.import_towns(parcel_store, tmp_path / "next", fiscal_year=2027, towns=("saugus",))
    before = snapshot(parcel_store.url)
    with pytest.raises(ComputedListChanged, match="not the one you reviewed"):
        use_parcel_abutters(parcel_store, FID, digest=reviewed, by="agent", now=NOW)
    assert snapshot(parcel_store.url) == before


def test_an_uploaded_assessors_list_wins_over_a_computed_one(parcel_store):
    data = b'Map/Lot,Owner Name,Mailing Address\n1-2,Certified Owner,"5 Main St, Saugus, MA 01906"\n'
    upload_abutter_list(parcel_store, FID, data, "certified.csv", by="agent", now=NOW)
    computed = filing_abutters(parcel_store, FID)
    before = snapshot(parcel_store.url)
    with pytest.raises(UploadedListWins, match=r"the assessors' list uploaded \(certified.csv\)"):
        use_parcel_abutters(parcel_store, FID, digest=computed.digest, by="agent", now=NOW)
    assert snapshot(parcel_store.url) == before
    assert [p.name for p in stored_abutters(parcel_store, FID)] == ["Certified Owner"]
    assert stored.abutter_source(parcel_store, FID)["source"] == "upload"


def test_an_owner_without_a_mailing_address_keeps_the_list_from_being_used(db_url, tmp_path):
    from parcels.l3 import Owner, write_l3
    from services.parcels import import_parcels

    parcels, owners = kit.layer(kit.TOWN)
    owners = [o if o.loc_id != "L_S4" else Owner(o.loc_id, o.prop_id, o.site_addr, o.name, "", "", "MA", "") for o in owners]
    store = Store(db_url)
    upgrade_store(store)
    import_filings(store, [kit.FILING], by="clerk")
    import_parcels(store, str(write_l3(tmp_path / "x", 262, parcels, owners, fiscal_year=2026)), town="saugus", by="a", now=NOW)
    computed = filing_abutters(store, FID)
    assert computed.incomplete == [("1-4", "MAPLE REALTY TRUST")]
    before = snapshot(store.url)
    with pytest.raises(AbutterListError, match="parcel 1-4: MAPLE REALTY TRUST has no complete mailing address"):
        use_parcel_abutters(store, FID, digest=computed.digest, by="agent", now=NOW)
    assert snapshot(store.url) == before
    store.engine.dispose()


def test_a_filing_without_a_parcel_has_no_list_to_compute(parcel_store):
    other = {**kit.FILING, "id": "SAU-NOI-2026-102", "site": {"address": "30 Main Street"}}
    import_filings(parcel_store, [other], by="clerk")
    with pytest.raises(AbutterListError, match="SAU-NOI-2026-102 names no parcel"):
        filing_abutters(parcel_store, "SAU-NOI-2026-102")


def test_a_list_someone_else_used_since_the_page_was_drawn_is_not_overwritten(parcel_store):
    from models.errors import StaleAbutterList

    computed = filing_abutters(parcel_store, FID)
    drawn = workbench.abutters_version(workbench.abutters(parcel_store, FID))  # no list when both pages were drawn
    use_parcel_abutters(parcel_store, FID, digest=computed.digest, by="first", now=NOW, expect_version=drawn)
    before = snapshot(parcel_store.url)
    with pytest.raises(StaleAbutterList):
        use_parcel_abutters(parcel_store, FID, digest=computed.digest, by="second", now=NOW, expect_version=drawn)
    assert snapshot(parcel_store.url) == before
    assert stored.abutter_source(parcel_store, FID)["made_by"] == "first"


def test_the_abutter_notice_and_its_certified_mail_list_are_made_from_the_list_used(parcel_store):
    from services.notices import render_notice

    scheduled = {**kit.FILING, "id": "SAU-NOI-2026-103"}
    scheduled["events"] = [
        {"type": "filed", "date": "2026-12-01"},
        {"type": "hearing-scheduled", "date": "2026-12-02", "hearing": "2026-12-16", "at": "2026-12-16T19:00"},
    ]
    import_filings(parcel_store, [scheduled], by="clerk")
    computed = filing_abutters(parcel_store, "SAU-NOI-2026-103")
    use_parcel_abutters(parcel_store, "SAU-NOI-2026-103", digest=computed.digest, by="agent", now=NOW)
    filing, _ = parcel_store.load("SAU-NOI-2026-103")
    _, _, outputs, _ = render_notice(
        filing,
        "abutter-notice",
        as_of=NOW.date(),
        now=NOW.replace(tzinfo=None),
        fmt="html",
        abutters=stored_abutters(parcel_store, "SAU-NOI-2026-103"),
    )
    mail = next(o for o in outputs if o.filename.endswith("certified-mail.csv")).content
    assert "MAPLE REALTY TRUST,5 MAIN ST,SAUGUS,MA,01906,,,,1-2; 1-4,abutter" in mail
    assert mail.count("\n") == 1 + len(computed.parties)  # the header and one line per letter
    letters = [o for o in outputs if o.filename.endswith(".html") and "labels" not in o.filename]
    assert len(letters) == len(computed.parties)


def test_the_letters_kept_with_the_index_are_made_again_from_parcels_imported_again(parcel_store, tmp_path):
    from parcels.l3 import Owner, write_l3
    from services.parcels import import_parcels

    first = compute_abutters(parcel_store, "saugus", "1-3")  # makes the letters of every parcel, kept with the index
    assert [p.parcels for p in first.parties if p.name == "MAPLE REALTY TRUST"] == [("1-2", "1-4")]
    parcels, owners = kit.layer(kit.TOWN)
    sold = {"L_S2": ("BIRCH HOLDINGS LLC", "7 ELM ST"), "L_S4": ("BIRCH HOLDINGS LLC", "7 Elm St.")}  # one address, written twice
    owners = [
        Owner(o.loc_id, o.prop_id, o.site_addr, *sold[o.loc_id], o.city, o.state, o.zip) if o.loc_id in sold else o
        for o in owners
    ]
    owners = [o if o.loc_id != "L_N3" else Owner(o.loc_id, o.prop_id, o.site_addr, o.name, "", "", "MA", "") for o in owners]
    import_parcels(
        parcel_store, str(write_l3(tmp_path / "fy27", 262, parcels, owners, fiscal_year=2027)), town="saugus", by="a", now=NOW
    )
    again = compute_abutters(parcel_store, "saugus", "1-3")  # the next call, in the same process
    assert again.fiscal_year == 2027
    assert not [p for p in again.parties if p.name == "MAPLE REALTY TRUST"]
    assert [(p.street, p.parcels) for p in again.parties if p.name == "BIRCH HOLDINGS LLC"] == [("7 ELM ST", ("1-2", "1-4"))]
    assert again.incomplete == [("3-3", "A. ALVAREZ"), ("3-3", "B. BROWN")]
    assert [x.owners for x in again.listed if x.loc_id == "L_S4"] == [(("BIRCH HOLDINGS LLC", "7 Elm St., SAUGUS, MA 01906"),)]


@pytest.mark.parametrize("kind", ["noi", "rda"])
def test_the_letters_kept_with_the_index_are_those_made_from_each_owner_when_asked(parcel_store, kind):
    """The letters, keys and rows made once per index (services.parcel_abutters._letters)
    against the owners of each parcel taken, made into letters and merged as the list is asked for."""
    from notices.abutters import merge_same_owner
    from notices.context import Party
    from services.parcels import town_index

    index, _ = town_index(parcel_store, "saugus")
    for subject in range(len(index)):
        p = index.parcels[subject]
        if p.town != "saugus" or not index.owned[subject]:
            continue
        for also in ((), ("wpa",)):
            computed = compute_abutters(parcel_store, "saugus", p.loc_id, kind=kind, also=also)
            parties, incomplete = [], []
            for row in computed.listed:
                owners = index.owners[index.find(row.town, row.loc_id)]
                assert row.owners == tuple(
                    (o.name, ", ".join(x for x in (o.street, o.city, f"{o.state} {o.zip}".strip()) if x)) for o in owners
                )
                for o in owners:
                    if o.complete:
                        parties.append(Party(o.name, o.street, o.city, o.state, o.zip, (row.label,), row.ring, "abutter"))
                    else:
                        incomplete.append((row.label, o.name or "(no owner name)"))
            assert computed.parties == merge_same_owner(parties)
            assert computed.incomplete == incomplete
