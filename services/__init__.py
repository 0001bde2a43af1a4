"""The service layer: one home for each action a user takes, called by both
interfaces (the ``permits`` command line and the web workbench), which only
parse their input, call one function here and print or render the answer.

Each module is one action or a small family of them, each a plain function
taking the store, its inputs and the day or moment (``today``, ``now``) as
parameters: never a web request or an argparse namespace, never the clock.
An action that writes does all of its writing in one transaction.

- :mod:`services.record`: record an event, void one, mark an online
  application complete or incomplete (the applicant's email queued in the
  same transaction);
- :mod:`services.invite`: invite an applicant, owner or contractor;
- :mod:`services.abutters`: read an assessors' abutter list (every
  encoding, the owner merge), store it on a filing, read it back;
- :mod:`services.notices`: which notices fit a filing now, and produce one
  (rendering a recorded notice again is not a second sending);
- :mod:`services.apply`: apply online (filing, plans and applicant link in
  one transaction), and resubmit;
- :mod:`services.schedule`: the DPW's schedule (inspections, other dates);
- :mod:`services.inspections`: record an inspection with its photos, and on
  a fail its defect and re-inspection day;
- :mod:`services.deposits`: fill a street opening's deposit ledger from its
  events, and list the open deposits;
- :mod:`services.feeds`: a docket's calendar feed;
- :mod:`services.sweep`: run the daily sweep (Prefect or plain);
- :mod:`services.demo`: build the demonstration store.

May import: every layer below (the sweep and the demo, the settings,
notices, the record, the permit core, date law).  Never an interface.
"""

__all__ = [
    "abutters",
    "apply",
    "demo",
    "deposits",
    "feeds",
    "inspections",
    "invite",
    "notices",
    "record",
    "schedule",
    "sweep",
]
