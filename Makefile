# The two commands: `make run` and `make test`. Each sets up .venv on first use: `make run` installs only
# what running needs (its own stamp), `make test` adds the test tools.
# `make run` without DISCORD_TOKEN opens the local console and keeps its games in $(CONSOLE_DB);
# pass console options with ARGS, e.g. `make run ARGS="--lang en"`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run
CONSOLE_DB ?= data/console.sqlite3
ARGS ?=

.PHONY: run test lint bench soak clean data

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP) $(RUN_STAMP)

$(RUN_STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

run: $(RUN_STAMP)
	@if [ -n "$$DISCORD_TOKEN" ]; then $(BIN)/python -m bot; \
	else mkdir -p $(dir $(CONSOLE_DB)) && $(BIN)/python -m bot console --db $(CONSOLE_DB) $(ARGS); fi

test: $(STAMP)
	$(BIN)/ruff check engine bot tests bench tools
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check engine bot tests bench tools

bench: $(STAMP)
	$(BIN)/python -m bench

soak: $(STAMP)
	HYPOTHESIS_PROFILE=explore $(BIN)/python -m pytest tests --soak

# Rebuild engine/data from the facts in ../shared/data (a developer step, never run by the bot).
data: $(STAMP)
	$(BIN)/python tools/build_data.py ../shared/data engine/data

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
