"""The reconciliation of the deposit ledger with the record: ``permits
deposits --check``.

The ledger keeps, for each street opening, lines filled from its events
(:func:`services.deposits.fill_ledger_in`, in the transaction that records
each event; an import fills them for the filings it brings in).  The check
recomputes every permit's figures from its live events alone
(:func:`workflows.deposit_events.permit_figures`: the deposit charged,
received, kept and refunded, what the Town holds, the fees charged and
paid) and compares them with the ledger's lines filled from events (each
voided event's reversal netted); then reads every applicant's account
again from its entries (:func:`workflows.deposits.statement`), which must
bear every one of them.  A
difference names the permit, the figure and both amounts.  Lines entered
by hand (``permits deposits --charge``, ``--deduct``, ``--refund``: no
event) are counted apart, not differences: they are the Awarding
Authority's own entries (docs/reference/readings.md, "What the Town holds").

Read only: it writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Difference", "LedgerCheck", "check_ledger", "FIGURES"]

#: the figures compared, by the ledger entry that makes each
FIGURES = (
    ("charged", "deposit"),
    ("received", "received"),
    ("kept", "deduction"),
    ("refunded", "refund"),
    ("fees", "fee"),
    ("fees_paid", "payment"),
)
_WORDS = {
    "charged": "deposit charged",
    "received": "deposit received",
    "kept": "kept for repairs",
    "refunded": "refunded",
    "held": "held",
    "fees": "fees charged",
    "fees_paid": "fees paid",
}


@dataclass(frozen=True)
class Difference:
    """One figure where the ledger and the record disagree (cents), or a
    refusal (``problem``) the record or an account cannot get past."""

    subject: str  # a permit's id, or an applicant's name
    figure: str
    ledger: int | None = None
    events: int | None = None
    problem: str = ""

    def words(self) -> str:
        from workflows.deposits import money

        if self.problem:
            return f"{self.subject}: {self.problem}"
        what = _WORDS.get(self.figure, self.figure)
        return f"{self.subject}: {what} {money(self.ledger)} in the ledger, {money(self.events)} from its events"

    def as_dict(self) -> dict:
        return {
            "subject": self.subject,
            "figure": self.figure,
            "ledger": None if self.ledger is None else f"{self.ledger / 100:.2f}",
            "events": None if self.events is None else f"{self.events / 100:.2f}",
            "problem": self.problem or None,
            "words": self.words(),
        }


@dataclass(frozen=True)
class LedgerCheck:
    """What the check found: ``permits`` compared, ``accounts`` read again,
    the ``held`` total recomputed from the events, the lines entered
    ``by_hand`` (how many), and the ``differences``."""

    permits: int
    accounts: int
    held: int
    by_hand: int
    differences: list[Difference] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences

    def as_dict(self) -> dict:
        return {
            "permits": self.permits,
            "accounts": self.accounts,
            "held": f"{self.held / 100:.2f}",
            "by_hand": self.by_hand,
            "differences": [d.as_dict() for d in self.differences],
        }


def _street_openings(store, town: str | None) -> list[tuple[str, int | None]]:
    from sqlalchemy import select

    from models.schema.tables import FilingRow

    filing = FilingRow.__table__
    query = select(filing.c.id, filing.c.applicant_id).where(filing.c.kind == "street-opening").order_by(filing.c.id)
    if town is not None:
        query = query.where(filing.c.town == town)
    with store.reader.connect() as conn:
        return [tuple(r) for r in conn.execute(query)]


def _categories(store) -> dict[int, str]:
    from sqlalchemy import select

    from models.schema.tables import Party

    party = Party.__table__
    with store.reader.connect() as conn:
        return dict(conn.execute(select(party.c.id, party.c.category)).all())


def check_ledger(store, *, town: str | None = None) -> LedgerCheck:
    """Recompute every street opening's figures (of ``town``; None: every
    town) from its events and compare them with the ledger; read every
    account again.  Writes nothing."""
    from models.read.deposits import accounts, ledger_sums
    from workflows.deposit_events import category_of, permit_figures
    from workflows.deposits import Figures, LedgerRefused, statement
    from workflows.errors import PermitsError
    from workflows.replay import live_events

    from .deposits import ledgered

    sums, categories = ledger_sums(store.engine), _categories(store)
    out: list[Difference] = []
    held = by_hand = compared = 0
    for fid, party in _street_openings(store, town):
        compared += 1
        got = sums.pop(fid, {"events": {}, "by_hand": {}})
        by_hand += got.get("by_hand_lines", 0)
        try:
            filing, _ = store.load(fid)
            if ledgered(filing):
                live = live_events(filing)
                expected = permit_figures(fid, live, category_of(live, categories.get(party)))
            else:
                expected = Figures()  # a town whose by-law charges no deposit (Mansfield Ch. 5)
        except (LedgerRefused, PermitsError) as exc:
            out.append(Difference(fid, "events", problem=f"its events cannot be read into the ledger: {exc}"))
            continue
        ledger = Figures(**{name: got["events"].get(entry, 0) for name, entry in FIGURES})
        if party is None and not any(got["events"].values()):
            ledger = expected = Figures()  # no applicant on record: no account to keep
        held += expected.held
        for name, _ in (*FIGURES, ("held", None)):
            mine, theirs = getattr(ledger, name), getattr(expected, name)
            if mine != theirs:
                out.append(Difference(fid, name, mine, theirs))
    if town is None:
        for fid in sorted(sums):  # ledger lines of a filing that is no street opening
            if any(sums[fid]["events"].values()):
                out.append(Difference(fid, "lines", problem="ledger lines filled from events of a filing that keeps no deposit"))
    read = 0
    for name, lines in accounts(store.engine) if town is None else ():
        read += 1
        try:
            statement(name, lines)
        except LedgerRefused as exc:
            out.append(Difference(name, "account", problem=f"the account cannot bear its entries: {exc}"))
    return LedgerCheck(compared, read, held, by_hand, out)
