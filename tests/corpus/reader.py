"""The corpus as data: the case records, their file trees and the stored runs, checked on load.

    cases/<batch>.yaml          the batch's case records (``cases:``), validated by ``Case``
    cases/<batch>/<case-id>/    the files a case runs in, as real files (only where it has any)
    cases/tool_captures.yaml    the older tool captures' records (``captures:``), ``ToolCapture``
    runs/<batch>.jsonl.gz       one JSON object a line per stored run: id, meta, stdout, stderr
    split.tsv                   the frozen split

A stream is stored as text (``"stdout"``) when it is valid UTF-8, else as base64
(``"stdout_base64"``), so every byte round-trips. A bad record raises ``CorpusError`` naming
the file, the case and the field.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    ValidationError,
    field_validator,
    model_validator,
)

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
RUNS = HERE / "runs"
SPLIT = HERE / "split.tsv"

# The older corpus of tool captures (each run judged on its output alone): its own batch.
TOOL_CAPTURES = "tool_captures"
# Where a tool capture's script names the project's virtualenv (bin/python, bin/ruff, ...).
VENV_BIN_MARK = "@VENV_BIN@"

# The splits, in report order. Only "tune" is for tuning; the others print counts only.
SPLITS: tuple[str, ...] = (
    "tune",
    "heldout",
    "fresh",
    "fresh8",
    "fresh9",
    "fresh10",
    "fresh11",
    "fresh12",
)
SPLIT_HEADER = "id\ttool\tcategory\tlabel\tgroup\tsplit"

Label = Literal["success", "failure"]
Category = Literal[
    "plain_success",
    "plain_failure",
    "exit0_hidden_failure",
    "failure_noisy_stderr",
    "success_alarming_stderr",
    "killed_signalled",
    "progress_on_stderr",
    "coloured_output",
    "non_utf8",
]
CATEGORIES: tuple[str, ...] = get_args(Category)
# Categories whose label is fixed by the category itself.
CATEGORY_LABEL: dict[str, Label] = {
    "plain_success": "success",
    "plain_failure": "failure",
    "exit0_hidden_failure": "failure",
    "failure_noisy_stderr": "failure",
    "success_alarming_stderr": "success",
    "killed_signalled": "failure",
}
# expect: an exit code, "nonzero", or the signal that must end the run ("SIGKILL").
Expect = int | str
_SIGNAL = re.compile(r"^SIG[A-Z0-9]+$")

FIELDS_HELP = "tests/corpus/README.md, 'Case records', lists the fields"


class CorpusError(Exception):
    """A case record, file tree, run batch or split row that cannot be read as it is."""


class Case(BaseModel):
    """One real run to capture (a record in ``cases/<batch>.yaml``).

    ``cmd`` as a string runs under ``bash -c``; as a list it is the argv itself (no shell, so a
    signal that ends the process shows as a signal, not as 128+N). ``group`` ties variants of
    one scenario so that the split puts them on the same side. ``output_shows`` is false for a
    failure built so that its output holds no evidence of the failure at all (a bare status
    number, a file name, data printed by a one-liner). ``batch`` and ``files`` are not
    written in the record: the reader fills them from the file's name and the case's tree.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_.+-]*$")
    tool: str = Field(min_length=1)
    category: Category
    label: Label
    why: str
    cmd: str | list[str]
    setup: str = ""
    env: dict[str, str] = Field(default_factory=dict)
    expect: StrictInt | str | None = None
    confirm: str = ""
    timeout: float = Field(default=60.0, gt=0)
    needs: tuple[str, ...] = ()
    group: str = ""
    output_shows: StrictBool = True
    batch: str = ""
    files: dict[str, bytes] = Field(default_factory=dict)

    @field_validator("why")
    @classmethod
    def _one_line(cls, why: str) -> str:
        if not why or "\n" in why:
            raise ValueError("must be one non-empty line")
        return why

    @field_validator("expect")
    @classmethod
    def _known_expect(cls, expect: Expect | None) -> Expect | None:
        if isinstance(expect, str) and expect != "nonzero" and not _SIGNAL.match(expect):
            raise ValueError("must be an exit code, 'nonzero' or a signal name such as SIGKILL")
        return expect

    @model_validator(mode="after")
    def _label_holds(self) -> Case:
        fixed = CATEGORY_LABEL.get(self.category)
        if fixed is not None and fixed != self.label:
            raise ValueError(f"label: category {self.category} is always {fixed}")
        if self.label == "success" and not self.output_shows:
            raise ValueError("output_shows: only a failure may have output that shows nothing")
        if self.label == "success" and self.expected != 0:
            raise ValueError(f"expect: a success must exit 0 (expect={self.expected!r})")
        return self

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


