# autofix on the official Airflow image: apache/airflow:3.3.2 + this package.
#
#   docker build -t airflow-autofix .                                  # Python checks only
#   docker build -t airflow-autofix --build-arg INSTALL_AGENT_CLIS=true .    # + Node and the agent CLIs
#
# No API key is ever baked in: keys come from the environment or Airflow Connections
# at run time (see docs/deployment.md).
FROM apache/airflow:3.3.2

ARG AIRFLOW_VERSION=3.3.2
# Node.js + the agent CLIs (Claude Code, Codex, Gemini CLI) at the versions pinned in
# config/agent-clis.txt, the ones the test suite runs. Off by default: they add ~900 MB and the
# offline `sim` agent needs none of them. Gemini CLI needs Node >= 20 (Debian's is 18).
ARG INSTALL_AGENT_CLIS=false
ARG NODE_VERSION=22.12.0
# The check tools the fixing loop runs when a project brings none of its own
# (checks.find_tool looks next to the interpreter after the project's .venv).
ARG CHECK_TOOLS="ruff mypy pytest"

USER root
COPY config/agent-clis.txt /opt/autofix/config/agent-clis.txt
# git is required by the fixing loop (branch, commit, verify HEAD); Node and the CLIs on request.
RUN set -eux; \
    packages=""; \
    command -v git >/dev/null 2>&1 || packages="git"; \
    if [ "${INSTALL_AGENT_CLIS}" = "true" ]; then packages="${packages} xz-utils"; fi; \
    if [ -n "${packages}" ]; then \
        apt-get update; \
        apt-get install -y --no-install-recommends ${packages}; \
        apt-get clean; \
        rm -rf /var/lib/apt/lists/*; \
    fi; \
    if [ "${INSTALL_AGENT_CLIS}" = "true" ]; then \
        case "$(dpkg --print-architecture)" in arm64) arch=arm64 ;; *) arch=x64 ;; esac; \
        curl -fsSL "https://nodejs.org/dist/v${NODE_VERSION}/node-v${NODE_VERSION}-linux-${arch}.tar.xz" \
            | tar -xJ -C /usr/local --strip-components=1; \
        npm install -g --no-audit --no-fund $(sed -e 's/#.*//' /opt/autofix/config/agent-clis.txt); \
        npm cache clean --force; \
        claude --version; codex --version; gemini --version; \
    fi

USER airflow
# Only what the package build needs, so editing docs or tests does not bust this layer.
COPY --chown=airflow:0 pyproject.toml README.md /opt/autofix/
COPY --chown=airflow:0 plugins/autofix /opt/autofix/plugins/autofix
# Pinning apache-airflow keeps pip from up- or downgrading the image's own Airflow.
RUN pip install --no-cache-dir "apache-airflow==${AIRFLOW_VERSION}" "/opt/autofix[postgres]" ${CHECK_TOOLS}

# Sample project and default config, so the demo DAG runs without any mount.
COPY --chown=airflow:0 examples /opt/autofix/examples
COPY --chown=airflow:0 config /opt/autofix/config

ENV AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES="airflow.* autofix.*" \
    AUTOFIX_HOME=/opt/airflow \
    AUTOFIX_EXAMPLES_DIR=/opt/autofix/examples
