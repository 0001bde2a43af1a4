"""The event menu of a filing never offers an event that is then refused
(issue 32, "Forms that help"): for every state of every machine
(tests/machinewalk.py walks each of workflows/noi.py, rda.py,
land_disturbance.py, street_opening.py and street_excavation.py from each
first event), a filing in that state is put in the store, its page's menu
read, and each event offered is recorded through the web with the form as
the page draws it: the defaults it fills in (today, the time now, a choice
when one fits), each value of each choice it offers, and for what a person
types a plain value of the kind (workflows/offered.py's stand-ins).  Every
one is recorded (a redirect to the timeline), none refused.

And the traps of the issue: "Order of Conditions issued" is not offered
before the hearing closes and is once it has; a hearing date typed as
12/17/2026 is taken."""

from __future__ import annotations

import itertools
from datetime import date, datetime
from html.parser import HTMLParser

import machinewalk
import pytest
from webkit import PASSWORD, csrf_of

from models.handle import Store
from services.database import upgrade_store
from services.imports import import_filings
from workflows.event_fields import EVENT_FIELDS, optional_fields
from workflows.offered import stand_in
from workflows.towns import town

_CODES = {"canton": "CAN", "mansfield": "MAN"}
_KINDS = {"noi": "NOI", "rda": "RDA", "land-disturbance": "LDP", "street-opening": "SOP"}


class _EventForm(HTMLParser):
    """The event menu's options and the event form's fields of a filing page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.menu: list[str] = []
        self.fields: list[dict] = []
        self._select, self._in_form, self._in_menu = None, False, False

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "select" and a.get("id") == "event-type":
            self._in_menu = True
        elif tag == "form" and a.get("action", "").endswith("/events"):
            self._in_form = True
        elif tag == "option" and self._in_menu and a.get("value"):
            self.menu.append(a["value"])
        elif self._in_form and tag in ("input", "textarea") and a.get("name"):
            self.fields.append(
                {"name": a["name"], "type": a.get("type", tag), "value": a.get("value", ""), "required": "required" in a}
            )
        elif self._in_form and tag == "select" and a.get("name"):
            self._select = {"name": a["name"], "type": "select", "options": [], "value": "", "required": "required" in a}
            self.fields.append(self._select)
        elif tag == "option" and self._select is not None:
            if a.get("value"):
                self._select["options"].append(a["value"])
            if "selected" in a:
                self._select["value"] = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "select":
            self._select, self._in_menu = None, False
        elif tag == "form":
            self._in_form = False


def _read(html: str) -> _EventForm:
    page = _EventForm()
    page.feed(html)
    return page


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    """A store with an agent of every walked town, and a client whose
    "today" the test sets to each history's day."""
    from fastapi.testclient import TestClient

    from services.users import add_user
    from web.app import create_app

    url = f"sqlite:///{tmp_path_factory.mktemp('menu') / 'permits.db'}"
    store = Store(url)
    upgrade_store(store)
    add_user(store, "agent@walk.example", PASSWORD, "admin", [])
    day = [date(2026, 3, 2)]
    c = TestClient(create_app(store, secret="menu", today=lambda: day[0]), follow_redirects=False)
    token = csrf_of(c.get("/login").text)
    r = c.post("/login", data={"csrf": token, "email": "agent@walk.example", "password": PASSWORD, "next": "/today"})
    assert r.status_code == 303
    yield store, c, day, itertools.count(1)
    store.engine.dispose()


def _put(store, walked, n: int, town_id: str, kind: str) -> str:
    fid = f"{_CODES[town_id]}-{_KINDS[kind]}-2026-W{n:05d}"
    import_filings(store, [{**walked.raw, "id": fid}], by="test")
    return fid


def _kind_of(kind: str, etype: str, name: str):
    return {**optional_fields(kind, etype), **EVENT_FIELDS[kind].get(etype, {})}.get(name[2:])


def _posts(form: _EventForm, kind: str, etype: str, day: date, now: datetime, calendar) -> list[dict]:
    """The form as a person posts it: its values, what they type in the
    required blanks, and each value of each choice offered in turn."""
    base, choices = {}, []
    for f in form.fields:
        name = f["name"]
        if f["type"] == "checkbox":
            if f["required"]:
                base[name] = f["value"] or "yes"
        elif f["type"] == "select":
            base[name] = f["value"] or (f["options"][0] if f["required"] and f["options"] else "")
            if f["options"] and (f["required"] or f["value"]):
                choices.append((name, f["options"]))
        elif f["value"] or not f["required"]:
            base[name] = f["value"]
        else:
            value = stand_in(name[2:], _kind_of(kind, etype, name), day, now, calendar)
            base[name] = "\n".join(value) if isinstance(value, list) else str(value)
    out = [base]
    for name, options in choices:
        out += [{**base, name: o} for o in options if o != base[name]]
    return out


