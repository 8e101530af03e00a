# The two commands of the README: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint bench clean clean-cache screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev,distributed]'
	touch $(VENV)/.installed $@

demo: $(VENV)/.installed
	$(BIN)/clobbermania reproduce solitaire
	$(BIN)/clobbermania solitaire solve xoxoxo/oxoxox/xoxoxo/oxoxox/xoxoxo --first any --svg tournament-5x6.svg
	@echo "picture of the witness written to tournament-5x6.svg"
	$(BIN)/clobbermania solitaire reduce 40x40 --first white --no-moves --svg reduce-40x40.svg
	$(BIN)/clobbermania reproduce grundy
	$(BIN)/clobbermania grundy value xo_oxx
	$(BIN)/clobbermania clobber value xoxo/oxox/xoxo
	$(BIN)/clobbermania reproduce clobber
	$(BIN)/clobbermania reproduce clickomania
	$(BIN)/clobbermania clickomania solve 12213/21132/13321/32113 --maximize --svg clickomania.svg
	@echo "picture of the clicks written to clickomania.svg"
	@echo
	@echo "To play every game in the browser, start the local web application:"
	@echo "  $(BIN)/clobbermania serve --open     (http://127.0.0.1:8000/, Ctrl-C stops it)"

test: $(VENV)/.installed-dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m pytest

# The browser tests' screenshots, copied to docs/img/ where the README and docs/web.md show
# them (needs Debian's chromium).
screenshots: $(VENV)/.installed-dev
	CLOBBERMANIA_SCREENSHOTS=docs/img CLOBBERMANIA_REQUIRE_BROWSER=1 \
		$(BIN)/python -m pytest -p no:cacheprovider tests/web/test_browser.py

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/solitaire.py

clean:
	rm -rf $(VENV) build src/*.egg-info

# numba's cache checks only the file of the function it compiled: after a change to a
# kernel module that others import (src/clobbermania/_bits.py, solitaire/_kernels.py)
clean-cache:
	find src -name '*.nb[ic]' -delete
