"""Fifth fresh batch (ids ``fresh5-*``): new scenarios for the everyday Python tools (pytest and
plugins, unittest, python3 scripts, pip, ruff, mypy, black, isort, pylint, flake8, pre-commit)."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh5")


# --- pytest --------------------------------------------------------------------------------------

INVOICE = {
    "invoice.py": dedent("""
        from decimal import Decimal, ROUND_HALF_UP

        def total(lines, vat_rate):
            net = sum(Decimal(str(q)) * Decimal(str(p)) for q, p in lines)
            vat = (net * Decimal(str(vat_rate))).quantize(Decimal("0.01"), ROUND_HALF_UP)
            return net + vat

        def split(amount, parts):
            share = round(amount / parts, 2)
            return [share] * parts
    """),
    "tests/test_invoice.py": dedent("""
        from decimal import Decimal
        from invoice import total, split

        def test_total():
            assert total([(2, 1.5), (1, 4)], 0.2) == Decimal("8.40")

        def test_split_even():
            assert split(Decimal("9.00"), 3) == [Decimal("3.00")] * 3

        def test_split_remainder_is_kept():
            parts = split(Decimal("10.00"), 3)
            assert sum(parts) == Decimal("10.00"), parts
    """),
    "conftest.py": "import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n",
}
add(
    "pytest-junit-then-summary-script",
    "pytest",
    "exit0_hidden_failure",
    None,
    "a CI step runs pytest --junitxml and then a summary script whose exit status is the step's; the remainder test fails and the summary step exits 0",
    "pytest -q --junitxml=report.xml tests; python3 -c \"import xml.etree.ElementTree as E; s=E.parse('report.xml').getroot().find('testsuite'); print('junit summary: tests=%s failures=%s errors=%s' % (s.get('tests'), s.get('failures'), s.get('errors')))\"",
    files=INVOICE,
    confirm=r"junit summary: tests=3 failures=1",
    group="fresh5-pytest-invoice",
)
add(
    "pytest-invoice-fail-tb-short",
    "pytest",
    "plain_failure",
    None,
    "pytest --tb=short runs the invoice tests; splitting 10.00 three ways loses a cent and pytest exits 1",
    "pytest --tb=short tests",
    files=INVOICE,
    expect=1,
    confirm=r"1 failed, 2 passed",
    group="fresh5-pytest-invoice",
)
add(
    "pytest-invoice-github-actions-group",
    "pytest",
    "exit0_hidden_failure",
    None,
    "the step wraps pytest in ::group:: markers and ends with ::endgroup::, whose echo is the last status; a test failed",
    "echo '::group::unit tests'; pytest -q -rf tests; echo '::endgroup::'",
    files=INVOICE,
    confirm=r"FAILED tests/test_invoice.py::test_split_remainder_is_kept",
    group="fresh5-pytest-invoice",
)
add(
    "pytest-lf-reruns-only-passing",
    "pytest",
    "exit0_hidden_failure",
    None,
    "the script runs the suite, then reruns it with -k 'not remainder' as the final status; the first run failed a test and the second deselects it and passes",
    "pytest -q tests; pytest -q -k 'not remainder' tests",
    files=INVOICE,
    confirm=r"1 failed, 2 passed",
    group="fresh5-pytest-invoice",
)

add(
    "pytest-asyncio-timeout-test-passes-logs",
    "pytest",
    "success_alarming_stderr",
    None,
    "pytest-asyncio tests a client whose first call times out (logged as ERROR with asyncio.TimeoutError) before a fallback succeeds; both tests pass",
    "pytest -q -o asyncio_mode=auto -o log_cli=true -o log_cli_level=ERROR",
    files={
        "test_client.py": dedent("""
            import asyncio, logging
            log = logging.getLogger("client")

            async def slow():
                await asyncio.sleep(5)

            async def fetch():
                try:
                    return await asyncio.wait_for(slow(), 0.05)
                except asyncio.TimeoutError:
                    log.exception("primary endpoint timed out after 0.05s, using cache")
                    return "cached"

            async def test_fetch_falls_back():
                assert await fetch() == "cached"

            async def test_gather():
                assert await asyncio.gather(asyncio.sleep(0, 1), asyncio.sleep(0, 2)) == [1, 2]
        """),
    },
    confirm=r"(?s)(?=.*TimeoutError)(?=.*2 passed)",
)
add(
    "pytest-parametrize-ids-errors-pass",
    "pytest",
    "success_alarming_stderr",
    None,
    "pytest -v runs parametrized tests whose ids are error names (ValueError, PermissionError, ConnectionResetError) checking the mapping to HTTP codes; all pass",
    "pytest -v -p no:cacheprovider",
    files={
        "test_errors.py": dedent("""
            import pytest
            def to_status(exc):
                return {ValueError: 400, PermissionError: 403, ConnectionResetError: 502}.get(type(exc), 500)

            @pytest.mark.parametrize("exc,code", [
                (ValueError("bad input"), 400),
                (PermissionError("denied"), 403),
                (ConnectionResetError("reset by peer"), 502),
                (RuntimeError("boom"), 500),
            ], ids=["ValueError", "PermissionError", "ConnectionResetError", "RuntimeError-fallback"])
            def test_to_status(exc, code):
                assert to_status(exc) == code
        """),
    },
    confirm=r"(?s)(?=.*ConnectionResetError\] PASSED)(?=.*4 passed)",
)
add(
    "pytest-xfail-strict-off-unexpected",
    "pytest",
    "success_alarming_stderr",
    None,
    "pytest -rxX reports an expected failure (XFAIL with its AssertionError reason) and an XPASS with strict off; the suite exits 0",
    "pytest -q -rxX -p no:cacheprovider",
    files={
        "test_known.py": dedent("""
            import pytest

            @pytest.mark.xfail(reason="bug #412: AssertionError on leap-day rollover", raises=AssertionError)
            def test_leap_day():
                assert (29, 2) == (1, 3)

            @pytest.mark.xfail(reason="flaky on CI: TimeoutError talking to cache")
            def test_cache():
                assert True

            def test_ok():
                assert 2 * 2 == 4
        """),
    },
    confirm=r"(?s)(?=.*XFAIL)(?=.*1 passed, 1 xfailed, 1 xpassed)",
)
add(
    "pytest-capture-no-print-debug-pass",
    "pytest",
    "success_alarming_stderr",
    None,
    "pytest -s shows the parser's debug prints of every rejected line ('ERROR: line 3: unexpected token') while the tests for the rejection pass",
    "pytest -s -q -p no:cacheprovider",
    files={
        "test_parse.py": dedent("""
            import sys
            def parse(text):
                out = []
                for n, line in enumerate(text.splitlines(), 1):
                    if "=" not in line:
                        print(f"ERROR: line {n}: unexpected token {line!r}", file=sys.stderr)
                        continue
                    k, v = line.split("=", 1)
                    out.append((k.strip(), v.strip()))
                return out

            def test_skips_bad_lines():
                assert parse("a=1\\nb=2\\n???\\nc = 3") == [("a", "1"), ("b", "2"), ("c", "3")]

            def test_empty():
                assert parse("") == []
        """),
    },
    confirm=r"(?s)(?=.*ERROR: line 3: unexpected token)(?=.*2 passed)",
)
add(
    "pytest-xdist-worker-crash",
    "pytest",
    "failure_noisy_stderr",
    None,
    "pytest -n 2 runs a test that calls os._exit in a worker; xdist reports the crashed worker, replaces it and pytest exits 1",
    "pytest -n 2 -p no:cacheprovider -q",
    files={
        "test_native.py": dedent("""
            import os
            def test_a():
                assert True
            def test_native_ext_crash():
                os._exit(3)
            def test_b():
                assert True
        """),
    },
    expect=1,
    confirm=r"crashed",
)
add(
    "pytest-collect-only-count-as-tests",
    "pytest",
    "exit0_hidden_failure",
    None,
    "a Makefile target meant to run the tests invokes 'pytest --collect-only -q'; it only lists the tests (one of which would fail) and exits 0",
    "make test",
    files={
        "Makefile": "test:\n\tpytest --collect-only -q -p no:cacheprovider\n",
        "test_x.py": "def test_ok():\n    assert 1\n\ndef test_broken():\n    assert {}.get('k') == 'v'\n",
    },
    confirm=r"2 tests collected",
)

# --- unittest ------------------------------------------------------------------------------------

add(
    "unittest-subtest-failures",
    "unittest",
    "plain_failure",
    None,
    "unittest runs a test with subTests over slug inputs; two subtests fail and the run exits 1",
    "python3 -m unittest -v test_slug",
    files={
        "test_slug.py": dedent("""
            import re, unittest
            def slug(s):
                return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")
            class T(unittest.TestCase):
                def test_slug(self):
                    for raw, want in [("Hello World", "hello-world"), ("Ça va", "ca-va"), ("naïve café", "naive-cafe"), ("a--b", "a-b")]:
                        with self.subTest(raw=raw):
                            self.assertEqual(slug(raw), want)
            if __name__ == "__main__":
                unittest.main()
        """),
    },
    expect=1,
    confirm=r"FAILED \(failures=2\)",
)
add(
    "unittest-assertlogs-error-ok",
    "unittest",
    "success_alarming_stderr",
    None,
    "unittest checks with assertLogs that a payment retry logs ERROR; the handler also prints the traceback to stderr and all tests pass",
    "python3 -m unittest -v",
    files={
        "test_pay.py": dedent("""
            import logging, sys, traceback, unittest
            log = logging.getLogger("payments")
            def charge(card):
                try:
                    raise TimeoutError("gateway did not answer in 30s")
                except TimeoutError:
                    traceback.print_exc()
                    log.error("charge failed for card %s, queued for retry", card)
                    return "queued"
            class T(unittest.TestCase):
                def test_charge_queues(self):
                    with self.assertLogs("payments", "ERROR") as cm:
                        self.assertEqual(charge("4242"), "queued")
                    self.assertIn("queued for retry", cm.output[0])
        """),
    },
    confirm=r"(?s)(?=.*TimeoutError: gateway did not answer)(?=.*\nOK)",
)
add(
    "unittest-loader-import-error-ok-exit",
    "unittest",
    "exit0_hidden_failure",
    None,
    "a runner script loads tests by name with TestLoader and runs them, ignoring result.wasSuccessful(); the test module fails to import and the script exits 0",
    "python3 run_tests.py",
    files={
        "run_tests.py": dedent("""
            import unittest
            suite = unittest.defaultTestLoader.loadTestsFromNames(["tests_api", "tests_util"])
            result = unittest.TextTestRunner(verbosity=2).run(suite)
            print(f"ran {result.testsRun} tests")
        """),
        "tests_api.py": "import unittest\nimport requests_mock_lib\nclass T(unittest.TestCase):\n    def test_get(self):\n        pass\n",
        "tests_util.py": "import unittest\nclass T(unittest.TestCase):\n    def test_x(self):\n        self.assertTrue(True)\n",
    },
    confirm=r"ModuleNotFoundError: No module named 'requests_mock_lib'",
)

# --- python3 scripts -----------------------------------------------------------------------------

add(
    "python-json-log-errors-exit0",
    "python3",
    "exit0_hidden_failure",
    None,
    "an upload job logs structured JSON to stderr; every file fails with permission denied, it logs level=error per file and a summary with uploaded=0, then exits 0",
    "python3 upload.py",
    files={
        "upload.py": dedent("""
            import json, sys, time
            files = ["a.parquet", "b.parquet", "c.parquet"]
            done = 0
            for f in files:
                try:
                    raise PermissionError(13, "Permission denied", f"/mnt/bucket/{f}")
                except OSError as e:
                    print(json.dumps({"level": "error", "msg": "upload failed", "file": f, "error": str(e)}), file=sys.stderr)
            print(json.dumps({"level": "info", "msg": "upload finished", "uploaded": done, "total": len(files)}), file=sys.stderr)
        """),
    },
    confirm=r'"uploaded": 0',
)
add(
    "python-threadpool-futures-logged",
    "python3",
    "exit0_hidden_failure",
    None,
    "a thumbnail job runs tasks in a ThreadPoolExecutor and logs each failed future with log.exception; all four fail on a missing codec and it exits 0 with 0 written",
    "python3 thumbs.py",
    files={
        "thumbs.py": dedent("""
            import logging
            from concurrent.futures import ThreadPoolExecutor, as_completed
            logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(threadName)s %(message)s")
            log = logging.getLogger("thumbs")

            def render(name):
                raise LookupError(f"unknown encoding: webp (while rendering {name})")

            ok = 0
            with ThreadPoolExecutor(max_workers=2) as pool:
                futs = {pool.submit(render, n): n for n in ["a.png", "b.png", "c.png", "d.png"]}
                for fut in as_completed(futs):
                    try:
                        fut.result()
                        ok += 1
                    except Exception:
                        log.exception("thumbnail %s failed", futs[fut])
            log.info("wrote %d thumbnails", ok)
        """),
    },
    confirm=r"wrote 0 thumbnails",
)
add(
    "python-multiprocessing-pool-imap-error",
    "python3",
    "failure_noisy_stderr",
    None,
    "a multiprocessing Pool.imap over records hits a worker exception; the remote traceback is re-raised in the parent and python exits 1",
    "python3 etl.py",
    files={
        "etl.py": dedent("""
            import multiprocessing as mp, logging
            logging.basicConfig(level=logging.DEBUG, format="%(processName)s %(levelname)s %(message)s")
            def parse(rec):
                logging.debug("parsing record %r", rec)
                return int(rec["amount"])
            if __name__ == "__main__":
                recs = [{"amount": str(i)} for i in range(20)] + [{"amount": "12,50"}]
                with mp.Pool(2) as pool:
                    for v in pool.imap(parse, recs):
                        logging.debug("got %s", v)
        """),
    },
    expect=1,
    confirm=r"ValueError: invalid literal for int\(\)",
)
add(
    "python-deprecation-warnings-ok",
    "python3",
    "success_alarming_stderr",
    None,
    "a report script run with -W default prints a DeprecationWarning from locale.getdefaultlocale and a ResourceWarning for an unclosed file, then writes its report; exits 0",
    "python3 -W default report.py && cat report.txt",
    files={
        "report.py": dedent("""
            import locale
            stamp = locale.getdefaultlocale()[0]
            f = open("report.txt", "w")
            f.write(f"generated {stamp}\\nrows: 42\\n")
            f.flush()
            f = None
        """),
    },
    confirm=r"(?s)(?=.*DeprecationWarning)(?=.*rows: 42)",
)
add(
    "python-asyncio-taskgroup-error",
    "python3",
    "plain_failure",
    None,
    "an asyncio crawler uses a TaskGroup; one fetch raises and the ExceptionGroup propagates, python exits 1",
    "python3 crawl.py",
    files={
        "crawl.py": dedent("""
            import asyncio
            async def fetch(url):
                await asyncio.sleep(0.01)
                if "admin" in url:
                    raise PermissionError(f"403 Forbidden: {url}")
                return url
            async def main():
                async with asyncio.TaskGroup() as tg:
                    for u in ["/", "/about", "/admin"]:
                        tg.create_task(fetch(u))
            asyncio.run(main())
        """),
    },
    expect=1,
    confirm=r"ExceptionGroup",
)
add(
    "python-asyncio-background-task-dies",
    "python3",
    "exit0_hidden_failure",
    None,
    "a sync service starts its heartbeat as a background asyncio task that dies on a KeyError; main finishes and exits 0, with asyncio logging the unretrieved exception",
    "python3 svc.py",
    files={
        "svc.py": dedent("""
            import asyncio, gc
            async def heartbeat(cfg):
                await asyncio.sleep(0.01)
                return cfg["heartbeat_url"]
            async def main():
                t = asyncio.get_running_loop().create_task(heartbeat({}))
                await asyncio.sleep(0.05)
                print("sync finished: heartbeat sent")
                del t
                gc.collect()
            asyncio.run(main())
        """),
    },
    confirm=r"KeyError: 'heartbeat_url'",
)
add(
    "python-ulimit-memoryerror",
    "python3",
    "killed_signalled",
    None,
    "a data loader under a 300 MB address-space limit builds a list that cannot fit; Python raises MemoryError and exits 1 (ulimit -v)",
    "ulimit -v 300000; python3 -c 'rows=[bytearray(50_000_000) for _ in range(20)]; print(len(rows))'",
    expect=1,
    confirm=r"MemoryError",
)
add(
    "python-csv-latin1-decode-error",
    "python3",
    "non_utf8",
    "failure",
    "a CSV import reads a latin-1 export as UTF-8 and dies with UnicodeDecodeError; the traceback and the raw bytes it echoed first are in the output",
    'head -c 40 export.csv; echo; python3 -c \'import csv; print(sum(1 for _ in csv.reader(open("export.csv", encoding="utf-8"))))\'',
    files={
        "export.csv": "id;name;city\n1;Jos\xe9;M\xe1laga\n2;Fran\xe7ois;Besan\xe7on\n".encode(
            "latin-1"
        )
    },
    expect=1,
    confirm=r"UnicodeDecodeError",
)
add(
    "python-logging-warning-config-ok",
    "python3",
    "success_alarming_stderr",
    None,
    "a config loader warns that two keys are deprecated and one unknown key is ignored (WARNING/ERROR-level lines), then prints the resolved config; exits 0",
    "python3 load_config.py",
    files={
        "load_config.py": dedent("""
            import logging, json
            logging.basicConfig(format="%(levelname)s:%(name)s:%(message)s")
            log = logging.getLogger("config")
            raw = {"db_url": "sqlite://", "workers": 4, "use_ssl": True, "colour": "auto", "timeout": 30}
            renamed = {"use_ssl": "tls", "colour": "color"}
            cfg = {}
            for k, v in raw.items():
                if k in renamed:
                    log.warning("key %r is deprecated, use %r", k, renamed[k])
                    k = renamed[k]
                cfg[k] = v
            log.error("unknown key 'timeout' ignored (did you mean 'timeout_s'?)")
            cfg.pop("timeout")
            print(json.dumps(cfg, sort_keys=True))
        """),
    },
    confirm=r'(?s)(?=.*ERROR:config:unknown key)(?=.*"workers": 4)',
)
add(
    "python-timeout-kills-stuck-job",
    "python3",
    "killed_signalled",
    None,
    "a queue consumer waits forever on an empty queue; 'timeout -s TERM 2' ends it (exit 124)",
    "timeout -s TERM 2 python3 -u -c 'import queue; print(\"waiting for jobs\"); queue.Queue().get()'",
    expect=124,
    confirm=r"waiting for jobs",
)
add(
    "python-tee-traceback-log",
    "python3",
    "exit0_hidden_failure",
    None,
    "a migration wrapper runs 'python3 migrate.py 2>&1 | tee -a migrate.log'; the migration raises an IntegrityError and tee makes the pipeline exit 0",
    "python3 migrate.py 2>&1 | tee -a migrate.log",
    files={
        "migrate.py": dedent("""
            import sqlite3
            db = sqlite3.connect("app.db")
            db.execute("create table users(id integer primary key, email text unique)")
            db.executemany("insert into users(email) values (?)", [("a@x.io",), ("b@x.io",)])
            print("applying 0002_backfill_emails")
            db.execute("insert into users(email) values ('a@x.io')")
            db.commit()
            print("migrations applied")
        """),
    },
    confirm=r"sqlite3\.IntegrityError: UNIQUE constraint failed",
)

# --- pip -----------------------------------------------------------------------------------------

SETUP_WHEELS = dedent("""
    mkdir -p pkgs/corelib/corelib pkgs/plugin/plugin wh
    printf 'from setuptools import setup\\nsetup(name="corelib", version="2.0", packages=["corelib"])\\n' > pkgs/corelib/setup.py
    : > pkgs/corelib/corelib/__init__.py
    printf 'from setuptools import setup\\nsetup(name="plugin", version="1.0", packages=["plugin"], install_requires=["corelib<2"])\\n' > pkgs/plugin/setup.py
    : > pkgs/plugin/plugin/__init__.py
    pip wheel -q --no-build-isolation --no-deps -w wh ./pkgs/corelib ./pkgs/plugin
    python3 -m venv v
    sed -i 's/version="2.0"/version="1.5"/' pkgs/corelib/setup.py
    pip wheel -q --no-build-isolation --no-deps -w wh ./pkgs/corelib
    v/bin/pip install -q --no-index --find-links wh plugin
