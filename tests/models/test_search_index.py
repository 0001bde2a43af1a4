"""The workbench's search and filings list go through indexes (migrations
0050 and 0181, models/read/search.py), on SQLite and PostgreSQL: the plans
name them, and what they find is what reading every filing would find, on
every way a page is read (from the index, reading the scope in id order,
the scope read to its end), page after page.  A filing is found by any
part of its number, address (its suffix spelled out or abbreviated),
parcel, MassDEP file number, applicant or owner.
"""

from __future__ import annotations

import pytest
import storekit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event, text

from models.handle import Store
from models.read import search as search_module
from models.read.search import Scope, indexed_page, page_ids, range_page
from models.read.workbench import search
from services.database import upgrade_store
from services.imports import import_filings
from workflows.sites import site_pattern, spaced_key

KINDS = ["noi", "rda", "land-disturbance", "street-opening"]
WETLANDS = ["noi", "rda", "land-disturbance"]
STREETS = ["Washington St", "Pleasant Street", "Chauncy St", "Elm Street", "Main St", "Turnpike St", "North Main Street"]
NAMES = ["Neponset Builders LLC", "Eversource", "M. Sullivan", "A. O'Brien", 'The "Quoted" Co', "100% Local_Paving"]
OWNERS = ["Rita Ocampo", "Town of Canton", "M. Sullivan", "Wei Chen"]


def _filings(n: int = 90) -> list[dict]:
    out = []
    towns = ["canton", "saugus", "mansfield"]
    for i in range(n):
        town = towns[i % 3]
        kind = "street-opening" if town == "canton" and i % 2 else ["noi", "rda"][i % 2]
        code = {"canton": "CAN", "saugus": "SAU", "mansfield": "MAN"}[town]
        filing = {
            "town": town,
            "kind": kind,
            "id": f"{code}-{'SOP' if kind == 'street-opening' else kind.upper()}-2026-{i:04d}",
            "events": [{"type": "filed", "date": "2026-11-02"}],
        }
        if kind == "street-opening":
            filing["events"][0].update(applicant="utility", length_ft=20)
        if i % 7:
            filing["address"] = f"{i * 7 % 120 + 1} {STREETS[i % len(STREETS)]}"
        if i % 5:
            filing["parcel"] = f"{i % 13}-{i * 11 % 100:03d}"
        if i % 4:
            filing["applicant"] = NAMES[i % len(NAMES)]
        if i % 3 == 1:
            filing["owner"] = OWNERS[i % len(OWNERS)]
        if kind != "street-opening" and i % 4 == 1:  # a MassDEP file number, given or assigned later
            number = f"SE 073-{1000 + i}"
            if i % 8 == 1:
                filing["massdep_file"] = number
            else:
                filing["events"].append({"type": "file-number-assigned", "date": "2026-11-09", "number": number})
        out.append(filing)
    return out


def _massdep(filing: dict) -> str:
    assigned = [e["number"] for e in filing["events"] if e["type"] == "file-number-assigned"]
    return assigned[-1] if assigned else filing.get("massdep_file") or ""


FILINGS = _filings()
STATES: dict[str, str] = {}  # id -> state, read from the store


def _store(url: str) -> Store:
    store = Store(url)
    upgrade_store(store)
    import_filings(store, FILINGS, by="test")
    return store


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def searched(request, tmp_path_factory):
    """A store of :data:`FILINGS`, once per module and backend."""
    if request.param == "sqlite":
        store = _store(f"sqlite:///{tmp_path_factory.mktemp('search') / 'permits.db'}")
        yield store
        store.engine.dispose()
        return
    from storekit import fresh_postgres_database

    url, drop = fresh_postgres_database()
    store = _store(url)
    with store.engine.begin() as conn:
        conn.exec_driver_sql("ANALYZE")
    yield store
    store.engine.dispose()
    drop()


def _expected(text_: str, towns, kinds, state=None, among=FILINGS) -> list[str]:
    """What reading every filing finds (the reference)."""
    t = text_.strip()
    out = []
    for f in among:
        if (towns is not None and f["town"] not in towns) or f["kind"] not in kinds:
            continue
        if state and STATES[f["id"]] != state:
            continue
        fields = [f["id"], f.get("address") or "", f.get("parcel") or "", f.get("applicant") or "", f.get("owner") or ""]
        fields.append(_massdep(f))
        pattern, key = site_pattern(t), spaced_key(f.get("address"))
        if not t or any(t.lower() in x.lower() for x in fields) or (pattern and key and pattern in key):
            out.append(f["id"])
    return sorted(out)


