"""The town's clock (config/clock.py): every "now" and "today" the edges
read is the town's wall time (America/New_York, PERMITS_TIMEZONE), whatever
zone the server runs in; moments the store stamps (UTC) are shown in it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from config import BadSetting, load
from config.clock import in_town, town_now, town_stamp, town_today, wall_stamp

ROOT = Path(__file__).resolve().parents[2]


def _at(*args):
    return lambda: datetime(*args, tzinfo=UTC)


def test_a_posting_at_1654_utc_in_december_is_stamped_1154_in_massachusetts():
    assert town_now(clock=_at(2026, 12, 1, 16, 54, 31)) == datetime(2026, 12, 1, 11, 54)


def test_in_summer_the_town_is_four_hours_behind_utc():
    assert town_now(clock=_at(2026, 7, 1, 16, 54)) == datetime(2026, 7, 1, 12, 54)


def test_at_9pm_in_boston_it_is_still_today_there_though_tomorrow_in_utc():
    assert town_today(clock=_at(2026, 12, 2, 2, 0)) == date(2026, 12, 1)


def test_a_stamp_the_store_made_in_utc_is_shown_in_the_towns_zone_with_its_name():
    assert town_stamp(datetime(2026, 12, 1, 16, 54)) == "2026-12-01 11:54 EST"
    assert in_town(datetime(2026, 7, 1, 16, 54, tzinfo=UTC)).hour == 12
    assert wall_stamp("2026-12-01T11:54") == "2026-12-01 11:54 EST"


def test_the_zone_is_a_setting_and_a_bad_one_is_named():
    assert load({}).timezone == "America/New_York"
    assert load({"PERMITS_TIMEZONE": "America/Chicago"}).timezone == "America/Chicago"
    with pytest.raises(BadSetting, match="PERMITS_TIMEZONE='Mars/Olympus'"):
        load({"PERMITS_TIMEZONE": "Mars/Olympus"})


_PROBE = """
import json, time
from datetime import datetime
from zoneinfo import ZoneInfo
time.tzset()
from cli.args import now, today
from web.app import create_app
from web.deps import context_of
from models.handle import Store
import sys
web = context_of(create_app(Store(sys.argv[1]), secret="x"))
boston = datetime.now(ZoneInfo("America/New_York")).replace(tzinfo=None, second=0, microsecond=0)
print(json.dumps({"cli": now().isoformat(), "web": web.now().isoformat(), "boston": boston.isoformat(),
                  "today": today().isoformat(), "web_today": web.today().isoformat(),
                  "naive": datetime.now().replace(second=0, microsecond=0).isoformat()}))
"""


@pytest.mark.parametrize("zone", ["UTC", "Asia/Tokyo", "America/Los_Angeles"])
def test_the_command_line_and_the_workbench_read_the_towns_clock_whatever_the_servers_zone(zone, tmp_path):
    env = {**os.environ, "TZ": zone, "PERMITS_DATA_DIR": str(tmp_path)}
    env.pop("PERMITS_TIMEZONE", None)
    url = f"sqlite:///{tmp_path / 'p.db'}"
    subprocess.run([sys.executable, "-m", "cli.main", "init", "--db", url], cwd=ROOT, env=env, check=True, capture_output=True)
    out = subprocess.run([sys.executable, "-c", _PROBE, url], cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    got = json.loads(out.stdout)
    boston = datetime.fromisoformat(got["boston"])
    for side in ("cli", "web"):
        assert abs((datetime.fromisoformat(got[side]) - boston).total_seconds()) <= 60, (side, got)
    assert got["today"] == got["web_today"] and abs((date.fromisoformat(got["today"]) - boston.date()).days) == 0
    # the server's own naive clock is not the town's (the point of the test)
    assert abs((datetime.fromisoformat(got["naive"]) - boston).total_seconds()) > 3600


def test_a_meetings_posting_written_on_a_utc_server_is_stamped_with_the_towns_wall_clock(tmp_path):
    from zoneinfo import ZoneInfo

    from notices.render import clocktime, longdate

    env = {**os.environ, "TZ": "UTC", "PERMITS_DATA_DIR": str(tmp_path)}
    env.pop("PERMITS_TIMEZONE", None)
    url = f"sqlite:///{tmp_path / 'p.db'}"

    def permits(*args):
        return subprocess.run(
            [sys.executable, "-m", "cli.main", *args, "--db", url], cwd=ROOT, env=env, check=True, capture_output=True, text=True
        )

    permits("init")
    permits("meetings", "add", "--town", "canton", "--at", "2030-01-15T19:00")
    before = datetime.now(ZoneInfo("America/New_York")).replace(tzinfo=None, second=0, microsecond=0)
    path = permits("meetings", "posting", "--meeting", "1", "--format", "html", "--out", str(tmp_path / "out")).stdout.strip()
    after = datetime.now(ZoneInfo("America/New_York")).replace(tzinfo=None, second=0, microsecond=0)
    html = Path(path).read_text(encoding="utf-8")
    stamps = {f"Posted {longdate(t)} at {clocktime(t)}" for t in (before, after)}
    assert any(s in html for s in stamps), (stamps, html[:600])
