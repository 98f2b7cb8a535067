"""Multi-line blocks: which lines after a head line belong to it.

Kinds, by the head line's shape (not by rule id, so user rules get the same grouping):
- a Python traceback with chained causes ("During handling...", "The above exception...") and
  ExceptionGroup trees (``+-+----``, ``|`` prefixes);
- a Python warning (``file.py:12: DeprecationWarning: ...``) with its indented source line;
- a Node warning with its ``(Use `node --trace-...`)`` line;
- a Go panic (blank lines, ``goroutine N [running]:``, frames, ``exit status 2``) or a Rust
  panic (its message line, the backtrace note, ``stack backtrace:``);
- any other error with its indented or gutter (``12 |``) continuation lines: Node/Java/.NET
  ``at`` frames, Java ``Caused by:``/``... N more``, Ruby ``file:12:in `m'`` frames, PHP
  ``Stack trace:`` and ``#0 ...`` frames.
"""

from __future__ import annotations

import re
from enum import Enum

_TRACEBACK_HEAD = re.compile(
    r"^[ \t]*(?:[+|][ \t]*)?(?:Exception Group )?Traceback \(most recent call last\):"
)
_SOURCE_LOCATION = re.compile(r"^  File \"[^\"]+\", line \d+")
_CHAIN = re.compile(
    r"^(?:[ \t|]*)(?:During handling of the above exception, another exception occurred:"
    r"|The above exception was the direct cause of the following exception:)"
)
_PY_WARNING = re.compile(r"\.py:\d+: [A-Za-z]*Warning: ")
_NODE_WARNING = re.compile(r"^\(node:\d+\) ")
_GUTTER = re.compile(
    r"^\d+ +\||^\.\.\. \d+ more|^Caused by: |^[^\s:]+:\d+:in [`']|^Stack trace:$|^#\d+ |^stack traceback:$"
)
_PANIC_HEAD = re.compile(r"^panic: |\bpanicked at\b")
# Lines of a Go panic report after its head: goroutine headers, frames (``main.main()``),
# nested panics, the exit status `go run` adds; and the Rust backtrace hint and header.
_PANIC_BODY = re.compile(
    r"^(?:goroutine \d+ |\[signal |panic: |created by |exit status \d|\[recovered\]"
    r"|note: run with `RUST_BACKTRACE|stack backtrace:|[^\s(]+\()"
)

MAX_BLOCK_LINES = 5000
MAX_GENERIC_CONTINUATION = 200
_HEAD_LINES = 8
_TAIL_LINES = 6
_MAX_LINE_CHARS = 300


class BlockKind(Enum):
    TRACEBACK = "traceback"
    PY_WARNING = "python_warning"
    NODE_WARNING = "node_warning"
    PANIC = "panic"
    GENERIC = "generic"


def block_kind(line: str, is_error: bool) -> BlockKind | None:
    if is_error:
        if _TRACEBACK_HEAD.match(line) or _SOURCE_LOCATION.match(line):
            return BlockKind.TRACEBACK
        if _PANIC_HEAD.search(line):
            return BlockKind.PANIC
        return BlockKind.GENERIC
    if _PY_WARNING.search(line):
        return BlockKind.PY_WARNING
    if _NODE_WARNING.match(line):
        return BlockKind.NODE_WARNING
    return None


def _indented(line: str) -> bool:
    return line[:1] in (" ", "\t") and bool(line.strip())


def continues_generic(line: str) -> bool:
    """Does ``line`` continue a generic block (indented, or a diagnostic's gutter)?"""
    return _indented(line) or _GUTTER.match(line) is not None


class BlockText:
    """The text kept for one error block: first lines plus last lines, bounded."""

    def __init__(self, first: str) -> None:
        self.head: list[str] = [first[:_MAX_LINE_CHARS]]
        self.tail: list[str] = []  # the last _TAIL_LINES (a list: most blocks never fill it)
        self.skipped = 0

    def add(self, line: str) -> None:
        line = line[:_MAX_LINE_CHARS]
        if len(self.head) < _HEAD_LINES and not self.tail:
            self.head.append(line)
            return
        if len(self.tail) == _TAIL_LINES:
            del self.tail[0]
            self.skipped += 1
        self.tail.append(line)

    def text(self) -> str:
        if not self.tail:
            return "\n".join(self.head)
        skipped = [f"… ({self.skipped} lines)"] if self.skipped else []
        return "\n".join([*self.head, *skipped, *self.tail])


