"""Build the demonstration: a store of generated filings in the data
directory's ``demo/`` folder (replaced each run), swept, with its demo users
(``permits demo``).  Each stage is told to ``say`` as it starts, so a first
run is never silent while Prefect starts.

One demo per data directory at a time (:func:`demo_lock`): a second
``permits demo`` on the same data directory would replace the store the
first one serves, and the first one's passwords would stop working; it is
refused, naming the data directory and how to give it another one.  The
demo's emails link to where it serves (:func:`served_settings`).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import NamedTuple

from config import Settings
from services.sweep import Progress
from workflows.errors import PermitsError

__all__ = [
    "DemoRunning",
    "demo_lock",
    "served_settings",
    "DemoStore",
    "DemoLogins",
    "make_demo_store",
    "import_demo_parcels",
    "fresh_output_folder",
    "seed_demo_logins",
    "run_demo",
]


class DemoRunning(PermitsError):
    """Another demo holds this data directory."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        super().__init__(
            f"a demo is already running on the data directory {data_dir} (its store is in use): stop it first, "
            "or give this one a data directory of its own: PERMITS_DATA_DIR=/another/folder permits demo --port 8001"
        )


#: the file a running demo holds locked in its data directory
LOCK_NAME = "demo.lock"


@contextmanager
def demo_lock(data_dir: Path) -> Iterator[None]:
    """Hold the data directory's demo for as long as the block runs (the
    demo's building and serving): :class:`DemoRunning` if another process
    holds it.  An advisory lock on ``DATA_DIR/demo.lock``, released by the
    system when the process ends however it ends; where the system has no
    such lock (Windows), nothing is held."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        yield
        return
    data_dir.mkdir(parents=True, exist_ok=True)
    with open(data_dir / LOCK_NAME, "a+") as held:
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DemoRunning(data_dir) from None
        yield


def served_settings(settings: Settings, host: str, port: int) -> Settings:
    """``settings`` with the base URL of the address the demo serves, so
    the links its emails carry (a registration, a reset, an invitation)
    open the demo that sent them, whatever port it serves on."""
    return settings._replace(base_url=f"http://{host}:{port}")


class DemoStore(NamedTuple):
    url: str
    filings: int
    parcels: tuple = ()  # each town's import (services.parcels.ImportResult)
    stages: int = 0  # the filings at each stage of a permit's later life (demo/stages.py)
    cases: int = 0  # the enforcement cases


class DemoLogins(NamedTuple):
    staff: list  # (email, password, role, towns)
    applicant: str
    password: str
    applicant_filings: list


def make_demo_store(settings: Settings, *, as_of: date, count: int, seed: int, progress=None) -> DemoStore:
    """A new SQLite store in ``DATA_DIR/demo/`` (the old one removed) holding
    ``count`` generated filings as of ``as_of`` (``progress``, a
    :class:`services.sweep.Progress`, is told how many were checked), the
    filings at each stage of a permit's later life and an enforcement case
    in each town with a fine schedule (:mod:`demo.stages`), and the demo
    towns' parcels."""
    from demo.generate import generate
    from demo.stages import stage_cases, stage_filings
    from models.handle import Store

    from .database import upgrade_store
    from .enforcement import open_recorded_case
    from .imports import import_filings

    folder = settings.demo_dir
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    url = f"sqlite:///{folder / 'permits.db'}"
    store = Store(url)
    try:
        upgrade_store(store)
        if progress is not None:
            progress.start(count)
        told = progress.update if progress is not None else None
        filings = list(generate(count, as_of, seed=seed))
        n = len(import_filings(store, filings, by="permits demo", progress=told, today=as_of))
        staged = list(stage_filings(as_of))
        stages = len(import_filings(store, staged, by="permits demo", today=as_of))
        cases = [open_recorded_case(store, case, by="permits demo", today=as_of) for case in stage_cases(as_of)]
        parcels = import_demo_parcels(store, folder / "parcels", filings + staged, seed=seed)
    finally:
        store.engine.dispose()
    return DemoStore(url, n, parcels, stages, len(cases))


