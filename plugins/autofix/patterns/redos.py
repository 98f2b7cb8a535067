"""Static ReDoS guard and literal extraction for rule regexes.

Works on the stdlib parser's tree (``re._parser``), so it sees the pattern's real shape
rather than its text. Patterns it cannot parse (``regex``-only syntax) are reported as such;
they still run with a timeout.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

_parser: Any = importlib.import_module("re._parser")
_c: Any = importlib.import_module("re._constants")

# Representative characters: all of ASCII plus a few non-ASCII letters, digits and spaces.
_ALPHABET: frozenset[str] = frozenset([chr(i) for i in range(128)] + list("éЖ٣\u00a0\u2028ſK"))
_CATEGORY_REGEX = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
    "CATEGORY_LINEBREAK": r"\n",
    "CATEGORY_NOT_LINEBREAK": r"[^\n]",
}
_REPEATS = {"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"}
_MAXREPEAT: int = _c.MAXREPEAT


@cache
def _category_chars(name: str) -> frozenset[str]:
    pattern = re.compile(_CATEGORY_REGEX.get(name, r"[\s\S]"))
    return frozenset(ch for ch in _ALPHABET if pattern.fullmatch(ch))


def _fold(chars: set[str] | frozenset[str], ignore_case: bool) -> frozenset[str]:
    if not ignore_case:
        return frozenset(chars)
    return frozenset(c for ch in chars for c in (ch, ch.lower(), ch.upper()))


def _in_chars(items: list[tuple[Any, Any]], ignore_case: bool) -> frozenset[str]:
    chars: set[str] = set()
    negate = False
    for op, av in items:
        name = str(op)
        if name == "NEGATE":
            negate = True
        elif name == "LITERAL":
            chars.add(chr(av))
        elif name == "RANGE":
            lo, hi = av
            chars.update(ch for ch in _ALPHABET if lo <= ord(ch) <= hi)
        elif name == "CATEGORY":
            chars.update(_category_chars(str(av)))
        else:
            chars.update(_ALPHABET)
    folded = _fold(chars, ignore_case)
    return _ALPHABET - folded if negate else folded


@dataclass(frozen=True)
class _Info:
    first: frozenset[str]  # characters a match can start with
    chars: frozenset[str]  # every character a match can contain
    nullable: bool  # can match the empty string


def _seq_info(items: list[tuple[Any, Any]], ignore_case: bool, dotall: bool) -> _Info:
    first: set[str] = set()
    chars: set[str] = set()
    nullable = True
    for item in items:
        info = _node_info(item, ignore_case, dotall)
        chars |= info.chars
        if nullable:
            first |= info.first
            nullable = info.nullable
    return _Info(frozenset(first), frozenset(chars), nullable)


def _node_info(node: tuple[Any, Any], ignore_case: bool, dotall: bool) -> _Info:
    op, av = node
    name = str(op)
    if name == "LITERAL":
        chars = _fold({chr(av)}, ignore_case)
        return _Info(chars, chars, False)
    if name == "NOT_LITERAL":
        chars = _ALPHABET - _fold({chr(av)}, ignore_case)
        return _Info(chars, chars, False)
    if name == "ANY":
        chars = _ALPHABET if dotall else _ALPHABET - {"\n"}
        return _Info(chars, chars, False)
    if name == "IN":
        chars = _in_chars(av, ignore_case)
        return _Info(chars, chars, False)
    if name in _REPEATS:
        low, _high, body = av
        info = _seq_info(list(body), ignore_case, dotall)
        return _Info(info.first, info.chars, info.nullable or low == 0)
    if name == "SUBPATTERN":
        _group, add_flags, del_flags, body = av
        ic = (ignore_case or bool(add_flags & re.IGNORECASE)) and not del_flags & re.IGNORECASE
        da = (dotall or bool(add_flags & re.DOTALL)) and not del_flags & re.DOTALL
        return _seq_info(list(body), ic, da)
    if name == "ATOMIC_GROUP":
        return _seq_info(list(av), ignore_case, dotall)
    if name == "BRANCH":
        infos = [_seq_info(list(alt), ignore_case, dotall) for alt in av[1]]
        return _Info(
            frozenset().union(*(i.first for i in infos)),
            frozenset().union(*(i.chars for i in infos)),
            any(i.nullable for i in infos),
        )
    if name in {"GROUPREF", "GROUPREF_EXISTS"}:
        return _Info(_ALPHABET, _ALPHABET, True)
    # Anchors and lookarounds consume nothing.
    return _Info(frozenset(), frozenset(), True)


def _is_variable_repeat(node: tuple[Any, Any]) -> bool:
    op, av = node
    return str(op) in {"MAX_REPEAT", "MIN_REPEAT"} and av[1] > av[0]


def _unbounded_like(node: tuple[Any, Any]) -> bool:
    return _is_variable_repeat(node) and node[1][1] > 1


def _children(node: tuple[Any, Any]) -> list[list[tuple[Any, Any]]]:
    op, av = node
    name = str(op)
    if name in _REPEATS:
        return [list(av[2])]
    if name == "SUBPATTERN":
        return [list(av[3])]
    if name == "ATOMIC_GROUP":
        return [list(av)]
    if name == "BRANCH":
        return [list(alt) for alt in av[1]]
    if name in {"ASSERT", "ASSERT_NOT"}:
        return [list(av[1])]
    if name == "GROUPREF_EXISTS":
        return [list(part) for part in av[1:] if part is not None]
    return []


def _walk(items: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    found: list[tuple[Any, Any]] = []
    for item in items:
        found.append(item)
        for child in _children(item):
            found.extend(_walk(child))
    return found


def _check_sequence(
    items: list[tuple[Any, Any]], ignore_case: bool, dotall: bool, problems: list[str]
) -> None:
    for index, item in enumerate(items):
        av = item[1]
        if str(item[0]) in _REPEATS and av[1] > 1:  # repeated more than once, even a fixed count
            body = list(av[2])
            inner = [n for n in _walk(body) if _unbounded_like(n)]
            if inner:
                problems.append(
                    "nested quantifier: a repeated group contains another repeat, like (a+)+ "
                    "or (\\w+\\s?)*; this can take exponential time. Repeat the inner part once, e.g. a+"
                )
            for node in _walk(body):
                if str(node[0]) == "BRANCH":
                    alts = [_seq_info(list(alt), ignore_case, dotall) for alt in node[1][1]]
                    if _alternatives_overlap(alts):
                        problems.append(
                            "overlapping alternation under a repeat, like (a|aa)* or (\\w|\\d)+; "
                            "alternatives that can start with the same character make backtracking "
                            "exponential. Make the alternatives disjoint, or use one character class"
                        )
                        break
        if _is_variable_repeat(item):
            here = _node_info(item, ignore_case, dotall)
            for later in items[index + 1 :]:
                if _is_variable_repeat(later):
                    there = _node_info(later, ignore_case, dotall)
                    if here.chars & there.first and (
                        _unbounded_like(item) or _unbounded_like(later)
                    ):
                        problems.append(
                            "adjacent overlapping quantifiers, like \\d+\\d+ or .*.*; two repeats "
                            "that can match the same characters with nothing required between them "
                            "take polynomial time on long lines. Merge them into one repeat"
                        )
                        break
                if not _node_info(later, ignore_case, dotall).nullable:
                    break
        for child in _children(item):
            _check_sequence(child, ignore_case, dotall, problems)


def _alternatives_overlap(alts: list[_Info]) -> bool:
    if any(info.nullable for info in alts) and len(alts) > 1:
        return True
    for i, left in enumerate(alts):
        for right in alts[i + 1 :]:
            if left.first & right.first:
                return True
    return False


def _parse(pattern: str, case_sensitive: bool) -> Any:
    return _parser.parse(pattern, 0 if case_sensitive else re.IGNORECASE)


def check_regex(pattern: str, case_sensitive: bool = False) -> list[str]:
    """Problems that make ``pattern`` unsafe or invalid; empty when it may be used."""
    try:
        import regex

        regex.compile(pattern, 0 if case_sensitive else regex.IGNORECASE)
    except Exception as exc:  # regex.error carries the position in its message
        return [f"invalid regex: {exc}"]
    try:
        tree = _parse(pattern, case_sensitive)
    except Exception:
        return []  # `regex`-only syntax: not analysable here; the runtime timeout still applies
    flags = tree.state.flags
    problems: list[str] = []
    _check_sequence(list(tree), bool(flags & re.IGNORECASE), bool(flags & re.DOTALL), problems)
    return list(dict.fromkeys(problems))


def can_match_newline(pattern: str, case_sensitive: bool = False) -> bool:
    """Whether any part of ``pattern`` can consume a newline (built-ins must not)."""
    tree = _parse(pattern, case_sensitive)
    flags = tree.state.flags
    info = _seq_info(list(tree), bool(flags & re.IGNORECASE), bool(flags & re.DOTALL))
    return "\n" in info.chars


def _key_chars(code: int, ignore_case: bool) -> str | None:
    """The lower-cased character for a scan key, or None when ASCII lowering can't find it."""
    ch = chr(code)
    if ch.isascii():
        return ch.lower()
    if ignore_case and ch.lower() != ch.upper():
        return None  # a cased non-ASCII letter may appear in another case
    return ch


