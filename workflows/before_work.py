"""What must be on record before work begins under a wetlands Order or a
Land Disturbance Permit, and while it goes on: each condition is a clock
that can be violated.

- ``recording-before-work``: no work until the Order is recorded at the
  Registry of Deeds (every state Order's general conditions, M.G.L. c.131
  §40; Saugus 508.08 §7.9 adds the holder's written certification of it):
  ``passed`` on the day it was recorded (and certified), ``premature`` when
  the work came first, ``violated`` when work is on record with no
  recording at all;
- ``appeal-before-work`` (a clock of the rule book, from the issuance):
  no work until the appeal periods have passed, and none while an appeal
  taken (``appeal-requested``) is not decided (``appeal-decided``):
  work then is ``violated``;
- ``permit-expiry``: work after the Order expired is ``violated``; an
  expired Order cannot be extended, a new filing is needed (310 CMR
  10.05(8)(a));
- the emergency certification (310 CMR 10.06): work is allowed inside it;
  work seen after it ends with no Notice of Intent filed starts the
  ``emergency-continuation`` clock, overdue until the filing comes
  (:mod:`workflows.record`, the rule book); work after it ends with no
  Order in force is a violation (:mod:`workflows.unpermitted`), as is work
  with no permit in force at all.

The work itself is ``work-started`` (it began) and ``work-observed`` (it
was seen under way).  Each condition is ``(clock id, type, day, status,
rule, explanation)``; the replay marks a clock of that id or adds it.
Pure: no I/O.
"""

from __future__ import annotations

from datetime import date

from .errors import UnknownChoice

__all__ = ["WORK", "conditions", "EXPIRED_ORDER"]

#: the events that say work is going on under a permit
WORK = ("work-started", "work-observed")
#: an expired Order cannot be extended: a new filing is needed
EXPIRED_ORDER = "310 CMR 10.05(8)(a)"
APPEALS = "WPA Form 5 (Order of Conditions), General Conditions; 310 CMR 10.05(7)(c)"


def _order(e):
    return (e.date, e.position)


def _first(events, types, before=None):
    for e in events:
        if e.type in types and (before is None or _order(e) <= _order(before)):
            return e
    return None


def conditions(rec) -> list[tuple[str, str, date, str, str, str]]:
    """The before-work conditions of a wetlands or stormwater permit, as
    the replay adds or marks them (see the module docstring)."""
    if rec.rules.kind not in ("noi", "land-disturbance") or rec.issued is None:
        return []
    events = rec.events
    work = _first(events, WORK)
    out = []
    if rec.rules.recording_before_work:
        out += _recording(rec, events, work)
    if work is not None:
        out += _appeal_pending(events)
        out += _expired(rec, events)
    return out


def _did(e) -> str:
    return f"{e.type} on {e.date} (event {e.position})"


def _recording(rec, events, work) -> list[tuple]:
    rule = rec.rules.recording_before_work
    needed = ["permit-recorded"] + (["recording-certified"] if rec.rules.recording_certified else [])
    done = [_first(events, (t,)) for t in needed]
    what = "recorded at the Registry of Deeds" + (" and the holder certifies it in writing" if len(needed) > 1 else "")
    if all(done):
        allowed = max(done, key=_order)
        shown = " and ".join(f"{e.type} on {e.date} (event {e.position})" for e in done)
        if work is None or _order(allowed) < _order(work):
            text = f"no work until the Order is {what}: {shown}" + (f"; {_did(work)}" if work is not None else "")
            return [("recording-before-work", "earliest", allowed.date, "passed", rule, text)]
        text = f"no work until the Order is {what}: {shown}; PREMATURE: {_did(work)} came first, a violation on record ({rule})"
        return [("recording-before-work", "earliest", allowed.date, "premature", rule, text)]
    if work is None:
        return []
    before = [t for t, e in zip(needed, done, strict=True) if e is None or _order(e) > _order(work)]
    text = (
        f"{_did(work)} with no {' and no '.join(before)} before it: no work until the Order is {what}; "
        f"a violation on record ({rule})"
    )
    return [("recording-before-work", "earliest", work.date, "violated", rule, text)]


def _appeal_pending(events) -> list[tuple]:
    """Work while an appeal of the Order is pending: after the request and
    before the decision (none yet: still pending)."""
    out = []
    for asked in (e for e in events if e.type == "appeal-requested"):
        decided = next((e for e in events if e.type == "appeal-decided" and _order(e) > _order(asked)), None)
        for w in (e for e in events if e.type in WORK and _order(e) > _order(asked)):
            if decided is not None and _order(w) > _order(decided):
                break
            until = f"decided on {decided.date} (event {decided.position})" if decided else "not yet decided"
            text = (
                f"{_did(w)} while the appeal of {asked.date} (event {asked.position}) was pending, {until}: no work "
                f"until every appeal taken is finished; a violation on record ({APPEALS})"
            )
            out.append(("appeal-before-work", "earliest", w.date, "violated", APPEALS, text))
            break
    return out[:1]


def _expired(rec, events) -> list[tuple]:
    expiry = rec.expiry()
    if expiry is None:
        return []
    late = next((e for e in events if e.type in WORK and e.date > expiry), None)
    if late is None:
        return []
    try:
        cited = rec.rules.clock("permit-expiry").citation
    except UnknownChoice:  # pragma: no cover - expiry() found it
        cited = rec.rules.bylaw
    rule = cited if EXPIRED_ORDER in cited else f"{cited}; {EXPIRED_ORDER}"
    text = (
        f"{_did(late)} after the permit expired on {expiry}: work on an expired Order is a violation, and an "
        f"expired Order cannot be extended (a new filing is needed); a violation on record ({rule})"
    )
    return [("permit-expiry", "expiry", expiry, "violated", rule, text)]
