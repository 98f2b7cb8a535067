"""The corpus as data (tests/corpus/README.md): every record loads and has its run, a bad
record is refused with its file, case and field named, and stored bytes round-trip exactly."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from corpus.reader import (
    TOOL_CAPTURES,
    CorpusError,
    StoredRun,
    load_cases,
    load_runs,
    load_tool_captures,
    read_runs,
    read_split,
    write_runs,
)

GOOD = """\
- id: demo-ok
  tool: bash
  category: plain_success
  label: success
  why: prints a word
  cmd: echo hi
"""


def _batch(tmp_path: Path, records: str, name: str = "demo") -> Path:
    (tmp_path / f"{name}.yaml").write_text(f"about: a test batch\ncases:\n{records}")
    return tmp_path


def test_every_case_has_its_run_in_its_batch_and_a_split_row() -> None:
    cases = load_cases()
    runs = {run.id: run for run in load_runs()}
    assert len(cases) >= 1800
    assert {c.id for c in cases} == set(runs) == set(read_split())
    for c in cases:
        assert runs[c.id].batch == c.batch
        assert runs[c.id].meta["files"] == sorted(c.files)
        assert (runs[c.id].meta["command"], runs[c.id].meta["label"]) == (c.cmd, c.label)


def test_every_tool_capture_has_its_run() -> None:
    assert {c.id for c in load_tool_captures()} == {r.id for r in load_runs(TOOL_CAPTURES)}


def test_a_case_reads_its_file_tree(tmp_path: Path) -> None:
    (tmp_path / "demo" / "demo-ok" / "src").mkdir(parents=True)
    (tmp_path / "demo" / "demo-ok" / "src" / "a.bin").write_bytes(b"\xff\x00")
    (case,) = load_cases(_batch(tmp_path, GOOD))
    assert (case.batch, case.files, case.expected) == ("demo", {"src/a.bin": b"\xff\x00"}, 0)


@pytest.mark.parametrize(
    ("good", "bad", "named"),
    [
        ("category: plain_success", "category: plain_sucess", "field category: Input should be"),
        ("why: prints a word", "why: ''", "field why: Value error, must be one non-empty line"),
        ("cmd: echo hi", "cmd: echo hi\n  expect: SIG-9", "field expect: Value error, must be an"),
        ("label: success", "label: failure", "field (record): Value error, label: category"),
        (
            "cmd: echo hi",
            "cmd: echo hi\n  output_shows: false",
            "field (record): Value error, output_shows: only a failure",
        ),
    ],
)
def test_a_bad_record_names_its_file_case_and_field(
    tmp_path: Path, good: str, bad: str, named: str
) -> None:
    folder = _batch(tmp_path, GOOD + GOOD.replace("demo-ok", "demo-bad").replace(good, bad))
    with pytest.raises(CorpusError) as caught:
        load_cases(folder)
    message = str(caught.value)
    assert f"{folder / 'demo.yaml'}: case #2 (demo-bad) is not a valid record" in message
    assert named in message
    assert "tests/corpus/README.md" in message


def test_files_belong_in_the_tree_and_every_tree_to_a_case(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match=r"demo-ok\), field files: not written in a record"):
        load_cases(_batch(tmp_path, GOOD + "  files: {a.txt: x}\n"))
    (tmp_path / "demo" / "demo-gone").mkdir(parents=True)
    with pytest.raises(CorpusError, match=r"file trees without a case record: \['demo-gone'\]"):
        load_cases(_batch(tmp_path, GOOD))


def test_duplicate_ids_across_batches_are_refused(tmp_path: Path) -> None:
    _batch(tmp_path, GOOD, "one")
    _batch(tmp_path, GOOD, "two")
    with pytest.raises(CorpusError, match=r"two.yaml: case id demo-ok is also in one.yaml"):
        load_cases(tmp_path)


def test_stored_bytes_round_trip_exactly(tmp_path: Path) -> None:
    runs = [
        StoredRun("b", "text", {"exit_code": 0}, b"ok \xe2\x9c\x93\r\n", b""),
        StoredRun("b", "binary", {"exit_code": None}, b"caf\xe9\x00\x1b[31m", b"\xff\xfe"),
    ]
    path = write_runs("b", runs, tmp_path)
    assert read_runs("b", tmp_path) == sorted(runs, key=lambda r: r.id)
    first = path.read_bytes()
    write_runs("b", reversed(runs), tmp_path)
    assert path.read_bytes() == first  # the same runs give the same file


def test_a_bad_run_line_names_its_file_and_line(tmp_path: Path) -> None:
    write_runs("b", [StoredRun("b", "one", {}, b"", b"")], tmp_path)
    path = tmp_path / "b.jsonl.gz"
    text = gzip.decompress(path.read_bytes()) + b'{"id": "two", "meta": {}, "stdout": ""}\n'
    path.write_bytes(gzip.compress(text))
    with pytest.raises(CorpusError, match=r"b.jsonl.gz:2: needs exactly one of 'stderr'"):
        read_runs("b", tmp_path)


def test_output_shows_defaults_to_true_and_may_be_false_on_a_failure(tmp_path: Path) -> None:
    failure = GOOD.replace("demo-ok", "demo-count").replace("plain_success", "exit0_hidden_failure")
    failure = failure.replace("label: success", "label: failure") + "  output_shows: false\n"
    ok, count = load_cases(_batch(tmp_path, GOOD + failure))
    assert (ok.output_shows, count.output_shows) == (True, False)


def test_evaluate_counts_false_successes_among_failures_the_output_shows() -> None:
    from corpus.evaluate import Run, exit_code_judge, score

    def run(run_id: str, exit_code: int, shows: bool) -> Run:
        return Run(
            run_id, "t", "exit0_hidden_failure", "failure", "fresh8", exit_code, b"", b"", shows
        )

    total, _ = score([run("a", 0, False), run("b", 0, True), run("c", 1, True)], exit_code_judge)
    assert (len(total.false_success), total.shown_false_success, total.shown_failures) == (2, 1, 2)
