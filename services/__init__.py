"""The service layer: one home for each action a user takes, called by both
interfaces (the ``permits`` command line and the web workbench), which only
parse their input, call one function here and print or render the answer.

Each module is one action or a small family of them, each a plain function
taking the store, its inputs and the day or moment (``today``, ``now``) as
parameters: never a web request or an argparse namespace, never the clock.
An action that writes does all of its writing in one unit of work.

- :mod:`services.unit_of_work`: the one place a write's transaction begins
  and ends, and what leaves the building after its commit;
- :mod:`services.effects`: what an event causes, as a table by event type
  and permit kind;
- :mod:`services.bootstrap`: what an interface holds (the store and the
  repositories over it), made once when it starts;
- :mod:`services.database`: create the store or bring its schema up to date;
- :mod:`services.backup`: back a town up (the record and its uploads' files
  in one archive, :mod:`services.archive`) and restore it into an empty
  store; :mod:`services.store_copy`: move the record whole to another
  store (SQLite to PostgreSQL or back);
- :mod:`services.imports`: bring filings into the store;
- :mod:`services.numbering`: a new filing's number, the next of its town's
  running sequence, found in the unit of work that imports it;
- :mod:`services.mail`: deliver the email outbox;
- :mod:`services.sessions`: log in and out, the per-address limits on the
  workbench's doors;
- :mod:`services.notice_log`: the notice log of the filings in the store;
- :mod:`services.meetings`: a commission's meetings, agendas, continuances and postings;
- :mod:`services.record`: record an event, void one, mark an online
  application complete or incomplete (what each causes, in the same unit
  of work);
- :mod:`services.invite`: invite an applicant, owner or contractor;
- :mod:`services.accounts`: register (proved by an emailed link), follow
  that link, ask for a password reset and reset;
- :mod:`services.abutters`: read an assessors' abutter list (every
  encoding, the owner merge), store it on a filing, read it back;
- :mod:`services.parcels`: import a town's assessors' parcels, list the
  imports, find a parcel by address or map-lot id, check a site against
  them (and the in-memory index an abutter search runs on);
- :mod:`services.parcel_abutters`: an abutter list computed from the
  parcels by the town's rule, reviewed and used as a filing's list;
- :mod:`services.maps`: the workbench map's GeoJSON (filings on their
  parcels, a filing's parcel and its abutters');
- :mod:`services.notices`: which notices fit a filing now, and produce one
  (rendering a recorded notice again is not a second sending);
- :mod:`services.mailing`: an abutter notice's certified-mail list and
  mailing labels, for the filing page;
- :mod:`services.apply`: apply online (filing, plans and applicant link in
  one transaction), and resubmit with corrected plans and particulars;
- :mod:`services.word`: the applicant's email of each step of their filing,
  queued in the transaction that records it;
- :mod:`services.schedule`: the DPW's schedule (inspections, other dates);
- :mod:`services.inspections`: record an inspection with its photos, and on
  a fail its defect and re-inspection day;
- :mod:`services.fees`: a filing's fee and the payments against it;
  :mod:`services.payments`: record a payment;
- :mod:`services.inspection_requests`: ask for a street opening's
  inspection online, and the open requests for the DPW schedule;
- :mod:`services.deposits`: fill a street opening's deposit ledger from its
  events, list the deposits (charged, received, kept, refunded, held) and
  write them as the treasurer's CSV; :mod:`services.ledger_check`: the
  reconciliation of the ledger with the events (``permits deposits --check``);
- :mod:`services.rederive`: store again what each filing's history implies
  (clocks, a street opening's ledger), after an upgrade;
- :mod:`services.feeds`: a docket's calendar feed;
- :mod:`services.sweep`: run the daily sweep (Prefect or plain), assembled
  in one place (:mod:`services.sweep_assembly`); :mod:`services.sweep_flow` its Prefect flow,
  :mod:`services.sweep_log` its output log on the store;
- :mod:`services.enforcement`: open an enforcement case, its notice of
  violation, Enforcement Order, tickets (priced in the transaction that
  records them) and every later step;
- :mod:`services.demo`: build the demonstration store;
- :mod:`services.users`: the admin's actions on accounts (add, disable,
  enable, role and towns, unlock, a temporary password).

May import: every layer below (the sweep and the demo, the settings,
notices, the record, the permit core, date law).  Never an interface.
"""

__all__ = [
    "abutters",
    "accounts",
    "apply",
    "archive",
    "backup",
    "bootstrap",
    "database",
    "demo",
    "deposits",
    "effects",
    "enforcement",
    "feeds",
    "fees",
    "imports",
    "inspection_requests",
    "inspections",
    "invite",
    "ledger_check",
    "mail",
    "mailing",
    "maps",
    "meetings",
    "notice_log",
    "notices",
    "open_data",
    "numbering",
    "parcel_abutters",
    "parcels",
    "payments",
    "record",
    "record_check",
    "reports",
    "rederive",
    "schedule",
    "sessions",
    "store_copy",
    "sweep",
    "sweep_assembly",
    "sweep_flow",
    "sweep_log",
    "town_fees",
    "unit_of_work",
    "users",
    "word",
]
