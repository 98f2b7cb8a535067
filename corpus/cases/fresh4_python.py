"""Fourth fresh batch (ids ``fresh4-*``): new scenarios for the everyday Python tools (pytest and
its timeout/rerun/coverage plugins, unittest, python3 scripts and logging, pip, ruff, mypy,
black, pylint, flake8, coverage)."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh4")


# --- pytest --------------------------------------------------------------------------------------

CART = {
    "cart.py": dedent("""
        class OutOfStock(Exception):
            pass

        STOCK = {"apple": 3, "pear": 0}

        def reserve(item, qty):
            have = STOCK.get(item, 0)
            if qty > have:
                raise OutOfStock(f"{item}: wanted {qty}, have {have}")
            STOCK[item] = have - qty
            return STOCK[item]

        def price(items):
            table = {"apple": 0.5, "pear": 0.75}
            return sum(table[i] * q for i, q in items)
    """),
    "test_cart.py": dedent("""
        import pytest
        from cart import reserve, price, OutOfStock

        def test_reserve_ok():
            assert reserve("apple", 1) == 2

        def test_reserve_out_of_stock():
            with pytest.raises(OutOfStock):
                reserve("pear", 1)

        def test_price_mixed():
            assert price([("apple", 2), ("pear", 2)]) == 2.5

        def test_price_unknown_item():
            assert price([("kiwi", 1)]) == 0
    """),
}
add(
    "pytest-set-e-and-list",
    "pytest",
    "exit0_hidden_failure",
    None,
    "a set -e CI script runs 'pytest && touch .tests-ok'; a failing command in an && list does not trip set -e, so the unknown-item test fails and the script exits 0",
    "set -e; pytest -q && touch .tests-ok; echo 'test stage done'",
    files=CART,
    confirm=r"FAILED test_cart.py::test_price_unknown_item",
    group="fresh4-pytest-cart",
)
add(
    "pytest-if-not-then-echo",
    "pytest",
    "exit0_hidden_failure",
    None,
    "the script runs 'if ! pytest; then echo ...; fi' to print a hint; the if statement exits 0 after the hint although a test failed",
    "if ! pytest -q; then echo 'tests failed - see the report above for details'; fi",
    files=CART,
    confirm=r"1 failed, 3 passed",
    group="fresh4-pytest-cart",
)
add(
    "pytest-status-written-not-used",
    "pytest",
    "exit0_hidden_failure",
    None,
    "the test step writes pytest's exit status into status.env for a later step and exits 0 itself; a test failed (status 1)",
    'pytest -q -p no:cacheprovider; echo "PYTEST_STATUS=$?" >> status.env; cat status.env',
    files=CART,
    confirm=r"PYTEST_STATUS=1",
    group="fresh4-pytest-cart",
)
add(
    "pytest-only-timeout-checked",
    "pytest",
    "exit0_hidden_failure",
    None,
    "the wrapper only treats a timeout (124) as an error: 'timeout 60 pytest; [ $? -ne 124 ]'; pytest fails a test with exit 1 and the check passes",
    "timeout 60 pytest -q; [ $? -ne 124 ]",
    files=CART,
    confirm=r"assert 0\.\d* == 0|1 failed",
    group="fresh4-pytest-cart",
)
add(
    "pytest-cart-fail-verbose",
    "pytest",
    "plain_failure",
    None,
    "pytest -v runs the cart tests; pricing an unknown item raises KeyError and pytest exits 1",
    "pytest -v",
    files=CART,
    expect=1,
    confirm=r"KeyError",
    group="fresh4-pytest-cart",
)

FLAKY = {
    "test_broker.py": dedent("""
        import os, sys, logging
        log = logging.getLogger("broker")

        def connect():
            marker = ".attempted"
            if not os.path.exists(marker):
                open(marker, "w").close()
                raise ConnectionError("broker unavailable: connection refused (127.0.0.1:5672)")
            return "connected"

        def test_publish():
            assert connect() == "connected"

        def test_other():
            assert 1 + 1 == 2
    """),
}
add(
    "pytest-rerunfailures-recovers",
    "pytest",
    "success_alarming_stderr",
    None,
    "pytest --reruns 2 reruns a test whose first broker connection is refused; the rerun passes and pytest exits 0 with '1 rerun'",
    "pytest -v --reruns 2 -rR",
    files=FLAKY,
    confirm=r"(?s)(?=.*RERUN)(?=.*2 passed, 1 rerun)",
)
HANG = {
    "test_slow.py": dedent("""
        import time

        def test_fast():
            assert sum(range(10)) == 45

        def test_waits_for_lock():
            while True:
                time.sleep(0.1)
    """),
}
add(
    "pytest-timeout-plugin-fails",
    "pytest",
    "failure_noisy_stderr",
    None,
    "pytest-timeout (--timeout=2) fails a test stuck waiting for a lock, dumping thread stacks; pytest exits 1",
    "pytest -q --timeout=2",
    files=HANG,
    expect=1,
    confirm=r"Timeout",
)
add(
    "pytest-cov-fail-under-piped",
    "pytest",
    "exit0_hidden_failure",
    None,
    "pytest --cov-fail-under=90 output is piped through sed to prefix lines; coverage is below 90% so pytest fails, and the pipe exits 0",
    "pytest -q --cov=cart --cov-report=term-missing --cov-fail-under=90 test_cov.py 2>&1 | sed 's/^/[tests] /'",
    files={
        "cart.py": CART["cart.py"]
        + "\ndef unused_a(x):\n    if x:\n        return 1\n    return 2\n\ndef unused_b(y):\n    return [i for i in range(y)]\n",
        "test_cov.py": "from cart import reserve\n\ndef test_one():\n    assert reserve('apple', 1) == 2\n",
    },
    confirm=r"FAIL Required test coverage of 90% not reached",
)
add(
    "pytest-cov-report-ok",
    "pytest",
    "plain_success",
    None,
    "pytest with pytest-cov runs the cart tests that pass and prints a coverage table above the 50% threshold",
    "pytest -q --cov=cart --cov-fail-under=50 test_cart.py -k 'not unknown'",
    files=CART,
    confirm=r"3 passed",
)
add(
    "pytest-logs-retries-warning-pass",
    "pytest",
    "success_alarming_stderr",
    None,
    "pytest -o log_cli=true shows a retry helper logging WARNING/ERROR for two failed attempts before its third succeeds; the test passes",
    "pytest -q -o log_cli=true -o log_cli_level=WARNING",
    files={
        "test_retry.py": dedent("""
            import logging
            log = logging.getLogger("sync")

            def fetch_with_retry(fn, tries=3):
                for n in range(1, tries + 1):
                    try:
                        return fn()
                    except TimeoutError as e:
                        level = logging.ERROR if n == tries - 1 else logging.WARNING
                        log.log(level, "attempt %d failed: %s", n, e)
                raise RuntimeError("gave up")

            def test_recovers_on_third_attempt():
                calls = []
                def flaky():
                    calls.append(1)
                    if len(calls) < 3:
                        raise TimeoutError("upstream timed out after 5s")
                    return "payload"
                assert fetch_with_retry(flaky) == "payload"
        """),
    },
    confirm=r"(?s)(?=.*ERROR.*attempt 2 failed)(?=.*1 passed)",
)
add(
    "pytest-sed-prefix-loop-files",
    "pytest",
    "exit0_hidden_failure",
    None,
    "a loop runs pytest per test file so each gets its own report; the first file fails, the last one passes and the loop exits 0",
    'for f in tests/test_*.py; do echo "== $f"; pytest -q "$f"; done',
    files={
        "tests/test_a_parse.py": "import json\n\ndef test_parse():\n    assert json.loads('{\"a\": 1}') == {'a': 2}\n",
        "tests/test_b_misc.py": "def test_ok():\n    assert True\n",
    },
    confirm=r"FAILED tests/test_a_parse.py::test_parse",
)

# --- unittest ------------------------------------------------------------------------------------

add(
    "unittest-discover-wrong-pattern",
    "unittest",
    "exit0_hidden_failure",
    None,
    "unittest discover runs with -p '*_test.py' while the tests are named test_*.py; it runs 0 tests and (Python 3.11) exits 0",
    "python3 -m unittest discover -s tests -p '*_test.py' -v",
    files={
        "tests/__init__.py": "",
        "tests/test_money.py": "import unittest\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(1 + 1, 2)\n",
    },
    confirm=r"Ran 0 tests",
)
add(
    "unittest-assertlogs-errors-pass",
    "unittest",
    "success_alarming_stderr",
    None,
    "unittest -v runs tests of an importer whose rejected rows log ERROR to stderr (not captured by assertLogs in one test); all tests pass",
    "python3 -m unittest -v test_importer",
    files={
        "importer.py": dedent("""
            import logging, sys
            logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
            log = logging.getLogger("importer")

            def load(rows):
                good = []
                for i, r in enumerate(rows):
                    try:
                        good.append(int(r))
                    except ValueError:
                        log.error("row %d rejected: invalid literal %r", i, r)
                return good
        """),
        "test_importer.py": dedent("""
            import unittest
            from importer import load

            class ImporterTest(unittest.TestCase):
                def test_bad_rows_are_skipped(self):
                    self.assertEqual(load(["1", "x", "3"]), [1, 3])

                def test_error_logged(self):
                    with self.assertLogs("importer", level="ERROR") as cm:
                        load(["oops"])
                    self.assertIn("rejected", cm.output[0])
        """),
    },
    confirm=r"(?s)(?=.*ERROR importer: row 1 rejected)(?=.*\nOK)",
)
add(
    "unittest-timeout-killed",
    "unittest",
    "killed_signalled",
    None,
    "a unittest suite with a test that deadlocks on a queue is killed by 'timeout -s KILL 3'",
    "timeout -s KILL 3 python3 -m unittest -v test_queue",
    files={
        "test_queue.py": "import unittest, queue\n\nclass Q(unittest.TestCase):\n    def test_fast(self):\n        self.assertTrue(True)\n    def test_get_blocks(self):\n        queue.Queue().get()\n"
    },
    expect="SIGKILL",
)
add(
    "unittest-expected-failure-unexpected-success",
    "unittest",
    "plain_failure",
    None,
    "a test marked @expectedFailure now passes; unittest reports an unexpected success and (3.11) exits 1",
    "python3 -m unittest -v test_bug",
    files={
        "test_bug.py": "import unittest\n\nclass Bug(unittest.TestCase):\n    @unittest.expectedFailure\n    def test_known_rounding_bug(self):\n        self.assertEqual(round(2.675, 2), round(2.675, 2))\n"
    },
    expect=1,
    confirm=r"unexpected success",
)

# --- python3 scripts -----------------------------------------------------------------------------

add(
    "python3-etl-rejects-within-tolerance",
    "python3",
    "success_alarming_stderr",
    None,
    "a CSV load job logs each malformed row as ERROR and a traceback for one, but 3 of 200 rejected is under its 5% tolerance; it loads the rest and exits 0",
    "python3 load.py",
    files={
        "load.py": dedent("""
            import csv, io, logging, sqlite3, sys
            logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
            log = logging.getLogger("etl")
            rows = ["id,amount"] + [f"{i},{i * 1.5}" for i in range(197)] + ["198,N/A", "199,", "x,3"]
            db = sqlite3.connect("w.db")
            db.execute("create table t(id int, amount real)")
            bad = 0
            for n, r in enumerate(csv.DictReader(io.StringIO("\\n".join(rows)))):
                try:
                    db.execute("insert into t values (?, ?)", (int(r["id"]), float(r["amount"])))
                except ValueError:
                    bad += 1
                    if bad == 1:
                        log.exception("row %d rejected", n)
                    else:
                        log.error("row %d rejected: %r", n, r)
            db.commit()
            total = db.execute("select count(*) from t").fetchone()[0]
            rate = bad / (total + bad)
            log.info("loaded %d rows, rejected %d (%.1f%%, tolerance 5%%)", total, bad, rate * 100)
            sys.exit(1 if rate > 0.05 else 0)
        """),
    },
    confirm=r"(?s)(?=.*Traceback)(?=.*loaded 197 rows, rejected 3)",
)
add(
    "python3-etl-tolerance-exceeded-logged",
    "python3",
    "exit0_hidden_failure",
    None,
    "a nightly job computes that 40% of rows were rejected, logs 'tolerance exceeded, aborting load' and returns from main without a non-zero exit; nothing was loaded",
    "python3 job.py",
    files={
        "job.py": dedent("""
            import logging
            logging.basicConfig(level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s")
            log = logging.getLogger("nightly")

            def main():
                rows = ["1", "2", "x", "4", "y", "z", "7", "8", "q", "10"]
                bad = [r for r in rows if not r.isdigit()]
                rate = len(bad) / len(rows)
                if rate > 0.05:
                    log.error("rejected %d/%d rows (%.0f%%): tolerance exceeded, aborting load", len(bad), len(rows), rate * 100)
                    return 2
                log.info("loaded")

            if __name__ == "__main__":
                main()
        """),
    },
    confirm=r"tolerance exceeded, aborting load",
)
add(
    "python3-http-server-start-stop",
    "python3",
    "success_alarming_stderr",
    None,
    "a smoke script starts http.server in the background, fetches the index and probes a missing favicon (logged as a 404 by the server), then stops it; the index was served",
    "python3 -m http.server 0 --bind 127.0.0.1 > server.log 2>&1 & pid=$!; sleep 1; port=$(grep -o 'port [0-9]*' server.log | cut -d' ' -f2); curl -s http://127.0.0.1:$port/index.html; curl -s -o /dev/null http://127.0.0.1:$port/favicon.ico; kill $pid; wait $pid; cat server.log >&2; echo 'smoke test passed'",
    files={"index.html": "<h1>docs build</h1>\n"},
    env={"PYTHONUNBUFFERED": "1"},
    confirm=r"(?s)(?=.*code 404, message File not found)(?=.*docs build)(?=.*smoke test passed)",
)
add(
    "python3-concurrent-futures-exception-unread",
    "python3",
    "exit0_hidden_failure",
    None,
    "a thumbnailer submits jobs to a ThreadPoolExecutor and never reads the futures; every job raises and the script prints 'all jobs submitted' and exits 0",
    "python3 thumbs.py; ls thumbs | wc -l",
    files={
        "thumbs.py": dedent("""
            import os
            from concurrent.futures import ThreadPoolExecutor
            os.makedirs("thumbs", exist_ok=True)

            def resize(name):
                raise OSError(f"cannot identify image file {name!r}")

            with ThreadPoolExecutor(4) as ex:
                futures = [ex.submit(resize, f"img{i}.png") for i in range(5)]
            print("all jobs submitted, done:", sum(f.done() for f in futures))
            for f in futures:
                if f.exception():
                    print("job error:", f.exception())
        """),
    },
    confirm=r"job error: cannot identify image file",
)
add(
    "python3-migrate-already-applied",
    "python3",
    "success_alarming_stderr",
    None,
    "a migration runner re-runs against a database that has migration 1 applied: sqlite raises 'table already exists', which it logs as a warning and skips, then applies migration 2",
    "python3 migrate.py && sqlite3 app.db '.tables'",
    setup="sqlite3 app.db 'create table users(id integer primary key, name text); create table _migrations(n int); insert into _migrations values (1);'",
    files={
        "migrate.py": dedent("""
            import sqlite3, sys
            db = sqlite3.connect("app.db")
            MIGRATIONS = [
                "create table users(id integer primary key, name text)",
                "create table orders(id integer primary key, user_id int references users(id))",
            ]
            for n, sql in enumerate(MIGRATIONS, 1):
                try:
                    db.execute(sql)
                    db.execute("insert into _migrations values (?)", (n,))
                    print(f"applied migration {n}")
                except sqlite3.OperationalError as e:
                    print(f"WARNING: migration {n} failed: sqlite3.OperationalError: {e} -- assuming already applied, skipping", file=sys.stderr)
            db.commit()
        """),
    },
    needs=("python3", "sqlite3"),
    confirm=r"(?s)(?=.*OperationalError: table users already exists)(?=.*applied migration 2)(?=.*orders)",
)
add(
    "python3-argparse-error-in-script-wrapper",
    "python3",
    "exit0_hidden_failure",
    None,
    "a deploy wrapper calls a Python CLI with a misspelled option through os.system and ignores its status; argparse rejects the option and the wrapper prints 'deploy step finished'",
    "python3 wrapper.py",
    files={
        "cli.py": "import argparse\np = argparse.ArgumentParser(prog='release')\np.add_argument('--tag', required=True)\na = p.parse_args()\nprint('released', a.tag)\n",
        "wrapper.py": "import os\nos.system('python3 cli.py --tga v1.2.0')\nprint('deploy step finished')\n",
    },
    confirm=r"release: error: the following arguments are required: --tag|unrecognized arguments",
)
add(
    "python3-keyboardinterrupt-sigint",
    "python3",
    "killed_signalled",
    None,
    "a long-running indexer is interrupted by SIGINT from its supervisor (timeout -s INT 2); Python prints KeyboardInterrupt and the run ends by the signal",
    [
        "timeout",
        "-s",
        "INT",
        "2",
        "python3",
        "-c",
        "import time\nprint('indexing', flush=True)\nwhile True: time.sleep(0.1)",
    ],
    expect=124,
)
add(
    "python3-recursion-json-dump-fails",
    "python3",
    "plain_failure",
    None,
    "a script serialises a self-referencing dict with json.dumps; it raises ValueError: Circular reference detected and exits 1",
    "python3 -c \"import json; d = {'name': 'cfg'}; d['self'] = d; print(json.dumps(d))\"",
    expect=1,
    confirm=r"Circular reference detected",
)
add(
    "python3-verbose-debug-then-oserror",
    "python3",
    "failure_noisy_stderr",
    None,
    "a sync job logs hundreds of DEBUG lines about files it checked and then dies with PermissionError writing its state file",
    "python3 sync.py",
    setup="mkdir -p ro && chmod 555 ro",
    files={
        "sync.py": dedent("""
            import logging, os
            logging.basicConfig(level=logging.DEBUG, format="%(asctime)s %(levelname)-5s %(name)s %(message)s")
            log = logging.getLogger("sync")
            for i in range(400):
                log.debug("checked file src/pkg/module_%03d.py mtime unchanged, skip", i)
            os.setuid(65534) if os.getuid() == 0 else None
            with open("ro/state.json", "w") as fh:
                fh.write("{}")
        """),
    },
    expect=1,
    confirm=r"PermissionError",
)
add(
    "python3-warnings-filter-error-ok",
    "python3",
    "success_alarming_stderr",
    None,
    "a report script triggers a pandas-style FutureWarning and a DeprecationWarning under -W default; both print to stderr and the report is written",
    "python3 -W default report.py && cat report.txt",
    files={
        "report.py": dedent("""
            import warnings
            def old_api(): warnings.warn("old_api() is deprecated and will raise an error in 3.0; use new_api()", DeprecationWarning, stacklevel=2)
            warnings.warn("Downcasting behavior in replace is deprecated and will be removed in a future version", FutureWarning)
            old_api()
            open("report.txt", "w").write("rows=42 status=complete\\n")
        """),
    },
    confirm=r"(?s)(?=.*DeprecationWarning)(?=.*rows=42 status=complete)",
)
add(
    "python3-subprocess-run-output-only",
    "python3",
    "exit0_hidden_failure",
    None,
    "a release script captures 'git describe' with subprocess.run(capture_output=True) and prints its stderr as a note; git fails (no tags) and the script writes an empty version and exits 0",
    "git init -q . && python3 version.py && cat VERSION",
    files={
        "version.py": "import subprocess\nr = subprocess.run(['git', 'describe', '--tags'], capture_output=True, text=True)\nprint('note:', r.stderr.strip())\nopen('VERSION', 'w').write(r.stdout.strip() + '\\n')\nprint('wrote VERSION')\n",
    },
    needs=("python3", "git"),
    confirm=r"fatal: No names found|cannot describe anything",
)
add(
    "python3-big-progress-stderr",
    "python3",
    "progress_on_stderr",
    "success",
    "a model-free data job prints tqdm-style progress to stderr with carriage returns while hashing 2000 chunks; it finishes and prints the digest",
    "python3 hash.py",
    files={
        "hash.py": dedent("""
            import hashlib, sys
            h = hashlib.sha256()
            for i in range(2000):
                h.update(str(i).encode() * 100)
                if i % 20 == 0:
                    pct = i * 100 // 2000
                    sys.stderr.write(f"\\rhashing: {pct:3d}%|{'#' * (pct // 5):<20}| {i}/2000 [00:00<00:00]")
            sys.stderr.write("\\rhashing: 100%|####################| 2000/2000\\n")
            print("digest", h.hexdigest())
        """),
    },
    confirm=r"digest [0-9a-f]{64}",
)
add(
    "python3-cp1252-source-output",
    "python3",
    "non_utf8",
    "success",
    "an export script writes a Windows-1252 CSV for a legacy system to stdout (bytes, not UTF-8) and reports the row count on stderr",
    "python3 export.py",
    files={
        "export.py": "import sys\nrows = ['Müller;5,00 €', 'Jürgen;“quoted”;3']\nfor r in rows:\n    sys.stdout.buffer.write(r.encode('cp1252') + b'\\r\\n')\nprint(f'exported {len(rows)} rows as cp1252', file=sys.stderr)\n"
    },
    confirm=r"exported 2 rows",
)
add(
    "python3-colour-rich-log-fail",
    "python3",
    "coloured_output",
    "failure",
    "a CLI with ANSI-coloured log levels (FORCE_COLOR) fails to find its config file and exits 2",
    "python3 cli.py",
    env={"FORCE_COLOR": "1"},
    files={
        "cli.py": "import os, sys\nC = {'INFO': '\\x1b[32m', 'ERROR': '\\x1b[1;31m'} if os.environ.get('FORCE_COLOR') else {}\ndef log(l, m): print(f\"{C.get(l, '')}{l:<5}\\x1b[0m {m}\", file=sys.stderr)\nlog('INFO', 'loading settings')\nif not os.path.exists('settings.toml'):\n    log('ERROR', 'settings.toml not found; run `app init` first')\n    sys.exit(2)\n",
    },
    expect=2,
)

# --- pip -----------------------------------------------------------------------------------------

PKG = {
    "pyproject.toml": '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "fresh4demo"\nversion = "0.1.0"\n\n[tool.setuptools]\npackages = ["fresh4demo"]\n',
    "fresh4demo/__init__.py": "VERSION = '0.1.0'\n",
}
add(
    "pip-install-no-build-isolation-ok",
    "pip",
    "success_alarming_stderr",
    None,
    "an idempotent setup script installs a local project into a target dir twice; the second run warns that the target directory already exists and the package stays installed",
    "pip install -q --no-build-isolation --no-deps --target site . && pip install --no-build-isolation --no-deps --target site . && ls site",
    files=PKG,
    confirm=r"(?s)(?=.*WARNING: Target directory)(?=.*fresh4demo-0.1.0.dist-info)",
)
add(
    "pip-install-requirements-loop-continue",
    "pip",
    "exit0_hidden_failure",
    None,
    "a setup script installs requirements one per line in a loop (so one bad pin does not stop the rest); the unavailable package fails and the loop exits 0",
    'while read -r req; do pip install --no-deps --target site "$req" || echo "skip $req"; done < requirements.txt',
    files={**PKG, "requirements.txt": "./\nrequests-nonexistent-fresh4==9.9\n"},
    confirm=r"No matching distribution found for requests-nonexistent-fresh4",
)
add(
    "pip-check-clean",
    "pip",
    "plain_success",
    None,
    "pip check in a freshly created venv finds no broken requirements",
    "python3 -m venv v && v/bin/pip check",
    confirm=r"No broken requirements found",
)
add(
    "pip-freeze-grep-missing",
    "pip",
    "plain_failure",
    None,
    "a CI guard asserts that 'pip freeze | grep -i ^django-debug-toolbar' finds the package; it is not installed and grep exits 1",
    "pip freeze | grep -i '^django-debug-toolbar'",
    expect=1,
)
add(
    "pip-wheel-bad-pyproject",
    "pip",
    "failure_noisy_stderr",
    None,
    "pip install -v asks a local wheel directory for fresh4demo>=2 while only 0.1.0 is there; after a long verbose log pip finds no matching version and exits 1",
    "pip install -v --no-index --find-links wheels --target site 'fresh4demo>=2'",
    setup="pip wheel -q --no-build-isolation --no-deps -w wheels .",
    files=PKG,
    expect=1,
    confirm=r"Could not find a version that satisfies",
)

# --- ruff / black / mypy / pylint / flake8 / coverage --------------------------------------------

add(
    "ruff-rule-docs",
    "ruff",
    "success_alarming_stderr",
    None,
    "an agent looks up what rule F821 means with 'ruff rule F821'; ruff prints its documentation about undefined names and errors, exits 0",
    "ruff rule F821",
    confirm=r"(?s)(?=.*undefined)(?=.*## What it does)",
)
add(
    "ruff-check-select-all-count-zero",
    "ruff",
    "success_alarming_stderr",
    None,
    "ruff check --statistics on a clean module with the E/F/W/B rules; it prints 'All checks passed!' and exits 0 on a file named errors.py",
    "ruff check --select E,F,W,B errors.py && echo 'lint ok'",
    files={
        "errors.py": 'class ValidationError(Exception):\n    """Raised when a field fails validation."""\n\n\ndef fail(msg: str) -> None:\n    raise ValidationError(msg)\n'
    },
    confirm=r"(?s)(?=.*All checks passed)(?=.*lint ok)",
)
add(
    "ruff-fix-diff-only",
    "ruff",
    "exit0_hidden_failure",
    None,
    "the format step runs 'ruff check --fix --diff ... ; exit 0': it only shows the fixes it would make (nothing is written) and the check that found issues is ignored",
    "ruff check --select F401,I --fix --diff app.py; exit 0",
    files={"app.py": "import sys\nimport os\nimport json\n\nprint(json.dumps({}))\n"},
    confirm=r"Would fix|^-import",
)
add(
    "black-check-quiet-or-format",
    "black",
    "success_alarming_stderr",
    None,
    "the formatter step runs 'black --check || black': the check reports 'would reformat', then black reformats the file and the step exits 0 with formatted code",
    "black --check app.py || black app.py; black --check app.py",
    files={"app.py": "def f( a,b ):\n  return {'a':a,'b':b}\n"},
    confirm=r"(?s)(?=.*would reformat app.py)(?=.*reformatted app.py)(?=.*1 file would be left unchanged)",
)
add(
    "black-target-version-syntax-error",
    "black",
    "plain_failure",
    None,
    "black --target-version py38 is asked to format a module that uses a match statement; it cannot parse it and exits 123",
    "black --target-version py38 --check route.py",
    files={
        "route.py": "def route(cmd):\n    match cmd:\n        case 'go':\n            return 1\n        case _:\n            return 0\n"
    },
    expect=123,
)
add(
    "mypy-ignore-missing-imports-notes",
    "mypy",
    "success_alarming_stderr",
    None,
    "mypy --strict checks a typed module with two 'type: ignore' comments that carry error codes and a reveal_type note; it prints notes and 'Success: no issues found'",
    "mypy --strict --warn-unused-ignores typed.py",
    files={
        "typed.py": "from typing import Any\nimport json\n\ndef load(s: str) -> dict[str, Any]:\n    data: dict[str, Any] = json.loads(s)\n    return data\n\nreveal_type(load)\n"
    },
    confirm=r"(?s)(?=.*note: Revealed type)(?=.*Success: no issues found)",
)
add(
    "mypy-errors-xargs-per-file",
    "mypy",
    "exit0_hidden_failure",
    None,
    "a script type-checks each changed file with 'xargs -n1 sh -c \"mypy $0 || true\"'; one file has an incompatible return type and the step exits 0",
    "printf 'a.py\\nb.py\\n' | xargs -n1 sh -c 'mypy --no-error-summary \"$0\" || true'",
    files={
        "a.py": "def n() -> int:\n    return 'one'\n",
        "b.py": "def m() -> int:\n    return 1\n",
    },
    confirm=r"error: Incompatible return value type",
)
add(
    "mypy-install-types-noninteractive-offline",
    "mypy",
    "failure_noisy_stderr",
    None,
    "mypy --install-types --non-interactive tries to pip-install stub packages offline; pip cannot reach an index and mypy exits 1",
    "mypy --install-types --non-interactive uses_yaml.py",
    files={
        "uses_yaml.py": "import yaml\nimport requests\nprint(yaml.safe_load('a: 1'), requests.__name__)\n"
    },
    expect="nonzero",
)
add(
    "pylint-help-msg-docs",
    "pylint",
    "success_alarming_stderr",
    None,
    "an agent asks pylint to explain W0718 (broad-exception-caught); pylint prints the message description about catching Exception and exits 0",
    "pylint --help-msg=W0718",
    confirm=r"(?s)(?=.*broad-exception-caught)(?=.*hide bugs)",
)
add(
    "pylint-fail-under-met-warnings",
    "pylint",
    "success_alarming_stderr",
    None,
    "pylint --fail-under=6 reports a broad-except warning and a too-many-arguments refactor message but the score clears 6; exit 0",
    "pylint --fail-under=6 --disable=C svc.py",
    files={
        "svc.py": "import logging\nlog = logging.getLogger(__name__)\n\n\ndef run(a, b, c, d, e, f):\n    try:\n        return a + b + c + d + e + f\n    except Exception:\n        log.exception('sum failed')\n        return None\n"
    },
    confirm=r"(?s)(?=.*broad-exception-caught)(?=.*rated at)",
)
add(
    "flake8-output-file-ignored",
    "flake8",
    "exit0_hidden_failure",
    None,
    "flake8 writes its report to --output-file and the step then prints the file's line count with '; wc -l'; flake8 found errors and the step exits 0",
    "flake8 --output-file=flake8.txt src; wc -l flake8.txt; cat flake8.txt",
    files={"src/m.py": "import os, sys\ndef f(x):\n    return undefined_name + x\n"},
    confirm=r"F821 undefined name",
)
add(
    "flake8-select-clean-benchmark",
    "flake8",
    "plain_success",
    None,
    "flake8 --count on a clean package prints 0 and exits 0",
    "flake8 --count pkg",
    files={"pkg/__init__.py": "", "pkg/core.py": "def add(a, b):\n    return a + b\n"},
    confirm=r"^0\s*$",
)
add(
    "coverage-erase-run-failing-script-report",
    "coverage",
    "exit0_hidden_failure",
    None,
    "a coverage step 'coverage run app.py; coverage report' measures a script that crashes with ZeroDivisionError; the report prints and the step exits 0",
    "coverage run app.py; coverage report -m",
    files={"app.py": "def ratio(a, b):\n    return a / b\n\nprint(ratio(3, 0))\n"},
    confirm=r"ZeroDivisionError",
)
