"""A JSON schema as a llama.cpp GBNF grammar, numeric bounds included.

llama-cpp-python's converter (``llama_cpp.llama_grammar``) drops ``minimum``/``maximum``, so a
grammar-constrained small model still writes ``"threshold": -100`` for a field bounded to 0..100;
on Gemma 3 270M that was most of what constrained decoding left invalid (docs/benchmarks.md).
This module keeps the converter for everything else and adds rules for bounded numbers:

- integers: exact digit-range alternations for ``[minimum, maximum]`` (inclusive or exclusive);
- numbers with integer bounds: an integral part in range plus a fraction, the upper bound itself
  only with a zero fraction, no exponent;
- numbers with fractional or exclusive bounds: the same rule between the whole numbers just
  inside them (``minimum: 2.5`` decodes from 3): a subset, so every value it lets through is
  valid; when no whole number lies inside (``0.1..0.9``), the sign only (no ``-`` when the
  minimum is >= 0).

String patterns are rewritten first into the regex subset the converter copies faithfully
(``\\d``, ``\\w``, ``\\s`` and escaped punctuation become character classes): it would copy
``\\d`` into the grammar verbatim, which llama.cpp refuses (and its server then died). A
grammar still holding an escape llama.cpp does not read is refused here, naming the rule.

Needs the ``[local-llm]`` extra (llama-cpp-python) for the converter.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

MAX_DIGITS = 15  # as the converter's own integral-part rule
_FRACTION = '("." [0-9]+)?'
_ZERO_FRACTION = '("." "0"+)?'


def _same_length(lo: str, hi: str) -> list[str]:
    """GBNF sequences matching every decimal string of len(lo) between lo and hi (lo <= hi)."""
    if len(lo) == 1:
        return [f"[{lo}-{hi}]" if lo != hi else f'"{lo}"']
    if lo[0] == hi[0]:
        return [f'"{lo[0]}" {rest}' for rest in _same_length(lo[1:], hi[1:])]
    tail = len(lo) - 1
    parts = [f'"{lo[0]}" {rest}' for rest in _same_length(lo[1:], "9" * tail)]
    low_digit, high_digit = int(lo[0]) + 1, int(hi[0]) - 1
    if low_digit <= high_digit:
        head = f'"{low_digit}"' if low_digit == high_digit else f"[{low_digit}-{high_digit}]"
        parts.append(" ".join([head] + ["[0-9]"] * tail))
    parts.extend(f'"{hi[0]}" {rest}' for rest in _same_length("0" * tail, hi[1:]))
    return parts


def natural_range(lo: int, hi: int | None) -> str:
    """A GBNF expression for the integers lo..hi (hi None: unbounded), 0 <= lo, no leading zeros."""
    if lo < 0 or (hi is not None and hi < lo):
        raise ValueError(f"bad range {lo}..{hi}")
    parts: list[str] = []
    length = len(str(lo))
    top = hi if hi is not None else 10**MAX_DIGITS - 1
    while length <= len(str(top)):
        start = max(lo, 10 ** (length - 1) if length > 1 else 0)
        end = min(top, 10**length - 1)
        if hi is None and end == 10**length - 1 and start == 10 ** (length - 1) and length > 1:
            # Every longer number too: one rule instead of a rule per length.
            parts.append(f"[1-9] [0-9]{{{length - 1},{MAX_DIGITS - 1}}}")
            break
        if start <= end:
            parts.extend(_same_length(str(start), str(end)))
        length += 1
    return "(" + " | ".join(f"({p})" for p in parts) + ")"


def _signed(
    lo: int | None,
    hi: int | None,
    magnitude: Callable[[int, int | None], str],
    negative_floor: int,
    what: str,
) -> str:
    """Values v in [lo, hi]: ``magnitude(a, b)`` for v >= 0, ``"-" magnitude`` of -v below 0
    (``negative_floor``: the smallest magnitude written with a minus sign)."""
    if lo is not None and hi is not None and lo > hi:
        raise ValueError(f"no {what} lies in {lo}..{hi}")
    options: list[str] = []
    if hi is None or hi >= 0:
        options.append(magnitude(max(lo or 0, 0), hi))
    if lo is None or lo < 0:
        smallest = negative_floor if hi is None or hi >= 0 else -hi
        options.append(f'"-" ({magnitude(smallest, None if lo is None else -lo)})')
    return " | ".join(f"({o})" for o in options)


def integer_rule(lo: int | None, hi: int | None) -> str:
    """GBNF for integers with inclusive bounds (None: open); no "-0"."""
    return _signed(lo, hi, natural_range, 1, "integer")


def _decimal_magnitude(lo: int, hi: int | None) -> str:
    """Non-negative decimals u with lo <= u <= hi (integers; hi None: open)."""
    if hi is None:
        return f"{natural_range(lo, None)} {_FRACTION}"
    options = []
    if lo <= hi - 1:
        options.append(f"{natural_range(lo, hi - 1)} {_FRACTION}")
    options.append(f'"{hi}" {_ZERO_FRACTION}')
    return " | ".join(f"({o})" for o in options)


def number_rule(lo: int | None, hi: int | None) -> str:
    """GBNF for decimals in [lo, hi] with integer (or open) bounds; no exponent."""
    return _signed(lo, hi, _decimal_magnitude, 0, "number")


def numeric_bounds_rule(schema: Mapping[str, Any]) -> str | None:
    """A GBNF rule (without the trailing ``space``) for a bounded integer/number schema, or None
    when the schema has no bounds the converter would drop."""
    kind = schema.get("type")
    keys = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
    if kind not in ("integer", "number") or not any(k in schema for k in keys):
        return None
    # The whole numbers inside the bounds, exclusive ones included.
    lows = [float(schema["minimum"])] if "minimum" in schema else []
    highs = [float(schema["maximum"])] if "maximum" in schema else []
    if "exclusiveMinimum" in schema:
        lows.append(math.floor(float(schema["exclusiveMinimum"])) + 1)
    if "exclusiveMaximum" in schema:
        highs.append(math.ceil(float(schema["exclusiveMaximum"])) - 1)
    lo = math.ceil(max(lows)) if lows else None
    hi = math.floor(min(highs)) if highs else None
    if kind == "integer":
        return integer_rule(lo, hi)
    if lo is not None and hi is not None and lo > hi:
        floor = max([*lows, float(schema.get("exclusiveMinimum", -math.inf))])
        return f"{natural_range(0, None)} {_FRACTION}" if floor >= 0 else None  # the sign only
    return number_rule(lo, hi)


_SHORTHAND_IN_CLASS = {"d": "0-9", "w": "A-Za-z0-9_", "s": " \\t\\n\\r"}
# A pattern matches inside a JSON string: "any character" there is not a quote or a backslash
# (unescaped, either would end or break the string), so negated classes and "." leave them out.
_NOT_IN_STRING = '"\\\\'
_SHORTHAND = {
    **{k: f"[{v}]" for k, v in _SHORTHAND_IN_CLASS.items()},
    "D": f"[^0-9{_NOT_IN_STRING}]",
    "W": f"[^A-Za-z0-9_{_NOT_IN_STRING}]",
    "S": f"[^ \\t\\n\\r{_NOT_IN_STRING}]",
}
_ANY_IN_STRING = f"[^{_NOT_IN_STRING}\\x0A\\x0D]"
# Escapes llama.cpp's grammar parser reads (parse_char, parse_space): anything else is an error.
_GBNF_ESCAPES = frozenset('xuUtnr"[]\\')
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


def _hex(ch: str) -> str:
    return f"\\x{ord(ch):02X}" if ord(ch) < 0x100 else ch


def gbnf_pattern(pattern: str) -> str:
    """``pattern`` with shorthand classes and escaped punctuation spelled as character classes
    (``\\x`` escapes inside them), which llama-cpp-python's converter passes through intact;
    ``.`` and negated classes leave out the quote and the backslash, which would end the JSON
    string. Other escapes (``\\b``, ``\\A``) are left for ``check_escapes`` to refuse."""
    out: list[str] = []
    in_class = False
    opened = 0  # where the open class's items start in ``out``
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            i += 2
            if in_class:
                if nxt in _SHORTHAND_IN_CLASS:
                    out.append(_SHORTHAND_IN_CLASS[nxt])
                elif not nxt.isalnum():
                    out.append(_hex(nxt))
                else:
                    out.append("\\" + nxt)
            elif nxt in _SHORTHAND:
                out.append(_SHORTHAND[nxt])
            elif not nxt.isalnum():
                out.append(f"[{_hex(nxt)}]")
            else:
                out.append("\\" + nxt)
            continue
        if ch == "." and not in_class:
            out.append(_ANY_IN_STRING)
            i += 1
            continue
        if ch == "[" and not in_class:
            in_class, opened = True, len(out) + 1
        elif ch == "]" and in_class and "".join(out[opened:]) not in ("", "^"):
            in_class = False  # a "]" first in the class (or after "^") is a literal
            if out[opened : opened + 1] == ["^"]:
                out.append(_NOT_IN_STRING)
        out.append(ch)
        i += 1
    return "".join(out)


def check_escapes(grammar: str) -> None:
    """Raise ValueError naming the rule when ``grammar`` holds an escape llama.cpp refuses."""
    for line in grammar.splitlines():
        for found in _ESCAPE.finditer(line):
            if found.group(1) not in _GBNF_ESCAPES:
                rule = line.split("::=", 1)[0].strip()
                raise ValueError(
                    f"cannot turn the schema into a grammar: rule {rule!r} holds the escape "
                    f"\\{found.group(1)}, which llama.cpp does not read; simplify that field's "
                    "pattern or use constrained_as='json_schema'"
                )


def schema_grammar(schema: Mapping[str, Any]) -> str:
    """The schema as a llama.cpp GBNF grammar (for completions endpoints, which have no
    response_format), with numeric bounds. Raises ValueError when it cannot be built."""
    try:
        from llama_cpp import llama_grammar
    except ImportError as exc:
        raise ValueError(
            "constrained_as='grammar' converts the schema with llama-cpp-python; install the "
            "[local-llm] extra or use constrained_as='json_schema' / 'json_object'"
        ) from exc

    base: Any = llama_grammar.SchemaConverter  # untyped third-party class

    class BoundedConverter(base):  # type: ignore[misc]
        def visit(self, node: dict[str, Any], name: str) -> str:
            rule = numeric_bounds_rule(node) if isinstance(node, dict) else None
            if rule is None:
                return str(super().visit(node, name))
            rule_name = name + "-" if name in llama_grammar.RESERVED_NAMES else name or "root"
            return str(self._add_rule(rule_name, f"({rule}) space"))

        def _visit_pattern(self, pattern: str, name: str) -> str:
            return str(super()._visit_pattern(gbnf_pattern(pattern), name))

    try:
        converter: Any = BoundedConverter(
            prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False
        )
        resolved = converter.resolve_refs(json.loads(json.dumps(dict(schema))), "stdin")
        converter.visit(resolved, "")
        grammar = str(converter.format_grammar())
    except Exception as exc:  # the converter raises bare errors on schemas it does not support
        raise ValueError(f"cannot turn the schema into a grammar: {exc}") from exc
    check_escapes(grammar)
    return grammar
