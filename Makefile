# Pitboss: every target runs through the project's virtualenv in .venv/.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_ADDRESS ?= 127.0.0.1:8000
# make bench's sizes: full (BENCHMARKS.md's) or smoke (every benchmark in seconds; its figures not to be compared)
BENCH_SCALE ?= full
# make test's processes (pytest-xdist): one per core, at most 4 (each migrates its own test database);
# 0 runs the suite in this one process (a single core, or TEST_PROCESSES=0 to debug).
CORES := $(shell nproc 2>/dev/null || echo 1)
TEST_PROCESSES ?= $(shell n=$(CORES); if [ $$n -le 1 ]; then echo 0; elif [ $$n -gt 4 ]; then echo 4; else echo $$n; fi)

.DEFAULT_GOAL := help
.PHONY: help .venv demo test bench soak lint format messages clean htmx

help:
	@echo "make demo    migrate, play a simulated day, then serve the back office at http://$(DEMO_ADDRESS) with a Celery worker and beat (Ctrl-C stops all three)"
	@echo "make test    run the test suite (pytest, on every core: TEST_PROCESSES=0 for one process)"
	@echo "make bench   run the benchmarks in tests/benchmarks/ (only some: BENCH=\"reports pages\"; in seconds: BENCH_SCALE=smoke)"
	@echo "make soak    gunicorn, a Celery worker and beat under game servers and staff for minutes, disrupted midway, then checked: nothing lost or done twice (SOAK_SCALE=tiny: in seconds)"
	@echo "make lint    ruff check, ruff format --check, the import contracts and the internals check"
	@echo "make format  apply ruff's fixes and formatting"
	@echo "make messages  refresh the Filipino catalogue of the rule sheets (needs gettext), then translate and run it again"
	@echo "make clean   remove .venv and the caches (keeps var/, the development database)"

.venv: $(STAMP)

# Re-installs whenever requirements.txt is newer than the stamp.
$(STAMP): requirements.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null || { \
	  echo "Django 6 needs Python 3.12 or newer, but '$(PYTHON)' is $$($(PYTHON) --version 2>&1 || echo missing)."; \
	  echo "The repository's .python-version selects 3.12.1 via pyenv (pyenv install 3.12.1),"; \
	  echo "or name another interpreter: make PYTHON=python3.12 ..."; \
	  exit 1; }
	@if [ -x $(BIN)/python ] && ! $(BIN)/python -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then \
	  echo "$(VENV) was made with an older Python; run 'make clean' and try again."; exit 1; fi
	@[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	@touch $@

demo: .venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo
	@# Yesterday's gaming day at every table through the same ingest as a game server's rounds,
	@# its incidents and corrections, then the daily job: figures and both PDFs in var/reports/.
	$(BIN)/python manage.py demo_day
	@echo ""
	@echo "Pitboss demo: http://$(DEMO_ADDRESS)  (log in with a user printed above, e.g. compliance / compliance-demo)"
	@echo "Look first at:"
	@echo "  /floor/                     every table live: a round dealt at each every 15 s while the demo runs (supervisor)"
	@echo "  /reports/daily/             the day's RTP against theory, with intervals, flags and 30/90-day trends (compliance)"
	@echo "  /reports/exposure/          side-option liability, hits against the exact odds (compliance)"
	@echo "  /rounds/?has_findings=true  rounds the engine disagrees with, card by card (compliance)"
	@echo "  /rounds/incidents/          the unreadable card and the network failures (supervisor)"
	@echo "  /tables/BND1/               configuration, theoretical RTP and limits (supervisor)"
	@echo "  /limits/players/PDLX10002/  a player with a personal limit and breached bets (customer service)"
	@echo "The players' rule sheets, public (no sign-in), in English and Filipino; ?at=<ISO time> for an earlier one:"
	@for code in DLX1 BND1 CLS1 MPB1; do \
	  echo "  http://$(DEMO_ADDRESS)/rules/$$code/  http://$(DEMO_ADDRESS)/rules/$$code/fil/"; done
	@echo "Running now (manage.py demo_run): the web server, a Celery worker and Celery beat, on kombu's filesystem"
	@echo "broker (messages are files in var/broker/: no server). A report run (/reports/runs/new/) or a configuration"
	@echo "proposal goes to the worker, and its page shows the progress; beat deals a round at each open table every"
	@echo "15 s (PITBOSS_DEMO_DEALING), so the floor moves. Each alert's emails are printed on the worker's output"
	@echo "(no mail server: EMAIL_HOST is unset for the demo). Ctrl-C stops all three."
	CELERY_BROKER_URL=filesystem:// PITBOSS_DEMO_DEALING=15 EMAIL_HOST= $(BIN)/python manage.py demo_run --address $(DEMO_ADDRESS)

# htmx, vendored into static/ from its npm package (the pages load nothing from the internet); run
# this only to change its version, then commit the files.
HTMX_VERSION = 2.0.11
htmx:
	cd "$$(mktemp -d)" && npm pack --silent htmx.org@$(HTMX_VERSION) >/dev/null \
	  && tar xzf htmx.org-$(HTMX_VERSION).tgz \
	  && cp package/dist/htmx.min.js package/LICENSE "$(CURDIR)/static/vendor/htmx/"

# --dist loadfile: a file's tests stay in one process, so its module fixtures are built once.
test: .venv
	$(BIN)/pytest -n $(TEST_PROCESSES) --dist loadfile $(PYTEST_ARGS)

bench: .venv
	BENCH_SCALE=$(BENCH_SCALE) $(BIN)/python -m tests.benchmarks.run $(BENCH)

# SOAK_SCALE: default (minutes, BENCHMARKS.md's) or tiny (its test's); SOAK_ARGS: --seconds N,
# --report PATH, --no-replica (python -m tests.soak.run --help).
SOAK_SCALE ?= default
soak: .venv
	$(BIN)/python -m tests.soak.run --scale $(SOAK_SCALE) $(SOAK_ARGS)

# lint-imports: the layers of pyproject.toml's [tool.importlinter]; tools.internals: only the documented
# API of the dependencies ([tool.pitboss.internals]).
lint: .venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/python -m tools.internals

format: .venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The rule sheets' messages only (sheets/ and templates/sheets/, and the players' words of the side
# option patterns, which blackjack/pattern_words.py marks): the staff portal is not translated.
MESSAGES_IGNORE := $(foreach d,$(filter-out sheets/ templates/ locale/ blackjack/,$(wildcard */)),--ignore=$(d)*) \
	$(foreach d,$(filter-out templates/sheets,$(wildcard templates/*)),--ignore=$(d)) --ignore=manage.py

messages: .venv
	$(BIN)/python manage.py makemessages -l fil --no-location --no-obsolete $(MESSAGES_IGNORE)
	$(BIN)/python manage.py compilemessages -l fil --ignore=.venv

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
