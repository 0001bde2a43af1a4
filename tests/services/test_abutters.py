"""One reader of an assessors' abutter list for both interfaces
(services/abutters.py): the workbench's upload decodes UTF-16 and
Windows-1252 as the command line's ``--abutters FILE`` does, merges an
owner's lots into one letter, keeps the ring and the address in its parts,
and the notices read the stored list as the parties the file gave."""

import re

import pytest
from notice_fixtures import ABUTTERS_CSV
from webkit import login

from models.read.workbench import abutters
from notices.abutters import read_abutters
from notices.errors import AbutterListError
from services.abutters import stored_abutters

FID = "CAN-NOI-2026-001"


def _upload(web, token, data: bytes, name="abutters.csv"):
    page = web.get(f"/filings/{FID}").text
    form = re.search(r'<form method="post" action="/filings/[^"]+/abutters".*?</form>', page, re.S).group(0)
    fields = dict(re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">', form))
    return web.post(f"/filings/{FID}/abutters", data=fields, files={"csv": (name, data, "text/csv")})


@pytest.mark.parametrize(
    "encoding, data",
    [
        ("utf-8", ABUTTERS_CSV.encode("utf-8")),
        ("utf-8 with its mark", b"\xef\xbb\xbf" + ABUTTERS_CSV.encode("utf-8")),
        ("utf-16 with its mark", ABUTTERS_CSV.encode("utf-16")),
        ("windows-1252", ABUTTERS_CSV.replace("Søn", "Son").encode("cp1252")),
    ],
)
def test_an_uploaded_list_is_read_as_the_command_line_reads_the_same_file(web, store, tmp_path, encoding, data):
    token = login(web, "canton-agent")
    r = _upload(web, token, data)
    assert r.status_code == 303, r.text
    path = tmp_path / "abutters.csv"
    path.write_bytes(data)
    assert stored_abutters(store, FID) == read_abutters(path)
    rows = abutters(store, FID)
    assert len(rows) == 3  # Amélie Côté's two lots are one letter
    cote = next(r for r in rows if r["name"] == "Amélie Côté")
    assert cote["parcels"] == ["12-035", "12-036"] and cote["ring"] == "abutter"  # the nearest ring wins
    assert (cote["street"], cote["city"], cote["state"], cote["zip"]) == ("14 Elm St", "Canton", "MA", "02021")
    chen = next(r for r in rows if r["name"].startswith("Chen"))
    assert chen["ring"] == "abutter to abutter (300 ft)"


def test_a_list_that_cannot_be_read_is_refused_by_name_and_nothing_is_stored(web, store):
    token = login(web, "canton-agent")
    r = _upload(web, token, b"\xff\xfe\x00\x00" + "x".encode("utf-32-le"))
    assert r.status_code == 422 and "encoded as UTF-32; save it as UTF-8 CSV" in r.text
    r = _upload(web, token, b"Owner,Mailing Address\nA,B\n")
    assert r.status_code == 422 and "no parcel column" in r.text
    assert abutters(store, FID) == []


def test_a_list_over_the_limit_is_refused_without_being_read(web, store):
    token = login(web, "canton-agent")
    r = _upload(web, token, b"Map/Lot,Owner\n" + b"x" * 2_100_000)
    assert r.status_code == 422 and "over 2 MB" in r.text
    assert abutters(store, FID) == []


def test_a_list_imported_with_its_filing_is_read_from_its_address_line(store):
    from services.abutters import party_of_row

    party = party_of_row({"name": "A. Smith", "address": "14 Washington St, Canton, MA 02021", "parcel": "12-034, 12-035"}, "x")
    assert (party.street, party.city, party.state, party.zip, party.parcels) == (
        "14 Washington St",
        "Canton",
        "MA",
        "02021",
        ("12-034", "12-035"),
    )
    with pytest.raises(AbutterListError, match="no mailing address as 'street, city, ST 12345'"):
        party_of_row({"name": "A. Smith", "address": "14 Washington St"}, "the stored list")


def test_the_abutter_notice_from_the_command_line_uses_the_stored_list_without_abutters(web, store, tmp_path, capsys):
    from cli.main import main

    token = login(web, "canton-agent")
    web.post(
        f"/filings/{FID}/events",
        data={"csrf": token, "seq": "2", "type": "hearing-scheduled", "f_date": "2026-12-02", "f_hearing": "2026-12-15"},
    )
    assert _upload(web, token, ABUTTERS_CSV.encode()).status_code == 303
    argv = ["notices", FID, "--kind", "abutter-notice", "--format", "txt", "--out", str(tmp_path / "out"), "--db", store.url]
    assert main([*argv, "--as-of", "2026-12-03"]) == 0, capsys.readouterr().err
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert len([n for n in written if n.endswith(".txt")]) == 3 and f"{FID}-abutter-notice-certified-mail.csv" in written
