# memoryhub: `make run` serves everything on an embedded default; `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test browser pgbouncer install migrate bench-locomo bench-scale clean-data client-models

# The Python client (clients/python) is installed editable, so its tests and examples run the checkout's code.
$(STAMP): requirements.txt clients/python/pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	$(PY) -m pip install -q -e ./clients/python
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(PY) -m memoryhub.embedded run

# The console's browser tests drive Debian's Chromium; `browser` installs it (and ChromeDriver) when missing.
test: $(STAMP) browser pgbouncer
	$(PY) -m memoryhub.embedded exec -- $(PY) -m pytest $(PYTEST_ARGS)

browser:
	bash .ci/install_browser.sh

# The scale-out test (tests/scaleout/) runs its own PgBouncer; `pgbouncer` installs Debian's when missing.
pgbouncer:
	bash .ci/install_pgbouncer.sh

migrate: $(STAMP)
	$(PY) manage.py migrate

# After an API change: the Python client's typed models (and its stub) again from the OpenAPI schema (a test compares them).
client-models: $(STAMP)
	$(PY) manage.py spectacular --format openapi-json --file .data/openapi.json
	$(PY) -m memoryhub_client._codegen .data/openapi.json > clients/python/memoryhub_client/models.py
	$(PY) -m memoryhub_client._stubgen > clients/python/memoryhub_client/client.pyi

clean-data:
	rm -rf .data

# Benchmarks talk to a running service: `make run` in one terminal, then e.g.
#   make bench-locomo BENCH_ARGS="--base-url http://127.0.0.1:8000 --api-key $KEY --json locomo.json"
bench-locomo: $(STAMP)
	$(PY) bench/locomo_retrieval.py --data ../shared/bench/locomo/locomo_dev.json $(BENCH_ARGS)

bench-scale: $(STAMP)
	$(PY) bench/scale.py $(BENCH_ARGS)
