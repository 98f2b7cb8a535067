"""The lines an agent CLI itself prints about how its run ended, taken from each CLI's source.

Two sorts (docs/failure-kinds.md, "Whose stderr counts"):

- **fatal** forms: printed only on a path that ends the run as a failure (a start-up error, an
  unrecoverable API error). They are the only stderr lines that count as failure evidence
  beside a CLI's structured result, and they name the failure's kind.
- **explaining** forms (``evidence=False``): the CLI's report of an error that may or may not
  end the run (Gemini's "Error when talking to Gemini API ..."). They never decide a verdict;
  when the run failed on its own account they say which kind of failure it was.

Everything else a CLI writes on stderr is its diagnostics: debug and log output, warnings,
errors of tools the agent recovered from. ``NoticeForm`` lines are the CLI's reports about its
own run (a failed MCP server, a denied tool) that become ``AgentNotice``\\ s.

Each form is anchored at the start of a line and starts with a literal, and a line is looked
at only up to ``MAX_FORM_LINE_CHARS``: one combined pattern decides each line in linear time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from autofix.agents.failures import kind_from_message
from autofix.notices import AgentNotice, NoticeCode
from autofix.result import FailureKind

MAX_FORM_LINE_CHARS = 2000


@dataclass(frozen=True)
class FatalForm:
    """One line shape: ``pattern`` matches from the line's start (after blanks).

    ``kind`` None: ``read`` (or the shared tie-breakers) names it from the line; UNKNOWN when
    nothing does."""

    pattern: str
    kind: FailureKind | None = None
    source: str = ""  # where the CLI's code prints it
    evidence: bool = True
    read: Callable[[str], FailureKind | None] | None = None


@dataclass(frozen=True)
class FatalLine:
    """A fatal or explaining line found in the output."""

    kind: FailureKind
    text: str
    stream: str
    line_no: int
    evidence: bool = True


def _combined(patterns: Sequence[str]) -> re.Pattern[str]:
    alternatives = "|".join(f"(?P<f{i}>{pattern})" for i, pattern in enumerate(patterns))
    return re.compile(rf"^\s*(?:{alternatives})")


def _which(pattern: re.Pattern[str], line: str) -> int | None:
    found = pattern.match(line[:MAX_FORM_LINE_CHARS])
    if found is None or found.lastgroup is None:
        return None
    return int(found.lastgroup[1:])


class FatalForms:
    """A CLI's fatal and explaining forms, matched as one pattern (the first form wins)."""

    def __init__(self, forms: Sequence[FatalForm]) -> None:
        self.forms = tuple(forms)
        self._pattern = _combined([form.pattern for form in self.forms])

    def match(self, line: str, stream: str = "stderr", line_no: int = 0) -> FatalLine | None:
        index = _which(self._pattern, line)
        if index is None:
            return None
        form = self.forms[index]
        text = line.strip()[:500]
        kind = form.kind or (form.read or kind_from_message)(text) or FailureKind.UNKNOWN
        return FatalLine(kind, text, stream, line_no, form.evidence)


class FatalScan:
    """The fatal and explaining lines of one run, as its lines arrive: the first fatal line and
    the last explaining line of each stream (a failure's own report comes after any transcript
    that quotes one)."""

    def __init__(self, forms: FatalForms) -> None:
        self._forms = forms
        self._found: dict[tuple[str, bool], FatalLine] = {}

    def feed(self, line: str, stream: str, line_no: int) -> None:
        found = self._forms.match(line, stream, line_no)
        if found is None:
            return
        if found.evidence:
            self._found.setdefault((stream, True), found)
        else:
            self._found[(stream, False)] = found

    def line(self, exit_code: int | None) -> FatalLine | None:
        """The CLI's own line on how the run ended: stderr's, or stdout's (a text mode prints
        errors there) when the run failed or the whole answer is such a line (its first line).
        Its kind is the fatal line's, or the explaining line's where that one names none."""
        for stream in ("stderr", "stdout"):
            fatal = self._found.get((stream, True))
            explaining = self._found.get((stream, False))
            if stream == "stdout" and not exit_code:
                # At exit 0 stdout is the answer, which may quote such a line.
                explaining = None
                fatal = fatal if fatal is not None and fatal.line_no == 1 else None
            if fatal is None:
                if explaining is not None:
                    return explaining
                continue
            if fatal.kind is FailureKind.UNKNOWN and explaining is not None:
                return replace(fatal, kind=explaining.kind)
            return fatal
        return None


@dataclass(frozen=True)
class NoticeForm:
    """A line in which the CLI reports something about its own run (``AgentNotice``)."""

    pattern: str
    code: NoticeCode
    source: str = ""


class NoticeForms:
    """A CLI's notice lines on stderr, matched as one pattern."""

    def __init__(self, forms: Sequence[NoticeForm]) -> None:
        self.forms = tuple(forms)
        self._pattern = _combined([form.pattern for form in self.forms])

    def match(self, line: str) -> AgentNotice | None:
        index = _which(self._pattern, line)
        if index is None:
            return None
        return AgentNotice(code=self.forms[index].code, detail=line.strip())
