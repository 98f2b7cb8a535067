"""Playing one step: read the prompt, count the attempt, do the side effects, print, exit."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from autofix.errors import SimError
from autofix.sim import emit_claude, emit_codex, emit_gemini, emit_wrapper
from autofix.sim.context import Context, Emission, Emitter, Event
from autofix.sim.scenario import (
    NOISE_PRESETS,
    OUTPUT_FORMATS,
    Crash,
    Hang,
    Lines,
    Scenario,
    Step,
    choose_step,
    load_scenario,
    signal_number,
)
from autofix.sim.state import default_state_dir, next_attempt

EMITTERS: dict[str, Emitter] = {
    "claude": emit_claude.STREAM,
    "claude-json": emit_claude.JSON,
    "codex": emit_codex.EMITTER,
    "gemini": emit_gemini.JSON,
    "gemini-stream": emit_gemini.STREAM,
    "wrapper": emit_wrapper.EMITTER,
}


@dataclass
class SimArgs:
    """The command line of one run."""

    scenario_path: Path
    fmt: str | None
    operation: str
    prompt: str | None
    resume: str | None
    state_dir: Path | None
    attempt: int | None
    cwd: Path


def play(inv: SimArgs) -> int:
    """Play one step of the scenario; returns the exit code."""
    scenario = load_scenario(inv.scenario_path)
    fmt = inv.fmt or scenario.format
    if fmt not in OUTPUT_FORMATS:
        raise SimError(f"unknown format {fmt!r}; valid: {', '.join(OUTPUT_FORMATS)}")

    prompt = inv.prompt
    resume = inv.resume
    run_id = str(uuid.uuid4())
    out = _Out(0.0)
    if fmt == "wrapper":
        out.event(emit_wrapper.ready_event(inv.cwd))
        command = emit_wrapper.parse_command(sys.stdin.readline())
        if command.error is not None:
            out.event(command.error)
            _drain_stdin_then_shutdown(out, None)
            return 0
        prompt = command.prompt
        resume = resume or command.resume
    elif prompt is None:
        prompt = "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read()

    state_dir = inv.state_dir or default_state_dir(inv.scenario_path)
    attempt = (
        inv.attempt
        if inv.attempt is not None
        else next_attempt(inv.scenario_path, inv.operation, state_dir)
    )
    step = choose_step(scenario, attempt, prompt or "", resume is not None)
    ctx = Context(
        scenario=scenario,
        step=step,
        prompt=prompt or "",
        session_id=_session_for(inv, resume, scenario, step, attempt),
        attempt=attempt,
        cwd=str(inv.cwd),
        run_id=run_id,
    )
    out.delay = step.event_delay
    _side_effects(step, inv.cwd, out)

    stop_after = None
    if step.crash is not None:
        stop_after = step.crash.after_events
    hang = step.hang_spec()
    if hang is not None:
        stop_after = hang.after_events

    emitter = EMITTERS[fmt]
    emission = emitter.emit(ctx) if step.emit else Emission([])
    for index, event in enumerate(emission.events):
        if stop_after is not None and index >= stop_after:
            break
        out.event(event, pretty=emission.pretty)

    if step.crash is not None:
        _crash(step.crash, step.stderr, out)
    if hang is not None:
        _hang(hang)

    if emission.stderr_doc is not None:
        out.stderr(json.dumps(emission.stderr_doc, indent=2))
    if step.stderr:
        out.stderr(step.stderr)
    if fmt == "wrapper":
        for event in emission.after:
            out.event(event)
        _drain_stdin_then_shutdown(out, ctx.session_id)
    if step.exit_code is not None:
        return step.exit_code
    return 0 if step.failure is None else emitter.failure_exit(step.failure)


def _session_for(
    inv: SimArgs, resume: str | None, scenario: Scenario, step: Step, attempt: int
) -> str:
    if step.session_id:
        return step.session_id
    if resume:
        return resume  # a resumed run continues the same session, as the real CLIs do
    if scenario.session_id:
        return scenario.session_id
    return str(
        uuid.uuid5(uuid.NAMESPACE_URL, f"autofix-sim:{inv.scenario_path}:{inv.operation}:{attempt}")
    )


def _side_effects(step: Step, cwd: Path, out: _Out) -> None:
    """What the step does before its events: wait, warn, edit files, commit, print raw text."""
    if step.sleep:
        time.sleep(step.sleep)
    pid = os.getpid()
    for name in step.stderr_noise:
        out.stderr(NOISE_PRESETS[name].replace("{pid}", str(pid)))
    _apply_files(step, cwd)
    if step.git_commit:
        _git_commit(step.git_commit, cwd)
    if step.stdout:
        out.stdout(step.stdout.rstrip("\n"))
    if step.lines is not None:
        _write_lines(step.lines)


def _apply_files(step: Step, cwd: Path) -> None:
    root = cwd.resolve()
    for edit in step.files:
        target = (root / edit.path).resolve()
        if not target.is_relative_to(root):
            raise SimError(f"file edit outside the working directory: {edit.path}")
        if edit.delete:
            target.unlink(missing_ok=True)
            continue
        if edit.content is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(edit.content, encoding="utf-8")
        if edit.replace:
            if not target.is_file():
                raise SimError(f"cannot patch {edit.path}: no such file in {root}")
            text = target.read_text(encoding="utf-8")
            for rep in edit.replace:
                if rep.old not in text:
                    raise SimError(f"cannot patch {edit.path}: text not found: {rep.old[:80]!r}")
                text = text.replace(rep.old, rep.new, rep.count or -1)
            target.write_text(text, encoding="utf-8")
        if edit.append is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("a", encoding="utf-8") as handle:
                handle.write(edit.append)


def _git_commit(message: str, cwd: Path) -> None:
    env = dict(os.environ)
    for key, value in (
        ("GIT_AUTHOR_NAME", "autofix-agent-sim"),
        ("GIT_AUTHOR_EMAIL", "agent-sim@autofix.invalid"),
        ("GIT_COMMITTER_NAME", "autofix-agent-sim"),
        ("GIT_COMMITTER_EMAIL", "agent-sim@autofix.invalid"),
    ):
        env.setdefault(key, value)
    for args in (["git", "add", "-A"], ["git", "commit", "-q", "-m", message]):
        done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
        if done.stdout:
            _Out.stderr(done.stdout)  # an agent's tool output is diagnostics, never stdout
        if done.stderr:
            _Out.stderr(done.stderr)
        if done.returncode != 0:
            raise SimError(f"{' '.join(args[:2])} failed with exit {done.returncode} in {cwd}")


def _write_lines(spec: Lines) -> None:
    stream = sys.stdout if spec.stream == "stdout" else sys.stderr
    block: list[str] = []
    for n in range(spec.count):
        block.append(spec.text.replace("{n}", str(n)))
        if len(block) >= 4096:
            stream.write("\n".join(block) + "\n")
            block.clear()
    if block:
        stream.write("\n".join(block) + "\n")
    stream.flush()


def _crash(spec: Crash, stderr: str | None, out: _Out) -> NoReturn:
    if stderr:
        out.stderr(stderr)
    sys.stdout.flush()
    if spec.signal:
        os.kill(os.getpid(), signal_number(spec.signal))
        time.sleep(5)  # the signal is asynchronous; never fall through to a clean exit
    os._exit(spec.exit_code)


def _hang(spec: Hang) -> None:
    if spec.ignore_sigterm:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if spec.grandchild:
        code = "import signal, time\n"
        if spec.ignore_sigterm:
            code += "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        code += f"time.sleep({spec.seconds!r})\n"
        # The grandchild inherits our pipes, like a stuck tool.
        child = subprocess.Popen([sys.executable, "-c", code])
        _Out.stderr(f"autofix-agent-sim: started grandchild pid={child.pid}")
    time.sleep(spec.seconds)


def _drain_stdin_then_shutdown(out: _Out, session_id: str | None) -> None:
    """The wrapper waits for EOF on stdin, then says goodbye."""
    with contextlib.suppress(OSError, ValueError):
        while sys.stdin.readline():
            pass
    out.event(emit_wrapper.shutdown_event(session_id))


class _Out:
    """Line writer for stdout/stderr: flushed per line, events paced by ``event_delay``."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def event(self, obj: Event, *, pretty: bool = False) -> None:
        text = json.dumps(obj, indent=2) if pretty else json.dumps(obj, separators=(",", ":"))
        self.stdout(text)
        if self.delay:
            time.sleep(self.delay)

    @staticmethod
    def stdout(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    @staticmethod
    def stderr(text: str) -> None:
        sys.stderr.write(text if text.endswith("\n") else text + "\n")
        sys.stderr.flush()
