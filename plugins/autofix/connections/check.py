"""test_connection for an agent Connection: the CLI answers ``--version``, and the key works.

The key is tried with the cheapest authenticated request its API has, made directly with
httpx (``AgentConnection.probe``: a models list, which costs no tokens). Where no such request
exists for the Connection (Bedrock and Vertex AI sign requests with the cloud's credentials; a
Connection without a key means the CLI's own login) the CLI itself answers a one-word prompt,
through the same argv and parser a task uses. Every message says what failed (the missing
binary, the refused key, the unreachable host) and is redacted: no key reaches it.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Mapping
from typing import Any

import httpx

from autofix.agents.base import AgentRequest
from autofix.agents.limits import AgentLimits
from autofix.agents.registry import get_format, parse_output
from autofix.connections.base import AgentConnection, HttpProbe, IsolatedHome
from autofix.redact import redact
from autofix.result import RunStatus
from autofix.task.spec import installed_cli

HTTP_TIMEOUT_S = 15.0
VERSION_TIMEOUT_S = 30.0
PROMPT_TIMEOUT_S = 120.0
PROMPT = "Reply with the word ok."
# Google answers a bad key with 400 INVALID_ARGUMENT and this reason, not 401.
_REFUSED_KEY_WORDS = ("API_KEY_INVALID", "API key not valid")

Result = tuple[bool, str]


def check_connection(
    connection: AgentConnection,
    environ: Mapping[str, str] | None = None,
    agent_clis_dir: str | None = None,
) -> Result:
    """(passed, what was checked or what failed): the CLI's version, then the key."""
    env = dict(os.environ if environ is None else environ)
    version = ""
    cli_path = None
    if connection.cli:
        found = cli_version(connection.cli, env, agent_clis_dir)
        if isinstance(found, str):
            return False, redact(found)
        cli_path, version = found[0], f"`{connection.cli} --version`: {found[1]}; "
    probe = connection.probe()
    if probe is not None:
        passed, said = http_check(probe, connection.describe_key())
    elif cli_path is not None:
        passed, said = prompt_check(connection, cli_path, env)
    else:
        passed, said = False, "nothing to check: the Connection names no endpoint"
    return passed, redact(version + said)


