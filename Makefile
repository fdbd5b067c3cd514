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

.PHONY: run test lint bench soak clean data palettes lock

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
	$(BIN)/mypy
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n 3

lint: $(STAMP)
	$(BIN)/ruff check engine bot tests bench tools
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m bench

soak: $(STAMP)
	HYPOTHESIS_PROFILE=explore $(BIN)/python -m pytest tests --soak

# Rebuild engine/data from the facts in ../shared/data (a developer step, never run by the bot).
data: $(STAMP)
	$(BIN)/python tools/build_data.py ../shared/data engine/data

# Rewrite each board's palette (bot/games/<game>/palette.json) from its sample pictures, after changing its
# colours (a developer step; tests/render/test_render_palette.py says when one is out of date).
palettes: $(STAMP)
	$(BIN)/python tools/build_palettes.py

# The Docker image's pinned dependencies, each with the hashes of its release files (the image installs them with
# pip's --require-hashes: a file that is not the one locked is refused). pip-compile (pip-tools), in a fresh venv
# with Python 3.11 as in the image, resolves pyproject.toml's dependencies and the build's setuptools afresh.
# Run it after changing pyproject.toml's dependencies, or to take newer releases; commit the lock with the change.
LOCK := deploy/requirements.lock
LOCK_TOOLS := pip-tools==7.7.0
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip "$(LOCK_TOOLS)"
	CUSTOM_COMPILE_COMMAND="make lock" .lock-venv/bin/pip-compile --quiet --generate-hashes --allow-unsafe \
	    --build-deps-for wheel --strip-extras --no-emit-index-url --no-emit-find-links --no-emit-trusted-host \
	    --output-file $(LOCK) pyproject.toml
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
