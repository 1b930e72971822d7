# Every target makes .venv when missing and installs what it needs into it.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip

.PHONY: demo test bench serve clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PIP) install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PIP) install --quiet -e '.[test]'
	touch $@

demo: $(VENV)/.installed
	$(VENV)/bin/dicetray serve --camera sim --demo --data ./data

test: $(VENV)/.installed-test
	$(PY) -m pytest

bench: $(VENV)/.installed
	$(PY) tests/bench.py

clean:
	rm -rf $(VENV) data .pytest_cache
