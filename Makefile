# Pitboss: every target runs through the project's virtualenv in .venv/.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_ADDRESS ?= 127.0.0.1:8000

.DEFAULT_GOAL := help
.PHONY: help .venv demo test bench lint format clean

help:
	@echo "make demo    migrate and serve the back office at http://$(DEMO_ADDRESS)"
	@echo "make test    run the test suite (pytest)"
	@echo "make bench   run the benchmarks in tests/benchmarks/"
	@echo "make lint    ruff check and ruff format --check"
	@echo "make format  apply ruff's fixes and formatting"
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
	@# Simulated shoes of each game, sent through the same ingest as a game server's rounds:
	@# a few wrong payouts, cancelled rounds (each opens an incident) and breached limits.
	@for game in deluxe boundless classic multiplayer; do \
	  players=7; [ $$game = boundless ] && players=200; \
	  $(BIN)/python manage.py simulate --game $$game --shoes 2 --players $$players --seed 1 \
	    --wrong-payout-rate 0.03 --cancel-rate 0.02 --out var/rounds/$$game && \
	  echo "$$game:" && $(BIN)/python manage.py ingest var/rounds/$$game/*.json --summary || exit 1; \
	done
	@echo "Look first at /rounds/?has_findings=true (compliance), /rounds/incidents/ (supervisor)"
	@echo "and /limits/players/P1001/ (customer service)."
	@echo "Pitboss demo: http://$(DEMO_ADDRESS)  (log in with a user printed above, e.g. supervisor / supervisor-demo)"
	$(BIN)/python manage.py runserver $(DEMO_ADDRESS)

test: .venv
	$(BIN)/pytest $(PYTEST_ARGS)

bench: .venv
	$(BIN)/python -m tests.benchmarks.run

lint: .venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: .venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
