# gradtrace: every target does its own set-up, idempotently.
# make run    build everything and serve the app on http://127.0.0.1:8000
# make test   build everything and run every test
# make bench  run the benchmarks and rewrite BENCHMARKS.md

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
# The CPU build of torch that lies on this machine's disk; pyproject asks only torch>=2.4.
TORCH_PIN := torch==2.13.0
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: all setup backend-setup sandbox-setup redis-setup proxy-setup frontend-setup browser-setup frontend run test test-gpu test-backend lint test-frontend test-e2e bench bench-setup clean doctor

all: setup

setup: backend-setup frontend

$(VENV)/.stamp-torch:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q $(TORCH_PIN)
	touch $@

$(VENV)/.stamp-backend: $(VENV)/.stamp-torch pyproject.toml
	$(PIP) install -q -e '.[dev]'
	touch $@

backend-setup: $(VENV)/.stamp-backend sandbox-setup

# Debian's bubblewrap and libseccomp: the workers' sandbox (without them the service still
# runs, with a warning naming each missing layer; `make doctor` says which are active).
sandbox-setup:
	@{ command -v bwrap >/dev/null 2>&1 && { /sbin/ldconfig -p 2>/dev/null || ldconfig -p; } | grep -q libseccomp.so.2; } || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq bubblewrap libseccomp2; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq bubblewrap libseccomp2; fi; }

doctor: backend-setup
	$(VENV)/bin/gradtrace doctor

# The frontend is built into backend/gradtrace/static, which the server serves at /.
frontend/node_modules/.stamp: frontend/package.json
	cd frontend && npm ci --no-audit --no-fund
	touch $@

frontend-setup: frontend/node_modules/.stamp

frontend: backend-setup frontend-setup
	cd frontend && npm run build

# Debian's redis-server: the tests of replicas sharing rooms and traces run a real one.
redis-setup:
	@command -v redis-server >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq redis-server; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq redis-server; fi; }

# Debian's nginx: the tests run deploy/nginx.conf, the compose file's proxy, in front of a replica.
proxy-setup:
	@command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq nginx-light; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq nginx-light; fi; }

# Debian's chromium for the browser tests (playwright-core drives it; no browser download).
browser-setup:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq chromium; fi; }

run: setup
	$(VENV)/bin/gradtrace serve --host $(HOST) --port $(PORT)

lint: backend-setup frontend-setup
	$(VENV)/bin/ruff check backend tests bench setup.py
	$(VENV)/bin/ruff format --check backend tests bench setup.py
	$(VENV)/bin/mypy
	cd frontend && npm run check:api && npm run format:check

test-backend: backend-setup redis-setup proxy-setup
	$(PY) -m pytest -q -n 2 tests

test-frontend: frontend-setup
	cd frontend && npm run check && npm run test:unit

test-e2e: setup browser-setup
	cd frontend && npm run test:e2e

test: setup browser-setup lint test-backend test-frontend test-e2e

# On a host with an NVIDIA GPU (and torch's CUDA build): the tests that `make test` skips
# without one (the differential programs on the GPU, a sandboxed GPU worker, its memory).
test-gpu: backend-setup
	@$(PY) -c "import sys, torch; sys.exit(0 if torch.cuda.is_available() else 'torch sees no CUDA device here: the GPU tests need one')"
	$(PY) -m pytest -q -n 2 -m cuda tests

# torchviz and Graphviz's dot only draw the comparison figures of the browser benchmark.
bench-setup: setup browser-setup redis-setup
	@command -v dot >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get install -y -qq graphviz; \
	  else sudo apt-get install -y -qq graphviz; fi; }
	$(PIP) install -q -e '.[bench]'

bench: bench-setup
	$(PY) -m bench.run

clean:
	rm -rf $(VENV) frontend/node_modules frontend/dist backend/gradtrace/static
