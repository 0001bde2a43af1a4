"""An account email writes a link's last moment as the letters write a
time (the guide's "People read people's words": "7:00 p.m.", the town's
clock whatever the server's zone), not "5:50 PM" nor an ISO moment."""

from datetime import UTC, datetime
from email import message_from_bytes, policy

from notices.account_email import registration_email

EXPIRES = datetime(2026, 12, 10, 22, 50, tzinfo=UTC)  # 5:50 p.m. in Boston (EST, UTC-5)


def _body(email) -> str:
    raw = email["message"]
    msg = message_from_bytes(raw if isinstance(raw, bytes) else raw.encode(), policy=policy.default)
    return msg.get_body(preferencelist=("plain",)).get_content()


def test_a_registration_link_names_its_last_moment_in_the_towns_words():
    body = _body(registration_email("pat@example.com", "https://town.example/r/x", EXPIRES, EXPIRES, mail_from="t@example.com"))
    assert "until Thursday, December 10, 2026 at 5:50 p.m. (Eastern time)" in body
    assert " PM" not in body and "22:50" not in body and "2026-12-10" not in body
