PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES := airflow.* autofix.*

.PHONY: venv test lint typecheck pytest demo up clean llm-up llm-down llm-status

venv: $(STAMP)

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) on PATH (or run: make PYTHON=python3 ...)"; exit 2; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,local-llm]'  # local-llm: llama.cpp builds once (~6 min), pip caches the wheel
	@touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check plugins airflow_dags tests benchmarks
	$(BIN)/ruff format --check plugins airflow_dags tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy --strict plugins/autofix

pytest: $(STAMP)
	$(BIN)/pytest

test: lint typecheck pytest

demo: $(STAMP)
	@bash scripts/demo.sh

up: $(STAMP)
	@bash scripts/up.sh

clean:
	rm -rf $(VENV) .airflow .pytest_cache .mypy_cache .ruff_cache

# The local OpenAI-compatible model server (llama.cpp + Gemma 3 270M from PyPI), loopback only.
LLM_PORT ?= 8012
llm-up: $(STAMP)
	@AUTOFIX_LLM_PORT=$(LLM_PORT) $(BIN)/python -m autofix.local_llm up

llm-down:
	@AUTOFIX_LLM_PORT=$(LLM_PORT) $(BIN)/python -m autofix.local_llm down

llm-status:
	@AUTOFIX_LLM_PORT=$(LLM_PORT) $(BIN)/python -m autofix.local_llm status
