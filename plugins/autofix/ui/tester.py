"""The pattern tester: pasted stderr (and an agent transcript) judged by the real parser, with
the rule that decided each line.

The rules are the deployment's live rulebook, or an edited rulebook validated as the loader
validates a user file (ReDoS check included). Nothing is written: no audit record, no rule
file, no last good copy (the live rules come from a store that keeps none). The verdict is the
one ``autofix classify`` gives (``--agent`` with a transcript: ``autofix.task.judge``); the
lines are the explain trace of ``autofix patterns explain``, taken from the same classifiers.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from autofix import yamlfile
from autofix.agents.fatal import FatalLine
from autofix.agents.registry import SAVED_OUTPUT_FORMATS, get_format
from autofix.agents.watch import WatchSettings
from autofix.classify.classifier import Classifier
from autofix.classify.stream_report import LineVerdict
from autofix.errors import AutofixError, ConfigFileError, PatternFileError
from autofix.parser import ResponseParser
from autofix.patterns.compiled import CompiledRules
from autofix.patterns.loader import (
    DEFAULT_RULES,
    MAX_PATTERN_FILE_BYTES,
    PatternStore,
    Problem,
    candidate_path,
    compile_text,
    rule_count,
    validate_text,
)
from autofix.redact import redact_stored, redact_value
from autofix.result import RETRY_ACTIONS, ParseResult, truncate
from autofix.task.judge import OutputJudge, replay_saved_output

MAX_INPUT_BYTES = 1024 * 1024  # per pasted text (stderr, transcript)
MAX_INPUT_LINES = 20_000
MAX_EVENTS = 2_000  # events listed; the verdict reads them all
EVENT_CHARS = 2_000  # one event as shown
FINAL_TEXT_CHARS = 4_000
EDITED_SOURCE = "edited rules (not saved)"
# What the editor starts from when the deployment has no pattern file.
EMPTY_RULEBOOK = "mode: extend\nrules: []\n"


class PatternTestError(AutofixError, ValueError):
    """Input the tester refuses: ``status`` is the HTTP answer (413 too large, 422 unusable),
    ``problems`` the edited rulebook's problems (``loader.Problem``), if that is the reason."""

    def __init__(self, status: int, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.problems = list(problems or [])

    def detail(self) -> str | dict[str, Any]:
        """The HTTP error body's ``detail``: the message, with the problems when there are."""
        if not self.problems:
            return self.message
        return {"message": self.message, "problems": [_problem(p) for p in self.problems]}


def _problem(problem: Problem) -> dict[str, Any]:
    return {"line": problem.line, "rule_id": problem.rule_id, "message": problem.message}


_live: PatternStore | None = None
_live_lock = threading.Lock()


def live_store() -> PatternStore:
    """The deployment's rulebook (the default lookup, hot reloaded), read without keeping a
    last good copy: the tester writes nothing."""
    global _live
    with _live_lock:
        if _live is None:
            _live = PatternStore(None, keep_last_good=False)
        return _live


class _ExplainingParser(ResponseParser):
    """The real parser on one fixed rule set, its classifiers in explain mode and kept, so the
    verdict and the per-line trace come from the same pass. No store: no reload, no copy."""

    def __init__(self, rules: CompiledRules) -> None:
        super().__init__(rules)
        self.streams: dict[str, Classifier] = {}

    def classifier(self, operation: str = "", stream: str = "stderr") -> Classifier:
        classifier = Classifier(self.rules, operation, stream=stream, explain=True)
        self.streams[stream] = classifier
        return classifier

    def explained(self, stream: str) -> list[LineVerdict]:
        classifier = self.streams.get(stream)
        return list(classifier.explained or []) if classifier is not None else []


def _bounded(text: str, what: str) -> bytes:
    data = text.encode("utf-8", "replace")
    if len(data) > MAX_INPUT_BYTES:
        raise PatternTestError(
            413,
            f"the {what} is {len(data):,} bytes; the tester takes at most "
            f"{MAX_INPUT_BYTES:,} bytes: paste the part around the lines in question",
        )
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    if lines > MAX_INPUT_LINES:
        raise PatternTestError(
            413,
            f"the {what} has {lines:,} lines; the tester takes at most {MAX_INPUT_LINES:,}: "
            "paste the part around the lines in question",
        )
    return data


def edited_rules(rules_text: str) -> CompiledRules:
    """An edited rulebook, validated exactly as the loader validates a user's file."""
    size = len(rules_text.encode("utf-8", "replace"))
    if size > MAX_PATTERN_FILE_BYTES:
        raise PatternTestError(
            413,
            f"the edited rules are {size:,} bytes; a pattern file may be at most "
            f"{MAX_PATTERN_FILE_BYTES:,} bytes",
        )
    try:
        return _compiled_edit(rules_text)
    except PatternFileError as exc:
        raise PatternTestError(
            422,
            f"the edited rules cannot be used ({len(exc.problems)} problem(s)); fix them and "
            "test again: nothing was saved",
            exc.problems,
        ) from None


@lru_cache(maxsize=4)
def _compiled_edit(rules_text: str) -> CompiledRules:
    """One edit tried on several pastes compiles once (~0.15 s a compile)."""
    return compile_text(rules_text, EDITED_SOURCE)


def _agent_format(agent_format: str | None, transcript: str | None) -> str | None:
    if agent_format is not None and agent_format not in SAVED_OUTPUT_FORMATS:
        raise PatternTestError(
            422,
            f"unknown agent format {agent_format!r}; valid: {', '.join(SAVED_OUTPUT_FORMATS)}",
        )
    if transcript is None or not transcript.strip():
        return None
    if agent_format is None:
        raise PatternTestError(
            422,
            "a transcript needs its agent format; one of: " + ", ".join(SAVED_OUTPUT_FORMATS),
        )
    return agent_format


def test_patterns(
    stderr: str,
    *,
    transcript: str | None = None,
    agent_format: str | None = None,
    exit_code: int | None = None,
    rules_text: str | None = None,
) -> dict[str, Any]:
    """The verdict on ``stderr`` (and ``transcript``, the agent's stdout in ``agent_format``)
    and each stderr line's decision and deciding rule. ``exit_code`` None judges the output
    alone, at exit 0 (as ``autofix patterns explain`` does). ``rules_text``: an edited
    rulebook to try instead of the live one (:func:`live_store`).
    PatternTestError for input it refuses. Writes nothing."""
    err_bytes = _bounded(stderr, "stderr")
    fmt = _agent_format(agent_format, transcript)
    out_bytes = _bounded(transcript or "", "transcript") if fmt is not None else b""
    rules = edited_rules(rules_text) if rules_text is not None else live_store().current()
    parser = _ExplainingParser(rules)
    judged_exit = 0 if exit_code is None else exit_code
    events: list[dict[str, Any]] = []
    judge: OutputJudge | None = None
    if fmt is None:  # as `autofix classify`
        err = parser.classifier("", "stderr")
        err.feed(err_bytes)
        result = parser.parse(judged_exit, err.finish(), "")
    else:  # as `autofix classify --agent`
        judge = OutputJudge(get_format(fmt), parser, "", WatchSettings())
        _listen(judge, events)
        result = replay_saved_output(judge, out_bytes, err_bytes, judged_exit)
    kinds: dict[str, tuple[str, str, bool]] = {}
    for compiled in rules.compiled:  # the first rule of an id is the one that can match
        kinds.setdefault(compiled.id, (compiled.rule.kind, compiled.rule.reason, compiled.trusted))
    seen = _AgentSaw.of(judge, result)
    lines = _lines(err_bytes, parser.explained("stderr"), kinds, seen, "stderr")
    # A plain-text agent's stdout is classified too; an event stream is read as events.
    out_lines = (
        _lines(out_bytes, parser.explained("stdout"), kinds, seen, "stdout")
        if judge is not None and not judge.has_event_stream
        else []
    )
    answer: dict[str, Any] = {
        "verdict": _verdict(result, exit_code),
        "counts": {
            "lines": len(lines),
            "noise": result.noise_lines,
            "error": result.error_lines,
            "neutral": result.neutral_lines,
            "diagnostic": result.diagnostic_lines,
        },
        "rules": {
            "source": rules.source,
            "edited": rules_text is not None,
            "summary": rule_count(rules),
            "used": _used_rules([*lines, *out_lines], kinds),
        },
        "lines": lines,
    }
    if fmt is not None:
        answer["agent"] = _agent(fmt, result, events)
        answer["transcript_lines"] = out_lines
    return answer


def _listen(judge: OutputJudge, events: list[dict[str, Any]]) -> None:
    """Keep each event the format's parser reads, then hand it on (the watcher listens too)."""
    handed_on = judge.events.listener

    def keep(event: dict[str, Any]) -> object:
        if len(events) < MAX_EVENTS:
            events.append(event)
        return handed_on(event) if handed_on is not None else None

    judge.events.listener = keep


def _verdict(result: ParseResult, exit_code: int | None) -> dict[str, Any]:
    return {
        "success": result.success,
        "status": result.status.value,
        "failure_kind": result.failure_kind.value if result.failure_kind is not None else None,
        "retry_class": result.retry_class.value,
        "retry_action": RETRY_ACTIONS[result.retry_class],
        "retry_after_s": result.retry_after_s,
        "error_message": result.error_message,
        "exit_code": exit_code,
        "judged_at_exit": 0 if exit_code is None else exit_code,
        "evidence": [
            {
                "role": item.role,
                "rule_id": item.rule_id,
                "stream": item.stream,
                "line_no": item.line_no,
                "text": item.text,
            }
            for item in result.evidence
        ],
        "matched_rules": list(result.matched_rules),
        "warnings": list(result.warnings),
        "notices": [notice.describe() for notice in result.notices],
    }


def _decision(verdict: LineVerdict, kind: str | None) -> str:
    """The line's decision in the rulebook's words (a retry notice, a summary) where the
    classifier's verdict is coarser (noise, error, success)."""
    if verdict.verdict == "success":
        return "success_summary"
    if not verdict.in_block:
        if verdict.verdict == "noise" and kind == "retry":
            return "retry"
        if verdict.verdict == "error" and kind == "failure_summary":
            return "failure_summary"
    return verdict.verdict


@dataclass(frozen=True)
class _AgentSaw:
    """What the agent format read in the output beside the rules (nothing without a transcript)."""

    retry_notices: frozenset[int] = frozenset()  # stderr lines: the CLI's own retry notices
    fatal: FatalLine | None = None  # the CLI's own line on how the run ended
    diagnostics: bool = False  # stderr errors were diagnostics: the structured result decided

    @classmethod
    def of(cls, judge: OutputJudge | None, result: ParseResult) -> _AgentSaw:
        if judge is None:
            return cls()
        return cls(
            judge.retry_notice_lines,
            judge.fatal,
            judge.structured_result and result.diagnostic_lines > 0,
        )

    def note(self, line_no: int, stream: str, decision: str) -> str | None:
        if stream == "stderr" and line_no in self.retry_notices:
            return "the agent CLI's retry notice: its error block does not count"
        fatal = self.fatal
        if fatal is not None and fatal.stream == stream and fatal.line_no == line_no:
            return f"the agent CLI's own line on how the run ended ({fatal.kind.value})"
        if self.diagnostics and stream == "stderr" and decision in ("error", "failure_summary"):
            return "the agent CLI's own diagnostic: its structured result decided, not this line"
        return None


def _lines(
    data: bytes,
    explained: list[LineVerdict],
    kinds: dict[str, tuple[str, str, bool]],
    seen: _AgentSaw,
    stream: str,
) -> list[dict[str, Any]]:
    """Every line of ``data`` with its decision. The trace skips the blank lines an open block
    holds (the block decides them) and, with a transcript, what follows an early stop."""
    by_number = {verdict.line_no: verdict for verdict in explained}
    texts = data.decode("utf-8", "replace").split("\n")
    if texts and texts[-1] == "":
        texts.pop()
    lines: list[dict[str, Any]] = []
    for number, raw in enumerate(texts, 1):
        verdict = by_number.get(number)
        line: dict[str, Any] = {"line_no": number}
        if verdict is None:
            text = redact_stored(raw.rstrip("\r"))
            line.update(text=text, decision="unread" if text.strip() else "blank", rule_id=None)
        else:
            kind, _, trusted = kinds.get(verdict.rule_id or "", (None, None, None))
            line.update(
                text=redact_stored(verdict.text),
                decision=_decision(verdict, kind),
                rule_id=verdict.rule_id,
                in_block=verdict.in_block,
            )
            if verdict.rule_id is not None and kind is not None:
                line["built_in"] = trusted
        note = seen.note(number, stream, line["decision"])
        if note is not None:
            line["note"] = note
        line["decided_by"] = _decided_by(line)
        lines.append(line)
    return lines


def _used_rules(
    lines: list[dict[str, Any]], kinds: dict[str, tuple[str, str, bool]]
) -> dict[str, dict[str, Any]]:
    """The rules that decided a line: their kind and the reason they give, once each."""
    used: dict[str, dict[str, Any]] = {}
    for line in lines:
        rule_id = line.get("rule_id")
        if rule_id is not None and rule_id not in used and rule_id in kinds:
            kind, reason, trusted = kinds[rule_id]
            used[rule_id] = {"kind": kind, "reason": reason, "built_in": trusted}
    return used


def _decided_by(line: dict[str, Any]) -> str:
    rule = line.get("rule_id")
    if line["decision"] == "blank":
        return "a blank line: it belongs to the block around it"
    if line["decision"] == "unread":
        return "not read: the run was stopped early before this line"
    if rule is None:
        return "no rule matched: neutral by default"
    where = "built-in rule" if line.get("built_in") else "rule"
    if line.get("in_block"):
        return f"the block its {where} {rule!r} opened"
    return f"{where} {rule!r}"


def _agent(fmt: str, result: ParseResult, events: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": fmt,
        "run_status": result.run_status.value if result.run_status is not None else None,
        "session_id": result.session_id,
        "model": result.model,
        "finish_reason": result.finish_reason.value if result.finish_reason else None,
        "num_turns": result.num_turns,
        "cost_usd": result.cost_usd,
        "tokens": result.usage.total,
        "final_text": truncate(result.final_text, FINAL_TEXT_CHARS) if result.final_text else None,
        "events": [_event(n, event) for n, event in enumerate(events, 1)],
        "events_cut": len(events) >= MAX_EVENTS,
    }


def _event(number: int, event: dict[str, Any]) -> dict[str, Any]:
    kind = event.get("type")
    sub = event.get("subtype")
    label = str(kind) if kind is not None else "(no type)"
    if isinstance(sub, str):
        label = f"{label}/{sub}"
    text = json.dumps(redact_value(event), ensure_ascii=False, default=str)
    return {"n": number, "type": label, "text": truncate(text, EVENT_CHARS)}


def live_rules_text() -> dict[str, Any]:
    """The live rulebook's source text and where it came from, for the editor. Reads only."""
    rules = live_store().current()
    path = candidate_path(None)
    answer: dict[str, Any] = {
        "path": path,
        "exists": False,
        "text": EMPTY_RULEBOOK,
        "in_effect": rules.source,
        "summary": rule_count(rules),
        "built_in_rules": len(DEFAULT_RULES),
        "agent_formats": list(SAVED_OUTPUT_FORMATS),
        "problems": [],
    }
    if path is None or not Path(path).exists():
        return answer
    answer["exists"] = True
    try:
        text = yamlfile.read_text(path, "pattern", MAX_PATTERN_FILE_BYTES)
    except ConfigFileError as exc:
        answer["problems"] = [_problem(Problem(exc.reason, exc.line))]
        return answer
    answer["text"] = text
    _, problems = validate_text(text, path)
    answer["problems"] = [_problem(problem) for problem in problems]
    return answer


class PatternTestRequest(BaseModel):
    """The tester's request body (JSON)."""

    model_config = ConfigDict(extra="forbid")

    stderr: str = ""
    transcript: str | None = None
    agent_format: str | None = None
    exit_code: int | None = Field(default=None, ge=-255, le=255)
    rules_text: str | None = None


def answer_request(body: bytes) -> dict[str, Any]:
    """``test_patterns`` for a JSON request body; PatternTestError (422) naming each bad field."""
    try:
        request = PatternTestRequest.model_validate_json(body)
    except ValidationError as exc:
        wrong = "; ".join(
            f"{'.'.join(str(part) for part in error['loc']) or 'body'}: {error['msg']}"
            for error in exc.errors()
        )
        raise PatternTestError(
            422,
            f"the request is not a tester request ({wrong}); send JSON with stderr, and "
            "optionally transcript, agent_format, exit_code and rules_text",
        ) from None
    return test_patterns(
        request.stderr,
        transcript=request.transcript,
        agent_format=request.agent_format,
        exit_code=request.exit_code,
        rules_text=request.rules_text,
    )