_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Group|Interrupt|Exit|Warning)\b")


def heads_stack_trace(line: str, kind: BlockKind | None) -> bool:
    """Does this error line open a stack trace (a traceback, or an exception line with frames)?"""
    if kind is BlockKind.TRACEBACK:
        return True
    return kind is BlockKind.GENERIC and bool(_EXCEPTION_LINE.match(line))


def headline(text: str) -> str:
    """The line that says what went wrong: a traceback's exception line, else the first line."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    if _TRACEBACK_HEAD.match(lines[0]) or _SOURCE_LOCATION.match(lines[0]):
        exceptions = [line.strip(" \t|+-") for line in lines]
        exceptions = [line for line in exceptions if _EXCEPTION_LINE.match(line)]
        groups = [
            line for line in exceptions if line.startswith(("ExceptionGroup", "BaseExceptionGroup"))
        ]
        if groups:
            return groups[0]
        if exceptions:
            return exceptions[-1]
        return lines[-1].strip()
    return lines[0].strip()


class BlockTracker:
    """State machine over the lines that follow a block's head line."""

    def __init__(self) -> None:
        self.kind: BlockKind | None = None
        self._state = ""
        self._lines = 0
        self._indented_tree = False
        self.pending_blank = 0  # blank lines that belong to the block only if it continues

    @property
    def open(self) -> bool:
        return self.kind is not None

    def start(self, kind: BlockKind, head: str = "") -> None:
        self.kind = kind
        # An ExceptionGroup tree is indented throughout: it has no column-0 exception line.
        self._indented_tree = head[:1] in (" ", "\t", "+", "|")
        # Rust (1.73+) prints the panic message on the line after `panicked at file:l:c:`.
        rust_message = kind is BlockKind.PANIC and head.rstrip().endswith(":")
        self._state = "message" if rust_message and "panicked at" in head else "body"
        self._lines = 1
        self.pending_blank = 0

    def close(self) -> None:
        self.kind = None

    def offer(self, line: str) -> bool:
        """True if ``line`` continues the open block; otherwise the block is closed."""
        kind = self.kind
        if kind is None:
            return False
        self._lines += 1
        if self._lines > MAX_BLOCK_LINES:
            self.close()
            return False
        if kind is BlockKind.TRACEBACK:
            return self._traceback(line)
        if kind is BlockKind.PY_WARNING:
            self.close()
            return _indented(line)
        if kind is BlockKind.NODE_WARNING:
            self.close()
            return line.startswith("(Use `node --trace-")
        if kind is BlockKind.PANIC:
            return self._panic(line)
        if self._lines > MAX_GENERIC_CONTINUATION or not continues_generic(line):
            self.close()
            return False
        return True

    def _panic(self, line: str) -> bool:
        if not line.strip():
            self.pending_blank += 1
            if self.pending_blank > 1:
                self.close()
                return False
            return True
        if self._state == "message" or _indented(line) or _PANIC_BODY.match(line):
            self._state = "body"
            self.pending_blank = 0
            return True
        self.close()
        return False

    def _traceback(self, line: str) -> bool:
        if not line.strip():
            self.pending_blank += 1
            if self.pending_blank > 2:
                self.close()
                return False
            return True
        if self._state == "body":
            if _indented(line) or line[:1] in ("|", "+"):
                self.pending_blank = 0
                return True
            if self._indented_tree:
                self.close()
                return False
            self._state = "after"  # the exception line
            self.pending_blank = 0
            return True
        if _TRACEBACK_HEAD.match(line):
            self._state = "body"
            self.pending_blank = 0
            return True
        if _CHAIN.match(line):
            self._state = "chain"
            self.pending_blank = 0
            return True
        if self._state == "after" and _indented(line) and not self.pending_blank:
            return True  # exception notes or a multi-line message
        self.close()
        return False
