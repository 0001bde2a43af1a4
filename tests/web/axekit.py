"""axe-core (vendored under tests/web/vendor, see VENDORED.txt) run in a
Playwright page: the violations of impact serious or critical."""

from __future__ import annotations

from pathlib import Path

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
SERIOUS = ("serious", "critical")


def serious_violations(page) -> list[str]:
    """Each serious or critical axe violation of the page now, as 'rule: target'."""
    page.evaluate(AXE + "\n;0")  # evaluated by the browser's devtools, not a script the page loads
    found = page.evaluate("async () => (await axe.run(document)).violations")
    return [f"{v['id']}: {[n['target'] for n in v['nodes']]}" for v in found if v.get("impact") in SERIOUS]
