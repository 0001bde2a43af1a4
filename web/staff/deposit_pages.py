"""Deposits in the workbench (Canton 16-12 §4-6): every permit of the
user's towns with a deposit, what was charged, received, kept for a repair
and refunded, and what the Town holds, with the totals, filtered by town,
state and age, a page at a time; the same as CSV for the town's treasurer
(``/deposits.csv``, :func:`services.deposits.deposits_csv`); an applicant's
whole account; and the ledger section of a street opening's page.  DPW
staff and admins only: anyone else gets a 404."""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from ..deps import StaffUser, StoreDep, Today
from ..refusals import refusal
from ..render import render
from ..values import number_or

__all__ = ["router", "ledger_section", "dollars"]

router = APIRouter()
STREET = "street-opening"
PER_PAGE = 100
#: the oldest a deposit may be asked about, in days (a hundred years)
AGED_MAX = 36_500


def dollars(cents: int) -> str:
    from workflows.deposits import money

    return money(cents)  # a reversing line's is "-$50.00"


def _towns(user) -> list[str]:
    from workflows.towns import registry

    runs = {t for t, p in registry().items() if p.fees.get(STREET) is not None and p.fees[STREET].schedule}
    return [t for t in user.visible_towns() if t in runs]


def _filters(request: Request, user, today):
    """The page's filters as asked, each kept only when it reads (a town
    the user does not see, a state no street opening has, an age that is
    not a number: dropped), and the service's filter for them."""
    from services.deposits import DepositFilter
    from workflows.street_opening import StreetOpeningState

    q = request.query_params
    visible = _towns(user)
    town = q.get("town", "")
    town = town if town in visible else ""
    state = q.get("state", "")
    state = state if state in {s.value for s in StreetOpeningState} else ""
    aged = number_or(q.get("aged") or None, -1, 0, AGED_MAX)
    shown = {"town": town, "state": state, "aged": "" if aged < 0 else str(aged)}
    towns = [town] if town else (None if user.all_towns else visible)
    which = DepositFilter(towns=towns, state=state or None, aged=None if aged < 0 else aged, today=today)
    return shown, which, visible


def _dpw(user):
    if STREET not in user.kinds:
        raise HTTPException(404)
    return user


@router.get("/deposits")
def deposits(request: Request, user: StaffUser, store: StoreDep, today: Today):
    from models.read.deposits import UnknownApplicant
    from services.deposits import deposit_list
    from services.deposits import statement as applicant_statement
    from workflows.deposits import ENTRY_NAMES
    from workflows.street_opening import StreetOpeningState

    _dpw(user)
    q = request.query_params
    name = q.get("applicant", "")[:200]
    page = number_or(q.get("page"), 1, 1, 100_000)
    shown, which, visible = _filters(request, user, today)
    rows, totals = deposit_list(store, which, page=page, per_page=PER_PAGE)
    statement, error = None, None
    if name:
        try:
            statement = applicant_statement(store, name).as_dict()
        except UnknownApplicant as exc:
            error = refusal(exc)
    here = {k: v for k, v in shown.items() if v}
    ctx = {
        "rows": rows,
        "totals": totals,
        "page": page,
        "pages": max(1, -(-totals.permits // PER_PAGE)),
        "shown": shown,
        "towns": visible,
        "states": [s.value for s in StreetOpeningState],
        "csv": "/deposits.csv" + (f"?{urlencode(here)}" if here else ""),
        "prev": urlencode({**here, "page": page - 1}) if page > 1 else None,
        "next": urlencode({**here, "page": page + 1}) if page * PER_PAGE < totals.permits else None,
        "name": name,
        "statement": statement,
        "error": error,
        "dollars": dollars,
        "entry_names": ENTRY_NAMES,
    }
    return render(request, "staff/deposits.html", ctx, user=user)


@router.get("/deposits.csv")
def deposits_csv(request: Request, user: StaffUser, store: StoreDep, today: Today):
    from services.deposits import deposits_csv as csv_of

    _dpw(user)
    _, which, _ = _filters(request, user, today)
    body = csv_of(store, which)
    return Response(body, media_type="text/csv", headers={"Content-Disposition": 'attachment; filename="deposits.csv"'})


def ledger_section(store, filing_id: str, kind: str) -> dict | None:
    """The filing page's ledger section (a street opening's), or None: the
    deposit charged, received, kept, refunded and held, each a line; the
    fees charged and paid; nothing but a sentence when nothing is charged."""
    if kind != STREET:
        return None
    from services.deposits import permit_ledger
    from workflows.deposits import ENTRY_NAMES

    ledger = permit_ledger(store, filing_id)
    exempt = list(dict.fromkeys(f"{e.note} ({e.rule})" for e in ledger.exempt))
    return {
        "entries": [e for e in ledger.entries if e.entry != "exempt"],
        "nothing": ledger.owes_nothing,
        "exempt": exempt,
        "deposit": bool(ledger.charged or ledger.received),
        "charged": dollars(ledger.charged),
        "received": dollars(ledger.received),
        "kept": dollars(ledger.kept),
        "refunded": dollars(ledger.refunded),
        "held": dollars(ledger.held),
        "fees": dollars(ledger.fees),
        "fees_paid": dollars(ledger.fees_paid),
        "dollars": dollars,
        "entry_names": ENTRY_NAMES,
    }
