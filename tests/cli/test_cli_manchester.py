"""``--town manchester-by-the-sea`` everywhere a town is taken: the date
law, the rule book, the store's lists and docket, the feeds, the users and
enforcement; and where the town runs no such permit (street openings), the
same one-line refusal as any other town without them."""

import pytest

from cli.main import main
from models.handle import Store
from services.database import upgrade_store

MBTS = "manchester-by-the-sea"


@pytest.fixture
def db(tmp_path):
    url = f"sqlite:///{tmp_path / 'permits.db'}"
    upgrade_store(Store(url))
    return url


def test_the_date_law_and_the_rule_book_take_manchester(capsys):
    assert main(["holidays", "--town", MBTS, "--year", "2026"]) == 0
    assert "Manchester-by-the-Sea: legal holidays and closures, 2026" in capsys.readouterr().out
    assert main(["clock", "noi", "hearing-open", "--town", MBTS, "--from", "2026-03-30"]) == 0
    out = capsys.readouterr().out
    assert "Manchester-by-the-Sea noi hearing-open (deadline): 2026-04-21 Tuesday" in out and "Patriots' Day" in out
    assert main(["clock", "rda", "decision", "--town", MBTS, "--from", "2026-06-01"]) == 0
    assert "2026-06-22" in capsys.readouterr().out


def test_the_store_and_the_feeds_take_manchester(db, tmp_path, capsys):
    import json

    path = tmp_path / "mbts.json"
    path.write_text(
        json.dumps({"town": MBTS, "kind": "noi", "id": "MBS-NOI-2026-001", "events": [{"type": "filed", "date": "2026-03-30"}]})
    )
    assert main(["import", str(path), "--db", db]) == 0
    assert main(["list", "--town", MBTS, "--db", db]) == 0
    assert "MBS-NOI-2026-001  manchester-by-the-sea  noi  filed" in capsys.readouterr().out
    assert main(["docket", "--town", MBTS, "--as-of", "2026-04-10", "--within", "14", "--db", db]) == 0
    assert "MBS-NOI-2026-001" in capsys.readouterr().out
    assert main(["ics", "--town", MBTS, "--out", str(tmp_path / "f.ics"), "--as-of", "2026-04-10", "--db", db]) == 0
    assert "BEGIN:VCALENDAR" in (tmp_path / "f.ics").read_text()


def test_a_manchester_agent_and_a_manchester_enforcement_case(db, tmp_path, capsys):
    pw = tmp_path / "pw"
    pw.write_text("a long enough password\n")
    assert main(["users", "add", "agent@manchester.example", "--town", MBTS, "--password-file", str(pw), "--db", db]) == 0
    capsys.readouterr()
    assert (
        main(
            [
                "enforcement",
                "open",
                "--db",
                db,
                "--as-of",
                "2026-05-06",
                "--town",
                MBTS,
                "--bylaw",
                "wetlands",
                "--violator",
                "Ocean Road Realty Trust",
                "--provision",
                "Buffer Zone Area",
                "--description",
                "stone on the coastal bank",
                "--parcel",
                "44-12",
                "--date",
                "2026-05-04",
            ]
        )
        == 0
    )
    assert "MBS-ENF-2026-0001" in capsys.readouterr().out
    assert (
        main(
            [
                "enforcement",
                "ticket",
                "MBS-ENF-2026-0001",
                "--db",
                db,
                "--as-of",
                "2026-05-06",
                "--provision",
                "Buffer Zone Area",
                "--day",
                "2026-05-04",
                "--date",
                "2026-05-05",
            ]
        )
        == 0
    )
    assert "first offense, a warning ($0)" in capsys.readouterr().out
    assert (
        main(
            [
                "enforcement",
                "ticket",
                "MBS-ENF-2026-0001",
                "--db",
                db,
                "--as-of",
                "2026-05-06",
                "--provision",
                "Buffer Zone Area",
                "--day",
                "2026-05-05",
                "--date",
                "2026-05-06",
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no fine for a second offense" in err and "the town profile must give it" in err


def test_a_street_opening_in_manchester_is_refused_as_in_any_town_without_them(db, capsys):
    assert main(["schedule", "--town", MBTS, "--db", db]) == 2
    assert "unknown town 'manchester-by-the-sea'; choose one of: canton, mansfield" in capsys.readouterr().err
