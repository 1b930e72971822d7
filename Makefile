# Every target makes .venv when missing and installs what it needs into it.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
# make demo PORT=8001 HOST=0.0.0.0: another port, or open to the TV and tablet.
PORT   ?= 8000
HOST   ?= 127.0.0.1

.PHONY: demo test bench clean

# Installs say what they do on stderr, so that `make bench` prints nothing but its JSON.
$(PY):
	@echo "making $(VENV)" >&2
	@$(PYTHON) -m venv $(VENV)
	@$(PIP) install --quiet --upgrade pip >&2

$(VENV)/.installed: pyproject.toml | $(PY)
	@echo "installing dicetray into $(VENV)" >&2
	@$(PIP) install --quiet -e . >&2
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	@echo "installing dicetray and its test tools into $(VENV)" >&2
	@$(PIP) install --quiet -e '.[test]' >&2
	@touch $@

demo: $(VENV)/.installed
	$(VENV)/bin/dicetray serve --camera sim --demo --data ./data --port $(PORT) --host $(HOST)

test: $(VENV)/.installed-test
	$(PY) -m pytest

bench: $(VENV)/.installed
	@$(PY) tests/bench.py

# Keeps ./data: the games played in `make demo` are the family's too (rm -rf data by hand).
clean:
	rm -rf $(VENV) .pytest_cache
