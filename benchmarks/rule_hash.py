"""One sha256 over every built-in rule, in order: each field, and how the engine runs it.

Run: ``PYTHONPATH=plugins .venv/bin/python benchmarks/rule_hash.py [--list]``.

The built-in rules are read through ``autofix.patterns.loader.defaults()``, the same entry the
classifier uses, so the hash does not depend on where the rules are kept. Per rule it covers
the schema's fields (id, kind, type, pattern, reason, case_sensitive, operations, streams,
weight; never ``engine_form``, which is counted in the plan instead) and the engine plan
compiled from it: mode, expressions and case folding. A change of order, of any field or of an
engine form changes the hash. The engine plan needs the ``hyperscan`` wheel.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

from autofix.patterns.loader import defaults

# The rule fields the hash covers, in this order; the engine form is read from the plan.
FIELDS = (
    "id",
    "kind",
    "type",
    "pattern",
    "reason",
    "case_sensitive",
    "operations",
    "streams",
    "weight",
)


def records() -> list[dict[str, Any]]:
    """One record per built-in rule, in the order the classifier checks them."""
    found = []
    for compiled in defaults().compiled:
        plan = compiled.plan
        if plan is None:
            raise SystemExit(
                "no engine plan to hash: install the hyperscan wheel (pip install hyperscan)"
            )
        record = {name: getattr(compiled.rule, name) for name in FIELDS}
        record["engine"] = {
            "mode": plan.mode,
            "expressions": list(plan.expressions),
            "caseless": plan.caseless,
        }
        found.append(record)
    return found


def digest(found: list[dict[str, Any]]) -> str:
    text = "\n".join(json.dumps(record, sort_keys=True, ensure_ascii=False) for record in found)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="print each rule's record first")
    args = parser.parse_args(argv)
    found = records()
    if args.list:
        for record in found:
            print(json.dumps(record, sort_keys=True, ensure_ascii=False))
    print(f"{len(found)} built-in rules; sha256 {digest(found)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
