"""Notices benchmark: abutter notices to HTML through notices.produce,
against a bare jinja2 render of the same template and context, paired
rounds (benchmarks/paired.py; goal: at most 1.5x); and PDF pages per second
for the merged PDF (one timed run, for reference: no goal).

    .venv/bin/python benchmarks/bench_notices.py [--n 300] [--rounds 9]
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

import jinja2  # noqa: E402
from notice_fixtures import filing_for  # noqa: E402
from paired import paired  # noqa: E402

from notices.context import Party, build_context  # noqa: E402
from notices.kinds import notice_kind  # noqa: E402
from notices.produce import produce  # noqa: E402
from notices.render import DEFAULT_DIR, clocktime, longdate, money, shortdate  # noqa: E402
from workflows.replay import replay  # noqa: E402
from workflows.towns import town  # noqa: E402

PDF_N = 30
DATED = datetime(2026, 12, 3, 9, 30)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=300, help="abutters (notices) per round")
    ap.add_argument("--rounds", type=int, default=9)
    args, _ = ap.parse_known_args()  # run_all.py passes the same arguments to every benchmark
    N = args.n  # noqa: N806
    filing = filing_for("canton", "noi", "abutter-notice")
    r = replay(filing, date(2026, 12, 3))
    abutters = [
        Party(f"Owner {i} & Sons <Trust>", f"{i} Elm St", "Canton", "MA", "02021", (f"12-{i:03d}",), "abutter") for i in range(N)
    ]

    def engine():
        out = produce(filing, r, "abutter-notice", abutters=abutters, fmt="html", dated=DATED)
        assert sum(o.filename.endswith(".html") and "labels" not in o.filename for o in out) == N

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(DEFAULT_DIR)),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(longdate=longdate, shortdate=shortdate, clocktime=clocktime, money=money)
    template = env.get_template("abutter-notice.html.j2")
    base = build_context(filing, r, town("canton"), notice_kind("abutter-notice"), dated=DATED).variables(abutters=abutters)

    def bare():
        for i, p in enumerate(abutters, start=1):
            template.render({**base, "recipient": p, "copy_for": "abutter", "copy_number": i, "copies": N})

    # the warm-up round compiles the template: not what is measured
    paired(f"produce / bare jinja2, {N} abutter notices to HTML", 1.5, engine, bare, rounds=args.rounds).report()

    from notices.render import html_to_pdf

    html_to_pdf("<p>warm-up</p>")  # WeasyPrint's import and font set-up are not what is measured
    few = abutters[:PDF_N]
    t = time.perf_counter()
    out = produce(filing, r, "abutter-notice", abutters=few, fmt="pdf", dated=DATED)
    elapsed = time.perf_counter() - t
    merged = next(o for o in out if o.filename.endswith("abutter-notice.pdf"))
    labels = next(o for o in out if o.filename.endswith("labels.pdf"))
    import io

    from pypdf import PdfReader

    pages = len(PdfReader(io.BytesIO(merged.content)).pages)
    label_pages = len(PdfReader(io.BytesIO(labels.content)).pages)
    print(
        f"PDF, {PDF_N} abutters: merged notices {pages} pages + labels {label_pages} pages in {elapsed:.2f} s, "
        f"{(pages + label_pages) / elapsed:.1f} pages/s"
    )


if __name__ == "__main__":
    main()
