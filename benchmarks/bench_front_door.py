"""Benchmark: does the front door's answer take as long whatever the
address?  And what does the per-day limit add to an online application?

On a SQLite store of the web kit's filings and users, interleaved in
rounds (the side that goes first alternating), wall time (the answer a
client waits for):

* ``POST /register`` of an address that has an account (the owner is
  emailed that someone tried) against one that has none (a link is made
  and emailed): a ratio far from 1 would tell an address apart by time;
* ``POST /forgot`` of an address with no account (nothing sent) against an
  account's (a link made and queued), over HTTP to the workbench served by
  uvicorn: the account is looked up after the page is sent;
* ``services.apply.apply_online`` with the day's limits checked against
  the same application without them.

Emails wait in the outbox (no SMTP server): delivery is after the answer.
Run: ``.venv/bin/python benchmarks/bench_front_door.py [--rounds R]``.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from paired import WALL, paired  # noqa: E402

PDF = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n" + b"0" * 200_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()

    from fastapi.testclient import TestClient
    from webkit import PASSWORD, USERS, csrf_of, make_store

    import config
    from models.accounts.daily_limits import DailyLimits
    from models.store.uploads import Uploads
    from services.apply import apply_online
    from web.app import create_app

    folder = Path(tempfile.mkdtemp(prefix="bench-front-door-"))
    store = make_store(f"sqlite:///{folder / 'p.db'}")
    env = {"PERMITS_UPLOADS_DIR": str(folder / "uploads"), "PERMITS_DATA_DIR": str(folder)}
    app = create_app(store, settings=config.load(env), secret="bench")
    from models.accounts.throttle import LIMITS, Limit

    LIMITS["register"] = Limit(10**9, LIMITS["register"].window, "registrations")  # the bench is one address
    LIMITS["reset"] = Limit(10**9, LIMITS["reset"].window, "password reset requests")
    c = TestClient(app, follow_redirects=False)
    token = csrf_of(c.get("/register").text)
    counter = itertools.count()
    taken = USERS["canton-agent"][0]

    def register(address):
        r = c.post("/register", data={"csrf": token, "email": address, "password": PASSWORD, "password2": PASSWORD})
        assert r.status_code == 200, r.text

    import httpx
    from webkit import serving

    paired(
        "register: a taken address / a new one (wall)",
        1.25,
        lambda: register(taken),
        lambda: register(f"new{next(counter)}@example.org"),
        rounds=args.rounds,
        clock=WALL,
        note="the page a client waits for; a ratio near 1 tells no address apart",
    ).report()
    import storekit  # tests/ is on the path (above)

    applicants = storekit.applicants(store)
    accounts = iter([applicants.register(f"user{i}@example.org", PASSWORD, verified=True).email for i in range(args.rounds + 1)])
    with serving(app) as port, httpx.Client(base_url=f"http://127.0.0.1:{port}") as h:
        form_token = csrf_of(h.get("/forgot").text)

        def forgot(address):
            assert h.post("/forgot", data={"csrf": form_token, "email": address}).status_code == 200

        paired(
            "forgot: an unknown address / an account's (wall, HTTP)",
            1.25,
            lambda: forgot(f"nobody{next(counter)}@example.org"),
            lambda: forgot(next(accounts)),
            rounds=args.rounds,
            clock=WALL,
            note="each round a new account, so each asks its first link (made and queued after the answer)",
        ).report()

    ann = applicants.register("ann@example.org", PASSWORD, verified=True)
    uploads = Uploads(store, folder / "uploads", 25 * 1024 * 1024)
    from webkit import FILINGS

    def application():
        obj = copy.deepcopy(FILINGS[1])
        obj["id"] = f"SAU-NOI-2026-{900000 + next(counter)}"
        return obj

    limits = DailyLimits(10**6, 10**12)
    paired(
        "apply online: with the day's limits / without (wall)",
        1.10,
        lambda: apply_online(store, uploads, ann, application(), "plan.pdf", PDF, limits=limits),
        lambda: apply_online(store, uploads, ann, application(), "plan.pdf", PDF),
        rounds=args.rounds,
        clock=WALL,
        note="a 200 KB plan, the account's applications and bytes of the day counted in the writing transaction",
    ).report()


if __name__ == "__main__":
    main()
