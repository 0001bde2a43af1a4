"""The assessors' abutter list: header names vary by town; a missing column
is named; rings and same-owner letters; the certified-mail list."""

import csv
import io

import pytest

from notices.abutters import CERTIFIED_COLUMNS, certified_mail_csv, merge_same_owner, parse_abutters
from notices.errors import AbutterListError

MASSGIS_L3 = """\
LOC_ID,OWNER1,OWN_ADDR,OWN_CITY,OWN_STATE,OWN_ZIP,RING
M_1,SMITH JOHN,5 MAIN ST,SAUGUS,MA,1906,1
M_2,JONES MARY,7 MAIN ST,SAUGUS,ma,01906,2
"""


def test_massgis_split_address_columns_are_mapped_and_the_leading_zip_zero_restored():
    a, b = parse_abutters(MASSGIS_L3)
    assert (a.name, a.street, a.city, a.state, a.zip, a.parcels) == ("SMITH JOHN", "5 MAIN ST", "SAUGUS", "MA", "01906", ("M_1",))
    assert a.ring == "abutter"
    assert b.ring == "abutter to abutter (300 ft)" and b.state == "MA"


def test_one_address_column_is_split_into_the_post_office_parts():
    [p] = parse_abutters('Parcel ID,Owner,Address\n3-1,Ann Lee,"1 Oak Rd, Mansfield, MA 02048"\n')
    assert (p.street, p.city, p.state, p.zip) == ("1 Oak Rd", "Mansfield", "MA", "02048")


def test_a_list_without_an_address_column_says_which_is_missing():
    with pytest.raises(
        AbutterListError, match=r"no mailing address column: .*city, state, zip \(header is: Parcel, Owner, Street\)"
    ) as exc:
        parse_abutters("Parcel,Owner,Street\n1,A,2 B St\n")
    assert "Traceback" not in str(exc.value)


def test_a_list_with_no_address_at_all_is_refused_before_any_row_is_read():
    with pytest.raises(AbutterListError, match=r"no mailing address column: neither a full address .*street, city, state, zip"):
        parse_abutters("Parcel,Owner,Phone\n1,A,555-1212\n")


def test_a_list_without_an_owner_column_says_so():
    with pytest.raises(AbutterListError, match=r"no owner column \(looked for: owner, ownername, owner1"):
        parse_abutters('Parcel,Mailing Address\n1,"2 B St, Canton, MA 02021"\n')


def test_an_unreadable_address_names_its_line():
    with pytest.raises(AbutterListError, match=r"line 3: address 'somewhere' is not"):
        parse_abutters('Parcel,Owner,Mailing Address\n1,A,"2 B St, Canton, MA 02021"\n2,B,somewhere\n')


def test_same_owner_same_address_is_one_letter_and_the_nearest_ring_wins():
    rows = parse_abutters(MASSGIS_L3 + "M_3,Jones  Mary,7 Main St.,Saugus,MA,01906,1\n")
    merged = merge_same_owner(rows)
    assert len(merged) == 2
    assert merged[1].parcels == ("M_2", "M_3") and merged[1].ring == "abutter"


def test_same_owner_at_another_address_gets_another_letter():
    rows = parse_abutters(MASSGIS_L3 + "M_3,JONES MARY,1 Beach Rd,Saugus,MA,01906,1\n")
    assert len(merge_same_owner(rows)) == 3


def test_certified_mail_list_has_the_form_columns_and_quotes_names_safely():
    parties = parse_abutters('Parcel,Owner,Mailing Address\n1,"Chen, Wei ""Bill""","9 Oak Rd, Stoughton, MA 02072"\n')
    rows = list(csv.reader(io.StringIO(certified_mail_csv(parties))))
    assert tuple(rows[0]) == CERTIFIED_COLUMNS
    assert rows[1][1] == 'Chen, Wei "Bill"' and rows[1][5] == "02072"
