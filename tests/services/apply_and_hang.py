"""Run by tests/services/test_apply.py: one online application through
:func:`services.apply.apply_online`, stopped between two of its steps (the
step named on the command line waits there, after writing a marker file) so
the test can kill the process with SIGKILL at that point.

    python apply_and_hang.py URL UPLOADS_DIR MARKER STEP
      STEP: after-file | after-filing | after-upload | after-link
"""

import sys
import time
from datetime import date
from pathlib import Path

from models.accounts.applicants import Applicants
from models.handle import Store
from models.store import filings
from models.store.uploads import Uploads
from services.apply import apply_online
from services.unit_of_work import UnitOfWork

PDF = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"


def _application(fid: str) -> dict:
    party = {"name": "Ann Lee", "address": {"street": "12 Elm St", "city": "Canton", "state": "MA", "zip": "02021"}}
    return {
        "town": "canton",
        "kind": "noi",
        "id": fid,
        "address": "12 Elm St",
        "applicant": {**party, "email": "ann@example.org"},
        "owner": party,
        "application": {"online": True, "owner_consent": True, "submitted_by": "ann@example.org"},
        "events": [{"type": "submitted", "date": date(2026, 12, 1).isoformat()}],
    }


def main(url: str, folder: str, marker: str, step: str) -> None:
    store = Store(url)
    uploads = Uploads(store, Path(folder), 1024 * 1024)
    applicants = Applicants(store)
    with UnitOfWork(store) as uow:
        account = applicants.register(uow.conn, "ann@example.org", "correct horse battery")

    def hang(name):
        def wrap(f):
            def waiting(*args, **kwargs):
                out = f(*args, **kwargs)
                if name == step:
                    Path(marker).write_text(name)
                    time.sleep(600)
                return out

            return waiting

        return wrap

    original_record, original_link, original_import = Uploads.record, Applicants.link, filings.import_filings
    Uploads.record = hang("after-upload")(original_record)
    Applicants.link = hang("after-link")(original_link)
    filings.import_filings = hang("after-filing")(original_import)
    if step == "after-file":
        real_import = filings.import_filings

        def first_the_file(*args, **kwargs):
            if any(p.suffix == ".pdf" for p in Path(folder).iterdir()):
                Path(marker).write_text(step)
                time.sleep(600)
            return real_import(*args, **kwargs)

        filings.import_filings = first_the_file
    apply_online(store, uploads, account, _application("CAN-NOI-2026-AKILL1"), "site-plan.pdf", PDF)


if __name__ == "__main__":
    main(*sys.argv[1:])
