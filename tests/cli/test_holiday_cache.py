"""The CLI's cache of the holidays package's answers: same answers as the
library, rebuilt when missing or corrupt, keyed by the library's version."""

import json
from datetime import date

from calendars import massachusetts
from cli.holiday_cache import holidays_version, install_holiday_cache


def test_the_cache_gives_the_same_legal_holidays_as_the_library(tmp_path):
    fresh = {y: massachusetts.legal_holidays(y) for y in (2026, 2027, 2033)}
    path = install_holiday_cache(tmp_path)
    assert path.name == f"ma-holidays-{holidays_version()}.json"
    # a second process would read the file: simulate it by reading it back
    install_holiday_cache(tmp_path)
    for y, table in fresh.items():
        assert massachusetts.legal_holidays(y) == table
    assert date(2027, 7, 5) in massachusetts.legal_holidays(2027)


def test_a_corrupt_cache_is_rebuilt_not_trusted(tmp_path):
    path = install_holiday_cache(tmp_path)
    path.write_text("{not json", encoding="utf-8")
    install_holiday_cache(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["years"]["2026"][0] == ["2026-01-01", "New Year's Day"]


def test_a_cache_missing_years_is_rebuilt(tmp_path):
    path = install_holiday_cache(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["years"]["2050"]
    path.write_text(json.dumps(data), encoding="utf-8")
    install_holiday_cache(tmp_path)
    assert "2050" in json.loads(path.read_text(encoding="utf-8"))["years"]


def test_holidays_version_matches_the_installed_distribution():
    from importlib import metadata

    assert holidays_version() == metadata.version("holidays")
