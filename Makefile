PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LLM_STAMP := $(VENV)/.installed-local-llm
export AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES := airflow.* autofix.*
# Bytecode is cached even where the environment turns it off: every test that starts Python
# (agents, the scheduler, Celery workers) then starts faster.
export PYTHONDONTWRITEBYTECODE :=

.PHONY: venv native clean-native test test-fast lint typecheck pytest chromium demo up up-celery down-celery clean llm-up llm-down llm-status agent-clis

venv: $(STAMP)

# EGG_INFO: an editable install leaves the package's metadata in plugins/ as well, which is on
# sys.path: Airflow then finds the distribution twice, registers its plugin twice and shows every
# user a "Plugin Import Error" (already registered). The metadata in the venv is the one kept.
$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) on PATH (or run: make PYTHON=python3 ...)"; exit 2; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@rm -rf plugins/*.egg-info  # see EGG_INFO below
	@touch $(STAMP)

# The local model server for issue-7 tests and AGENT=local: llama.cpp builds from source once
# (7 min on 2 cores), then pip's wheel cache makes it quick. Its multimodal library is never
# loaded for a text model, so it is not built (8.7 -> 7.1 min); a user's CMAKE_ARGS still apply.
$(LLM_STAMP): $(STAMP)
	CMAKE_ARGS="-DLLAVA_BUILD=OFF $$CMAKE_ARGS" $(BIN)/python -m pip install --quiet -e '.[dev,local-llm]'
	@rm -rf plugins/*.egg-info
	@touch $(LLM_STAMP)

# The compiled classifier (setup.py, docs/benchmarks.md "The compiled classifier"): its per-line
# modules built in place with mypyc (about 80 s on 2 cores), again when any module of the package
# changes (the compiled code holds the types it imports). `make clean-native` goes back to pure
# Python; tests/conftest.py refuses to run against a stale build.
NATIVE_STAMP := $(VENV)/.native
native: $(NATIVE_STAMP)

$(NATIVE_STAMP): $(STAMP) setup.py $(shell find plugins/autofix -name '*.py' -o -name '*.c')
	AUTOFIX_NATIVE=1 $(BIN)/python setup.py --quiet build_ext --inplace
	@find plugins -name '*.so' -exec touch {} +  # an unchanged module is not relinked: still current
	@touch $(NATIVE_STAMP)

clean-native:
	rm -rf build $(NATIVE_STAMP)
	find plugins -name '*.so' -delete

lint: $(STAMP)
	$(BIN)/ruff check setup.py plugins airflow_dags tests benchmarks
	$(BIN)/ruff format --check setup.py plugins airflow_dags tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy --strict plugins/autofix

# Every layer (pyproject's markers): unit and airflow on two workers, then the end-to-end
# layer, then alone: the agent-CLI matrix (its worker processes take every core), the
# browser test against `make up` (SQLite has one writer: beside the wheel install test's load
# its first task's state update waited past the worker's timeout) and the two-worker Celery
# deployment (a scheduler, an api-server, two workers and their agents on two cores). Every step
# runs, and the target fails if any did. The real agent CLIs are installed first (a no-op when
# current).
ALONE := tests/test_e2e_real_clis.py tests/test_ui_make_up.py tests/test_celery_live.py
pytest: $(LLM_STAMP) $(NATIVE_STAMP) agent-clis
	@export AUTOFIX_EXPECT_NATIVE=1; status=0; \
	$(BIN)/pytest -m "not e2e" || status=1; \
	$(BIN)/pytest -m e2e $(addprefix --ignore=,$(ALONE)) || status=1; \
	$(BIN)/pytest -n 0 $(ALONE) || status=1; \
	exit $$status

# The inner loop: the unit layer only, property tests at a twentieth of their examples, tests handed
# out one by one (worksteal); no Airflow, agent CLIs or local model needed.
test-fast: $(STAMP) $(if $(wildcard plugins/autofix/*/*.so),$(NATIVE_STAMP))
	AUTOFIX_FAST_TESTS=1 $(BIN)/pytest -m unit -q --dist worksteal

# The browser test (tests/test_ui_browser.py) drives Debian's Chromium through Playwright; nothing
# is downloaded at run time. Installed once when missing, which needs root and apt-get; when it
# cannot be installed the test is skipped and says why.
chromium:
	@if [ -x /usr/bin/chromium ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "==> installing chromium (Debian package) for the browser test"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
			|| echo "chromium could not be installed: the browser test will be skipped"; \
	else \
		echo "chromium is missing and installing it needs root and apt-get: the browser test will be skipped"; \
	fi

test: lint typecheck chromium pytest

demo: $(STAMP) $(if $(filter local,$(AGENT)),$(LLM_STAMP))
	@bash scripts/demo.sh

up: $(STAMP)
	@bash scripts/up.sh

# The same on a CeleryExecutor deployment: PostgreSQL, Redis, scheduler, api-server,
# dag-processor and two Celery workers on loopback, started in the background (state in .celery/,
# or UP_STATE_DIR); docs/deployment.md, "Many workers on one machine". down-celery stops them.
up-celery: $(STAMP)
	@bash scripts/up_celery.sh start

down-celery:
	@bash scripts/up_celery.sh stop

# The real agent CLIs for the end-to-end tests, pinned in config/agent-clis.txt (the Dockerfile
# reads it too), installed once into .agents/node_modules/.bin (867 MB, 18-35 s with a cold npm
# cache; a no-op when current). `make test` runs it.
agent-clis:
	@bash scripts/install_agent_clis.sh

clean: clean-native
	rm -rf $(VENV) .airflow .celery .pytest_cache .mypy_cache .ruff_cache

# The local OpenAI-compatible model server (llama.cpp + Gemma 3 270M from PyPI), loopback only.
LLM_PORT ?= 8012
llm-up: $(LLM_STAMP)
	@AUTOFIX_LLM_PORT=$(LLM_PORT) $(BIN)/python -m autofix.devtools.local_llm up

llm-down:
	@AUTOFIX_LLM_PORT=$(LLM_PORT) $(BIN)/python -m autofix.devtools.local_llm down

llm-status:
	@AUTOFIX_LLM_PORT=$(LLM_PORT) $(BIN)/python -m autofix.devtools.local_llm status
