"""The typed agent limits (AgentLimits): each CLI's argv and config files, and the errors for
an option an agent cannot take, at DAG parse time and when the command is built."""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from autofix.agents.base import AgentRequest
from autofix.agents.limits import LIMIT_NAMES, AgentLimits, agent_limits
from autofix.agents.registry import FORMAT_NAMES, format_class, get_format
from autofix.config import AutofixConfig
from autofix.errors import AgentOptionError, ConfigError
from autofix.task.agent_task import AgentTask, AgentTaskSpec, TraceContext

PROBE = {"command": "npx", "args": ["-y", "@acme/mcp"], "env": {"ACME_TOKEN": 't0k"en'}}
REMOTE = {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer x"}}


def command(agent: str, limits: dict[str, Any], **request: Any) -> Any:
    return get_format(agent).command(
        AgentRequest(prompt="fix it", limits=AgentLimits.model_validate(limits), **request)
    )


def flag(argv: list[str], name: str) -> str:
    return argv[argv.index(name) + 1]


# -- the typed value ---------------------------------------------------------------------------


def test_limits_know_which_options_are_set() -> None:
    limits = AgentLimits(max_turns=2, extra_args=("--x",))
    assert limits.given() == ("max_turns", "extra_args")
    assert AgentLimits().given() == ()
    assert limits.only({"extra_args"}) == AgentLimits(extra_args=("--x",))
    assert set(LIMIT_NAMES) == set(AgentLimits.model_fields)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"max_turns": 0}, r"max_turns=0 for agent 'claude': .*1 or more"),
        ({"allowed_tools": "Read"}, r"allowed_tools='Read' .*pass a list of tool names"),
        ({"extra_args": ["--a", 3]}, r"extra_args\[1\] for agent 'claude': .*valid string"),
        ({"mcp_servers": {"a b": PROBE}}, r"mcp_servers\['a b'\] \(its name\).*1 to 64 letters"),
        ({"mcp_servers": {"x": {}}}, r"mcp_servers\['x'\].*either command .* or url"),
        ({"mcp_servers": {"x": {**PROBE, **REMOTE}}}, r"either command"),
        ({"mcp_servers": {"x": {"command": "c", "headers": {"A": "b"}}}}, r"for http/sse"),
        ({"mcp_servers": {"x": {"url": "u", "env": {"A": "b"}}}}, r"url and headers"),
        ({"mcp_servers": {"x": {"command": "c", "cwd": "/"}}}, r"\['x'\]\['cwd'\].*Extra"),
    ],
)
def test_wrong_values_name_the_option(values: dict[str, Any], message: str) -> None:
    with pytest.raises(AgentOptionError, match=message) as raised:
        agent_limits("claude", **values)
    assert raised.value.agent == "claude" and raised.value.option == next(iter(values))


# -- Claude Code -------------------------------------------------------------------------------


def test_claude_maps_every_option() -> None:
    inv = command(
        "claude",
        {
            "max_turns": 2,
            "allowed_tools": ["Read", "Bash(git *)"],
            "disallowed_tools": ["WebFetch"],
            "permission_mode": "acceptEdits",
            "mcp_servers": {"acme": PROBE, "remote": REMOTE},
            "fallback_model": "claude-haiku-4-5",
            "extra_args": ["--effort", "low"],
        },
        model="claude-sonnet-4-5",
    )
    argv = inv.argv
    assert flag(argv, "--max-turns") == "2"
    assert flag(argv, "--fallback-model") == "claude-haiku-4-5"
    assert flag(argv, "--permission-mode") == "acceptEdits"
    # Variadic flags in their "=" form: nothing after them is read as one more value.
    assert "--allowedTools=Read,Bash(git *)" in argv
    assert "--disallowedTools=WebFetch" in argv
    assert argv[-2:] == ["--effort", "low"]
    config_arg = next(arg for arg in argv if arg.startswith("--mcp-config="))
    path = Path(config_arg.split("=", 1)[1])
    try:
        assert inv.cleanup == (str(path.parent),)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600  # it may carry a server's key
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        assert json.loads(path.read_text()) == {
            "mcpServers": {
                "acme": {"type": "stdio", **PROBE},
                "remote": {"type": "http", **REMOTE},
            }
        }
    finally:
        os.remove(path)
        os.rmdir(path.parent)


