"""Assessors' abutter lists as towns export them: split mailing address
columns, UTF-16, semicolons; and the ones that cannot be read, by name."""

import pytest

from notices.abutters import read_abutters
from notices.errors import AbutterListError

SPLIT = "Parcel ID;Owner Name;Mailing Address;City;State;Zip\n12-346;A. Smith;14 Washington St;Canton;MA;2021\n"


@pytest.mark.parametrize(
    "header", ["Mailing Address,City,State,Zip", "MAILING_ADDRESS,city,STATE,zip", "mailing address,City,State,ZIP"]
)
def test_mailing_address_beside_city_state_zip_is_read_as_a_split_address(tmp_path, header):
    path = tmp_path / "list.csv"
    path.write_text(f"Parcel,Owner,{header}\n12-346,A. Smith,14 Washington St,Canton,MA,02021\n", encoding="utf-8")
    (party,) = read_abutters(path)
    assert (party.street, party.city, party.state, party.zip) == ("14 Washington St", "Canton", "MA", "02021")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig", "cp1252"])
def test_a_semicolon_list_in_utf16_utf8_bom_or_windows_1252_is_read(tmp_path, encoding):
    path = tmp_path / "list.csv"
    path.write_bytes(SPLIT.encode(encoding))
    (party,) = read_abutters(path)
    assert (party.name, party.street, party.zip) == ("A. Smith", "14 Washington St", "02021")


def test_utf16_without_a_byte_order_mark_is_refused_by_name(tmp_path):
    path = tmp_path / "list.csv"
    path.write_bytes(SPLIT.encode("utf-16-le"))
    with pytest.raises(AbutterListError, match="UTF-16 without a byte-order mark"):
        read_abutters(path)


def test_a_field_over_128_kib_is_one_line_naming_the_line(tmp_path):
    path = tmp_path / "list.csv"
    path.write_text('Parcel,Owner,Mailing Address\n12-1,"' + "x" * 200_000 + '","1 Elm St, Canton, MA 02021"\n')
    with pytest.raises(AbutterListError) as caught:
        read_abutters(path)
    assert "line" in str(caught.value) and "\n" not in str(caught.value)


def test_an_owner_name_over_the_field_limit_is_refused(tmp_path):
    path = tmp_path / "list.csv"
    path.write_text("Parcel,Owner,Mailing Address\n12-1," + "x" * 5000 + ',"1 Elm St, Canton, MA 02021"\n')
    with pytest.raises(AbutterListError, match="the limit is 2,000"):
        read_abutters(path)
