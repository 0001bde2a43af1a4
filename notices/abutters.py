"""The assessors' abutter list: read, mapped, de-duplicated, and the
mailing outputs made from it (certified-mail list, 30-up labels).

Assessors export CSV with their own header names; :data:`COLUMNS` maps the
names seen in Massachusetts exports (MassGIS L3 ``OWNER1``/``OWN_ADDR``,
Vision and Patriot "Owner Name"/"Mailing Address"...) to the fields the
engine needs.  The address is either split (street, city, state, zip) or
one column ``"12 Elm St, Canton, MA 02021"``.  The ring column says whether
an owner is a direct abutter or an abutter to an abutter (Saugus 508.08
§5.4, 300 ft; the state's 100 ft, 310 CMR 10.05(4)(a)); every ring gets
the notice.

A list in UTF-8 (with or without a byte-order mark), UTF-16 (with its mark)
or Windows-1252 is read; commas or semicolons separate its fields (a
European-locale Excel writes ``;``).  A field over 128 KiB, a folder, or a
file that cannot be read is refused with one line naming it.  Cells of the
certified-mail CSV that a spreadsheet would run as a formula (leading
``=``, ``+``, ``-``, ``@``) are written with a leading apostrophe, by the
project's one CSV writer (:mod:`workflows.spreadsheet`; ``spreadsheet_safe``
is its guard, named here too).
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Iterable
from pathlib import Path

from workflows.inputs import MAX_FIELD_CHARS
from workflows.spreadsheet import csv_text, spreadsheet_safe

from .context import Party
from .errors import AbutterListError

__all__ = [
    "COLUMNS",
    "read_abutters",
    "read_abutter_bytes",
    "parse_abutters",
    "parse_mailing_address",
    "merge_same_owner",
    "certified_mail_csv",
    "CERTIFIED_COLUMNS",
    "spreadsheet_safe",
]


def _n(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


COLUMNS = {
    "parcel": ("parcel", "parcelid", "mapparid", "locid", "maplot", "mbl", "mapblocklot", "parid", "pid", "accountno"),
    "owner": ("owner", "ownername", "owner1", "name", "ownersname", "currentowner"),
    "address": ("mailingaddress", "mailaddress", "ownermailingaddress", "fulladdress"),
    "street": ("ownaddr", "mailingstreet", "mailaddr", "owneraddress", "street", "address", "mailstreet", "addr1"),
    "city": ("owncity", "city", "mailingcity", "mailcity", "town"),
    "state": ("ownstate", "state", "mailingstate", "mailstate", "st"),
    "zip": ("ownzip", "zip", "zipcode", "mailingzip", "mailzip", "postalcode"),
    "ring": ("ring", "abuttertype", "type", "distance", "buffer", "relation"),
}

_ADDRESS = re.compile(r"^(?P<street>.+?),\s*(?P<city>[^,]+?),?\s+(?P<state>[A-Za-z]{2})\s+(?P<zip>\d{5}(?:-\d{4})?)\s*$")


def parse_mailing_address(text: str) -> tuple[str, str, str, str] | None:
    """``"12 Elm St, Canton, MA 02021"`` as (street, city, state, zip), or
    None when it is not written that way."""
    m = _ADDRESS.match(text or "")
    return (m["street"], m["city"], m["state"].upper(), m["zip"]) if m else None


def _ring(value: str) -> str:
    v = value.strip().lower()
    if not v or v in ("1", "abutter", "direct", "100", "100 ft", "100ft"):
        return "abutter"
    if v in ("2", "abutter to abutter", "abutters to abutters", "a2a", "300", "300 ft", "300ft"):
        return "abutter to abutter (300 ft)"
    return value.strip()


def parse_abutters(text: str, source: str = "abutter list") -> list[Party]:
    """Parse the CSV text.  Raises AbutterListError naming the missing
    column (with the header names it looked for) or the bad row."""
    text = text.lstrip("\ufeff")
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    try:
        return _parse(reader, source)
    except csv.Error as exc:  # a field over csv.field_size_limit (128 KiB), a stray NUL
        raise AbutterListError(f"{source}, line {reader.line_num}: not a readable CSV row: {exc}") from None


def _parse(reader: csv.DictReader, source: str) -> list[Party]:
    header = reader.fieldnames or []
    if not header:
        raise AbutterListError(f"{source}: empty file, no header row")
    found: dict[str, str] = {}
    for fieldname in ("parcel", "owner", "address", "city", "state", "zip", "ring", "street"):
        for h in header:
            if _n(h) in COLUMNS[fieldname] and h not in found.values():
                found[fieldname] = h
                break
    for required in ("parcel", "owner"):
        if required not in found:
            raise AbutterListError(
                f"{source}: no {required} column (looked for: {', '.join(COLUMNS[required])}; header is: {', '.join(header)})"
            )
    if "address" in found and "street" not in found and all(k in found for k in ("city", "state", "zip")):
        found["street"] = found.pop("address")  # "Mailing Address" beside City, State, Zip is the street line
    split = all(k in found for k in ("street", "city", "state", "zip"))
    if (
        not split
        and "address" not in found
        and _n(found.get("street", "")) == "address"
        and not {"city", "state", "zip"} & set(found)
    ):
        found["address"] = found.pop("street")  # one "Address" column holding the whole address
    if "address" not in found and not split:
        missing = [k for k in ("street", "city", "state", "zip") if k not in found]
        raise AbutterListError(
            f"{source}: no mailing address column: neither a full address "
            f"({', '.join(COLUMNS['address'])}) nor {', '.join(missing)} "
            f"(header is: {', '.join(header)})"
        )
    parties = []
    for line, row in enumerate(reader, start=2):
        get = lambda k, row=row: (row.get(found[k]) or "").strip() if k in found else ""
        owner, parcel = get("owner"), get("parcel")
        if not owner and not parcel:
            continue  # blank line
        if split:
            street, city, state, zipc = get("street"), get("city"), get("state"), get("zip")
        else:
            m = _ADDRESS.match(get("address"))
            if not m:
                raise AbutterListError(f"{source}, line {line}: address {get('address')!r} is not 'street, city, ST 12345'")
            street, city, state, zipc = m["street"], m["city"], m["state"], m["zip"]
        too_long = next((v for v in (owner, street, city, parcel) if len(v) > MAX_FIELD_CHARS), None)
        if too_long is not None:
            raise AbutterListError(
                f"{source}, line {line}: a field is {len(too_long):,} characters; the limit is {MAX_FIELD_CHARS:,}"
            )
        if not owner or not street or not city or not zipc:
            raise AbutterListError(f"{source}, line {line}: parcel {parcel or '?'} has no owner or no complete mailing address")
        if re.fullmatch(r"\d{1,4}", zipc):  # spreadsheets drop New England's leading zero
            zipc = zipc.zfill(5)
        parties.append(Party(owner, street, city, state.upper(), zipc, (parcel,), _ring(get("ring")), "abutter"))
    if not parties:
        raise AbutterListError(f"{source}: no abutters listed")
    return parties


def read_abutters(path: str | Path) -> list[Party]:
    """The abutter list in the CSV file at ``path`` (:func:`read_abutter_bytes`)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise AbutterListError(f"abutter list {p}: no such file") from None
    except IsADirectoryError:
        raise AbutterListError(f"abutter list {p}: a folder, not a CSV file") from None
    except OSError as exc:
        raise AbutterListError(f"abutter list {p}: cannot be read: {exc.strerror}") from None
    return read_abutter_bytes(data, p.name)


