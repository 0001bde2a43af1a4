"""axe-core (vendored from npm in tests/web/vendor, MPL-2.0) run in a
Playwright page: the serious and critical violations it finds.  The script
is handed to the page through the DevTools protocol (``page.evaluate``),
not as a ``<script>``: the workbench's Content-Security-Policy refuses
inline scripts, and the test must not loosen it."""

from __future__ import annotations

from pathlib import Path

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")


def serious_violations(page) -> list[str]:
    """Each serious or critical violation on the page as "rule: the first
    element's selector (help)"."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(f"() => {{ {AXE}\n }}")
        page.evaluate("() => { if (!window.axe && typeof axe !== 'undefined') window.axe = axe; }")
    found = page.evaluate(
        """async () => {
            const r = await window.axe.run(document, {resultTypes: ['violations']});
            return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
                .map(v => `${v.id}: ${v.nodes[0] ? v.nodes[0].target.join(' ') : ''} (${v.help})`);
        }"""
    )
    return list(found)