def test_claude_old_option_keys_still_work_and_never_twice() -> None:
    argv = command(
        "claude", {}, options={"permission_mode": "plan", "allowed_tools": ["Read"]}
    ).argv
    assert flag(argv, "--permission-mode") == "plan" and "--allowedTools=Read" in argv
    with pytest.raises(AgentOptionError, match=r"permission_mode is given twice .*keep one"):
        command("claude", {"permission_mode": "plan"}, options={"permission_mode": "plan"})
    with pytest.raises(AgentOptionError, match=r"not a mode agent 'claude' takes; it takes: acc"):
        command("claude", {}, options={"permission_mode": "yolo"})


def test_claude_without_limits_adds_nothing() -> None:
    argv = command("claude", {}).argv
    assert argv == ["claude", "-p", "fix it", "--output-format", "stream-json", "--verbose"]
    assert command("claude", {}).cleanup == ()


# -- Codex CLI ---------------------------------------------------------------------------------


def test_codex_maps_sandbox_mcp_servers_and_extra_args() -> None:
    inv = command(
        "codex",
        {
            "permission_mode": "workspace-write",
            "mcp_servers": {"acme": PROBE, "remote": REMOTE},
            "extra_args": ["--ephemeral"],
        },
    )
    argv = inv.argv
    assert flag(argv, "--sandbox") == "workspace-write"
    overrides = [argv[i + 1] for i, arg in enumerate(argv) if arg == "-c"]
    # Each override is ``key=<TOML value>``: parse it as codex does.
    tables = {}
    for override in overrides:
        key, _, value = override.partition("=")
        tables[key] = tomllib.loads(f"v = {value}")["v"]
    assert tables == {
        "mcp_servers.acme": {"command": "npx", "args": ["-y", "@acme/mcp"], "env": PROBE["env"]},
        "mcp_servers.remote": {"url": REMOTE["url"], "http_headers": REMOTE["headers"]},
    }
    assert argv[-2:] == ["--ephemeral", "fix it"] and inv.cleanup == ()


def test_codex_old_sandbox_keys() -> None:
    # codex 0.171.0 has no --full-auto: full_auto asks for the sandbox that flag chose.
    argv = command("codex", {}, options={"sandbox": "workspace-write", "full_auto": True}).argv
    assert flag(argv, "--sandbox") == "workspace-write" and "--full-auto" not in argv
    argv = command("codex", {}, options={"full_auto": True}).argv
    assert flag(argv, "--sandbox") == "workspace-write" and "--full-auto" not in argv
    with pytest.raises(AgentOptionError, match=r"given twice .*agent_options\['sandbox'\]"):
        command("codex", {"permission_mode": "read-only"}, options={"sandbox": "read-only"})


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ({"max_turns": 2}, r"max_turns is not supported by agent 'codex': codex exec has no turn"),
        ({"allowed_tools": ["x"]}, r"allowed_tools .* no tool allowlist"),
        ({"disallowed_tools": ["x"]}, r"disallowed_tools .* no tool denylist"),
        ({"fallback_model": "m"}, r"fallback_model .* no fallback model"),
        ({"permission_mode": "yolo"}, r"it takes: read-only, workspace-write, danger-full"),
        ({"mcp_servers": {"s": {**REMOTE, "transport": "sse"}}}, r"transport 'sse'.*stdio, http"),
    ],
)
def test_codex_refuses_what_it_cannot_do(limits: dict[str, Any], message: str) -> None:
    with pytest.raises(AgentOptionError, match=message) as raised:
        command("codex", limits)
    assert raised.value.agent == "codex"
    if "not supported" in str(raised.value):
        assert raised.value.supported == ("permission_mode", "mcp_servers", "extra_args")


# -- Gemini CLI --------------------------------------------------------------------------------


@pytest.fixture
def gemini_home(tmp_path: Path) -> Path:
    """A user's ~/.gemini: settings with a comment, a login, sessions."""
    real = tmp_path / "home" / ".gemini"
    (real / "tmp" / "proj").mkdir(parents=True)
    (real / "oauth_creds.json").write_text("{}")
    (real / "settings.json").write_text(
        '{\n  // the user\'s own\n  "model": {"name": "gemini-2.5-pro"},\n'
        '  "tools": {"exclude": ["web_fetch"]},\n  "mcpServers": {"mine": {"command": "m"}}\n}'
    )
    return tmp_path / "home"


def gemini(limits: dict[str, Any], home: Path, **request: Any) -> Any:
    env = {"HOME": str(home)}
    return command("gemini", limits, task_env=env, cwd=str(home.parent), **request)