def read_abutter_bytes(data: bytes, name: str) -> list[Party]:
    """The abutter list in ``data``, the bytes of an assessors' CSV file
    called ``name`` (its file name, for messages): decoded (UTF-8 with or
    without a byte-order mark, UTF-16 by its mark, else Windows-1252),
    parsed, and merged by owner (:func:`merge_same_owner`).  The one reader
    of an abutter list, for a file on the command line and an upload in
    the workbench alike."""
    return merge_same_owner(parse_abutters(_decode(data, name), f"abutter list {name}"))


def _decode(data: bytes, name: str) -> str:
    """UTF-8 (BOM or not), UTF-16 by its BOM, else Windows-1252 (assessors'
    exports from Excel on Windows); UTF-16 without a BOM or UTF-32 refused."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        raise AbutterListError(f"abutter list {name}: encoded as UTF-32; save it as UTF-8 CSV")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise AbutterListError(f"abutter list {name}: not valid UTF-16; save it as UTF-8 CSV") from None
    if len(data) >= 2 and (data[0] == 0 or data[1] == 0):
        raise AbutterListError(f"abutter list {name}: looks like UTF-16 without a byte-order mark; save it as UTF-8 CSV")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def merge_same_owner(parties: Iterable[Party], keys: Iterable[str] | None = None) -> list[Party]:
    """Same owner at the same address gets one letter, listing all their
    parcels; the nearest ring wins.  Order of first appearance is kept.
    ``keys``: each party's :attr:`~notices.context.Party.key`, in the same
    order, where the caller made them already (the computed lists make
    their owners' once per parcel index)."""
    merged: dict[str, Party] = {}
    for p, key in zip(parties, keys, strict=True) if keys is not None else ((p, p.key) for p in parties):
        seen = merged.get(key)
        if seen is None:
            merged[key] = p
            continue
        parcels = seen.parcels + tuple(x for x in p.parcels if x not in seen.parcels)
        ring = seen.ring if seen.ring == "abutter" or p.ring != "abutter" else p.ring
        merged[key] = Party(seen.name, seen.street, seen.city, seen.state, seen.zip, parcels, ring, seen.role)
    return list(merged.values())


#: The columns of a certified-mail firm book (USPS PS Form 3877): the
#: article number and fees are left for the clerk at the counter.
CERTIFIED_COLUMNS = (
    "article_number",
    "addressee",
    "street",
    "city",
    "state",
    "zip",
    "postage",
    "certified_fee",
    "return_receipt_fee",
    "parcels",
    "ring",
)


def certified_mail_csv(parties: Iterable[Party]) -> str:
    """The certified-mail list (:data:`CERTIFIED_COLUMNS`), written by the
    project's one CSV writer (:func:`workflows.spreadsheet.csv_text`): a
    cell a spreadsheet would run as a formula is written as text."""
    rows = (("", p.name, p.street, p.city, p.state, p.zip, "", "", "", "; ".join(p.parcels), p.ring) for p in parties)
    return csv_text(CERTIFIED_COLUMNS, rows, lineterminator="\n")
