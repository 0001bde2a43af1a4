"""axe-core (vendored under tests/web/vendor, see VENDORED.txt there) run in
a Playwright page: the violations of impact serious or critical.

The script is handed to the page through the browser's debugging protocol
(``page.evaluate``), not as a ``<script>``: the workbench's
Content-Security-Policy refuses inline scripts, and a test must not loosen
it.  The one copy of axe-core in the repository; every browser test that
checks accessibility imports ``serious_violations`` from here."""

from __future__ import annotations

from pathlib import Path

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
SERIOUS = ("serious", "critical")


def serious_violations(page) -> list[str]:
    """Each serious or critical axe violation of the page now, as
    'rule: first element (help, N nodes)'."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE + "\n;0")
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .map(v => [v.impact, v.id, v.nodes[0] ? v.nodes[0].target.join(' ') : '', v.help, v.nodes.length])"""
    )
    return [f"{rule}: {where} ({why}, {n} nodes)" for impact, rule, where, why, n in found if impact in SERIOUS]
