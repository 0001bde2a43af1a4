"""A notice limit kept once for a whole run whose chunks run apart (the
Prefect flow's chunk tasks, in threads or in the worker processes of a Dask
cluster): each chunk lists the notices due for its filings without making
them (its hook's limit is 0; the applicant's reminder emails are still
made there), and the flow, as each chunk's outcomes come back in the
chunks' order, makes the pending ones here while the run's one hook
(:func:`sweep.dispatch.notice_hook` with the limit) has some left.

So a limit of N makes N notices in the whole run (fewer only when fewer
are due), the first N in the order the plain call makes them, however
many workers ran the chunks; without a limit a chunk makes its own notices
and nothing passes through here.  A notice is made and recorded by the
same :func:`sweep.run.make_notice` either way, so an output already
recorded (by an earlier sweep, or by another at the same time) is not made
again.
"""

from __future__ import annotations

from datetime import date

from sweep.agenda import notices_due
from sweep.run import BadRecord, FilingOutcome, describe_failure, make_notice

__all__ = ["make_pending_notices"]


def make_pending_notices(ref: tuple, outcomes: list[FilingOutcome], source, log, hook, as_of: date, out_dir=None) -> int:
    """Make the notices the chunk ``ref`` of ``source`` listed as pending in
    ``outcomes``, in their order, while ``hook.left()`` says some are left;
    each made notice's row in ``outcomes`` becomes what the plain call
    would have listed (made, already, refused).  Returns how many were
    made.  Only the filings with a pending notice are loaded again (the
    store's chunks name their ids; a folder's chunk is read again)."""
    if not hook.left():
        return 0
    waiting = [o.filing for o in outcomes if o.error is None and any(n["status"] == "pending" for n in o.notices)]
    if not waiting:
        return 0
    from workflows.replay import replay as replay_filing

    narrowed = ("ids", tuple(waiting)) if ref[0] == "ids" else ref
    filings = {f.id: f for f in source.load(narrowed) if not isinstance(f, BadRecord)}
    day, made = as_of.isoformat(), 0
    for outcome in outcomes:
        filing = filings.get(outcome.filing)
        if filing is None or outcome.error is not None:
            continue
        if not hook.left():
            break
        step = "the replay"
        try:
            replay = replay_filing(filing, as_of)
            due = {n.key: n for n in notices_due(replay, as_of, filing.events)}
            for i, row in enumerate(outcome.notices):
                if row["status"] != "pending" or row["key"] not in due or not hook.left():
                    continue
                step = f"the {row['kind']} notice"
                outcome.notices[i] = make_notice(log, filing, replay, due[row["key"]], hook, out_dir, day)
                made += outcome.notices[i]["status"] == "made"
        except Exception as exc:  # one bad filing must not stop the rest, as in the chunk
            outcome.error = f"{step} failed: {describe_failure(exc)}"
    return made
