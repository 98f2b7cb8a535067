"""Third fresh batch (ids ``fresh3-*``): new scenarios for the Python tools already in the
corpus (pytest, unittest, python3, ruff, mypy, black, pylint, flake8, pip, coverage)."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh3")


# --- pytest --------------------------------------------------------------------------------------

INVOICE = {
    "invoice.py": dedent("""
        def total(lines, discount=0.0):
            subtotal = sum(q * p for q, p in lines)
            return round(subtotal * (1 - discount), 2)

        def parse_line(text):
            qty, price = text.split("x")
            return int(qty), float(price)
    """),
    "tests/test_invoice.py": dedent("""
        import pytest
        from invoice import total, parse_line

        def test_total_plain():
            assert total([(2, 1.5), (1, 3.0)]) == 6.0

        def test_total_discount():
            assert total([(4, 2.5)], discount=0.1) == 9.5

        def test_parse_line():
            assert parse_line("3x2.50") == (3, 2.5)

        def test_parse_line_rejects_garbage():
            with pytest.raises(ValueError):
                parse_line("three")
    """),
    "conftest.py": "import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n",
}
add(
    "pytest-main-in-python-c",
    "pytest",
    "exit0_hidden_failure",
    None,
    "a CI step runs pytest through python -c 'pytest.main()' without passing its return code on; a discount test fails and the step exits 0",
    "python3 -c \"import pytest; pytest.main(['-q', 'tests'])\"",
    files=INVOICE,
    confirm=r"1 failed, 3 passed",
    group="fresh3-pytest-invoice",
)
add(
    "pytest-grep-summary-line",
    "pytest",
    "exit0_hidden_failure",
    None,
    "pytest output is piped into grep for the summary line to post in chat; the discount test fails and grep (which matched) exits 0",
    "pytest -q tests | grep -E '(passed|failed)'",
    files=INVOICE,
    confirm=r"1 failed",
    group="fresh3-pytest-invoice",
)
add(
    "pytest-trap-exit-zero",
    "pytest",
    "exit0_hidden_failure",
    None,
    "a test script installs 'trap \"exit 0\" EXIT' to always upload artefacts; pytest fails a test and the trap turns the exit into 0",
    "trap 'echo uploading artefacts; exit 0' EXIT; pytest -q tests",
    files=INVOICE,
    confirm=r"FAILED tests/test_invoice.py::test_total_discount",
    group="fresh3-pytest-invoice",
)
add(
    "pytest-invoice-fail",
    "pytest",
    "plain_failure",
    None,
    "pytest runs the invoice tests; the discount rounding test fails and pytest exits 1",
    "pytest -q tests",
    files=INVOICE,
    expect=1,
    group="fresh3-pytest-invoice",
)

ERRNAMES = {
    "errors.py": dedent("""
        import logging
        log = logging.getLogger("payments")

        class PaymentError(Exception):
            pass

        def charge(amount):
            if amount <= 0:
                log.error("charge rejected: invalid amount %s", amount)
                raise PaymentError(f"invalid amount {amount}")
            return {"status": "charged", "amount": amount}
    """),
    "test_errors.py": dedent("""
        import pytest
        from errors import charge, PaymentError

        def test_error_is_raised_for_negative_amount():
            with pytest.raises(PaymentError):
                charge(-5)

        def test_failure_message_mentions_amount():
            with pytest.raises(PaymentError, match="invalid amount 0"):
                charge(0)

        def test_exception_not_raised_for_valid_amount():
            assert charge(10)["status"] == "charged"

        def test_fatal_error_logged(caplog):
            with pytest.raises(PaymentError):
                charge(-1)
            assert "charge rejected" in caplog.text
    """),
}
add(
    "pytest-error-named-tests-pass",
    "pytest",
    "success_alarming_stderr",
    None,
    "pytest -v runs tests named after errors and failures (test_error_is_raised..., test_fatal_error_logged) with live ERROR logs; all pass",
    "pytest -v -o log_cli=true -o log_cli_level=ERROR -p no:cacheprovider",
    files=ERRNAMES,
    confirm=r"(?s)(?=.*test_fatal_error_logged)(?=.*ERROR .*charge rejected)(?=.*4 passed)",
)
add(
    "pytest-hang-timeout",
    "pytest",
    "killed_signalled",
    None,
    "a test waits on a queue that is never filled; 'timeout 3' stops pytest and the step exits 124",
    "timeout 3 pytest -q -p no:cacheprovider test_worker.py",
    files={
        "test_worker.py": dedent("""
            import queue

            def test_worker_result():
                q = queue.Queue()
                assert q.get() == "done"
        """),
    },
    expect=124,
)
add(
    "pytest-werror-deprecation",
    "pytest",
    "plain_failure",
    None,
    "pytest runs with -W error::DeprecationWarning and the code under test calls a deprecated helper; the test errors out and pytest exits 1",
    "pytest -q -p no:cacheprovider -W error::DeprecationWarning test_dates.py",
    files={
        "dates.py": dedent("""
            import warnings

            def parse_legacy(text):
                warnings.warn("parse_legacy() is deprecated, use parse()", DeprecationWarning, stacklevel=2)
                return text.split("-")
        """),
        "test_dates.py": "from dates import parse_legacy\n\ndef test_parse():\n    assert parse_legacy('2024-01-02') == ['2024', '01', '02']\n",
    },
    expect=1,
    confirm=r"DeprecationWarning",
)
add(
    "pytest-retry-recovers-pass",
    "pytest",
    "success_alarming_stderr",
    None,
    "a test of a retrying client prints each failed attempt with its traceback to stderr (-s); the third attempt succeeds and the test passes",
    "pytest -q -s -p no:cacheprovider test_client.py",
    files={
        "test_client.py": dedent("""
            import sys, traceback

            class Flaky:
                def __init__(self):
                    self.calls = 0
                def get(self):
                    self.calls += 1
                    if self.calls < 3:
                        raise ConnectionResetError(104, "Connection reset by peer")
                    return 200

            def fetch(client, attempts=5):
                for n in range(1, attempts + 1):
                    try:
                        return client.get()
                    except ConnectionResetError:
                        print(f"attempt {n} failed, retrying", file=sys.stderr)
                        traceback.print_exc()
                raise RuntimeError("gave up")

            def test_fetch_retries():
                assert fetch(Flaky()) == 200
        """),
    },
    confirm=r"(?s)(?=.*ConnectionResetError)(?=.*1 passed)",
)
add(
    "pytest-color-pass-skips",
    "pytest",
    "coloured_output",
    "success",
    "pytest --color=yes runs a suite where two platform tests are skipped and the rest pass",
    "pytest --color=yes -rs -p no:cacheprovider test_platform.py",
    files={
        "test_platform.py": dedent("""
            import sys, pytest

            def test_path_join():
                assert "/".join(["a", "b"]) == "a/b"

            @pytest.mark.skipif(sys.platform != "win32", reason="windows only: registry access")
            def test_registry():
                pass

            @pytest.mark.skipif(sys.platform != "darwin", reason="macOS only: keychain")
            def test_keychain():
                pass
        """),
    },
    confirm=r"1 passed",
)

# --- unittest ------------------------------------------------------------------------------------

add(
    "unittest-subtests-fail",
    "unittest",
    "plain_failure",
    None,
    "unittest runs a table of slug cases as subTests; two rows produce the wrong slug and the run exits 1",
    "python3 -m unittest -v test_slug",
    files={
        "test_slug.py": dedent("""
            import re, unittest

            def slugify(s):
                return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")

            class SlugTest(unittest.TestCase):
                def test_table(self):
                    rows = [("Hello World", "hello-world"), ("Crème brûlée", "creme-brulee"),
                            ("  spaces  ", "spaces"), ("Ünïcode", "unicode")]
                    for text, want in rows:
                        with self.subTest(text=text):
                            self.assertEqual(slugify(text), want)

            if __name__ == "__main__":
                unittest.main()
        """),
    },
    expect=1,
    confirm=r"FAILED \(failures=2\)",
)
add(
    "unittest-grep-count-ok",
    "unittest",
    "exit0_hidden_failure",
    None,
    "a script counts passing tests with 'unittest -v 2>&1 | grep -c ok'; one test fails and grep, which counted some, exits 0",
    "python3 -m unittest -v test_cache 2>&1 | grep -c ' ok$'",
    files={
        "test_cache.py": dedent("""
            import unittest

            class LRU:
                def __init__(self, n): self.n, self.d = n, {}
                def put(self, k, v):
                    self.d[k] = v
                    if len(self.d) > self.n:
                        self.d.pop(next(iter(self.d)))
                def get(self, k): return self.d.get(k)

            class CacheTest(unittest.TestCase):
                def test_put_get(self):
                    c = LRU(2); c.put("a", 1); self.assertEqual(c.get("a"), 1)
                def test_eviction(self):
                    c = LRU(2); c.put("a", 1); c.put("b", 2); c.get("a"); c.put("c", 3)
                    self.assertEqual(c.get("a"), 1, "recently used key was evicted")
                def test_capacity(self):
                    c = LRU(1); c.put("a", 1); c.put("b", 2); self.assertIsNone(c.get("a"))
        """),
    },
    confirm=r"^2\s*$",
)
add(
    "unittest-segfault-faulthandler",
    "unittest",
    "killed_signalled",
    None,
    "a unittest case drives a C routine through ctypes that dereferences NULL; the interpreter dies of SIGSEGV with faulthandler's dump",
    ["python3", "-X", "faulthandler", "-m", "unittest", "test_native"],
    files={
        "test_native.py": dedent("""
            import ctypes, unittest

            class NativeTest(unittest.TestCase):
                def test_read_header(self):
                    self.assertEqual(ctypes.string_at(1, 4), b"HDR1")
        """),
    },
    expect="SIGSEGV",
)
add(
    "unittest-skips-expected-failures",
    "unittest",
    "success_alarming_stderr",
    None,
    "unittest -v runs a suite with an expectedFailure for a known bug and skips; nothing unexpected fails and it ends OK",
    "python3 -m unittest -v test_known",
    files={
        "test_known.py": dedent("""
            import unittest

            class KnownIssues(unittest.TestCase):
                @unittest.expectedFailure
                def test_timezone_bug_1234(self):
                    self.assertEqual("UTC+1", "UTC")

                @unittest.skip("flaky on CI: network")
                def test_remote_fetch(self):
                    pass

                def test_error_codes_table(self):
                    self.assertEqual({"E001": "not found"}["E001"], "not found")
        """),
    },
    confirm=r"(?s)(?=.*expected failure)(?=.*OK \(skipped=1, expected failures=1\))",
)

# --- python3 -------------------------------------------------------------------------------------

add(
    "python3-os-system-build",
    "python3",
    "exit0_hidden_failure",
    None,
    "a build.py calls os.system('gcc ...') and ignores its return value; the compile fails and the script prints 'build finished' and exits 0",
    "python3 build.py",
    files={
        "build.py": dedent("""
            import os
            print("compiling app...")
            os.system("gcc -Wall -o app app.c")
            print("build finished")
        """),
        "app.c": '#include <stdio.h>\nint main(void) {\n    printf("%d\\n", compute(3));\n    return 0\n}\n',
    },
    needs=("python3", "gcc"),
    confirm=r"error:",
)
add(
    "python3-multiprocessing-child-dies",
    "python3",
    "exit0_hidden_failure",
    None,
    "a report job starts a multiprocessing worker and never checks its exitcode; the worker raises and the parent prints 'report done' and exits 0",
    "python3 report.py",
    files={
        "report.py": dedent("""
            import multiprocessing as mp, json

            def build(path):
                rows = json.load(open("rows.json"))
                with open(path, "w") as fh:
                    fh.write(str(sum(r["amount"] for r in rows)))

            if __name__ == "__main__":
                p = mp.Process(target=build, args=("report.txt",))
                p.start(); p.join()
                print("report done")
        """),
        "rows.json": '[{"amount": 3}, {"amt": 4}]\n',
    },
    confirm=r"KeyError: 'amount'",
)
add(
    "python3-sigterm-handler-exit0",
    "python3",
    "exit0_hidden_failure",
    None,
    "'timeout --preserve-status' stops a migration worker with SIGTERM mid-run; its handler logs and exits 0, so the unfinished job exits 0",
    "timeout --preserve-status 1 python3 worker.py",
    files={
        "worker.py": dedent("""
            import signal, sys, time

            def stop(signum, frame):
                print(f"received SIGTERM after {done} of 50 batches, shutting down", file=sys.stderr)
                sys.exit(0)

            signal.signal(signal.SIGTERM, stop)
            done = 0
            for batch in range(50):
                time.sleep(0.1)
                done += 1
                print(f"migrated batch {done}", flush=True)
            print("migration complete")
        """),
    },
    confirm=r"received SIGTERM after \d+ of 50",
)
add(
    "python3-etl-every-row-rejected",
    "python3",
    "exit0_hidden_failure",
    None,
    "an import script logs each rejected row and carries on; every row is rejected, nothing is loaded, and it exits 0",
    "python3 load.py",
    files={
        "load.py": dedent("""
            import csv, logging, sqlite3
            logging.basicConfig(format="%(levelname)s %(message)s")
            db = sqlite3.connect("shop.db")
            db.execute("create table orders (id integer primary key, qty integer not null, price real not null)")
            loaded = 0
            for n, row in enumerate(csv.DictReader(open("orders.csv")), 1):
                try:
                    db.execute("insert into orders values (?, ?, ?)", (int(row["id"]), int(row["quantity"]), float(row["price"])))
                    loaded += 1
                except (KeyError, ValueError) as exc:
                    logging.error("row %d rejected: %r", n, exc)
            db.commit()
            print(f"import finished: {loaded} rows loaded")
        """),
        "orders.csv": "id;qty;price\n1;2;9.99\n2;1;4.50\n3;5;1.25\n",
    },
    confirm=r"0 rows loaded",
)
add(
    "python3-validator-zero-errors",
    "python3",
    "success_alarming_stderr",
    None,
    "a config validator reports its checks on stderr, including 'errors: 0' and a deprecated-key warning; every file is valid",
    "python3 validate.py conf/*.json",
    files={
        "validate.py": dedent("""
            import json, sys
            errors = warnings = 0
            for path in sys.argv[1:]:
                cfg = json.load(open(path))
                if "colour" in cfg:
                    warnings += 1
                    print(f"WARNING {path}: key 'colour' is deprecated, use 'color'", file=sys.stderr)
                for key in ("name", "port"):
                    if key not in cfg:
                        errors += 1
                        print(f"ERROR {path}: missing key {key!r}", file=sys.stderr)
            print(f"checked {len(sys.argv) - 1} files: errors: {errors}, warnings: {warnings}", file=sys.stderr)
            sys.exit(1 if errors else 0)
        """),
        "conf/api.json": '{"name": "api", "port": 8080}\n',
        "conf/web.json": '{"name": "web", "port": 80, "colour": "blue"}\n',
        "conf/jobs.json": '{"name": "jobs", "port": 9000}\n',
    },
    confirm=r"(?s)(?=.*WARNING)(?=.*errors: 0)",
)
add(
    "python3-negative-test-print-exc",
    "python3",
    "success_alarming_stderr",
    None,
    "a smoke script checks that malformed input is rejected: it prints the caught traceback and 'OK: rejected'; all checks pass",
    "python3 smoke.py",
    files={
        "smoke.py": dedent("""
            import json, traceback
            bad = ['{"a": 1,}', "[1, 2", "{'single': 'quotes'}"]
            for text in bad:
                try:
                    json.loads(text)
                except json.JSONDecodeError:
                    traceback.print_exc()
                    print(f"OK: rejected {text!r}")
                else:
                    raise SystemExit(f"FAIL: accepted {text!r}")
            print("smoke checks passed: 3/3")
        """),
    },
    confirm=r"(?s)(?=.*Traceback)(?=.*smoke checks passed: 3/3)",
)
add(
    "python3-cp1252-log-parse-fails",
    "python3",
    "non_utf8",
    "failure",
    "a log parser echoes the offending raw line (Windows-1252 bytes) to stderr and exits 2 because it cannot parse it",
    "python3 parse.py server.log",
    files={
        "parse.py": dedent("""
            import sys
            for n, raw in enumerate(open(sys.argv[1], "rb"), 1):
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    sys.stderr.buffer.write(b"line %d: cannot decode: " % n + raw)
                    sys.stderr.write(f"parse error: {exc}\\n")
                    sys.exit(2)
            print("parsed")
        """),
        "server.log": b"2024-01-01 10:00 start\n2024-01-01 10:01 user \x93Ren\xe9\x94 logged in\n",
    },
    expect=2,
)
add(
    "python3-future-exception-unchecked",
    "python3",
    "exit0_hidden_failure",
    None,
    "a thumbnail job submits work to a ThreadPoolExecutor and only logs each future's exception; all three fail and it exits 0 with 'batch complete'",
    "python3 thumbs.py",
    files={
        "thumbs.py": dedent("""
            from concurrent.futures import ThreadPoolExecutor, as_completed

            def thumb(name):
                raise OSError(f"cannot identify image file {name!r}")

            with ThreadPoolExecutor(2) as pool:
                futs = [pool.submit(thumb, n) for n in ("a.png", "b.png", "c.png")]
                for f in as_completed(futs):
                    if f.exception():
                        print("thumbnail failed:", f.exception())
            print("batch complete")
        """),
    },
    confirm=r"cannot identify image file",
)
add(
    "python3-big-progress-ok",
    "python3",
    "progress_on_stderr",
    "success",
    "a data export writes a tqdm-style progress line for each of 2000 chunks to stderr and finishes the export",
    "python3 export.py && wc -l out.csv",
    files={
        "export.py": dedent("""
            import sys
            with open("out.csv", "w") as fh:
                for i in range(1, 2001):
                    fh.write(f"{i},{i * i}\\n")
                    pct = i * 100 // 2000
                    sys.stderr.write(f"\\rexporting: {pct:3d}%|{'#' * (pct // 5):20}| {i}/2000 chunks")
            sys.stderr.write("\\n")
        """),
    },
    confirm=r"2000 out\.csv",
)

# --- ruff / mypy / black / pylint / flake8 -------------------------------------------------------

LINT_SRC = {
    "pkg/__init__.py": "",
    "pkg/api.py": dedent("""
        import os, sys
        import json

        def handler(event, context):
            body = json.loads(event["body"])
            if body == None:
                return {"status": 400}
            l = [x for x in body]
            return {"status": 200, "n": len(l)}
    """),
}
add(
    "ruff-loop-last-status",
    "ruff",
    "exit0_hidden_failure",
    None,
    "a lint loop runs ruff on each package directory in turn and keeps only the last status; the first directory has violations and the loop exits 0",
    'for d in pkg tools; do echo "== $d"; ruff check --no-cache $d; done',
    files={
        **LINT_SRC,
        "tools/__init__.py": "",
        "tools/clean.py": "def clean(x):\n    return x.strip()\n",
    },
    confirm=r"E711|F401",
)
add(
    "ruff-output-file-ignored",
    "ruff",
    "exit0_hidden_failure",
    None,
    "the lint job writes ruff's report to a file with --output-file and then only cats it under '|| true'; violations are found and the job exits 0",
    "ruff check --no-cache --output-format concise --output-file ruff.txt pkg || true; cat ruff.txt",
    files=LINT_SRC,
    confirm=r"F401",
)
add(
    "ruff-fix-then-clean",
    "ruff",
    "success_alarming_stderr",
    None,
    "ruff check --fix fixes all the fixable issues and reports the count; no violations remain",
    "ruff check --no-cache --fix --select F401 pkg && ruff check --no-cache --select F401 pkg",
    files=LINT_SRC,
    confirm=r"(?s)(?=.*Found \d+ errors? \(\d+ fixed, 0 remaining\))(?=.*All checks passed)",
)
add(
    "mypy-errors-tee",
    "mypy",
    "exit0_hidden_failure",
    None,
    "type check output is written through 'tee mypy.log' for the artefact store; mypy finds errors and tee makes the step exit 0",
    "mypy --no-incremental --no-error-summary svc.py | tee mypy.log",
    files={
        "svc.py": dedent("""
            from typing import Optional

            def port(cfg: dict[str, str]) -> int:
                return cfg.get("port")

            def greet(name: Optional[str]) -> str:
                return "hi " + name
        """),
    },
    confirm=r"error: Incompatible return value type",
)
add(
    "mypy-notes-reveal-ok",
    "mypy",
    "success_alarming_stderr",
    None,
    "mypy checks a module that uses reveal_type; it prints a note and 'Success: no issues found'",
    "mypy --no-incremental --warn-unused-ignores svc.py",
    files={
        "svc.py": dedent("""
            from typing import Any

            def load(raw: Any) -> dict[str, int]:
                data: dict[str, int] = dict(raw)
                return data

            result = load({"errors": 0, "failures": 0})
            reveal_type(result)
        """),
    },
    confirm=r"(?s)(?=.*note: Revealed type)(?=.*Success: no issues found)",
)
add(
    "black-check-python-c-wrapper",
    "black",
    "exit0_hidden_failure",
    None,
    "a format gate runs black --check via subprocess.run(check=False) and prints 'format gate done'; files would be reformatted and it exits 0",
    "python3 -c \"import subprocess; subprocess.run(['black', '--check', 'src']); print('format gate done')\"",
    files={"src/a.py": "x = {  'a':37,'b':42,\n'c':927}\n", "src/b.py": "def f(a,):\n  return a\n"},
    confirm=r"would reformat",
)
add(
    "black-fast-reformat-summary",
    "black",
    "success_alarming_stderr",
    None,
    "black -v reformats two files and reports on stderr what it changed; a second black --check confirms everything is formatted",
    "black -v src && black --check src",
    files={
        "src/a.py": "x = {  'a':37,'b':42,\n'c':927}\n",
        "src/b.py": "def f(a,):\n  return a\n",
        "src/c.py": "y = 1\n",
    },
    confirm=r"(?s)(?=.*reformatted)(?=.*would be left unchanged)",
)
add(
    "pylint-fail-under-passes",
    "pylint",
    "success_alarming_stderr",
    None,
    "pylint reports a few warning and convention messages but the score is above --fail-under=7, so the gate passes with exit 0",
    "pylint --fail-under=7 --disable=R inventory.py",
    files={
        "inventory.py": dedent('''
            """Inventory helpers."""
            import os

            STOCK = {"apple": 3, "pear": 0}


            def in_stock(item):
                """Return True when the item has stock."""
                return STOCK.get(item, 0) > 0


            def restock(item, qty):
                """Add qty units of item."""
                STOCK[item] = STOCK.get(item, 0) + qty
                return STOCK[item]


            def report():
                """Lines of the stock report."""
                lines = []
                for name, qty in sorted(STOCK.items()):
                    lines.append(f"{name}: {qty}")
                return lines


            def remove(item):
                """Remove an item."""
                try:
                    del STOCK[item]
                except Exception:
                    pass
        '''),
    },
    confirm=r"(?s)(?=.*W0611)(?=.*rated at)",
)
add(
    "flake8-xargs-keep-going",
    "flake8",
    "exit0_hidden_failure",
    None,
    "a pre-push script lints changed files with 'xargs flake8 ... ; echo lint done'; flake8 reports errors but the echo leaves exit 0",
    "printf 'pkg/api.py\\npkg/__init__.py\\n' | xargs flake8; echo lint done",
    files=LINT_SRC,
    confirm=r"E711",
)
add(
    "flake8-noisy-jobs-fail",
    "flake8",
    "failure_noisy_stderr",
    None,
    "flake8 -vv runs over a package with one syntax error amid its verbose plugin and file logs; it exits 1",
    "flake8 -vv pkg",
    files={**LINT_SRC, "pkg/broken.py": "def f(:\n    pass\n"},
    expect=1,
    confirm=r"E999",
)

# --- pip / coverage ------------------------------------------------------------------------------

add(
    "pip-install-editable-broken-setup",
    "pip",
    "failure_noisy_stderr",
    None,
    "pip install -e . on a project whose pyproject names a build backend that is not installed; the build dependency cannot be fetched offline and pip exits 1 after a long log",
    "pip install -v -e .",
    files={
        "pyproject.toml": '[build-system]\nrequires = ["flit_core_missing_backend>=3.2"]\nbuild-backend = "flit_core.buildapi"\n\n[project]\nname = "app"\nversion = "0.1"\n',
        "app/__init__.py": "",
    },
    expect=1,
    timeout=90,
)
add(
    "pip-check-broken-deps-or-true",
    "pip",
    "exit0_hidden_failure",
    None,
    "a scratch venv gets a package whose declared requirement is missing; 'pip check || true' reports the broken requirement and the step exits 0",
    "python3 -m venv v && v/bin/pip install -q --no-deps --no-index ./dist/*.whl && v/bin/pip check || true",
    setup=dedent("""
        mkdir -p proj/needy && cd proj
        printf '[build-system]\\nrequires=["setuptools"]\\nbuild-backend="setuptools.build_meta"\\n[project]\\nname="needy"\\nversion="1.0"\\ndependencies=["requests>=2"]\\n' > pyproject.toml
        touch needy/__init__.py
        pip wheel -q --no-deps --no-build-isolation -w ../dist . >/dev/null
    """),
    confirm=r"(?i)needy 1\.0 requires requests",
    timeout=90,
)
add(
    "coverage-combine-then-report-ok",
    "coverage",
    "success_alarming_stderr",
    None,
    "coverage runs a script twice in parallel mode (one run logs a handled ZeroDivisionError), combines the data and writes the report",
    "coverage run -p calc.py add && coverage run -p calc.py div && coverage combine && coverage report --include=calc.py -m",
    files={
        "calc.py": dedent("""
            import sys
            op = sys.argv[1]
            if op == "add":
                print(2 + 3)
            elif op == "div":
                try:
                    print(1 / 0)
                except ZeroDivisionError as exc:
                    print(f"error handled: {exc}", file=sys.stderr)
        """),
    },
    confirm=r"(?s)(?=.*error handled: division by zero)(?=.*TOTAL)",
)