class ToolCapture(BaseModel):
    """One scenario of the older tool captures: a bash script, judged on its output alone.

    ``failure`` is the human verdict on the output, what a classifier should say even if the
    exit code were 0 (the ``cmd || true`` case).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_]*$")
    needs: str = ""
    failure: StrictBool
    script: str = Field(min_length=1)

    @property
    def tool(self) -> str:
        return self.needs or "bash"

    def rendered(self, venv_bin: Path) -> str:
        """The script with the project's virtualenv in place of ``@VENV_BIN@``."""
        return self.script.replace(VENV_BIN_MARK, str(venv_bin))


# ---------------------------------------------------------------------------------------------
# Case records.


def _read_yaml(path: Path, key: str) -> tuple[list[Any], str]:
    """The record list under ``key`` and the batch's ``about`` text."""
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise CorpusError(f"{path}: not readable YAML: {exc}") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get(key), list):
        raise CorpusError(f"{path}: expected a mapping with a '{key}:' list of records")
    unknown = sorted(set(doc) - {key, "about"})
    if unknown:
        raise CorpusError(f"{path}: unknown top-level keys {unknown}; only 'about' and '{key}'")
    return doc[key], str(doc.get("about", ""))


def _record_error(path: Path, index: int, record: object, exc: ValidationError) -> CorpusError:
    name = record.get("id", "?") if isinstance(record, dict) else "?"
    lines = [f"{path}: case #{index + 1} ({name}) is not a valid record:"]
    for err in exc.errors():
        field = ".".join(str(part) for part in err["loc"]) or "(record)"
        lines.append(f"  field {field}: {err['msg']}")
    lines.append(f"Fix the record ({FIELDS_HELP}).")
    return CorpusError("\n".join(lines))


def read_tree(folder: Path) -> dict[str, bytes]:
    """A case's files by their path relative to its folder."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def case_batches(cases_dir: Path = CASES) -> list[Path]:
    """The batch files of the classifier corpus, by name (the tool captures not among them)."""
    return [p for p in sorted(cases_dir.glob("*.yaml")) if p.stem != TOOL_CAPTURES]


def load_batch(path: Path) -> list[Case]:
    """The case records of one batch file, each with its file tree."""
    records, _about = _read_yaml(path, "cases")
    trees = path.with_suffix("")
    cases: list[Case] = []
    for index, record in enumerate(records):
        if not isinstance(record, dict):
            raise CorpusError(f"{path}: case #{index + 1} is not a mapping of fields")
        for derived in ("batch", "files"):
            if derived in record:
                raise CorpusError(
                    f"{path}: case #{index + 1} ({record.get('id', '?')}), field {derived}: "
                    f"not written in a record (the reader derives it: {FIELDS_HELP})."
                )
        folder = trees / str(record.get("id", ""))
        files = read_tree(folder) if record.get("id") and folder.is_dir() else {}
        try:
            cases.append(Case.model_validate({**record, "batch": path.stem, "files": files}))
        except ValidationError as exc:
            raise _record_error(path, index, record, exc) from None
    if trees.is_dir():
        known = {c.id for c in cases}
        stray = sorted(p.name for p in trees.iterdir() if p.name not in known)
        if stray:
            raise CorpusError(
                f"{trees}: file trees without a case record: {stray}; "
                f"add the record to {path.name} or remove the folder"
            )
    return cases


def load_cases(cases_dir: Path = CASES) -> list[Case]:
    """Every case of the classifier corpus, batch by batch; case ids are unique."""
    cases: list[Case] = []
    seen: dict[str, str] = {}
    for path in case_batches(cases_dir):
        for c in load_batch(path):
            if c.id in seen:
                raise CorpusError(
                    f"{path}: case id {c.id} is also in {seen[c.id]}; ids are unique across batches"
                )
            seen[c.id] = path.name
            cases.append(c)
    return cases


def load_tool_captures(cases_dir: Path = CASES) -> list[ToolCapture]:
    """The older tool captures' records, in file order."""
    path = cases_dir / f"{TOOL_CAPTURES}.yaml"
    records, _about = _read_yaml(path, "captures")
    captures: list[ToolCapture] = []
    for index, record in enumerate(records):
        try:
            captures.append(ToolCapture.model_validate(record))
        except ValidationError as exc:
            raise _record_error(path, index, record, exc) from None
    return captures


