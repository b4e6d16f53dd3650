# Two commands on a fresh machine (Python 3.11+ and make): `make demo`, `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test lint typecheck unit dist layer synth synth-check clean

$(BIN)/python:
	@echo "==> creating the virtual environment $(VENV) (agent-memory installs there, nowhere else)"
	$(PYTHON) -m venv $(VENV)
	@echo "==> upgrading pip in $(VENV)"
	$(BIN)/python -m pip install --quiet --upgrade pip

# One stamp per install flavour, redone when pyproject.toml changes. pip is not quiet: on a fresh
# machine the install is most of the first minute, and its progress should show.
$(VENV)/.installed-base: pyproject.toml | $(BIN)/python
	@echo "==> installing agent-memory and its dependencies (about a minute on a fresh machine)..."
	$(BIN)/python -m pip install --progress-bar on -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	@echo "==> installing agent-memory with its test, AWS and CDK tools (a few minutes on a fresh machine)..."
	$(BIN)/python -m pip install --progress-bar on -e '.[dev]'
	touch $@ $(VENV)/.installed-base

demo: $(VENV)/.installed-base  ## set up, then run the local demo
	@echo "==> running the demo (loads the local models: a few seconds)"
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

# The wheel and the sdist, for installing into another project (README: "Install into your own
# project"). The sdist is built first and the wheel from it, so the wheel holds what a source
# install would.
dist: $(VENV)/.installed-dev  ## dist/agent_memory-<version>-py3-none-any.whl and .tar.gz
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

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
	rm -rf $(VENV) build dist cdk.out node_modules *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
