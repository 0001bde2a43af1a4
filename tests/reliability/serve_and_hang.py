"""Run by tests/reliability/test_kill_web_apply.py: the workbench over the
store at URL, served by uvicorn on 127.0.0.1:PORT, its plans kept in
UPLOADS_DIR (the test sets PERMITS_UPLOADS_DIR to it as well, which the
app's settings read).  With STEP, an online application through the web route
stops between two of the steps of :func:`services.apply.apply_online`
(the step waits there after writing MARKER) so the test can kill the
server with SIGKILL at that point; with ``none``, nothing waits (the test
kills at a moment of its own).

    python serve_and_hang.py URL UPLOADS_DIR MARKER STEP PORT
      STEP: after-file | after-filing | after-upload | after-link | none
"""

import sys
import time
from datetime import date
from pathlib import Path

import uvicorn

from models.accounts.applicants import Applicants
from models.handle import Store
from models.store import filings
from models.store.uploads import Uploads
from web.app import create_app

TODAY = date(2026, 12, 3)


def hang_at(step: str, marker: Path, folder: Path) -> None:
    def hang(name):
        def wrap(f):
            def waiting(*args, **kwargs):
                out = f(*args, **kwargs)
                if name == step:
                    marker.write_text(name)
                    time.sleep(600)
                return out

            return waiting

        return wrap

    Uploads.record = hang("after-upload")(Uploads.record)
    Applicants.link = hang("after-link")(Applicants.link)
    real_import = filings.import_filings
    if step == "after-file":

        def first_the_file(*args, **kwargs):
            if any(p.suffix == ".pdf" for p in folder.iterdir()):
                marker.write_text(step)
                time.sleep(600)
            return real_import(*args, **kwargs)

        filings.import_filings = first_the_file
    else:
        filings.import_filings = hang("after-filing")(real_import)


def main(url: str, folder: str, marker: str, step: str, port: str) -> None:
    if step != "none":
        hang_at(step, Path(marker), Path(folder))
    app = create_app(Store(url), secret="kill-test", today=lambda: TODAY)
    uvicorn.run(app, host="127.0.0.1", port=int(port), log_level="warning")


if __name__ == "__main__":
    main(*sys.argv[1:])
