# Two commands for a fresh clone with only Python 3.11 and the package
# registries:  `make demo` (the main job) and `make test` (the suite).
# Each sets up .venv/ from requirements.lock on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench reliability sweep-equality lock clean

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check uv
	$(BIN)/uv pip install -q --python $(BIN)/python -r requirements.lock
	# compat: the checkout itself on sys.path (a .pth line), so a script run
	# from tests/ finds the packages before the test folders named like them
	$(BIN)/uv pip install -q --python $(BIN)/python --no-deps -e . --config-settings editable_mode=compat
	touch $(STAMP)

# `make demo PORT=8123`: serve on another port (its emails' links too);
# a second demo at the same time: `PERMITS_DATA_DIR=/another/folder make demo PORT=8001`
PORT ?= 8000
demo: $(STAMP)
	$(BIN)/permits demo --port $(PORT)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	# one worker per core (pytest-xdist), a test file's tests on one worker so
	# its module fixtures are made once: about half the time on 2 cores
	$(BIN)/python -m pytest -n auto --dist loadfile

# The reliability suite's long versions (10,000 fuzz examples, 2,500 form
# fuzz examples, 8 writers, 10 kills each, 40 session replays) and the table
# of runs, lost, duplicated, tracebacks.
reliability: $(STAMP)
	$(BIN)/python tests/reliability/long_run.py

# The incremental sweep against the full sweep through a quarter of days
# (tests/sweep/test_incremental_equal.py, its slow version; make test runs a month)
sweep-equality: $(STAMP)
	$(BIN)/python -m pytest -p no:cacheprovider -m slow tests/sweep/test_incremental_equal.py

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

# Re-resolve the pinned dependency set after changing pyproject.toml.
lock:
	$(BIN)/uv pip compile -q pyproject.toml --extra dev --extra bench -o requirements.lock

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
