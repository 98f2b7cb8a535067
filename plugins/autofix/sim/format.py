"""The ``sim`` agent format: runs the scripted agent and parses it as the format it imitates.

``SimFormat`` runs the scripted agent (``python -m autofix.sim``) and parses its output
with the parser of the scenario's declared format, so a simulated run goes through exactly the
same parsing as the real CLI it imitates. Scenario runtime: :mod:`autofix.sim.scenario` and :mod:`autofix.sim.play`.

Options: SimOptions. Attempt counters are kept per scenario and ``AgentRequest.operation``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, cast

from pydantic import with_config
from typing_extensions import TypedDict

from autofix.agents.base import (
    MAX_PROMPT_ARG_CHARS,
    AgentFormat,
    AgentRequest,
    EventParser,
    Invocation,
)
from autofix.agents.claude import ClaudeFormat
from autofix.agents.codex import CodexFormat
from autofix.agents.gemini import GeminiFormat
from autofix.agents.limits import LIMIT_NAMES, LimitSupport
from autofix.agents.wrapper import WrapperFormat, prompt_command

# Output format of the scenario → the real format whose parser reads it. The classes, not
# their registry names: the registry imports this module by name.
PARSER_FOR_OUTPUT: dict[str, type[AgentFormat]] = {
    "claude": ClaudeFormat,
    "claude-json": ClaudeFormat,
    "codex": CodexFormat,
    "gemini": GeminiFormat,
    "gemini-stream": GeminiFormat,
    "wrapper": WrapperFormat,
}


@with_config(extra="forbid")
class SimOptions(TypedDict, total=False):
    """``agent_options`` for ``agent="sim"``."""

    scenario: str  # a path or a bundled name; default $AUTOFIX_SIM_SCENARIO
    format: str  # overrides the scenario's output format
    state_dir: str  # where the attempt counters live
    attempt: int  # play this step; the counter is not touched


class SimFormat(AgentFormat):
    """The offline scripted agent, speaking any of the other formats."""

    name: ClassVar[str] = "sim"
    supports_resume: ClassVar[bool] = True
    edits_files: ClassVar[bool] = True
    options_type: ClassVar[type[Mapping[str, Any]]] = SimOptions
    # The scenario decides every turn, tool and failure (a max_turns step, say).
    limit_support: ClassVar[LimitSupport] = LimitSupport(
        missing=MappingProxyType(
            {name: "the scripted agent plays its scenario; script it there" for name in LIMIT_NAMES}
        )
    )

    def __init__(self) -> None:
        self.output_format: str | None = None  # set by command(); parser() follows it

    def invocation(self, request: AgentRequest, base_command: list[str] | None) -> Invocation:
        # Here, not at the top: DAG parsing imports every format (registry.coding_agents), and
        # the scenario reader is needed only when a sim runs.
        from autofix.sim.scenario import SCENARIO_ENV, load_scenario, resolve_scenario

        options = cast(SimOptions, request.options)
        scenario_ref = options.get("scenario") or os.environ.get(SCENARIO_ENV)
        if not scenario_ref:
            raise ValueError(
                f"the sim agent needs a scenario: options['scenario'] or ${SCENARIO_ENV}"
            )
        path = resolve_scenario(str(scenario_ref))
        fmt = str(options.get("format") or load_scenario(path).format)
        if fmt not in PARSER_FOR_OUTPUT:
            raise ValueError(
                f"unknown sim output format {fmt!r}; valid: {', '.join(PARSER_FOR_OUTPUT)}"
            )
        self.output_format = fmt
        argv = list(base_command or [sys.executable, "-m", "autofix.sim"])
        argv += [
            "--scenario",
            str(path),
            "--format",
            fmt,
            "--operation",
            request.operation or "default",
        ]
        if options.get("state_dir"):
            argv += ["--state-dir", options["state_dir"]]
        if options.get("attempt") is not None:
            argv += ["--attempt", str(options["attempt"])]
        if fmt == "wrapper":
            # Like the real wrapper: the prompt and the resume id travel in the stdin command.
            return Invocation(argv=argv, stdin=prompt_command(request))
        if request.resume_session_id:
            argv.append(f"--resume={request.resume_session_id}")
        if len(request.prompt) > MAX_PROMPT_ARG_CHARS:
            return Invocation(argv=argv, stdin=request.prompt)
        argv.append(f"--prompt={request.prompt}")
        return Invocation(argv=argv)

    def parser(self) -> EventParser:
        fmt = self.output_format
        if fmt is None:
            # Not at the top, as in invocation().
            from autofix.sim.scenario import SCENARIO_ENV, load_scenario, resolve_scenario

            scenario_ref = os.environ.get(SCENARIO_ENV)
            fmt = load_scenario(resolve_scenario(scenario_ref)).format if scenario_ref else "claude"
        return PARSER_FOR_OUTPUT[fmt]().parser()
