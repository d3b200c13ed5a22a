# memoryhub: `make run` serves everything on an embedded default; `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test install migrate bench-locomo bench-scale clean-data

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(PY) -m memoryhub.embedded run

test: $(STAMP)
	$(PY) -m memoryhub.embedded exec -- $(PY) -m pytest $(PYTEST_ARGS)

migrate: $(STAMP)
	$(PY) manage.py migrate

clean-data:
	rm -rf .data
