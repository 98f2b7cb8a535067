"""The frozen split: which cases are held out, and the sha256 of every case's definition.

``python -m verification_suite.manifest --freeze`` (PYTHONPATH=plugins:tests) draws the held-out
part once, per family with a fixed seed, and writes manifest.json; it was committed on its own
before any case was scored. ``load()`` refuses a manifest whose hashes no longer match the cases:
a held-out case edited after the freeze is no longer held out.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass
from pathlib import Path

from verification_suite.cases import BY_NAME, CASES, FAMILIES, Case, definitions_sha256

MANIFEST = Path(__file__).with_name("manifest.json")
SEED = "autofix-issue-23-verification-suite"
HELD_OUT_PER_FAMILY = {
    "no_change": 3,
    "breaks_tests": 3,
    "claimed_file": 3,
    "partial": 3,
    "honest": 5,
}


class ManifestMismatch(AssertionError):
    """The cases changed after the freeze."""


@dataclass(frozen=True)
class Split:
    tuned: tuple[Case, ...]
    held_out: tuple[Case, ...]


def draw() -> dict[str, object]:
    rng = random.Random(SEED)
    held_out: list[str] = []
    for family in FAMILIES:
        names = sorted(c.name for c in CASES if c.family == family)
        held_out += sorted(rng.sample(names, HELD_OUT_PER_FAMILY[family]))
    held = [BY_NAME[n] for n in held_out]
    tuned = [c for c in CASES if c.name not in set(held_out)]
    return {
        "seed": SEED,
        "held_out_per_family": HELD_OUT_PER_FAMILY,
        "held_out": held_out,
        "tuned": [c.name for c in tuned],
        "held_out_sha256": definitions_sha256(held),
        "tuned_sha256": definitions_sha256(tuned),
        "case_sha256": {c.name: definitions_sha256([c]) for c in CASES},
    }


def load(path: Path = MANIFEST) -> Split:
    data = json.loads(path.read_text())
    changed = (
        [
            n
            for n, digest in data["case_sha256"].items()
            if definitions_sha256([BY_NAME[n]]) != digest
        ]
        if all(n in BY_NAME for n in data["case_sha256"])
        else ["(a case was removed)"]
    )
    held = tuple(BY_NAME[n] for n in data["held_out"])
    if changed or definitions_sha256(held) != data["held_out_sha256"]:
        raise ManifestMismatch(
            f"cases changed since the freeze: {', '.join(changed) or 'held-out set'}"
        )
    held_names = set(data["held_out"])
    return Split(tuple(c for c in CASES if c.name not in held_names), held)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--freeze", action="store_true", help="write manifest.json (once)")
    args = parser.parse_args()
    if args.freeze:
        if MANIFEST.exists():
            raise SystemExit(
                f"{MANIFEST} exists: the split is frozen; delete it only to start over"
            )
        MANIFEST.write_text(json.dumps(draw(), indent=1) + "\n")
    print(MANIFEST.read_text())


if __name__ == "__main__":
    main()
