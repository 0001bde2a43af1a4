"""Running the sweep is one action (services/sweep.py) for ``permits
sweep`` and ``permits demo``: the progress callback and the notice limit
are passed in (the flow takes them as parameters, no module state), and
the plain call and the flow say the same."""

from datetime import date

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
