# SmartMate: two commands for a fresh machine (see README).
#   make run   - embedded defaults: venv, install, migrate, demo data, daphne on http://127.0.0.1:8000
#   make test  - install what the tests need and run the whole suite
#   make lint  - ruff (lint + import order) and mypy (types), as configured in pyproject.toml
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint install install-dev migrate demo worker beat bench-planner bench-ws bench-turns loadcheck messages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	@touch $@

$(VENV)/.dev: requirements-dev.txt requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	@touch $@

install: $(VENV)/.runtime
install-dev: $(VENV)/.dev

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py seed_demo

run: demo
	@echo "SmartMate on http://$(HOST):$(PORT)/  (Ctrl-C to stop)"
	@# A deep listen backlog and a patient websocket handshake: a class logging in at once must not
	@# see connection resets or refused sockets (daphne's defaults are a backlog of 50 and 5 s).
	$(BIN)/python -m daphne -e tcp:$(PORT):interface=$(HOST):backlog=1024 --websocket_connect_timeout 30 \
		smartmate.asgi:application

test:
	bash .ci/test

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/mypy

# Real services (REDIS_URL set): run these beside `make run` in other terminals.
worker: install
	$(BIN)/celery -A smartmate worker -Q default,agent,memory --loglevel=INFO

beat: install
	$(BIN)/celery -A smartmate beat --loglevel=INFO

# Keeps the entries written by hand (Django's own strings): a plain makemessages --no-obsolete drops them.
messages: install-dev
	$(BIN)/python manage.py catalog_refresh

bench-planner: install
	$(BIN)/python -m bench.planner_bench

# The assistant: websocket load (BENCH_WS_ARGS="--mode redis" needs REDIS_URL) and per-turn overhead.
bench-ws: install-dev
	$(BIN)/python -m bench.ws_bench $(BENCH_WS_ARGS)

bench-turns: install-dev
	$(BIN)/python -m bench.turns_bench $(BENCH_TURNS_ARGS)

# The whole product under N concurrent students (LOADCHECK_ARGS="--users 300"; DATABASE_URL for MariaDB).
loadcheck: install-dev
	$(BIN)/python -m bench.loadcheck $(LOADCHECK_ARGS)
