"""The run corpus (tests/corpus/) is whole: every stored run has a frozen split row that agrees with it,
every category is on both sides of the tune/heldout split, and each fresh batch (held out in
split ``fresh`` until its one score) covers every category too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from corpus.reader import SPLITS, load_runs  # the split names the corpus scores with

CORPUS = Path(__file__).resolve().parent / "corpus"
CATEGORIES = {
    "plain_success",
    "plain_failure",
    "exit0_hidden_failure",
    "failure_noisy_stderr",
    "success_alarming_stderr",
    "killed_signalled",
    "progress_on_stderr",
    "coloured_output",
    "non_utf8",
}


def _split() -> dict[str, dict[str, str]]:
    lines = (CORPUS / "split.tsv").read_text().splitlines()
    keys = lines[0].split("\t")
    rows = [dict(zip(keys, line.split("\t"), strict=True)) for line in lines[1:] if line]
    return {row["id"]: row for row in rows}


def _metas() -> list[dict[str, object]]:
    return [run.meta for run in load_runs()]


def test_every_run_has_an_agreeing_split_row() -> None:
    split = _split()
    metas = _metas()
    assert len(metas) >= 450
    for meta in metas:
        row = split[str(meta["id"])]
        assert row["split"] in SPLITS
        assert (row["tool"], row["category"], row["label"]) == (
            meta["tool"],
            meta["category"],
            meta["label"],
        )
        assert meta["category"] in CATEGORIES
        assert meta["label"] in ("success", "failure")
        if meta["label"] == "success":
            assert meta["exit_code"] == 0


def test_streams_match_their_recorded_sizes() -> None:
    for run in load_runs():
        meta = run.meta
        for stream in ("stdout", "stderr"):
            info = meta[stream]
            assert isinstance(info, dict)
            data = getattr(run, stream)
            if info["truncated"] is None:
                assert len(data) == info["bytes"]
            else:
                assert len(data) == info["truncated"]["kept_head"] + info["truncated"]["kept_tail"]


def test_every_category_is_on_both_sides() -> None:
    split = _split()
    for category in CATEGORIES:
        sides = {row["split"] for row in split.values() if row["category"] == category}
        assert sides >= {"tune", "heldout"}, category
        assert sides <= set(SPLITS), category


# The fresh batches, by their id prefix (fresh-, fresh2-, ...).
FRESH_BATCHES = sorted({m.group(1) for i in _split() if (m := re.match(r"(fresh\d*)-", i))})


@pytest.mark.parametrize("batch", FRESH_BATCHES)
def test_each_fresh_batch_covers_every_category(batch: str) -> None:
    """Each fresh batch (held out in split ``fresh`` until its one score, then tune) covers
    every category, and its groups hold only its own cases."""
    split = _split()
    rows = [row for row in split.values() if row["id"].startswith(f"{batch}-")]
    assert {row["category"] for row in rows} == CATEGORIES
    groups = {row["group"] for row in rows}
    assert not any(
        row["group"] in groups for row in split.values() if not row["id"].startswith(f"{batch}-")
    )
