"""Turn raw terminal output into the lines a person would see, before any rule runs."""

from __future__ import annotations

import re

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), and other two-byte escapes.
_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]"
)


def strip_ansi(text: str) -> str:
    """No escape can span a newline, so only the lines holding ESC or CSI are rewritten
    (a regex scan of a whole 1 MB chunk costs ~6 ms; ``str.find`` is ~500x faster)."""
    esc = text.find("\x1b")
    csi = text.find("\x9b")
    if esc == -1 and csi == -1:
        return text
    pieces: list[str] = []
    done = 0
    while esc != -1 or csi != -1:
        hit = esc if csi == -1 or (esc != -1 and esc < csi) else csi
        start = text.rfind("\n", 0, hit) + 1
        end = text.find("\n", hit)
        if end == -1:
            end = len(text)
        pieces.append(text[done:start])
        pieces.append(_ANSI.sub("", text[start:end]))
        done = end
        if esc != -1:
            esc = text.find("\x1b", end)
        if csi != -1:
            csi = text.find("\x9b", end)
    pieces.append(text[done:])
    return "".join(pieces)


def overwrite_carriage_returns(line: str) -> str:
    """A bare ``\\r`` returns to column 0, so later text overwrites earlier text."""
    if "\r" not in line:
        return line
    # Each column shows the last segment that reaches it: walk back from the last segment and
    # add only what reaches further (copying the whole line per segment was quadratic).
    pieces: list[str] = []
    reached = 0
    for segment in reversed(line.split("\r")):
        if len(segment) > reached:
            pieces.append(segment[reached:])
            reached = len(segment)
    return "".join(pieces)


def drop_overwritten(line: bytes) -> bytes:
    """``line`` (UTF-8, no newline) without the ``\r`` segments that later segments wholly
    overwrite: ``normalize_text`` gives the same text for both, and a progress bar of a
    thousand redraws is decoded and stripped once instead of a thousand times. Walking back
    from the last segment, one whose byte length is within the columns already covered cannot
    show (a segment never shows more characters than it has bytes). Kept whole when an OSC
    escape (which may span a ``\r``) or invalid UTF-8 could make the segments' widths differ."""
    if line.count(b"\r") < 2 or b"\x1b]" in line:
        return line
    kept: list[bytes] = []
    reached = 0
    for segment in reversed(line.split(b"\r")):
        if len(segment) <= reached:
            continue
        try:
            width = len(strip_ansi(segment.decode("utf-8")))
        except UnicodeDecodeError:
            return line
        if width > reached:
            reached = width
            kept.append(segment)
    kept.reverse()
    return b"\r".join(kept)


def normalize_text(text: str) -> str:
    """Strip ANSI; ``\\r\\n`` is a newline, a bare ``\\r`` overwrites. ``text`` may hold many lines."""
    text = strip_ansi(text)
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            text = _overwrite_lines(text)
    return text


def _overwrite_lines(text: str) -> str:
    """Apply ``\\r`` overwrites only to the lines that hold one (most don't)."""
    pieces: list[str] = []
    done = 0
    hit = text.find("\r")
    while hit != -1:
        start = text.rfind("\n", 0, hit) + 1
        end = text.find("\n", hit)
        if end == -1:
            end = len(text)
        pieces.append(text[done:start])
        pieces.append(overwrite_carriage_returns(text[start:end]))
        done = end
        hit = text.find("\r", end)
    pieces.append(text[done:])
    return "".join(pieces)


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
