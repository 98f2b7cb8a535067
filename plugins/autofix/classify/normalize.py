"""Turn raw terminal output into the lines a person would see, before any rule runs."""

from __future__ import annotations

import re

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), and other two-byte escapes.
_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]"
)


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text) if "\x1b" in text or "\x9b" in text else text


def overwrite_carriage_returns(line: str) -> str:
    """A bare ``\\r`` returns to column 0, so later text overwrites earlier text."""
    if "\r" not in line:
        return line
    segments = line.split("\r")
    shown = segments[0]
    for segment in segments[1:]:
        shown = segment + shown[len(segment) :]
    return shown


def normalize_text(text: str) -> str:
    """Strip ANSI; ``\\r\\n`` is a newline, a bare ``\\r`` overwrites. ``text`` may hold many lines."""
    text = strip_ansi(text)
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            text = "\n".join(overwrite_carriage_returns(line) for line in text.split("\n"))
    return text


def normalize_line(line: str, max_length: int) -> str:
    """One line, without its newline: normalised and cut to ``max_length`` characters."""
    line = line.rstrip("\n")
    if line.endswith("\r"):
        line = line[:-1]
    line = overwrite_carriage_returns(strip_ansi(line))
    return line[:max_length]


def decode(data: bytes) -> str:
    """UTF-8 with invalid bytes replaced, never an exception."""
    return data.decode("utf-8", errors="replace")