def test_gemini_maps_flags_and_a_settings_home(gemini_home: Path) -> None:
    inv = gemini(
        {
            "max_turns": 2,
            "allowed_tools": ["run_shell_command(git)"],
            "disallowed_tools": ["glob"],
            "permission_mode": "auto_edit",
            "mcp_servers": {"acme": PROBE, "remote": {**REMOTE, "transport": "sse"}},
            "extra_args": ["--skip-trust"],
        },
        gemini_home,
    )
    assert flag(inv.argv, "--approval-mode") == "auto_edit" and inv.argv[-1] == "--skip-trust"
    home = Path(inv.env["GEMINI_CLI_HOME"])
    try:
        assert inv.cleanup == (str(home),)
        overlay = home / ".gemini"
        # Everything but settings.json is the user's own, linked: login and sessions stay.
        for name in ("oauth_creds.json", "tmp", "history"):
            assert (overlay / name).resolve() == (gemini_home / ".gemini" / name).resolve()
        settings = json.loads((overlay / "settings.json").read_text())
        assert stat.S_IMODE((overlay / "settings.json").stat().st_mode) == 0o600
        assert settings == {
            "model": {"name": "gemini-2.5-pro", "maxSessionTurns": 2},
            "tools": {"exclude": ["web_fetch", "glob"], "allowed": ["run_shell_command(git)"]},
            "mcpServers": {
                "mine": {"command": "m"},
                "acme": PROBE,
                "remote": {"type": "sse", **REMOTE},
            },
        }
    finally:
        shutil.rmtree(home)
    assert (gemini_home / ".gemini" / "oauth_creds.json").exists()  # never followed


def test_gemini_without_settings_options_writes_nothing(gemini_home: Path) -> None:
    inv = gemini({"permission_mode": "yolo"}, gemini_home)
    assert inv.env == {} and inv.cleanup == ()
    assert flag(inv.argv, "--approval-mode") == "yolo"
    legacy = gemini({}, gemini_home, options={"yolo": True})
    assert flag(legacy.argv, "--approval-mode") == "yolo"


def test_gemini_refuses_a_project_setting_that_would_override(gemini_home: Path) -> None:
    project = gemini_home.parent / ".gemini"
    project.mkdir()
    (project / "settings.json").write_text('{"model": {"maxSessionTurns": 50}}')
    with pytest.raises(AgentOptionError, match=r"sets model\.maxSessionTurns, which gemini merges"):
        gemini({"max_turns": 2}, gemini_home)
    (project / "settings.json").write_text('{"tools": {"exclude": ["x"]}}')  # unioned: fine
    inv = gemini({"disallowed_tools": ["glob"]}, gemini_home)
    shutil.rmtree(inv.cleanup[0])


def test_gemini_unreadable_user_settings_say_which_file(gemini_home: Path) -> None:
    (gemini_home / ".gemini" / "settings.json").write_text("{not json")
    with pytest.raises(AgentOptionError, match=r"settings.json cannot be read \(not JSON"):
        gemini({"max_turns": 2}, gemini_home)


def test_gemini_has_no_fallback_model(gemini_home: Path) -> None:
    with pytest.raises(AgentOptionError, match=r"gemini has no fallback-model flag"):
        gemini({"fallback_model": "gemini-2.5-flash"}, gemini_home)


# -- the other formats -------------------------------------------------------------------------


def test_wrapper_and_plain_take_what_they_can() -> None:
    wrapper = get_format("wrapper").command(
        AgentRequest(prompt="p", limits=AgentLimits(max_turns=3, extra_args=("-v",))), ["w"]
    )
    assert wrapper.argv == ["w", "-v"]
    assert json.loads(wrapper.stdin or "")["options"]["max_turns"] == 3
    with pytest.raises(AgentOptionError, match=r"agent_options\['wrapper_options'\]"):
        get_format("wrapper").command(
            AgentRequest(prompt="p", limits=AgentLimits(permission_mode="plan")), ["w"]
        )
    plain = get_format("plain").command(
        AgentRequest(prompt="p", limits=AgentLimits(extra_args=("-v",))), ["fix.sh"]
    )
    assert plain.argv == ["fix.sh", "-v"]


@pytest.mark.parametrize("agent", ["sim", "openai", "plain"])
def test_formats_without_turns_refuse_max_turns(agent: str) -> None:
    with pytest.raises(AgentOptionError, match=rf"max_turns is not supported by agent '{agent}'"):
        format_class(agent).check_limits(AgentLimits(max_turns=2))


def test_every_format_says_why_it_lacks_an_option() -> None:
    for name in FORMAT_NAMES:
        support = format_class(name).limit_support
        for option in LIMIT_NAMES:
            assert option in support.options or support.missing.get(option), (name, option)


