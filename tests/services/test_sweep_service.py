"""Running the sweep is one action (services/sweep.py) for ``permits
sweep`` and ``permits demo``: the progress callback and the notice limit
are passed in (the flow takes them as parameters, no module state), and
the plain call and the flow say the same."""

from datetime import date, timedelta

import config
from demo.generate import generate
from models.handle import Store
from services.database import upgrade_store
from services.imports import import_filings
from services.sweep import run_sweep

AS_OF = date(2026, 11, 30)


class Counting:
    def __init__(self):
        self.total, self.done, self.starts = None, 0, 0

    def start(self, total):
        self.total, self.starts = total, self.starts + 1

    def update(self, n):
        self.done += n


def _store(folder, n=120) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    url = f"sqlite:///{folder / 'permits.db'}"
    store = Store(url)
    upgrade_store(store)
    import_filings(store, generate(n, AS_OF, seed=5), by="test")
    store.engine.dispose()
    return url


def test_the_progress_is_told_the_open_filings_and_every_one_swept(tmp_path):
    url = _store(tmp_path)
    progress = Counting()
    res = run_sweep(AS_OF, url, str(tmp_path / "out"), config.load(), use_prefect=False, chunk_size=25, progress=progress)
    assert progress.starts == 1 and progress.total == progress.done == res["counts"]["filings"] > 25


def test_the_notice_limit_is_passed_in_and_what_is_not_made_is_made_by_the_next_sweep(tmp_path):
    url = _store(tmp_path / "limited")
    limited = run_sweep(AS_OF, url, str(tmp_path / "a"), config.load(), use_prefect=False, notice_limit=2)
    assert limited["counts"]["notices_made"] == 2 and limited["counts"]["notices_pending"] > 0
    rest = run_sweep(AS_OF, url, str(tmp_path / "b"), config.load(), use_prefect=False)
    assert rest["counts"]["notices_pending"] == 0
    whole = run_sweep(AS_OF, _store(tmp_path / "whole"), str(tmp_path / "c"), config.load(), use_prefect=False)
    assert 2 + rest["counts"]["notices_made"] == whole["counts"]["notices_made"]  # deferred, none lost or made twice


def test_the_flow_keeps_no_settings_in_module_state():
    from services import sweep_flow as flows

    for name in ("PROGRESS", "NOTICE_LIMIT", "MAIL_FROM"):
        assert not hasattr(flows, name)
    params = flows.daily_sweep.parameters.properties
    assert {"notice_limit", "mail_from", "progress", "make_notices"} <= set(params)


def test_a_second_sweep_of_the_day_takes_only_what_is_still_due_and_all_takes_every_open_filing(tmp_path):
    """The incremental sweep (the default): an imported store is all due;
    swept once, the same day again takes only the filings with a notice
    still not made (refused by the notices module), and makes nothing;
    ``--all`` (``everything``) takes every open filing again and makes
    nothing either; the next day takes a few."""
    url = _store(tmp_path)
    first, again, whole, tomorrow = Counting(), Counting(), Counting(), Counting()
    res = run_sweep(AS_OF, url, str(tmp_path / "a"), config.load(), use_prefect=False, make_notices=False, progress=first)
    assert first.total == res["counts"]["open"] > 60
    held = {n["filing"] for n in _notices(tmp_path / "a")}  # listed, not made: still due
    res = run_sweep(AS_OF, url, str(tmp_path / "b"), config.load(), use_prefect=False, progress=again)
    made = res["counts"]["notices_made"]
    assert again.total == len(held) and made > 0  # the notices listed are made by the next sweep, the same day
    res = run_sweep(AS_OF, url, str(tmp_path / "c"), config.load(), use_prefect=False, progress=Counting())
    left = res["counts"]["filings"]
    assert left < len(held) and res["counts"]["notices_made"] == res["counts"]["reminders_new"] == 0
    res = run_sweep(AS_OF, url, str(tmp_path / "d"), config.load(), use_prefect=False, progress=whole, everything=True)
    assert whole.total == first.total and res["counts"]["notices_made"] == res["counts"]["reminders_new"] == 0
    run_sweep(AS_OF + timedelta(days=1), url, str(tmp_path / "e"), config.load(), use_prefect=False, progress=tomorrow)
    assert 0 < tomorrow.total < first.total // 4


def _notices(out) -> list[dict]:
    import json

    return json.loads((out / "notices.json").read_text(encoding="utf-8"))["notices"]
