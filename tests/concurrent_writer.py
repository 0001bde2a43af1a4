"""One writer of the concurrency test (run as a separate process):

    python concurrent_writer.py URL WRITER N_EVENTS FILING_ID...

Records N_EVENTS events, one transaction each as `permits record` would,
round-robin into the given street-opening filings: first a `permit-issued`
on each filing (the other writer tries the same; the state allows only one),
then `dig-safe-obtained` events (allowed in any state) whose `ticket`
marks the writer and the event.  Prints a JSON summary: how many were recorded and refused."""

import json
import sys

import storekit

from models.handle import Store
from workflows.errors import TransitionRefused


def main(url, writer, n, ids):
    store = Store(url)
    recorded, refused = 0, 0
    for i in range(n):
        filing = ids[i % len(ids)]
        if i < len(ids):
            event = {"type": "permit-issued", "date": "2026-06-03"}
        else:
            event = {"type": "dig-safe-obtained", "date": "2026-06-04", "ticket": f"W{writer}-{i}"}
        try:
            storekit.append(store, filing, event, by=f"writer-{writer}")
            recorded += 1
        except TransitionRefused:
            refused += 1
    print(json.dumps({"recorded": recorded, "refused": refused}))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
