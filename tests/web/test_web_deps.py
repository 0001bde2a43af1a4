"""The app's state has one door, web/deps.py: no module of ``web/`` but
web/app.py (which keeps the context there) and web/deps.py reads
``app.state``; a route takes what it needs as typed parameters
(``StoreDep``, ``Today``, ``StaffUser``...).  And every route of the staff's
and the applicants' rooms says who may call it first, a dependency of
web/deps.py, so a stranger is sent to the login page before anything else
is read (docs/engineering/architecture.md, "A route")."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from routekit import routes

from web import deps

ROOT = Path(__file__).resolve().parents[2]
#: the modules that may read the app's state: the one that keeps the context there, and its door
DOORS = {"web/app.py", "web/deps.py"}
_STATE = re.compile(r"\bapp\s*\.\s*state\b|getattr\(\s*[\w.]*app\s*,\s*[\"']state[\"']")


def state_reads(root: Path) -> list[str]:
    """Each line of a module under ``root``/web, but the doors, that reads
    the app's state."""
    found = []
    for path in sorted((root / "web").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in DOORS:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _STATE.search(line):
                found.append(f"{rel}:{n}: {line.strip()}")
    return found


def test_only_web_app_and_web_deps_read_the_apps_state():
    assert state_reads(ROOT) == [], "read the context through web/deps.py's dependencies:\n" + "\n".join(state_reads(ROOT))


def test_the_check_finds_a_state_look_up_planted_in_a_copy_of_the_web(tmp_path):
    shutil.copytree(ROOT / "web", tmp_path / "web", ignore=shutil.ignore_patterns("__pycache__", "static", "templates"))
    assert state_reads(tmp_path) == []
    planted = tmp_path / "web" / "staff" / "pages.py"
    planted.write_text(planted.read_text(encoding="utf-8") + "\n\ndef sneaky(request):\n    return request.app.state.store\n")
    other = tmp_path / "web" / "render.py"
    other.write_text(other.read_text(encoding="utf-8") + '\nSTATE = getattr(request.app, "state")\n')
    found = state_reads(tmp_path)
    assert [f.split(":")[0] for f in found] == ["web/render.py", "web/staff/pages.py"], found


# -- who may call ----------------------------------------------------------------

#: the dependencies that say who may call a route
WHO = {deps.session_user, deps.current_user, deps.admin_user, deps.current_applicant}
#: the rooms whose every route has a caller to check
ROOMS = ("web.staff.", "web.applicant.")
#: routes of those rooms open to anyone, with why
OPEN = {
    "/calendar/{token}.ics": "a calendar program cannot log in: the secret token in the address is the key",
}


def test_every_route_of_the_staff_and_applicant_rooms_says_who_may_call_it_first(web):
    wrong = []
    for route in routes(web.app):
        if not route.endpoint.__module__.startswith(ROOMS) or route.path in OPEN:
            continue
        first = route.route.dependant.dependencies[0].call if route.route.dependant.dependencies else None
        if first not in WHO:
            wrong.append(
                f"{sorted(route.methods)} {route.path} ({route.endpoint.__module__}): first {getattr(first, '__name__', first)}"
            )
    assert wrong == [], "routes whose first dependency is not who may call them:\n" + "\n".join(wrong)


def test_the_open_routes_are_still_routes(web):
    paths = {r.path for r in routes(web.app)}
    assert set(OPEN) <= paths