# ---------------------------------------------------------------------------------------------
# Stored runs.


@dataclass(frozen=True)
class StoredRun:
    """One stored run: its meta (as the capture wrote it) and the exact bytes of its streams."""

    batch: str
    id: str
    meta: dict[str, Any]
    stdout: bytes
    stderr: bytes


def _encode(stream: str, data: bytes) -> dict[str, str]:
    try:
        return {stream: data.decode("utf-8")}
    except UnicodeDecodeError:
        return {f"{stream}_base64": base64.b64encode(data).decode("ascii")}


def _decode(where: str, line: dict[str, Any], stream: str) -> bytes:
    text, packed = line.get(stream), line.get(f"{stream}_base64")
    if isinstance(text, str) and packed is None:
        return text.encode("utf-8")
    if isinstance(packed, str) and text is None:
        return base64.b64decode(packed, validate=True)
    raise CorpusError(f"{where}: needs exactly one of '{stream}' (text) or '{stream}_base64'")


def batch_path(batch: str, runs_dir: Path = RUNS) -> Path:
    return runs_dir / f"{batch}.jsonl.gz"


def read_runs(batch: str, runs_dir: Path = RUNS) -> list[StoredRun]:
    """The stored runs of one batch, by id; none when it has no runs yet."""
    path = batch_path(batch, runs_dir)
    if not path.exists():
        return []
    runs: list[StoredRun] = []
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for number, text in enumerate(lines, 1):
            where = f"{path}:{number}"
            try:
                line = json.loads(text)
            except json.JSONDecodeError as exc:
                raise CorpusError(f"{where}: not a JSON object: {exc}") from exc
            if not isinstance(line, dict) or not isinstance(line.get("id"), str):
                raise CorpusError(f"{where}: a run needs a string 'id'")
            if not isinstance(line.get("meta"), dict):
                raise CorpusError(f"{where}: run {line['id']} needs a 'meta' object")
            out, err = _decode(where, line, "stdout"), _decode(where, line, "stderr")
            runs.append(StoredRun(batch, line["id"], line["meta"], out, err))
    return runs


def write_runs(batch: str, runs: Iterable[StoredRun], runs_dir: Path = RUNS) -> Path:
    """Write a batch's runs, sorted by id; the same runs always give the same bytes."""
    path = batch_path(batch, runs_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for run in sorted(runs, key=lambda r: r.id):
        line = {"id": run.id, "meta": run.meta}
        line |= _encode("stdout", run.stdout) | _encode("stderr", run.stderr)
        lines.append(json.dumps(line, ensure_ascii=False) + "\n")
    with path.open("wb") as raw, gzip.GzipFile("", "wb", 9, raw, mtime=0) as packed:
        packed.write("".join(lines).encode("utf-8"))
    return path


def run_batches(runs_dir: Path = RUNS) -> list[str]:
    """The batches with stored runs of the classifier corpus (the tool captures not among them)."""
    names = (p.name.removesuffix(".jsonl.gz") for p in sorted(runs_dir.glob("*.jsonl.gz")))
    return [name for name in names if name != TOOL_CAPTURES]


def load_runs(batch: str | None = None, runs_dir: Path = RUNS) -> list[StoredRun]:
    """One batch's runs, or (no batch) every run of the classifier corpus; sorted by id."""
    batches = [batch] if batch is not None else run_batches(runs_dir)
    runs = [run for name in batches for run in read_runs(name, runs_dir)]
    return sorted(runs, key=lambda r: r.id)


def iter_streams(runs: Iterable[StoredRun]) -> Iterator[tuple[str, str, bytes]]:
    """(run id, stream name, bytes) of each run's stderr and stdout."""
    for run in runs:
        yield run.id, "stderr", run.stderr
        yield run.id, "stdout", run.stdout


# ---------------------------------------------------------------------------------------------
# The split.


def read_split(path: Path = SPLIT) -> dict[str, dict[str, str]]:
    """The frozen split's rows by case id (none when the file does not exist yet)."""
    rows: dict[str, dict[str, str]] = {}
    if not path.exists():
        return rows
    lines = path.read_text().splitlines()
    keys = lines[0].split("\t")
    for number, line in enumerate(lines[1:], 2):
        if line and not line.startswith("#"):
            try:
                row = dict(zip(keys, line.split("\t"), strict=True))
            except ValueError:
                raise CorpusError(
                    f"{path}:{number}: expected {len(keys)} tab-separated fields ({SPLIT_HEADER!r})"
                ) from None
            rows[row["id"]] = row
    return rows