def _states(machine_name: str):
    """One history per state of the machine (and per stage: an online
    application sent back), the first the walk reached."""
    chosen = {}
    for w in machinewalk.walk(machine_name):
        chosen.setdefault((w.state, w.stage), w)
    return list(chosen.values())


@pytest.mark.parametrize("machine_name", list(machinewalk.MACHINE_TOWNS))
def test_the_event_menu_offers_only_events_recorded_as_the_form_stands(bench, machine_name):
    store, c, today, ids = bench
    town_id, kind = machinewalk.MACHINE_TOWNS[machine_name]
    calendar = town(town_id).calendar
    refused, offered, states = [], 0, set()
    for walked in _states(machine_name):
        today[0] = walked.last
        fid = _put(store, walked, next(ids), town_id, kind)
        page = c.get(f"/filings/{fid}")
        assert page.status_code == 200, page.text
        menu = _read(page.text).menu
        states.add(walked.state)
        for etype in menu:
            form_page = c.get(f"/filings/{fid}?event={etype}")
            now = datetime.combine(today[0], datetime.now().time().replace(second=0, microsecond=0))
            posts = _posts(_read(form_page.text), kind, etype, today[0], now, calendar)
            for post in posts:
                copy = _put(store, walked, next(ids), town_id, kind)
                token = csrf_of(c.get(f"/filings/{copy}").text)
                r = c.post(f"/filings/{copy}/events", data={**post, "csrf": token})
                offered += 1
                if r.status_code != 303:
                    error = _error_of(r.text)
                    refused.append(
                        f"{walked.state} ({', '.join(e['type'] for e in walked.raw['events'])}): {etype} {post}: {error}"
                    )
    assert states == {
        w.state for w in machinewalk.walk(machine_name)
    }  # every state the walk reached (tests/workflows/test_offered.py)
    assert offered > len(states)
    assert refused == []


def _error_of(html: str) -> str:
    import re

    found = re.search(r'class="(?:error|field-error)"[^>]*>([^<]*)<', html)
    return found.group(1) if found else html[:200]


def test_an_order_of_conditions_is_offered_only_once_the_hearing_has_closed(bench):
    store, c, today, ids = bench
    today[0] = date(2026, 12, 3)
    opened = [
        {"type": "filed", "date": "2026-11-02"},
        {"type": "hearing-scheduled", "date": "2026-11-03", "hearing": "2026-11-24"},
        {"type": "hearing-opened", "date": "2026-11-24"},
    ]
    fid = _put(
        store, machinewalk.Walked(machinewalk.filing_json("canton", "noi", opened), "", "", today[0]), next(ids), "canton", "noi"
    )
    menu = _read(c.get(f"/filings/{fid}").text).menu
    assert "permit-issued" not in menu and "hearing-closed" in menu and "hearing-continued" in menu
    closed = opened + [{"type": "hearing-closed", "date": "2026-12-01"}]
    fid = _put(
        store, machinewalk.Walked(machinewalk.filing_json("canton", "noi", closed), "", "", today[0]), next(ids), "canton", "noi"
    )
    page = c.get(f"/filings/{fid}").text
    assert "permit-issued" in _read(page).menu and ">Order of Conditions issued</option>" in page


def test_a_hearing_date_typed_as_people_write_it_is_taken(bench):
    store, c, today, ids = bench
    today[0] = date(2026, 12, 3)
    filed = [{"type": "filed", "date": "2026-12-01"}]
    fid = _put(
        store, machinewalk.Walked(machinewalk.filing_json("canton", "noi", filed), "", "", today[0]), next(ids), "canton", "noi"
    )
    form = c.get(f"/filings/{fid}?event=hearing-scheduled").text
    assert 'type="date" name="f_hearing"' in form  # a date picker
    token = csrf_of(form)
    r = c.post(
        f"/filings/{fid}/events",
        data={"csrf": token, "seq": "1", "type": "hearing-scheduled", "f_date": "12/03/2026", "f_hearing": "12/17/2026"},
    )
    assert r.status_code == 303, _error_of(r.text)
    filing, _ = store.load(fid)
    assert filing.events[-1].get("hearing") == date(2026, 12, 17) and filing.events[-1].date == date(2026, 12, 3)
    r = c.post(
        f"/filings/{fid}/events",
        data={"csrf": token, "seq": "2", "type": "hearing-scheduled", "f_date": "12/03/2026", "f_hearing": "17 December"},
    )
    assert r.status_code == 422 and "is not a date, such as 12/17/2026" in r.text
