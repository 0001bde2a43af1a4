"""A town as a data file (workflows/town_file.py): read into the same
typed rule book the engine uses, refused with one line per problem naming
its key path, and a new town started from the state's rules."""

from datetime import date
from pathlib import Path

import pytest

from workflows.filing import parse_filing
from workflows.replay import replay
from workflows.town_file import TownFileError, new_town, read_town, town_id_of, town_problems
from workflows.towns import add_towns, forget_added_towns, registry, town

TOWNS = Path(__file__).resolve().parents[2] / "workflows" / "towns"


def _noi(town_id: str) -> dict:
    return {
        "id": f"{town_id.upper()[:3]}-NOI-2026-000001",
        "town": town_id,
        "kind": "noi",
        "events": [
            {"type": "filed", "date": "2026-03-02"},
            {"type": "hearing-opened", "date": "2026-03-17"},
            {"type": "hearing-closed", "date": "2026-03-31"},
        ],
    }


def _clocks(town_id: str):
    result = replay(parse_filing(_noi(town_id)), date(2026, 4, 1))
    return [(c.id, c.date, c.status, c.rule) for c in result.clocks]


def test_manchester_by_the_sea_is_a_town_file_with_its_own_letters_and_the_states_clocks():
    profile = town("manchester-by-the-sea")
    assert (profile.code, profile.county) == ("MBS", "Essex")
    assert (TOWNS / "manchester-by-the-sea.toml").is_file() and not (TOWNS / "manchester_by_the_sea.py").exists()
    # its NOI runs the Act's clocks (310 CMR 10.05), read from the file: the same days and rules as the state's
    assert _clocks("manchester-by-the-sea") == _clocks("wpa")
    assert profile.fines["wetlands"].amounts == (0, None, None)  # the copy's warning, and the two amounts it lost
    assert profile.offices["conservation"].members[0].line == "Claire Whitney, Chair"


def test_a_new_town_reads_and_replays_the_states_clocks_for_an_noi():
    text = new_town("West Springfield", "Hampden")
    profile = read_town(text, "west-springfield.toml")
    assert (profile.id, profile.code, sorted(profile.permits)) == ("west-springfield", "WES", ["noi", "rda"])
    try:
        add_towns([profile])
        assert _clocks("west-springfield") == _clocks("wpa")
    finally:
        forget_added_towns()
    assert "west-springfield" not in registry()
    # every by-law choice is asked: its own clocks, Saturdays, fines, closures, the newspaper
    for question in ("sets its own hearing", "Saturdays", "non-criminal", "besides the legal holidays", "newspaper"):
        assert question in text


PLANTED = """
id = "Lenox"
name = "Lenox"
county = "Berkshire"
code = "l1"
fees2 = 1

[permits.noi]
follows = "county"
[permits.pier]
follows = "state"

[offices.conservation]
name = "Conservation Commission"
signer = "Agent"
[offices.parks]
name = "Parks"
address = "Town Hall"
signer = "Director"

[fines.wetlands]
bylaw = "Lenox Wetlands By-law"
citation = "Lenox By-laws ch. 5 §3"
amounts = [0, -5]
ceiling = 0
order_rule = "310 CMR 10.08"

[closures]
2026-13-40 = "a day that is no day"
"""


def test_a_town_file_with_ten_planted_mistakes_is_refused_with_ten_lines_each_naming_its_key_path():
    problems = town_problems(PLANTED, "lenox.toml")
    paths = [p.split(":", 1)[0] for p in problems]
    assert paths == [
        "fees2",
        "id",
        "code",
        "permits.noi.follows",
        "permits.pier",
        "offices.conservation.address",
        "offices.parks",
        "fines.wetlands.amounts[1]",
        "fines.wetlands.ceiling",
        "closures.2026-13-40",
    ], problems
    with pytest.raises(TownFileError) as refused:
        read_town(PLANTED, "lenox.toml")
    lines = str(refused.value).splitlines()
    assert len(lines) == 10 and all(line.startswith("lenox.toml: ") for line in lines)
    assert "lenox.toml: ceiling" not in str(refused.value)  # a key is named by its whole path
    assert "fines.wetlands.ceiling: the most the by-law allows" in str(refused.value)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("id = [", "not TOML"),
        ('id = "x"\nname = "X"\ncounty = "Y"', "permits: the permit kinds the town runs"),
        ("x" * (300 * 1024), "over 256 KB"),
        ('id = "x"\nname = "X\\nY"\ncounty = "Y"\n[permits.noi]\nfollows = "state"', "name: one line"),
    ],
)
def test_a_file_that_is_not_a_town_is_refused_in_one_line_naming_what(text, says):
    assert any(says in p for p in town_problems(text, "t.toml")), town_problems(text, "t.toml")


