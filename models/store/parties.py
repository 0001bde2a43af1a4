"""Parties and abutters named in a filing's JSON.

Optional top-level fields of a filing (kept and exported unchanged, like any
unknown field of docs/reference/filing-format.md):

    "address": "12 Washington St", "parcel": "12-345",
    "applicant": "Eversource"            or {"name": ..., "category": "utility"},
    "owner": "J. Doe",
    "contractor": {"name": "Acme Paving", "license": {"number": "PWC-19", "expires": "2027-06-30"},
                   "insurance": [{"coverage": "general-liability", "insurer": "X", "expires": "2027-01-01"}]},
    "abutters": [{"name": "A. Smith", "address": "14 Washington St", "parcel": "12-346"}]

A party is one row per name, shared by the filings that name it; its
``category`` (private, utility, gas-company, municipal) decides fees and
deposits (workflows.deposits).  A street-opening ``filed`` event's
``applicant`` field gives the applicant's category when the party does not.
"""

from datetime import date

from sqlalchemy import insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from models.schema.tables import InsuranceCertificate, Party
from models.store.bulk import select_in, update_rows
from workflows.deposits import CATEGORIES
from workflows.errors import MalformedEvent
from workflows.filing import Filing

__all__ = ["PARTY_ROLES", "party_specs", "upsert_party", "upsert_parties", "party_id"]

PARTY_ROLES = ("applicant", "owner", "contractor")
PARTY, INSURANCE = Party.__table__, InsuranceCertificate.__table__


def _bad(filing: Filing, message: str) -> MalformedEvent:
    return MalformedEvent(message, filing=filing.id)


def _date(filing, value, where):
    try:
        return date.fromisoformat(value)
    except (TypeError, ValueError):
        raise _bad(filing, f"field {where!r}: {value!r} is not a date (YYYY-MM-DD)") from None


def _name(filing, value, where) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _bad(filing, f"field {where!r}: a non-empty name is required")
    return value.strip()


def _optional_name(filing, value, where) -> str | None:
    if value is not None and not isinstance(value, str):
        raise _bad(filing, f"field {where!r}: a name, if given")
    return value


def party_specs(filing: Filing) -> dict:
    """The parties and abutters a filing names, checked; raises
    MalformedEvent naming the field at fault."""
    out: dict = {}
    filed = next((e for e in filing.events if e.type == "filed"), None)
    for role in PARTY_ROLES:
        value = filing.extra.get(role)
        if value is None:
            continue
        spec = {"name": value} if isinstance(value, str) else value
        if not isinstance(spec, dict):
            raise _bad(filing, f"field {role!r}: a name or an object with 'name'")
        party = {"name": _name(filing, spec.get("name"), f"{role}.name"), "category": spec.get("category"), "insurance": []}
        if party["category"] is None and role == "applicant" and filed is not None:
            party["category"] = filed.get("applicant")
        if party["category"] is not None and party["category"] not in CATEGORIES:
            raise _bad(filing, f"field '{role}.category': {party['category']!r}; expected one of: {', '.join(CATEGORIES)}")
        lic = spec.get("license")
        if lic is not None:
            if not isinstance(lic, dict):
                raise _bad(filing, f"field '{role}.license': an object with 'number' and 'expires'")
            party["license_number"] = _name(filing, lic.get("number"), f"{role}.license.number")
            party["license_expires"] = _date(filing, lic.get("expires"), f"{role}.license.expires")
        certificates = spec.get("insurance")
        if certificates is not None and not isinstance(certificates, list):
            raise _bad(filing, f"field '{role}.insurance': a list of certificates, each with 'coverage' and 'expires'")
        for i, cert in enumerate(certificates or [], start=1):
            where = f"{role}.insurance[{i}]"
            if not isinstance(cert, dict):
                raise _bad(filing, f"field {where!r}: an object with 'coverage' and 'expires'")
            party["insurance"].append(
                {
                    "coverage": _name(filing, cert.get("coverage"), f"{where}.coverage"),
                    "insurer": _optional_name(filing, cert.get("insurer"), f"{where}.insurer"),
                    "expires": _date(filing, cert.get("expires"), f"{where}.expires"),
                }
            )
        out[role] = party
    abutters = filing.extra.get("abutters")
    if abutters is not None:
        if not isinstance(abutters, list):
            raise _bad(filing, "field 'abutters': a list of objects with 'name'")
        out["abutters"] = []
        for i, a in enumerate(abutters, start=1):
            if not isinstance(a, dict):
                raise _bad(filing, f"field 'abutters[{i}]': an object with 'name'")
            out["abutters"].append(
                {
                    "name": _name(filing, a.get("name"), f"abutters[{i}].name"),
                    "address": a.get("address") if isinstance(a.get("address"), str) else None,
                    "parcel": a.get("parcel") if isinstance(a.get("parcel"), str) else None,
                }
            )
    return out