def _score(option: list[str]) -> tuple[bool, int, int]:
    """Prefer options every literal of which is selective (4+ chars), then fewer scans."""
    shortest = min(map(len, option))
    return (shortest >= 4, -len(set(option)), shortest)


def _required(items: list[tuple[Any, Any]], ignore_case: bool) -> list[str] | None:
    """Literals of which every match contains at least one (best option), or None."""
    best: list[str] | None = None
    run: list[str] = []

    def consider(option: list[str] | None) -> None:
        nonlocal best
        if option and all(option) and (best is None or _score(option) > _score(best)):
            best = option

    for op, av in items:
        name = str(op)
        ch = _key_chars(av, ignore_case) if name == "LITERAL" else None
        if ch is not None:
            run.append(ch)
            continue
        consider(["".join(run)] if run else None)
        run = []
        if name == "SUBPATTERN" and not av[1] and not av[2]:
            consider(_required(list(av[3]), ignore_case))
        elif name in _REPEATS and av[0] >= 1:
            consider(_required(list(av[2]), ignore_case))
        elif name == "BRANCH":
            options = [_required(list(alt), ignore_case) for alt in av[1]]
            if all(options):
                consider([lit for option in options if option for lit in option])
    consider(["".join(run)] if run else None)
    return best


def required_literals(pattern: str, case_sensitive: bool = False) -> list[str] | None:
    """Lower-cased literals such that every match of ``pattern`` contains one of them."""
    try:
        tree = _parse(pattern, case_sensitive)
    except Exception:
        return None
    return _required(list(tree), bool(tree.state.flags & re.IGNORECASE))


