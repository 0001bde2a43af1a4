"""Staff give a permit's conditions with the decision: the workbench's
``permit-issued`` form has a "Conditions (one per line)" textarea; the
conditions are recorded on the event (blank lines dropped), shown in the
filing's history and printed in the permit notice.  The form carries the
CSRF token and the sequence number like every event form, and a refusal
writes nothing."""

from __future__ import annotations

import pytest
import storekit
from webkit import TODAY, login

FID = "CAN-NOI-2026-001"
HEARD = (
    {"type": "hearing-scheduled", "date": "2026-12-01", "hearing": "2026-12-02", "at": "2026-12-02T19:00"},
    {"type": "hearing-opened", "date": "2026-12-02"},
    {"type": "hearing-closed", "date": "2026-12-02"},
)
CONDITIONS = "Erosion controls installed before any work.\n\n  No work within 25 feet of the <wetland>.  \r\n"


@pytest.fixture
def heard(store):
    for event in HEARD:
        storekit.append(store, FID, event, by="test")
    return store


def _issue(web, token, seq="5", conditions=CONDITIONS, **more):
    data = {"csrf": token, "seq": seq, "type": "permit-issued", "f_date": TODAY.isoformat(), "f_conditions": conditions}
    return web.post(f"/filings/{FID}/events", data={**data, **more})


def test_the_permit_issued_form_asks_for_the_conditions_one_per_line(web, heard):
    login(web, "canton-agent")
    page = web.get(f"/filings/{FID}?event=permit-issued").text
    assert "Conditions (one per line)" in page and '<textarea name="f_conditions"' in page
    assert '<textarea name="f_conditions"' not in web.get(f"/filings/{FID}?event=hearing-opened").text


def test_conditions_given_with_the_decision_are_recorded_shown_in_the_history_and_printed_in_the_permit(web, heard):
    token = login(web, "canton-agent")
    r = _issue(web, token)
    assert r.status_code == 303, r.text
    last = heard.history(FID)[-1]
    assert last["raw"] == {
        "type": "permit-issued",
        "date": TODAY.isoformat(),
        "conditions": ["Erosion controls installed before any work.", "No work within 25 feet of the <wetland>."],
    }
    page = web.get(f"/filings/{FID}").text
    timeline = page.split('id="timeline"')[1].split("</section>")[0]
    assert "<li>Erosion controls installed before any work.</li>" in timeline
    assert "<li>No work within 25 feet of the &lt;wetland&gt;.</li>" in timeline
    notice = web.get(f"/filings/{FID}/notices/permit")
    assert notice.status_code == 200, notice.text
    conditions = notice.text.split("Special conditions:")[1].split("</ol>")[0]  # WPA Form 5 C: the general ones come first
    assert "Erosion controls installed before any work." in conditions
    assert "No work within 25 feet of the &lt;wetland&gt;." in conditions
    assert conditions.count("<li>") == 2  # the blank line was dropped


def test_a_decision_without_conditions_is_recorded_without_the_field(web, heard):
    token = login(web, "canton-agent")
    assert _issue(web, token, conditions=" \n \n").status_code == 303
    assert heard.history(FID)[-1]["raw"] == {"type": "permit-issued", "date": TODAY.isoformat()}


def test_too_many_conditions_are_refused_in_the_cores_words_the_text_is_kept_and_nothing_written(web, heard):
    token = login(web, "canton-agent")
    text = "\n".join(f"Condition {i}." for i in range(1, 202))
    r = _issue(web, token, conditions=text)
    assert r.status_code == 422
    assert "“Conditions (one per line)” has 201 items; the limit is 200." in r.text  # in people's words (issue 32)
    assert "Condition 201." in r.text.split('<textarea name="f_conditions"')[1]  # the form keeps what was typed
    assert len(heard.history(FID)) == 5


def test_a_condition_over_two_thousand_characters_is_refused_naming_it_and_nothing_written(web, heard):
    token = login(web, "canton-agent")
    r = _issue(web, token, conditions="Short.\n" + "x" * 2001)
    assert r.status_code == 422 and "conditions[2]" in r.text and "2,001 characters" in r.text
    assert len(heard.history(FID)) == 5


def test_a_conditions_form_without_its_csrf_token_is_refused_and_writes_nothing(web, heard):
    login(web, "canton-agent")
    assert _issue(web, "forged").status_code == 403
    assert len(heard.history(FID)) == 5


def test_a_conditions_form_opened_before_someone_else_recorded_is_refused_and_writes_nothing(web, heard):
    token = login(web, "canton-agent")
    storekit.append(heard, FID, {"type": "abutters-notified", "date": "2026-12-02"}, by="someone else")
    r = _issue(web, token, seq="5")
    assert r.status_code == 409 and "changed since you opened it" in r.text
    assert [h["type"] for h in heard.history(FID)][-1] == "abutters-notified"


def test_to_change_the_conditions_staff_void_the_decision_and_record_it_again(web, heard):
    token = login(web, "canton-agent")
    assert _issue(web, token, conditions="Erosion controls first.").status_code == 303
    assert (
        web.post(
            f"/filings/{FID}/void", data={"csrf": token, "seq": "6", "voids": "6", "reason": "a condition was missed"}
        ).status_code
        == 303
    )
    assert (
        _issue(web, token, seq="7", conditions="Erosion controls first.\nA silt fence along the 50-foot line.").status_code == 303
    )
    conditions = web.get(f"/filings/{FID}/notices/permit").text.split("Special conditions:")[1].split("</ol>")[0]
    assert conditions.count("<li>") == 2 and "A silt fence along the 50-foot line." in conditions
