"""Find the structured payload inside an agent's final text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum


class PayloadFormat(StrEnum):
    """What an answer's payload is read as."""

    JSON = "json"
    YAML = "yaml"
    AUTO = "auto"  # JSON, plus fences labelled yaml


class CandidateSource(StrEnum):
    """Where in the answer a payload candidate was found."""

    FENCE = "fence"  # a fenced code block
    SPAN = "span"  # a balanced {...} or [...] span in the text
    WHOLE = "whole"  # the whole text (YAML only)


JSON_LANGS = frozenset({"", "json", "jsonc", "json5", "javascript", "js"})
YAML_LANGS = frozenset({"yaml", "yml"})

# An opening fence: 3+ backticks or tildes at line start, plus backticks after prose on the
# same line ("Here it is: ```json"), which models write often; then an optional info string.
_FENCE_OPEN = re.compile(
    # Possessive: giving back a fence character or a blank never changes where the info string
    # stops, and trying it was quadratic in a long run of them.
    r"^(?:[ \t]{0,3}|[^\n`]*?)(?P<fence>`{3,}+)[ \t]*+(?P<info>[^\n`]*)$"
    r"|^[ \t]{0,3}(?P<tfence>~{3,}+)[ \t]*+(?P<tinfo>[^\n`]*)$",
    re.M,
)


@dataclass(frozen=True)
class FencedBlock:
    """One fenced code block. ``closed`` is False when the text ended inside it."""

    lang: str
    body: str
    start: int
    end: int
    closed: bool


@dataclass(frozen=True)
class Candidate:
    """A piece of the text that may hold the payload, with how it was found."""

    text: str
    fmt: PayloadFormat  # JSON or YAML
    source: CandidateSource
    lang: str = ""
    closed: bool = True  # False: the fence or the bracket span ran to the end of the text
    surrounded: bool = False  # other non-blank text was around it


def fenced_blocks(text: str) -> list[FencedBlock]:
    """All fenced blocks in document order; an unclosed last fence runs to the end."""
    blocks: list[FencedBlock] = []
    pos = 0
    while True:
        match = _FENCE_OPEN.search(text, pos)
        if match is None:
            return blocks
        fence = match.group("fence") or match.group("tfence")
        info = match.group("info") if match.group("fence") else match.group("tinfo")
        lang = info.strip().split(" ")[0].lower() if info and info.strip() else ""
        start = match.start("fence") if match.group("fence") else match.start("tfence")
        body_start = match.end() + 1 if match.end() < len(text) else match.end()
        closing = re.compile(
            r"^[ \t]{0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$", re.M
        )
        close = closing.search(text, body_start)
        if close is None:
            blocks.append(FencedBlock(lang, text[body_start:], start, len(text), closed=False))
            return blocks
        body = text[body_start : close.start()]
        blocks.append(FencedBlock(lang, body.rstrip("\n"), start, close.end(), closed=True))
        pos = close.end()


def balanced_spans(text: str, limit: int = 20) -> Iterator[tuple[int, int, bool]]:
    """``{...}`` or ``[...]`` spans in order: (begin, end, closed).

    String-aware (double and single quotes, escapes). When the text ends before the
    brackets balance, the span runs to the end and ``closed`` is False (a truncated answer).
    An opener followed by something that cannot start JSON (``[see below]``) is skipped.
    """
    index = 0
    for _ in range(limit):
        begin = _next_opener(text, index)
        if begin is None:
            return
        if not _looks_like_json_start(text, begin):
            index = begin + 1
            continue
        end, closed = _scan_to_close(text, begin)
        yield begin, end, closed
        if not closed:
            return
        index = end


def balanced_span(text: str) -> tuple[int, int, bool] | None:
    """The first JSON-looking balanced span, or None."""
    return next(balanced_spans(text), None)


def _next_opener(text: str, index: int) -> int | None:
    positions = [p for p in (text.find("{", index), text.find("[", index)) if p != -1]
    return min(positions) if positions else None


def _looks_like_json_start(text: str, begin: int) -> bool:
    rest = text[begin + 1 : begin + 40].lstrip()
    if not rest:
        return True
    if text[begin] == "{":
        return rest[0] in "\"'}" or rest[0].isalpha() or rest[0] == "_"
    return rest[0] in "\"'{[]-0123456789tfn"


def _scan_to_close(text: str, begin: int) -> tuple[int, bool]:
    depth = 0
    quote: str | None = None
    escaped = False
    for index in range(begin, len(text)):
        char = text[index]
        if quote is not None:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = None
            continue
        if char in "\"'":
            # An apostrophe inside a bare word ("don't") is not a quote.
            if char == "'" and index > 0 and text[index - 1].isalnum():
                continue
            quote = char
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return index + 1, True
    return len(text), False


def candidates(text: str, fmt: PayloadFormat = PayloadFormat.AUTO) -> Iterator[Candidate]:
    """Payload candidates, best first. The caller parses each and keeps the first that works.

    Order (agent-formats README §7): fenced blocks from last to first, then the balanced JSON
    spans in the text. YAML is only considered when the caller asks for it or when a fence is
    explicitly labelled ``yaml``: plain prose parses as YAML far too easily.
    """
    blocks = fenced_blocks(text)
    # Is there text before or after a span? Compared against the first and last non-blank
    # characters, not by stripping a copy per span (quadratic with many spans).
    first = len(text) - len(text.lstrip())
    last = len(text.rstrip())

    def surrounds(begin: int, end: int) -> bool:
        return first < begin or last > end

    for block in reversed(blocks):
        surrounded = surrounds(block.start, block.end)
        if block.lang in YAML_LANGS and fmt in (PayloadFormat.YAML, PayloadFormat.AUTO):
            yield Candidate(
                block.body,
                PayloadFormat.YAML,
                CandidateSource.FENCE,
                block.lang,
                block.closed,
                surrounded,
            )
        elif block.lang in JSON_LANGS and fmt in (PayloadFormat.JSON, PayloadFormat.AUTO):
            inner = balanced_span(block.body)
            body = block.body if inner is None else block.body[inner[0] : inner[1]]
            closed = block.closed and (inner is None or inner[2])
            yield Candidate(
                body.strip(),
                PayloadFormat.JSON,
                CandidateSource.FENCE,
                block.lang,
                closed,
                surrounded,
            )
        elif block.lang in JSON_LANGS and fmt == PayloadFormat.YAML:  # JSON is YAML too
            yield Candidate(
                block.body, PayloadFormat.YAML, CandidateSource.FENCE, "", block.closed, surrounded
            )
    if fmt in (PayloadFormat.JSON, PayloadFormat.AUTO):
        for begin, end, closed in balanced_spans(text):
            surrounded = surrounds(begin, end)
            yield Candidate(
                text[begin:end], PayloadFormat.JSON, CandidateSource.SPAN, "", closed, surrounded
            )
    if fmt == PayloadFormat.YAML and text.strip():
        yield Candidate(text.strip(), PayloadFormat.YAML, CandidateSource.WHOLE)
