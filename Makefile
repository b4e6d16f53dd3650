# Two commands on a fresh machine (Python 3.11+ and make): `make demo`, `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test lint typecheck unit layer synth synth-check clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# One stamp per install flavour, redone when pyproject.toml changes.
$(VENV)/.installed-base: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed-base

demo: $(VENV)/.installed-base  ## set up, then run the local demo
	$(BIN)/agent-memory demo

test: lint typecheck  ## set up, then run lint, types and the whole test suite
	$(BIN)/pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

unit: $(VENV)/.installed-dev
	$(BIN)/pytest tests/unit -q

# --- AWS: offline synth (no credentials, no Docker) ---------------------------------------
CDK_ENV := PATH="$(abspath $(BIN)):$$PATH" CDK_DISABLE_VERSION_CHECK=1 CDK_DISABLE_CLI_TELEMETRY=1 AWS_EC2_METADATA_DISABLED=true

node_modules: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

layer: $(VENV)/.installed-dev  ## the Lambda dependency layer, built without Docker
	$(BIN)/python layers/build.py

synth: $(VENV)/.installed-dev node_modules  ## npx cdk synth (builds the layer first)
	$(CDK_ENV) npx cdk synth --no-notices -q

synth-check: synth  ## python app.py must write the same template as the CLI
	rm -rf build/app-out
	$(CDK_ENV) CDK_OUTDIR=build/app-out $(BIN)/python app.py
	cmp cdk.out/AgentMemory.template.json build/app-out/AgentMemory.template.json
	@echo "npx cdk synth and python app.py wrote the same template"

clean:
	rm -rf $(VENV) build cdk.out node_modules *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