def import_demo_parcels(store, folder: Path, filings: list, *, seed: int) -> tuple:
    """The demo towns' generated parcels (:mod:`demo.parcels`, the L3
    schema), written as each town's download in ``folder`` and imported as
    an assessor's would be (:func:`services.parcels.import_parcels`)."""
    from demo.parcels import FISCAL_YEAR, TOWN_NUMBERS, demo_town
    from parcels.l3 import write_l3
    from services.parcels import import_parcels

    done = []
    for town, number in sorted(TOWN_NUMBERS.items()):
        parcels, owners = demo_town(town, filings, seed=seed)
        if not owners:
            continue
        path = write_l3(folder / f"M{number:03d}", number, parcels, owners, fiscal_year=FISCAL_YEAR)
        done.append(import_parcels(store, str(path), town=town, by="permits demo", now=store.now()))
    return tuple(done)


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
    applicant invited to two of the filings, accepting, in one unit of work."""
    from demo.users import APPLICANT_TOWN, DEMO_APPLICANT, DEMO_PEOPLE, applicant_filings, demo_staff, new_password
    from models.accounts.applicants import Applicants
    from models.accounts.users import Users
    from models.handle import Store

    from .unit_of_work import UnitOfWork

    store = Store(url)
    try:
        staff, password = demo_staff(), new_password()
        chosen = applicant_filings(store.list_filings(town=APPLICANT_TOWN), as_of)
        users, applicants = Users(store.engine, now=store.now), Applicants(store)
        with UnitOfWork(store) as uow:
            for email, secret, role, towns in staff:
                full_name, title = DEMO_PEOPLE.get(email, ("", ""))
                users.add(uow.conn, email, secret, role, towns, full_name=full_name, title=title)
            if not chosen:
                applicants.register(uow.conn, DEMO_APPLICANT, password, verified=True)
            for fid in chosen:
                token = applicants.invite(uow.conn, fid, DEMO_APPLICANT, by="permits demo")
                applicants.accept(uow.conn, token, password)
    finally:
        store.engine.dispose()
    return DemoLogins(staff, DEMO_APPLICANT, password, chosen)


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
    progress: Callable[[str], Progress] | None = None,
):
    """The whole demonstration: the store, the sweep, the logins; returns
    (DemoStore, the sweep's result, its output folder, DemoLogins).
    ``say`` is told each stage as it starts; ``progress(name)`` gives the
    :class:`services.sweep.Progress` of a counted stage (``import``,
    ``sweep``)."""
    from services.sweep import run_sweep

    bar = progress or (lambda name: None)
    say(f"Creating a demonstration store of {count} generated filings as of {as_of}...")
    demo = make_demo_store(settings, as_of=as_of, count=count, seed=seed, progress=bar("import"))
    say(
        f"Demonstration store: {demo.filings} generated filings for Canton, Saugus, Mansfield and the state defaults, "
        f"as of {as_of} ({demo.url}); "
        f"{demo.stages} filings at the later stages of a permit (Certificates of Compliance, work before recording and "
        f"inside the appeal period, an outrun emergency certification, Manchester-by-the-Sea, Mansfield street openings) "
        f"and {demo.cases} enforcement cases"
    )
    parcels = sum(p.layer.parcels for p in demo.parcels)
    say(
        f"Generated assessors' parcels (MassGIS Level 3 schema, FY{demo.parcels[0].layer.fiscal_year}): {parcels:,} parcels "
        f"of {', '.join(p.layer.town for p in demo.parcels)}, for the map and the abutter lists\n"
        if demo.parcels
        else "\n"
    )
    folder = fresh_output_folder(out, as_of)
    say("Running the daily sweep" + (" as a Prefect flow..." if use_prefect else "..."))
    res = run_sweep(
        as_of,
        demo.url,
        str(folder),
        settings,
        use_prefect=use_prefect,
        notice_limit=notice_limit,
        progress=bar("sweep"),
        say=say,
    )
    say("Adding the demo users...")
    logins = seed_demo_logins(demo.url, as_of)
    return demo, res, folder, logins
