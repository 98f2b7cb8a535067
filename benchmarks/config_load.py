"""Pattern file load time and peak memory, in a fresh process per measurement.

Run: ``.venv/bin/python benchmarks/config_load.py [--mb 10] [--json]``.

Writes a pattern file of about ``--mb`` megabytes (substring rules with a regex rule every 50,
the shape of a real rule file, repeated), then loads it with ``autofix.patterns.loader.load_file``
in a child process and reports wall time and the child's peak RSS. The size limit is lifted in
the child so that the parse itself is measured; ``--limit`` shows what a default process does.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import json, resource, sys, time
from autofix.patterns import loader
if sys.argv[2] == "unlimited" and hasattr(loader, "MAX_PATTERN_FILE_BYTES"):
    loader.MAX_PATTERN_FILE_BYTES = 1 << 40
started = time.perf_counter()
try:
    rules = loader.load_file(sys.argv[1])
    outcome = f"{len(rules.compiled)} rules"
except Exception as exc:
    outcome = f"{type(exc).__name__}: {str(exc)[:160]}"
print(json.dumps({
    "seconds": round(time.perf_counter() - started, 2),
    "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    "outcome": outcome,
}))
"""


def write_pattern_file(path: Path, megabytes: float) -> int:
    target = int(megabytes * 1024 * 1024)
    parts = ["mode: extend\nrules:\n"]
    size = len(parts[0])
    n = 0
    while size < target:
        if n % 50 == 49:
            rule = (
                f"  - id: regex-{n}\n    kind: error\n    type: regex\n"
                f"    pattern: 'fatal error {n}: \\w+ failed'\n    reason: a fatal error number {n}\n"
            )
        else:
            rule = (
                f"  - id: noise-{n}\n    kind: noise\n    type: substring\n"
                f'    pattern: "npm WARN deprecated package-{n}@1.0.{n}"\n'
                f"    reason: a known harmless deprecation notice number {n}\n"
            )
        parts.append(rule)
        size += len(rule)
        n += 1
    path.write_text("".join(parts), encoding="utf-8")
    return n


def measure(path: Path, mode: str) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), mode],
        capture_output=True,
        text=True,
        check=True,
        timeout=1800,
    )
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "error_patterns.yaml"
        started = time.perf_counter()
        rules = write_pattern_file(path, args.mb)
        written = time.perf_counter() - started
        report = {
            "file_mb": round(path.stat().st_size / 1024 / 1024, 2),
            "rules": rules,
            "write_seconds": round(written, 2),
            "unlimited": measure(path, "unlimited"),
            "default_limit": measure(path, "default"),
        }
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:>14}: {value}")


if __name__ == "__main__":
    main()