def party_id(conn: Connection, name: str) -> int | None:
    return conn.execute(select(PARTY.c.id).where(PARTY.c.name == name)).scalar()


def upsert_party(conn: Connection, spec: dict, cache: dict[str, int]) -> int:
    """The party's id, created on first mention; a later mention may add its
    category, licence and insurance certificates.

    One ``INSERT ... ON CONFLICT (name)`` statement on SQLite and PostgreSQL
    alike: two imports naming the same new party at once both get its id
    (the second waits for the first's commit), where a check-then-insert
    let the second fail on the unique name."""
    name = spec["name"]
    changes = {k: spec[k] for k in ("category", "license_number", "license_expires") if spec.get(k) is not None}
    pid = cache.get(name) or party_id(conn, name)  # a party seen before needs no insert (PostgreSQL's
    # ON CONFLICT would spend a sequence number on it)
    if pid is not None and changes:
        conn.execute(update(PARTY).where(PARTY.c.id == pid).values(**changes))
    elif pid is None:
        module = postgresql if conn.dialect.name == "postgresql" else sqlite
        stmt = module.insert(PARTY).values(name=name, **{"category": "private", **changes})
        stmt = stmt.on_conflict_do_update(index_elements=["name"], set_=changes or {"name": stmt.excluded.name})
        pid = conn.execute(stmt.returning(PARTY.c.id)).scalar_one()
    cache[name] = pid
    for cert in spec.get("insurance", ()):
        known = conn.execute(
            select(INSURANCE.c.id).where(
                INSURANCE.c.party_id == pid, INSURANCE.c.coverage == cert["coverage"], INSURANCE.c.expires == cert["expires"]
            )
        ).first()
        if known is None:
            conn.execute(insert(INSURANCE).values(party_id=pid, **cert))
    return pid


def _insert_ignoring_duplicates(conn: Connection, table, index: list[str]):
    """INSERT ... ON CONFLICT (index) DO NOTHING, in the connection's dialect
    (SQLite and PostgreSQL both have it)."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as dialect_insert
    else:
        from sqlalchemy.dialects.sqlite import insert as dialect_insert
    return dialect_insert(table).on_conflict_do_nothing(index_elements=index)


_CHANGEABLE = ("category", "license_number", "license_expires")


def upsert_parties(conn: Connection, specs: list[dict]) -> dict[str, int]:
    """:func:`upsert_party` for a whole import at once: every party named in
    ``specs`` (in order: a later mention's category, licence and
    certificates win, as one call after another would leave them), in a
    few statements instead of a few per filing.  New names are inserted
    with ON CONFLICT DO NOTHING, so a concurrent import of the same name
    is not an error.  Returns name -> id."""
    merged: dict[str, dict] = {}
    for spec in specs:
        into = merged.setdefault(spec["name"], {"changes": {}, "insurance": []})
        into["changes"].update({k: spec[k] for k in _CHANGEABLE if spec.get(k) is not None})
        into["insurance"].extend(spec.get("insurance", ()))
    if not merged:
        return {}
    names = sorted(merged)  # one lock order for every import: concurrent ones cannot deadlock
    ids: dict[str, int] = {}

    def find(wanted: list[str]) -> None:
        ids.update(select_in(conn, (PARTY.c.name, PARTY.c.id), PARTY.c.name, wanted))

    find(names)
    new = [n for n in names if n not in ids]
    if new:
        rows = [{"name": n, "category": "private", "license_number": None, "license_expires": None} for n in new]
        for row in rows:
            row.update(merged[row["name"]]["changes"])
        conn.execute(_insert_ignoring_duplicates(conn, PARTY, ["name"]), rows)
        find(new)
    created = set(new)
    by_columns: dict[tuple, list[tuple]] = {}
    for name in names:
        changes = merged[name]["changes"]
        if changes and name not in created:
            columns = tuple(sorted(changes))
            by_columns.setdefault(columns, []).append((*(changes[c] for c in columns), ids[name]))
    for columns, rows in by_columns.items():
        update_rows(conn, PARTY, "id", columns, rows)
    certs = {(ids[n], c["coverage"], c["expires"]): c for n in names for c in merged[n]["insurance"]}
    if certs:
        pids = sorted({pid for pid, _, _ in certs})
        known = set()
        for i in range(0, len(pids), 500):
            known.update(
                tuple(row)
                for row in conn.execute(
                    select(INSURANCE.c.party_id, INSURANCE.c.coverage, INSURANCE.c.expires).where(
                        INSURANCE.c.party_id.in_(pids[i : i + 500])
                    )
                )
            )
        rows = [{"party_id": k[0], **c} for k, c in certs.items() if k not in known]
        if rows:
            conn.execute(insert(INSURANCE), rows)
    return ids