""")
add(
    "pip-resolver-conflict-error-exit0",
    "pip",
    "success_alarming_stderr",
    None,
    "pip upgrades corelib to 2.0 as asked; it prints 'ERROR: pip's dependency resolver does not currently take into account...' about the installed plugin's pin, and exits 0 with corelib 2.0 installed",
    "v/bin/pip install --no-index --find-links wh 'corelib==2.0' && v/bin/pip show corelib | head -2",
    files={},
    setup=SETUP_WHEELS,
    confirm=r"(?s)(?=.*ERROR: pip's dependency resolver)(?=.*Version: 2\.0)",
    group="fresh5-pip-corelib",
)
add(
    "pip-check-broken-after-upgrade",
    "pip",
    "exit0_hidden_failure",
    None,
    "after forcing corelib 2.0 into a venv whose plugin needs corelib<2, the CI step runs 'pip check || echo ...'; pip check reports the conflict and the step exits 0",
    "v/bin/pip install -q --no-index --find-links wh 'corelib==2.0' --no-deps; v/bin/pip check || echo 'dependency check reported problems (non-blocking)'",
    setup=SETUP_WHEELS,
    confirm=r"plugin 1\.0 has requirement corelib<2",
    group="fresh5-pip-corelib",
)

# --- ruff / black / isort / flake8 / pylint / mypy ----------------------------------------------

MESSY = {
    "app/handlers.py": dedent("""
        import os, sys
        import json
        from typing import List


        def handle(events : List[dict]) -> int :
            count=0
            for e in events :
                if e['type']=='click': count+=1
                elif e['type'] == "view" :
                    pass
            return count
    """),
    "app/__init__.py": "",
}
add(
    "ruff-check-fix-reports-fixed",
    "ruff",
    "success_alarming_stderr",
    None,
    "ruff check --fix --select F401,I removes the unused imports and sorts the rest; it prints 'Found N errors (N fixed, 0 remaining)' and exits 0",
    "ruff check --no-cache --fix --select F401,I app",
    files=MESSY,
    confirm=r"Found \d+ errors? \(\d+ fixed, 0 remaining\)",
)
add(
    "ruff-format-then-check-or-true",
    "ruff",
    "exit0_hidden_failure",
    None,
    "a lint-fix script runs ruff format then 'ruff check ... || true'; the multi-statement line E701 remains and the script exits 0",
    "ruff format --no-cache app && ruff check --no-cache --select E7,E4 --output-format concise app || true",
    files=MESSY,
    confirm=r"E401|E701",
)
add(
    "ruff-statistics-exit-zero-ci",
    "ruff",
    "exit0_hidden_failure",
    None,
    "the CI lint step runs 'ruff check --statistics --exit-zero'; it counts real F401/E701 violations and exits 0",
    "ruff check --no-cache --select E,F --statistics --exit-zero app",
    files=MESSY,
    confirm=r"F401",
)
add(
    "black-fast-reformats-ok",
    "black",
    "success_alarming_stderr",
    None,
    "black reformats the handlers module; its stderr summary says 'reformatted ... 1 file reformatted, 1 file left unchanged'; the result parses and it exits 0",
    'black app && python3 -c \'import ast; ast.parse(open("app/handlers.py").read()); print("parses")\'',
    files=MESSY,
    confirm=r"(?s)(?=.*1 file reformatted)(?=.*parses)",
)
add(
    "isort-diff-check-only-piped",
    "isort",
    "exit0_hidden_failure",
    None,
    "isort --check-only --diff is piped into 'head -40' to keep the log short; it finds unsorted imports (exit 1) and head exits 0",
    "isort --check-only --diff app | head -40",
    files=MESSY,
    confirm=r"ERROR: .*Imports are incorrectly sorted",
)
add(
    "flake8-tee-report-file",
    "flake8",
    "exit0_hidden_failure",
    None,
    "flake8 --tee writes violations to a report file and stdout inside 'flake8 ... ; echo lint done'; violations are found and the echo exits 0",
    "flake8 --tee --output-file flake8.txt app; echo 'lint done, report in flake8.txt'",
    files=MESSY,
    confirm=r"F401 'os' imported but unused",
)
add(
    "pylint-disable-all-errors-only-clean",
    "pylint",
    "success_alarming_stderr",
    None,
    "pylint --errors-only on a module with no errors prints only a warning about an unknown message name in the rcfile and exits 0",
    "pylint --errors-only --rcfile=pylintrc svc.py && echo 'pylint: no errors'",
    files={
        "pylintrc": "[MESSAGES CONTROL]\ndisable=bad-option-value-fresh5,C0114\n",
        "svc.py": "def area(w, h):\n    return w * h\n\nprint(area(2, 3))\n",
    },
    confirm=r"(?s)(?=.*[Uu]nknown.option)(?=.*pylint: no errors)",
)
add(
    "pylint-fail-under-score",
    "pylint",
    "failure_noisy_stderr",
    None,
    "pylint --fail-under=9 rates a sloppy module below the threshold, listing many convention and warning messages, and exits non-zero",
    "pylint --fail-under=9 app/handlers.py",
    files=MESSY,
    expect="nonzero",
    confirm=r"Your code has been rated at",
)
add(
    "mypy-notes-reveal-type-ok",
    "mypy",
    "success_alarming_stderr",
    None,
    "mypy checks a module that uses reveal_type while the agent explores types; mypy prints 'note: Revealed type' lines and 'Success: no issues found'",
    "mypy --no-incremental typed.py",
    files={
        "typed.py": "from typing import TypedDict\n\nclass Row(TypedDict):\n    id: int\n    err: str | None\n\ndef first(rows: list[Row]) -> Row:\n    return rows[0]\n\nreveal_type(first)\n",
    },
    confirm=r"(?s)(?=.*Revealed type)(?=.*Success: no issues found)",
)
add(
    "mypy-output-into-wc",
    "mypy",
    "exit0_hidden_failure",
    None,
    "a ratchet script counts mypy errors with 'mypy ... | grep -c error:' and prints the number; mypy found type errors and grep exits 0",
    'n=$(mypy --no-incremental --no-error-summary svc.py | grep -c "error:"); echo "mypy errors: $n (baseline 0)"',
    files={
        "svc.py": "def port(cfg: dict[str, str]) -> int:\n    return cfg['port']\n\nport({'port': 8080})\n"
    },
    confirm=r"mypy errors: [1-9]",
)

# --- pre-commit ----------------------------------------------------------------------------------

PC_SETUP = dedent("""
    git init -q .
    git add -A