def _all_pages(store, text_, towns, kinds, limit, state=None) -> list[str]:
    seen, after = [], None
    for _ in range(len(FILINGS) + 2):
        rows, after = search(store, towns=towns, kinds=kinds, text=text_, state=state, after=after, limit=limit)
        seen += [r.id for r in rows]
        if after is None:
            return seen
    raise AssertionError("the pages never ended")


def _words() -> list[str]:
    words = set()
    for f in FILINGS:
        for value in (f.get("address"), f.get("parcel"), f.get("applicant"), f.get("owner"), _massdep(f) or None, f["id"]):
            if value:
                words.update({value, value[:3], value[2:7], value[-4:], value.upper(), value.lower()})
    return sorted(words)


SCOPES = st.sampled_from(
    [
        (None, KINDS),
        (["canton"], WETLANDS),
        (["canton"], ["street-opening"]),
        (["saugus", "mansfield"], WETLANDS),
        ([], KINDS),
        (["canton"], []),
    ]
)
TEXTS = (
    st.sampled_from(_words())
    | st.text(alphabet="abcelnstw -0123456789\"%_*'()", max_size=6)
    | st.sampled_from(["Street", "North", "st ", "Elm St", "Pleasant St.", "N Main", "Main Street", "washington street"])
)
# SPARSE: 0 reads every text in id order first, 10**6 always asks the index;
# SCAN_FIRST: 3 gives up reading in id order soon (then the index, or to the end)
WAYS = st.sampled_from([(0, 2000), (10**6, 2000), (0, 3), (2, 3)])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text_=TEXTS, scope=SCOPES, way=WAYS, limit=st.sampled_from([1, 4, 50]))
def test_every_way_of_reading_a_search_finds_what_reading_every_filing_finds(searched, monkeypatch, text_, scope, way, limit):
    towns, kinds = scope
    with monkeypatch.context() as m:
        m.setattr(search_module, "SPARSE", way[0])
        m.setattr(search_module, "SCAN_FIRST", way[1])
        assert _all_pages(searched, text_, towns, kinds, limit) == _expected(text_, towns, kinds)


def test_a_state_narrows_the_list_and_the_search(searched):
    STATES.update({f.id: f.state for f in searched.list_filings()})
    states = sorted(set(STATES.values()))
    assert len(states) > 1
    for state in states:
        assert _all_pages(searched, "", None, KINDS, 7, state=state) == _expected("", None, KINDS, state) != []
        assert _all_pages(searched, "St", ["canton"], KINDS, 3, state=state) == _expected("St", ["canton"], KINDS, state)


def test_text_is_never_query_syntax_for_the_index_nor_a_wildcard(searched):
    assert _all_pages(searched, 'The "Quoted', None, KINDS, 50) == _expected('The "Quoted', None, KINDS) != []
    assert _all_pages(searched, "100% Local_", None, KINDS, 50) == _expected("100% Local_", None, KINDS) != []
    for hostile in ['"', '""', "OR", "NEAR(a b)", "*", "wash*", "address:elm", "^elm", "%", "_", "\\", "a' OR '1'='1"]:
        assert _all_pages(searched, hostile, None, KINDS, 50) == _expected(hostile, None, KINDS), hostile


# -- the plans -------------------------------------------------------------------

