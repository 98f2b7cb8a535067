"""What a corpus case is: a command, the scratch files it runs in, and the human label.

A case module under ``corpus/cases/`` defines ``CASES: list[Case]``. The label says what the
run IS: what the command was set up to do and whether it did it. It is written with the case,
before any classifier sees the output, and the capture checks the run against ``expect`` (and
``confirm``) so that a run that did not go as designed is never stored under that label.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

Label = Literal["success", "failure"]

CATEGORIES: tuple[str, ...] = (
    "plain_success",
    "plain_failure",
    "exit0_hidden_failure",
    "failure_noisy_stderr",
    "success_alarming_stderr",
    "killed_signalled",
    "progress_on_stderr",
    "coloured_output",
    "non_utf8",
)

# Categories whose label is fixed by the category itself.
_CATEGORY_LABEL: dict[str, Label] = {
    "plain_success": "success",
    "plain_failure": "failure",
    "exit0_hidden_failure": "failure",
    "failure_noisy_stderr": "failure",
    "success_alarming_stderr": "success",
    "killed_signalled": "failure",
}

# Tools whose name is not the program that runs them.
TOOL_EXE: dict[str, str] = {
    "unittest": "python3",
    "node-test": "node",
    "pip": "pip",
    "coverage": "coverage",
    "lua": "lua5.4",
    "tcl": "tclsh",
    "g++": "g++",
}

_ID = re.compile(r"^[a-z0-9][a-z0-9_.+-]*$")

# expect: an exit code, "nonzero", or a signal name ("SIGKILL") for a run that a signal ended.
Expect = int | str


@dataclass(frozen=True)
class Case:
    """One real run to capture.

    ``cmd`` as a string runs under ``bash -c``; as a list it is the argv itself (no shell, so a
    signal that ends the process shows as a signal, not as 128+N).
    ``group`` ties variants of one scenario (the same failing test under ``|| true`` and bare)
    so that the split puts them on the same side.
    """

    id: str
    tool: str
    category: str
    label: Label
    why: str
    cmd: str | list[str]
    files: Mapping[str, str | bytes] = field(default_factory=dict)
    setup: str = ""
    env: Mapping[str, str] = field(default_factory=dict)
    expect: Expect | None = None
    confirm: str = ""
    timeout: float = 60.0
    needs: tuple[str, ...] = ()
    group: str = ""

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise ValueError(f"bad case id {self.id!r}")
        if self.category not in CATEGORIES:
            raise ValueError(f"{self.id}: unknown category {self.category!r}")
        fixed = _CATEGORY_LABEL.get(self.category)
        if fixed is not None and fixed != self.label:
            raise ValueError(f"{self.id}: category {self.category} is always {fixed}")
        if self.label not in ("success", "failure"):
            raise ValueError(f"{self.id}: label must be success or failure")
        if not self.why or "\n" in self.why:
            raise ValueError(f"{self.id}: why must be one line")
        if self.label == "success" and self.expected not in (0,):
            raise ValueError(f"{self.id}: a success must exit 0 (expect={self.expected!r})")

    @property
    def expected(self) -> Expect:
        """The exit the run must have for its label to hold."""
        if self.expect is not None:
            return self.expect
        if self.label == "success" or self.category == "exit0_hidden_failure":
            return 0
        return "nonzero"

    @property
    def split_group(self) -> str:
        return self.group or self.id


def case(
    id: str,
    tool: str,
    category: str,
    label: Label | None,
    why: str,
    cmd: str | list[str],
    **kw: object,
) -> Case:
    """Shorthand: ``label=None`` takes the category's fixed label."""
    if label is None:
        label = _CATEGORY_LABEL[category]
    return Case(id, tool, category, label, why, cmd, **kw)  # type: ignore[arg-type]


def batch(prefix: str) -> tuple[list[Case], Callable[..., None]]:
    """A case list and its ``add(id, tool, category, label, why, cmd, **kw)``, which files each
    case as ``<prefix>-<id>`` (a fresh batch's ids share its prefix: corpus/README.md)."""
    cases: list[Case] = []

    def add(
        id: str,
        tool: str,
        category: str,
        label: Label | None,
        why: str,
        cmd: str | list[str],
        **kw: object,
    ) -> None:
        cases.append(case(f"{prefix}-{id}", tool, category, label, why, cmd, **kw))

    return cases, add


def package_json(
    scripts: dict[str, str], name: str = "app", version: str = "1.0.0", **extra: object
) -> str:
    """A private package.json with these npm scripts (and any other top-level fields)."""
    body = {"name": name, "version": version, "private": True, "scripts": scripts, **extra}
    return json.dumps(body, indent=2) + "\n"


def dedent(text: str) -> str:
    """Dedent a triple-quoted file body and drop its first newline."""
    return textwrap.dedent(text).lstrip("\n")