""")
add(
    "pre-commit-local-hook-fails",
    "pre-commit",
    "plain_failure",
    None,
    "pre-commit run --all-files with a local 'system' hook that forbids print() in src finds one and fails; exits 1",
    "pre-commit run --all-files",
    files={
        ".pre-commit-config.yaml": dedent("""
            repos:
              - repo: local
                hooks:
                  - id: no-print
                    name: no print statements
                    entry: "print\\\\("
                    language: pygrep
                    files: ^src/
        """),
        "src/a.py": "def f():\n    print('debug')\n",
    },
    setup=PC_SETUP,
    env={"PRE_COMMIT_HOME": "/tmp/fresh5-pre-commit-home"},
    expect=1,
    confirm=r"no print statements\.+Failed",
)
add(
    "pre-commit-hook-modifies-files-then-passes",
    "pre-commit",
    "success_alarming_stderr",
    None,
    "an agent runs pre-commit twice: the first run's trailing-whitespace fixer fails with 'files were modified by this hook', the second run passes; the script checks the second status and exits 0",
    "pre-commit run --all-files; pre-commit run --all-files",
    files={
        ".pre-commit-config.yaml": dedent("""
            repos:
              - repo: local
                hooks:
                  - id: trailing-whitespace
                    name: trim trailing whitespace
                    entry: trailing-whitespace-fixer
                    language: system
                    types: [text]
        """),
        "README.md": "# title   \nbody \n",
    },
    setup=PC_SETUP,
    env={"PRE_COMMIT_HOME": "/tmp/fresh5-pre-commit-home"},
    confirm=r"(?s)(?=.*files were modified by this hook)(?=.*trim trailing whitespace\.+Passed\s*$)",
)
add(
    "pre-commit-skip-env-hides-failing",
    "pre-commit",
    "exit0_hidden_failure",
    None,
    "a hook script runs pre-commit with SKIP=mypy-local to get green; the skipped hook is the one that fails, and a later plain 'mypy' in the same step runs with '|| true'",
    "SKIP=mypy-local pre-commit run --all-files && (mypy --no-incremental src || true)",
    files={
        ".pre-commit-config.yaml": dedent("""
            repos:
              - repo: local
                hooks:
                  - id: mypy-local
                    name: mypy
                    entry: mypy --no-incremental
                    language: system
                    types: [python]
        """),
        "src/m.py": "x: int = 'three'\n",
    },
    setup=PC_SETUP,
    env={"PRE_COMMIT_HOME": "/tmp/fresh5-pre-commit-home"},
    confirm=r"(?s)(?=.*Skipped)(?=.*Incompatible types in assignment)",
)