def test_a_town_id_is_its_name_in_lower_case_with_dashes():
    assert town_id_of("Manchester-by-the-Sea") == "manchester-by-the-sea"
    assert town_id_of("West  Springfield") == "west-springfield"


def test_permits_towns_new_check_list_and_show_from_the_command_line(tmp_path, capsys):
    from cli.main import main

    out = tmp_path / "lenox.toml"
    assert main(["towns", "new", "Lenox", "--county", "Berkshire", "--out", str(out)]) == 0
    assert main(["towns", "new", "Lenox", "--county", "Berkshire", "--out", str(out)]) == 2  # never over a file
    assert "exists already" in capsys.readouterr().err
    assert main(["towns", "check", str(out)]) == 0
    assert f"{out}: Lenox (lenox) reads: runs noi, rda" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text(PLANTED)
    assert main(["towns", "check", str(out), str(bad)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert (
        len(err) == 10
        and err[0]
        == f"{bad}: fees2: unknown key; a town file has id, name, county, code, saturday_closure, permits, offices, clerk, court, fines, closures"
    )
    assert main(["towns", "new", "Canton", "--county", "Norfolk"]) == 2  # declared already
    assert main(["towns", "list"]) == 0
    assert "manchester-by-the-sea     MBS   Manchester-by-the-Sea (Essex): noi, rda" in capsys.readouterr().out
    assert main(["towns", "show", "manchester-by-the-sea"]) == 0
    shown = capsys.readouterr().out
    assert "hearing-open" in shown and "310 CMR 10.05(5)(b)" in shown and "fines wetlands: $0, lost, lost, at most $300" in shown


def test_permits_fees_set_and_list_from_the_command_line(tmp_path, capsys):
    """A commission's fee set from the command line is the same change the
    rule book page makes (services/town_fees.py), listed with its history."""
    from cli.main import main

    db = f"sqlite:///{tmp_path / 'fees.db'}"
    assert main(["init", "--db", db]) == 0
    capsys.readouterr()
    assert (
        main(
            [
                "fees",
                "set",
                "saugus",
                "rda",
                "75",
                "--from",
                "2027-01-01",
                "--reason",
                "vote of Dec 2",
                "--db",
                db,
                "--by",
                "clerk",
            ]
        )
        == 0
    )
    assert "saugus rda fee set to $75.00 for filings filed on or after 2027-01-01" in capsys.readouterr().out
    assert main(["fees", "set", "canton", "street-opening", "75", "--from", "2027-01-01", "--reason", "x", "--db", db]) == 2
    err = capsys.readouterr().err  # the by-law's own Fee Schedule prices it: not the office's to change
    assert "Canton sets no street-opening fee by regulation: the fees its commission sets are noi, rda (Canton" in err
    assert main(["fees", "list", "--town", "saugus", "--as-of", "2026-12-31", "--db", db]) == 0
    before = capsys.readouterr().out
    assert (
        "saugus rda: filing fee (amount not yet entered by the town)" in before
        and "$75.00 from 2027-01-01  by clerk: vote of Dec 2" in before
    )
    assert main(["fees", "list", "--town", "saugus", "--as-of", "2027-01-01", "--db", db]) == 0
    assert "saugus rda: filing fee $75.00" in capsys.readouterr().out
