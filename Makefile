# The two commands: `make run` and `make test`. Each sets up .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench soak clean data

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

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