def cli_version(
    cli: str, env: Mapping[str, str], agent_clis_dir: str | None
) -> tuple[str, str] | str:
    """(path, version) of the CLI where a task finds it (PATH, then ``agent_clis_dir``), or
    what is wrong: the binary missing, or ``--version`` failing."""
    found = installed_cli(cli, env, agent_clis_dir)
    if found is None:
        where = (
            f"on PATH nor in {agent_clis_dir}/node_modules/.bin" if agent_clis_dir else "on PATH"
        )
        return (
            f"missing binary: the CLI `{cli}` is not {where}. Next: install it on this machine "
            "(`make agent-clis` puts the pinned CLIs into .agents) or put it on PATH"
        )
    path = found[0]
    try:
        done = subprocess.run(
            [path, "--version"],
            env=dict(env),
            capture_output=True,
            text=True,
            timeout=VERSION_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"`{path} --version` did not run: {exc}. Next: reinstall the CLI"
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return f"`{path} --version` failed: {last}. Next: reinstall the CLI (Node.js 20 or later)"
    return path, (done.stdout.strip().splitlines() or ["unknown version"])[0]


def http_check(probe: HttpProbe, key: str = "the key") -> Result:
    """``GET probe.url``: passes on a 2xx; otherwise says whether the host was unreachable,
    the key refused or the request refused for another reason."""
    url = probe.url
    try:
        response = httpx.get(url, headers=dict(probe.headers), timeout=HTTP_TIMEOUT_S)
    except httpx.TimeoutException:
        return False, (
            f"unreachable host: no answer from GET {url} within {HTTP_TIMEOUT_S:g} s. Next: "
            "check the Connection's base URL and that this machine can reach it"
        )
    except httpx.HTTPError as exc:
        return False, (
            f"unreachable host: GET {url} failed: {exc or type(exc).__name__}. Next: check the "
            "Connection's base URL (host) and that this machine can reach it"
        )
    status = response.status_code
    detail = _error_text(response)
    if status in (401, 403) or (status == 400 and any(w in detail for w in _REFUSED_KEY_WORDS)):
        return False, (
            f"refused key: GET {url} answered HTTP {status}{detail}. Next: put a valid API key "
            "in the Connection's password"
        )
    if status >= 300:
        return False, (
            f"GET {url} answered HTTP {status}{detail}. Next: check the Connection's base URL "
            "(it is the API's root, as the CLI's base-URL variable takes it)"
        )
    count = _model_count(response)
    listed = f", {count} model(s) listed" if count is not None else ""
    return True, f"GET {url} with {key}: HTTP {status}{listed}"


def prompt_check(connection: AgentConnection, cli_path: str, environ: Mapping[str, str]) -> Result:
    """The CLI answers a one-word prompt with the Connection's settings and its own login."""
    agent_format = get_format(connection.agent)
    env, options = connection.environment({})
    options = {**options, **connection.prompt_options()}
    # One turn where the CLI takes a cap in argv (Claude Code's --max-turns).
    limits = AgentLimits(max_turns=1) if connection.agent == "claude" else AgentLimits()
    request = AgentRequest(prompt=PROMPT, limits=limits, options=options)
    invocation = agent_format.command(request, [cli_path])
    home = IsolatedHome() if connection.isolated_home else None
    try:
        run_env: dict[str, Any] = {**environ, **env, **invocation.env, **connection.prompt_env()}
        if home is not None:
            run_env.update(connection.home_environment(home.path))
        with tempfile.TemporaryDirectory(prefix="autofix-check-") as cwd:
            done = subprocess.run(
                invocation.argv,
                input=invocation.stdin,
                env=run_env,
                cwd=cwd,
                capture_output=True,
                text=True,
                timeout=PROMPT_TIMEOUT_S,
                check=False,
            )
    except subprocess.TimeoutExpired:
        return False, (
            f"a one-word prompt through `{connection.cli}` had no answer within "
            f"{PROMPT_TIMEOUT_S:g} s. Next: check the Connection's cloud settings and the network"
        )
    except OSError as exc:
        return False, f"`{cli_path}` could not start: {exc}"
    finally:
        if home is not None:
            home.close()
    outcome = parse_output(agent_format, done.stdout, done.returncode, done.stderr)
    how = f"a one-word prompt through `{connection.cli}` with {connection.describe_key()}"
    if outcome.run_status == RunStatus.COMPLETED:
        return True, f"{how}: answered"
    kind = outcome.failure_kind.value if outcome.failure_kind else "failed"
    reason = (outcome.errors or [done.stderr.strip()[-300:] or f"exit code {done.returncode}"])[0]
    return False, f"{how}: {kind}: {reason}"


def _error_text(response: httpx.Response) -> str:
    """``: <the API's error message>`` from the vendors' error shapes, or the body's start."""
    try:
        body = response.json()
    except ValueError:
        text = response.text.strip()[:200]
        return f": {text}" if text else ""
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        details = [d for d in error.get("details") or [] if isinstance(d, dict)]
        message = str(error.get("message") or error.get("type") or "")
        tags = [error[k] for k in ("type", "code", "status") if isinstance(error.get(k), str)]
        tags += [d["reason"] for d in details if isinstance(d.get("reason"), str)]
        return f": {message}" + (f" ({', '.join(dict.fromkeys(tags))})" if tags else "")
    return f": {str(body)[:200]}" if body else ""


def _model_count(response: httpx.Response) -> int | None:
    try:
        body = response.json()
    except ValueError:
        return None
    if isinstance(body, dict):
        for key in ("data", "models"):
            if isinstance(body.get(key), list):
                return len(body[key])
    return None