#: rows of the PostgreSQL store the plans are read on: its planner weighs
#: the table's statistics, and on a few dozen rows any plan is cheap
PLANNED_ROWS = 30_000
_PG_FILL = f"""
INSERT INTO party (id, name, category)
    SELECT g, 'Applicant ' || g, 'private' FROM generate_series(1, 3000) AS g;
INSERT INTO filing (id, town, kind, also, extra, address, parcel, applicant_id, owner_id, site_key, massdep_file,
                    last_seq, state, updated_at)
    SELECT (ARRAY['CAN', 'SAU', 'MAN'])[mod(g, 3) + 1] || '-' || (ARRAY['NOI', 'RDA', 'SOP'])[mod(g / 3, 3) + 1]
               || '-' || lpad(g::text, 6, '0'),
           (ARRAY['canton', 'saugus', 'mansfield'])[mod(g, 3) + 1],
           (ARRAY['noi', 'rda', 'street-opening'])[mod(g / 3, 3) + 1],
           '[]', '{{}}',
           mod(g, 400) || ' Street No ' || mod(g, 997),
           mod(g, 89) || '-' || mod(g, 211),
           mod(g, 3000) + 1, mod(g + 7, 3000) + 1,
           ' ' || mod(g, 400) || ' ST NO ' || mod(g, 997) || ' ',
           CASE WHEN mod(g, 5) = 0 THEN 'SE 073-' || g END,
           1, 'filed', now()
    FROM generate_series(1, {PLANNED_ROWS}) AS g
"""


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def planned(request, tmp_path_factory):
    """A store to read plans on: SQLite's (its plans do not weigh the
    table's size), or PostgreSQL's with :data:`PLANNED_ROWS` filings."""
    if request.param == "sqlite":
        store = _store(f"sqlite:///{tmp_path_factory.mktemp('plans') / 'permits.db'}")
        yield store
        store.engine.dispose()
        return
    from storekit import fresh_postgres_database

    url, drop = fresh_postgres_database()
    store = Store(url)
    upgrade_store(store)
    with store.engine.begin() as conn:
        for statement in _PG_FILL.split(";"):
            if statement.strip():
                conn.exec_driver_sql(statement)
    with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql("VACUUM ANALYZE")  # what autovacuum does to a table in use
    yield store
    store.engine.dispose()
    drop()


def _plan(store: Store, query) -> str:
    sql = str(query.compile(store.engine, compile_kwargs={"literal_binds": True}))
    with store.engine.connect() as conn:
        if store.engine.dialect.name == "postgresql":  # the driver reads % as a placeholder
            return "\n".join(r[0] for r in conn.exec_driver_sql("EXPLAIN " + sql.replace("%", "%%")))
        return "\n".join(str(r[3]) for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql))


def test_a_search_by_street_parcel_or_applicant_is_read_from_the_index(planned):
    dialect = planned.engine.dialect.name
    rare = "Street No 996" if dialect == "postgresql" else "Chauncy"  # a few filings of the store
    plan = _plan(planned, indexed_page(dialect, Scope(["canton"], WETLANDS), rare, 51))
    if dialect == "postgresql":
        for index in sorted(search_module.SEARCH_INDEXES):
            assert index in plan, f"{index} not used:\n{plan}"
        assert "Seq Scan" not in plan, plan
    else:
        assert "SCAN filing_search VIRTUAL TABLE INDEX" in plan, plan
        lines = plan.splitlines()
        assert not [line for line in lines if line.startswith("SCAN filing") and "VIRTUAL" not in line], plan


def test_a_users_filings_list_reads_each_town_and_kind_in_id_order_and_stops_at_the_page(planned):
    after = "CAN-A"
    scope = Scope(["canton"], WETLANDS, after=after)
    plan = _plan(planned, range_page(scope.ranges()[0], scope, 51))
    assert "ix_filing_town_kind_id" in plan, plan
    if planned.engine.dialect.name == "postgresql":
        assert "Index Only Scan using ix_filing_town_kind_id" in plan and "Sort" not in plan, plan
    else:
        assert "SEARCH filing USING COVERING INDEX ix_filing_town_kind_id (town=? AND kind=? AND id>?)" in plan, plan
        assert "TEMP B-TREE" not in plan, plan


def test_a_search_most_filings_match_reads_the_index_of_the_list_as_it_goes_without_sorting(planned):
    """The scope's rows come from the covering list index in id order and
    are tested as they come: SQLite through a co-routine, so the reading
    stops when the page is full (a sort would read them all first);
    PostgreSQL reads at most the bound of rows, looking each applicant up
    by its key."""
    dialect = planned.engine.dialect.name
    scope = Scope(["canton"], ["noi"] if dialect == "postgresql" else ["street-opening"])
    plan = _plan(planned, range_page(scope.ranges()[0], scope, 51, "Street No", scan=2000, dialect=dialect))
    if dialect == "postgresql":  # at most `scan` rows of the index read, each name looked up by the key
        assert "Limit" in plan and "Index Only Scan using ix_filing_town_kind_id" in plan, plan
        assert "Seq Scan" not in plan and "Index Scan using party_pkey" in plan, plan
    else:
        assert "CO-ROUTINE" in plan and "COVERING INDEX ix_filing_town_kind_id (town=? AND kind=?)" in plan, plan
        assert "TEMP B-TREE" not in plan, plan


