# autofix on the official Airflow image: apache/airflow:3.3.2 + this package.
#
#   docker build -t airflow-autofix .                                  # Python checks only
#   docker build -t airflow-autofix --build-arg INSTALL_CLAUDE_CODE=true .   # + Node and Claude Code CLI
#
# No API key is ever baked in: keys come from the environment or Airflow Connections
# at run time (see docs/deployment.md).
FROM apache/airflow:3.3.2

ARG AIRFLOW_VERSION=3.3.2
# Node.js + the Claude Code CLI, for the `claude` agent. Off by default: the image is
# ~300 MB smaller and the offline `sim` agent needs neither.
ARG INSTALL_CLAUDE_CODE=false
ARG CLAUDE_CODE_VERSION=latest
# The check tools the fixing loop runs when a project brings none of its own
# (checks.find_tool looks next to the interpreter after the project's .venv).
ARG CHECK_TOOLS="ruff mypy pytest"

USER root
# git is required by the fixing loop (branch, commit, verify HEAD); Node only on request.
RUN set -eux; \
    packages=""; \
    command -v git >/dev/null 2>&1 || packages="git"; \
    if [ "${INSTALL_CLAUDE_CODE}" = "true" ]; then packages="${packages} nodejs npm"; fi; \
    if [ -n "${packages}" ]; then \
        apt-get update; \
        apt-get install -y --no-install-recommends ${packages}; \
        apt-get clean; \
        rm -rf /var/lib/apt/lists/*; \
    fi; \
    if [ "${INSTALL_CLAUDE_CODE}" = "true" ]; then \
        npm install -g "@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}"; \
        npm cache clean --force; \
        claude --version; \
    fi

USER airflow
# Only what the package build needs, so editing docs or tests does not bust this layer.
COPY --chown=airflow:0 pyproject.toml README.md /opt/autofix/
COPY --chown=airflow:0 plugins/autofix /opt/autofix/plugins/autofix
# Pinning apache-airflow keeps pip from up- or downgrading the image's own Airflow.
RUN pip install --no-cache-dir "apache-airflow==${AIRFLOW_VERSION}" /opt/autofix ${CHECK_TOOLS}

# Sample project and default config, so the demo DAG runs without any mount.
COPY --chown=airflow:0 examples /opt/autofix/examples
COPY --chown=airflow:0 config /opt/autofix/config

ENV AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES="airflow.* autofix.*" \
    AUTOFIX_HOME=/opt/airflow \
    AUTOFIX_EXAMPLES_DIR=/opt/autofix/examples
