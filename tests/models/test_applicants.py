"""Applicants' accounts: register, invitations (single use, expiring), and
the filings an account sees: its own and none of another applicant's."""

import copy
from datetime import UTC, datetime, timedelta

import pytest
import storekit
from sqlalchemy import select
from storekit import NOI

from models.accounts.applicants import ApplicantError, InvitationRefused, LoginRefused
from models.handle import Store
from models.schema.tables import UserRow
from services.database import upgrade_store
from services.imports import import_filings

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
PASSWORD = "correct horse battery"


def _filing(fid, **parties):
    f = copy.deepcopy(NOI)
    f["id"] = fid
    f.update(parties)
    return f


MINE = _filing("CAN-NOI-2026-101", applicant={"name": "Ann Lee", "email": "Ann.Lee@example.org"}, owner="Ann Lee")
OWNED = _filing("CAN-NOI-2026-102", applicant={"name": "Builder Co"}, owner={"name": "Ann Lee", "email": "ann.lee@example.org"})
THEIRS = _filing("CAN-NOI-2026-103", applicant={"name": "Bob Roe", "email": "bob@example.org"}, owner="Bob Roe")


class Clock:
    def __init__(self):
        self.now = T0

    def __call__(self):
        return self.now


@pytest.fixture
def people(db_url):
    clock = Clock()
    store = Store(db_url, now=clock)
    upgrade_store(store)
    import_filings(store, [MINE, OWNED, THEIRS], by="test")
    yield storekit.applicants(store), clock
    store.engine.dispose()


def ids(rows):
    return [r.id for r in rows]


def test_an_invited_applicant_sees_the_filings_naming_their_address_and_not_another_applicants(people):
    applicants, _ = people
    token = applicants.invite(MINE["id"], "ann.lee@example.org", by="agent")
    ann = applicants.accept(token, PASSWORD)
    assert ann.verified and ann.email == "ann.lee@example.org"
    assert ids(applicants.filings_visible_to(ann)) == [MINE["id"], OWNED["id"]]  # applicant of one, owner of the other
    assert not applicants.may_see(ann, THEIRS["id"])
    bob = applicants.accept(applicants.invite(THEIRS["id"], "bob@example.org", by="agent"), PASSWORD)
    assert ids(applicants.filings_visible_to(bob)) == [THEIRS["id"]]
    assert not applicants.may_see(bob, MINE["id"]) and not applicants.may_see(bob, OWNED["id"])


def test_registering_with_someone_elses_address_shows_none_of_their_filings(people):
    applicants, _ = people
    impostor = applicants.register("ann.lee@example.org", PASSWORD)
    assert not impostor.verified
    assert applicants.filings_visible_to(impostor) == []
    assert not applicants.may_see(impostor, MINE["id"])


def test_a_registered_account_sees_the_filing_it_submitted(people):
    applicants, _ = people
    me = applicants.register("new@example.org", PASSWORD)
    applicants.link(me, THEIRS["id"], "submitted")
    assert ids(applicants.filings_visible_to(me)) == [THEIRS["id"]]
    assert applicants.may_see(me, THEIRS["id"]) and not applicants.may_see(me, MINE["id"])


def test_an_invitation_is_used_once(people):
    applicants, _ = people
    token = applicants.invite(MINE["id"], "ann.lee@example.org", by="agent")
    applicants.accept(token, PASSWORD)
    with pytest.raises(InvitationRefused, match="used already"):
        applicants.accept(token, PASSWORD)
    with pytest.raises(InvitationRefused, match="used already"):
        applicants.invitation(token)


def test_an_expired_invitation_is_refused_and_creates_no_account(people):
    applicants, clock = people
    token = applicants.invite(MINE["id"], "ann.lee@example.org", by="agent", days=14)
    assert applicants.invitation(token) == ("ann.lee@example.org", MINE["id"])
    clock.now = T0 + timedelta(days=14, seconds=1)
    with pytest.raises(InvitationRefused, match="expired on 2026-12-15"):
        applicants.accept(token, PASSWORD)
    with applicants.store.engine.connect() as conn:
        assert conn.execute(select(UserRow.__table__)).all() == []


def test_an_unknown_or_malformed_invitation_token_is_refused(people):
    applicants, _ = people
    for token in ("x" * 43, "../../etc", "", None):
        with pytest.raises(InvitationRefused, match="not valid"):
            applicants.accept(token, PASSWORD)


def test_accepting_an_invitation_for_an_existing_proved_account_needs_its_password(people):
    applicants, _ = people
    mine = applicants.register("ann.lee@example.org", PASSWORD, verified=True)
    token = applicants.invite(MINE["id"], "ann.lee@example.org", by="agent")
    with pytest.raises(InvitationRefused, match="give its password"):
        applicants.accept(token, "someone else's guess")
    ann = applicants.accept(token, PASSWORD)
    assert ann.id == mine.id and ann.verified
    user = storekit.users(applicants.store).authenticate("Ann.Lee@example.org", PASSWORD)  # the workbench's login
    assert applicants.account(user.id).verified


def test_login_refuses_a_wrong_password_and_an_unknown_address_alike(people):
    applicants, _ = people
    applicants.register("ann.lee@example.org", PASSWORD)
    for email, pw in (("ann.lee@example.org", "wrong password!"), ("nobody@example.org", PASSWORD), ("not an email", PASSWORD)):
        with pytest.raises(LoginRefused) as exc:
            storekit.users(applicants.store).authenticate(email, pw)
        assert str(exc.value) == "wrong email or password"


def test_passwords_are_stored_as_argon2_hashes(people):
    applicants, _ = people
    applicants.register("ann.lee@example.org", PASSWORD)
    with applicants.store.engine.connect() as conn:
        stored = conn.execute(select(UserRow.__table__.c.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored


def test_a_short_password_a_bad_address_and_a_second_registration_are_refused(people):
    applicants, _ = people
    with pytest.raises(ApplicantError, match="at least 10"):
        applicants.register("a@example.org", "short")
    with pytest.raises(ApplicantError, match="not an email"):
        applicants.register("a@", PASSWORD)
    applicants.register("a@example.org", PASSWORD)
    with pytest.raises(ApplicantError, match="exists already"):
        applicants.register("A@example.org", PASSWORD)


def test_an_invitation_from_an_unknown_filing_is_refused(people):
    from models.errors import UnknownFiling

    applicants, _ = people
    with pytest.raises(UnknownFiling):
        applicants.invite("NO-SUCH-1", "a@example.org", by="agent")


def test_permits_invite_prints_a_working_link_and_queues_it_by_email(tmp_path, capsys):
    from cli.main import main
    from models.read.outbox import Outbox

    url = f"sqlite:///{tmp_path / 'p.db'}"
    store = Store(url)
    upgrade_store(store)
    import_filings(store, [MINE], by="test")
    assert main(["invite", MINE["id"], "Ann.Lee@example.org", "--db", url, "--base-url", "https://permits.example/"]) == 0
    out = capsys.readouterr().out
    link = next(line for line in out.splitlines() if line.startswith("https://permits.example/invitation/"))
    token = link.rsplit("/", 1)[1]
    assert storekit.applicants(store).invitation(token) == ("ann.lee@example.org", MINE["id"])
    [queued] = Outbox(store).entries(pending_only=True)
    assert queued.kind == "invitation" and queued.address == "ann.lee@example.org"
    assert link.encode() in Outbox(store).message(queued.id)
    assert main(["invite", "NO-SUCH-1", "a@example.org", "--db", url]) == 2
    assert "unknown filing" in capsys.readouterr().err
    store.engine.dispose()
