"""Build the demonstration: a store of generated filings in the data
directory's ``demo/`` folder (replaced each run), swept, with its demo users
(``permits demo``).  Each stage is told to ``say`` as it starts, so a first
run is never silent while Prefect starts.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import NamedTuple

from config import Settings

__all__ = ["DemoStore", "DemoLogins", "make_demo_store", "fresh_output_folder", "seed_demo_logins", "run_demo"]


class DemoStore(NamedTuple):
    url: str
    filings: int


class DemoLogins(NamedTuple):
    staff: list  # (email, password, role, towns)
    applicant: str
    password: str
    applicant_filings: list


def make_demo_store(settings: Settings, *, as_of: date, count: int, seed: int) -> DemoStore:
    """A new SQLite store in ``DATA_DIR/demo/`` (the old one removed) holding
    ``count`` generated filings as of ``as_of``."""
    from demo.generate import generate
    from models.service import Store

    folder = settings.demo_dir
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    url = f"sqlite:///{folder / 'permits.db'}"
    store = Store(url)
    try:
        store.upgrade()
        filings = list(generate(count, as_of, seed=seed))
        n = len(store.import_filings(filings, by="permits demo"))
        from services.deposits import fill_filings

        # each street opening's fees and deposit from its events (Canton 16-12 §4-6)
        fill_filings(store, [f["id"] for f in filings if f["kind"] == "street-opening"], by="permits demo")
    finally:
        store.engine.dispose()
    return DemoStore(url, n)


def fresh_output_folder(out: str | None, as_of: date) -> Path:
    """``out``, else ``out/demo-DATE`` emptied for this run."""
    if out:
        return Path(out)
    folder = Path("out") / f"demo-{as_of.isoformat()}"
    if folder.exists():
        shutil.rmtree(folder)
    return folder


def seed_demo_logins(url: str, as_of: date) -> DemoLogins:
    """The demo users (one of each staff role, fresh passwords) and the demo
    applicant invited to two of the filings."""
    from demo.users import seed_demo_applicant, seed_demo_users
    from models.service import Store
    from models.users import Users

    store = Store(url)
    try:
        staff = seed_demo_users(Users(store.engine))
        applicant, password, filings = seed_demo_applicant(store, as_of)
    finally:
        store.engine.dispose()
    return DemoLogins(staff, applicant, password, filings)


def run_demo(
    settings: Settings,
    *,
    as_of: date,
    count: int,
    seed: int,
    out: str | None,
    use_prefect: bool,
    notice_limit: int,
    say: Callable[[str], None],
    progress=None,
):
    """The whole demonstration: the store, the sweep, the logins; returns
    (DemoStore, the sweep's result, its output folder, DemoLogins)."""
    from services.sweep import run_sweep

    say(f"Generating {count} demonstration filings as of {as_of}...")
    demo = make_demo_store(settings, as_of=as_of, count=count, seed=seed)
    say(
        f"Demonstration store: {demo.filings} generated filings for Canton, Saugus, Mansfield and the state defaults, "
        f"as of {as_of} ({demo.url})\n"
    )
    folder = fresh_output_folder(out, as_of)
    if use_prefect:
        say("Running the daily sweep as a Prefect flow (the first run starts Prefect's local server: 20-30 s)...")
    res = run_sweep(as_of, demo.url, str(folder), settings, use_prefect=use_prefect, notice_limit=notice_limit, progress=progress)
    logins = seed_demo_logins(demo.url, as_of)
    return demo, res, folder, logins