# -- through AgentTask: the run's config files are removed ---------------------------------------


def test_run_removes_its_config_files(tmp_path: Path) -> None:
    seen = tmp_path / "argv.json"
    script = tmp_path / "claude.py"
    script.write_text(
        "import json, sys\n"
        f"json.dump(sys.argv, open({str(seen)!r}, 'w'))\n"
        'print(json.dumps({"type": "result", "subtype": "success", "is_error": False,'
        ' "num_turns": 1, "result": "done", "session_id": "s"}))\n'
    )
    spec = AgentTaskSpec(
        agent="claude",
        prompt="p",
        command=[sys.executable, str(script)],
        limits=AgentLimits.model_validate({"mcp_servers": {"acme": PROBE}, "max_turns": 2}),
    )
    task = AgentTask(spec, config=AutofixConfig(), trace=TraceContext(trace_id="t"))
    assert task.run().success
    argv = json.loads(seen.read_text())
    assert argv[argv.index("--max-turns") + 1] == "2"
    config = next(arg for arg in argv if arg.startswith("--mcp-config=")).split("=", 1)[1]
    assert not Path(config).parent.exists()


def test_a_limit_the_agent_cannot_take_fails_the_call_as_config(tmp_path: Path) -> None:
    spec = AgentTaskSpec(
        agent="codex", prompt="p", command=["codex"], limits=AgentLimits(max_turns=2)
    )
    result = AgentTask(spec, config=AutofixConfig(), trace=TraceContext(trace_id="t")).run()
    assert result.failure_kind == "config"
    assert "max_turns is not supported by agent 'codex'" in result.error_message


# -- at DAG parse time: the operator -----------------------------------------------------------


@pytest.mark.airflow
def test_operator_carries_typed_limits_into_the_spec() -> None:
    from autofix.operators.wrapper import AIWrapperOperator

    op = AIWrapperOperator(
        task_id="t",
        prompt="p",
        agent="claude",
        max_turns=2,
        allowed_tools=["Read"],
        disallowed_tools=("Bash",),
        permission_mode="plan",
        mcp_servers={"acme": PROBE},
        fallback_model="claude-haiku-4-5",
        extra_args=["--effort", "low"],
    )
    spec = op._spec({})  # type: ignore[arg-type]
    assert (
        spec.limits
        == op.limits
        == AgentLimits.model_validate(
            {
                "max_turns": 2,
                "allowed_tools": ["Read"],
                "disallowed_tools": ["Bash"],
                "permission_mode": "plan",
                "mcp_servers": {"acme": PROBE},
                "fallback_model": "claude-haiku-4-5",
                "extra_args": ["--effort", "low"],
            }
        )
    )


@pytest.mark.airflow
@pytest.mark.parametrize(
    ("kwargs", "option", "message"),
    [
        ({"agent": "codex", "max_turns": 2}, "max_turns", r"codex exec has no turn cap"),
        ({"agent": "gemini", "fallback_model": "m"}, "fallback_model", r"no fallback-model"),
        ({"agent": "claude", "permission_mode": "yolo"}, "permission_mode", r"acceptEdits"),
        (
            {"agent": "gemini", "permission_mode": "yolo", "agent_options": {"yolo": True}},
            "permission_mode",
            r"given twice for agent 'gemini': as permission_mode= and as agent_options\['yolo'\]",
        ),
        ({"agent": "sim", "mcp_servers": {"a": PROBE}}, "mcp_servers", r"script it there"),
        ({"agent": "claude", "max_turns": -1}, "max_turns", r"max_turns=-1"),
        ({"agent": "claude", "agent_options": {"permision_mode": "x"}}, "permision_mode", "unk"),
    ],
)
def test_operator_refuses_at_parse_time(kwargs: dict[str, Any], option: str, message: str) -> None:
    from autofix.operators.wrapper import AIWrapperOperator

    with pytest.raises(AgentOptionError, match=message) as raised:
        AIWrapperOperator(task_id="t", prompt="p", **kwargs)
    assert isinstance(raised.value, ConfigError) and isinstance(raised.value, ValueError)
    assert raised.value.option == option and raised.value.agent == kwargs["agent"]


@pytest.mark.airflow
def test_operator_with_templated_options_checks_only_what_it_can() -> None:
    from autofix.operators.wrapper import AIWrapperOperator

    op = AIWrapperOperator(
        task_id="t", prompt="p", agent="claude", max_turns=3, agent_options="{{ params.o }}"
    )
    assert op.limits.max_turns == 3