def test_sqlite_asks_the_index_for_a_rare_text_and_reads_in_id_order_for_a_common_one(tmp_path, monkeypatch):
    store = _store(f"sqlite:///{tmp_path / 'p.db'}")
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda conn, cur, sql, *a: statements.append(sql))
    scope = Scope(None, KINDS)
    monkeypatch.setattr(search_module, "SPARSE", 5)
    with store.reader.connect() as conn:
        statements.clear()
        assert page_ids(conn, scope, "Chauncy", 51) == _expected("Chauncy", None, KINDS)  # 15 filings: not rare
        assert not any("filing_search MATCH" in s and "filing.id IN" in s for s in statements)
        statements.clear()
        assert page_ids(conn, scope, "Eversource", 51) == _expected("Eversource", None, KINDS)
        monkeypatch.setattr(search_module, "SPARSE", 100)
        statements.clear()
        assert page_ids(conn, scope, "Chauncy", 51) == _expected("Chauncy", None, KINDS)
        assert any("filing_search MATCH" in s and "filing.id IN" in s for s in statements)
    store.engine.dispose()


# -- the index kept -----------------------------------------------------------------


def test_the_migration_indexes_the_filings_already_there_and_the_triggers_keep_the_index(tmp_path):
    """A store made before 0050: its filings are found after the upgrade
    (by address, by a suffix spelled out, by a MassDEP number given or
    assigned, by owner: 0181 filled the columns); a filing added later is
    found; a renamed party, applicant or owner, is found by its new name
    only; a filing removed is gone from the index (SQLite's triggers)."""
    from storekit import import_at_old_schema

    store = Store(f"sqlite:///{tmp_path / 'old.db'}")
    storekit.migrate(store.engine, "0009")
    import_at_old_schema(store.url, FILINGS[:30], tmp_path)  # the rows a store of 0009 held
    upgrade_store(store)
    every = Scope(None, KINDS)

    def found(text_):
        with store.reader.connect() as conn:
            return page_ids(conn, every, text_, 100)

    assert found("Chauncy") == sorted(f["id"] for f in FILINGS[:30] if "Chauncy" in (f.get("address") or "")) != []
    for typed in ("Chauncy Street", "Elm St", "SE 073-10", "Ocampo", "North Main St"):
        assert found(typed) == _expected(typed, None, KINDS, among=FILINGS[:30]) != [], typed
    import_filings(store,
        [{"town": "saugus", "kind": "noi", "id": "SAU-NOI-2026-9999", "address": "7 Zephyr Ln", "applicant": "Ann Zhou",
          "events": [{"type": "filed", "date": "2026-11-02"}]}],
        by="test",
    )  # fmt: skip
    assert found("Zephyr") == found("ann zhou") == ["SAU-NOI-2026-9999"]
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE party SET name = 'Anne Zhou-Park' WHERE name = 'Ann Zhou'"))
    assert found("Zhou-Park") == ["SAU-NOI-2026-9999"] and found("Ann Zhou") == []
    owned = _expected("Rita Ocampo", None, KINDS, among=FILINGS[:30])
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE party SET name = 'R. Ocampo-Diaz' WHERE name = 'Rita Ocampo'"))
    assert found("Ocampo-Diaz") == owned != [] and found("Rita Ocampo") == []
    with store.engine.begin() as conn:
        conn.execute(text("INSERT INTO filing (id, town, kind, also, extra, address, last_seq, state, updated_at) "
                          "VALUES ('X-1', 'saugus', 'noi', '[]', '{}', '9 Quince Ct', 0, 'filed', '2026-11-02')"))  # fmt: skip
    assert found("Quince") == ["X-1"]
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE filing SET address = '9 Rowan Ct' WHERE id = 'X-1'"))
    assert found("Quince") == [] and found("Rowan") == ["X-1"]
    with store.engine.begin() as conn:
        conn.execute(text("DELETE FROM filing WHERE id = 'X-1'"))
    assert found("Rowan") == []
    with store.engine.connect() as conn:
        names = set(conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'trigger'")).scalars())
    assert set(search_module.SEARCH_TRIGGERS) <= names
    store.engine.dispose()
