"""One-off: turn corpus/cases/*.py and corpus/runs/ (and tests/fixtures/captures/) into data.

    PYTHONPATH=plugins .venv/bin/python tests/corpus/convert_from_modules.py

Imports every old case module and dumps its ``CASES`` as ``tests/corpus/cases/<module>.yaml``
records with their files as real trees, and each module's stored runs as
``tests/corpus/runs/<module>.jsonl.gz``; the older tool captures become the batch
``tool_captures``. It then reads everything back through ``corpus.reader`` and stops on the
first difference. Removed with the old modules once the conversion was committed.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
OLD = ROOT / "corpus"
OLD_CAPTURES = ROOT / "tests" / "fixtures" / "captures"
sys.path[:0] = [str(OLD), str(ROOT / "tests"), str(ROOT / "tests" / "fixtures")]

import capture_tools  # noqa: E402  (the old tool captures' scenarios)
from casekit import Case as OldCase  # noqa: E402

from corpus import reader  # noqa: E402

DEFAULTS: dict[str, Any] = {
    "setup": "",
    "env": {},
    "expect": None,
    "confirm": "",
    "timeout": 60.0,
    "needs": (),
    "group": "",
}
FIELDS = ("id", "tool", "category", "label", "why", "cmd", *DEFAULTS)


class _Dumper(yaml.SafeDumper):
    """Multi-line strings as literal blocks, so a script reads as the script it is."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def dump_yaml(path: Path, doc: dict[str, Any]) -> None:
    text = yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=10**6)
    path.write_text(text, encoding="utf-8")


def old_modules() -> list[tuple[str, str, list[OldCase]]]:
    """(module name, docstring, cases) of every old case module, in file order."""
    modules = []
    for path in sorted((OLD / "cases").glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"corpus_cases_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules.append((path.stem, (module.__doc__ or "").strip(), list(module.CASES)))
    return modules


def record(c: OldCase) -> dict[str, Any]:
    """The case's fields, defaults left out; its files go to the tree."""
    out: dict[str, Any] = {}
    for name in FIELDS:
        value = getattr(c, name)
        if name in DEFAULTS and value == DEFAULTS[name]:
            continue
        if name == "needs":
            value = list(value)
        elif name == "env":
            value = dict(value)
        out[name] = value
    return out


def write_tree(folder: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode() if isinstance(content, str) else content)


def old_run(batch: str, folder: Path) -> reader.StoredRun:
    meta = json.loads((folder / "meta.json").read_text())
    out, err = (folder / "stdout").read_bytes(), (folder / "stderr").read_bytes()
    return reader.StoredRun(batch, folder.name, meta, out, err)


def convert_cases() -> None:
    for batch, about, cases in old_modules():
        trees = reader.CASES / batch
        shutil.rmtree(trees, ignore_errors=True)
        for c in cases:
            if c.files:
                write_tree(trees / c.id, dict(c.files))
        dump_yaml(
            reader.CASES / f"{batch}.yaml", {"about": about, "cases": [record(c) for c in cases]}
        )
        reader.write_runs(batch, [old_run(batch, OLD / "runs" / c.id) for c in cases])
        loaded = reader.load_batch(reader.CASES / f"{batch}.yaml")
        assert [c.id for c in loaded] == [c.id for c in cases], batch
        for new, old in zip(loaded, cases, strict=True):
            fields = {name: getattr(old, name) for name in FIELDS}
            fields["needs"] = tuple(fields["needs"])
            fields["env"] = dict(fields["env"])
            files = {n: d.encode() if isinstance(d, str) else d for n, d in old.files.items()}
            assert new.model_dump(include=set(FIELDS)) == fields, old.id
            assert new.files == files, old.id
            assert (new.expected, new.split_group) == (old.expected, old.split_group), old.id
        for run in reader.read_runs(batch):
            assert run == old_run(batch, OLD / "runs" / run.id), run.id
        print(f"{batch}: {len(cases)} cases, {sum(bool(c.files) for c in cases)} file trees")


def convert_tool_captures() -> None:
    venv_bin = str(capture_tools.VENV_BIN)
    records = []
    for name, (needs, failure, script) in capture_tools.SCENARIOS.items():
        marked = script.replace(venv_bin, reader.VENV_BIN_MARK)
        assert str(ROOT) not in marked, name
        records.append(
            {
                "id": name,
                **({"needs": needs} if needs else {}),
                "failure": failure,
                "script": marked,
            }
        )
    about = (capture_tools.__doc__ or "").strip()
    dump_yaml(reader.CASES / f"{reader.TOOL_CAPTURES}.yaml", {"about": about, "captures": records})
    runs = []
    for meta_path in sorted(OLD_CAPTURES.glob("*.json")):
        name = meta_path.stem
        meta = json.loads(meta_path.read_text())
        out = (OLD_CAPTURES / f"{name}.stdout").read_bytes()
        err = (OLD_CAPTURES / f"{name}.stderr").read_bytes()
        runs.append(reader.StoredRun(reader.TOOL_CAPTURES, name, meta, out, err))
    reader.write_runs(reader.TOOL_CAPTURES, runs)
    assert reader.load_runs(reader.TOOL_CAPTURES) == runs
    loaded = reader.load_tool_captures()
    assert {c.id: (c.needs, c.failure, c.rendered(capture_tools.VENV_BIN)) for c in loaded} == (
        capture_tools.SCENARIOS
    )
    print(f"{reader.TOOL_CAPTURES}: {len(loaded)} scenarios, {len(runs)} runs")


def main() -> int:
    reader.CASES.mkdir(parents=True, exist_ok=True)
    convert_cases()
    convert_tool_captures()
    total = len(reader.load_cases())
    assert {run.id for run in reader.load_runs()} == {p.name for p in (OLD / "runs").iterdir()}
    print(f"{total} cases, {len(reader.load_runs())} runs: read back identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
