"""Reading the YAML config files (``autofix.yaml``, ``error_patterns.yaml``).

Bounded in size, parsed once with libyaml's C loader when PyYAML has it, and every problem
located by file and line: a non-UTF-8 byte, a NUL or other character YAML refuses, a syntax
error, and (through :func:`line_of`) a schema error at any key.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from autofix.errors import ConfigFileError

# Both files are hand-written: a few KB. Past this, a file is a mistake (or an attack), and
# loading it would cost seconds of CPU and hundreds of MB.
MAX_CONFIG_BYTES = 1024 * 1024

# The C loader is ~10x faster and far smaller in memory; same results (safe, YAML 1.1).
SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_text(path: str | Path, what: str, max_bytes: int = MAX_CONFIG_BYTES) -> str:
    """The file's text; ConfigFileError naming the file (and the line) when it cannot be used."""
    source = str(path)
    file = Path(path)
    if file.is_dir():
        raise ConfigFileError(source, f"is a directory; expected the {what} file")
    try:
        with file.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size  # 0 for a pipe: read up to 64 KiB first
            data = handle.read(min(max_bytes, max(size, 65536)) + 1)
    except FileNotFoundError:
        raise ConfigFileError(source, f"{what} file not found") from None
    except OSError as exc:
        raise ConfigFileError(source, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise ConfigFileError(
            source,
            f"larger than the {max_bytes // 1024} KiB limit for the {what} file "
            f"({file.stat().st_size} bytes); is this the right file?",
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ConfigFileError(
            source,
            f"not UTF-8: byte 0x{data[exc.start]:02x} at column {column}; save the file as UTF-8",
            line,
        ) from None


def parse(text: str, source: str) -> tuple[yaml.Node | None, Any]:
    """(node tree, value) from one parse; the nodes give every key's line for messages."""
    loader = SafeLoader(text)
    try:
        node = loader.get_single_node()
        value = loader.construct_document(node) if node is not None else None
    except yaml.reader.ReaderError as exc:  # a character YAML refuses, e.g. NUL
        line = text.count("\n", 0, exc.position) + 1
        char = f"#x{exc.character:04x}" if isinstance(exc.character, int) else repr(exc.character)
        raise ConfigFileError(source, f"character {char} is not allowed in YAML", line) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(filter(None, [exc.context, exc.problem])) or str(exc)
        raise ConfigFileError(
            source, f"invalid YAML: {problem}", mark.line + 1 if mark else None
        ) from None
    except yaml.YAMLError as exc:
        raise ConfigFileError(source, f"invalid YAML: {exc}") from None
    except RecursionError:
        raise ConfigFileError(source, "invalid YAML: nested too deep") from None
    finally:
        loader.dispose()
    return node, value


def _node_at(root: Any, loc: tuple[int | str, ...]) -> Any:
    node = root
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == part), None)
        elif (
            isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value)
        ):
            node = node.value[part]
        else:
            return node
        if node is None:
            return None
    return node


def line_of(root: Any, loc: tuple[int | str, ...]) -> int | None:
    """The line of the deepest node of ``loc`` that exists (1-based); None without a tree."""
    for depth in range(len(loc), -1, -1):
        node = _node_at(root, loc[:depth])
        if node is not None:
            return int(node.start_mark.line) + 1
    return None