def _prefixes(items: list[tuple[Any, Any]], ignore_case: bool) -> tuple[list[str], bool]:
    """Lower-cased literal prefixes every match of ``items`` starts with; True if no more follows."""
    out = [""]
    for op, av in items:
        name = str(op)
        if name == "LITERAL":
            ch = _key_chars(av, ignore_case)
            if ch is None:
                return out, False
            out = [p + ch for p in out]
            continue
        if name == "SUBPATTERN" and not av[1] and not av[2]:
            alternatives = [list(av[3])]
        elif name == "BRANCH":
            alternatives = [list(alt) for alt in av[1]]
        else:
            return out, False
        found = [_prefixes(alt, ignore_case) for alt in alternatives]
        out = [p + s for p in out for options, _ in found for s in options]
        if len(out) > 64 or not all(done for _, done in found):
            return out[:65], False
    return out, True


def line_prefixes(pattern: str, case_sensitive: bool = False) -> list[str] | None:
    """For a pattern anchored at line start (``^``/``\\A``): lower-cased literals one of which
    every match starts with, at the line's first character. None when there are none to use."""
    try:
        tree = _parse(pattern, case_sensitive)
    except Exception:
        return None
    items = list(tree)
    if (
        not items
        or str(items[0][0]) != "AT"
        or str(items[0][1])
        not in (
            "AT_BEGINNING",
            "AT_BEGINNING_STRING",
        )
    ):
        return None
    found, _ = _prefixes(items[1:], bool(tree.state.flags & re.IGNORECASE))
    if len(found) > 64 or min(map(len, found)) < 2:
        return None
    return list(dict.fromkeys(found))
