"""Sixth fresh batch (ids ``fresh6-*``): new scenarios for the Python tools (pytest and plugins,
unittest, python3 scripts and data jobs, pip, ruff, mypy/dmypy/stubgen, pre-commit-hooks' fixers,
virtualenv, pybabel, diff-cover, tomlq, csvkit)."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh6")


CONF = {"conftest.py": "import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n"}

# --- pytest --------------------------------------------------------------------------------------

SLUG = {
    **CONF,
    "slug.py": dedent("""
        import re, unicodedata

        def slugify(text):
            text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
            return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    """),
    "tests/test_slug.py": dedent("""
        from hypothesis import given, settings, strategies as st
        from slug import slugify

        def test_basic():
            assert slugify("Hello, World!") == "hello-world"

        @settings(max_examples=300, deadline=None, database=None)
        @given(st.text())
        def test_slug_never_empty(s):
            assert slugify(s) != ""
    """),
}
add(
    "pytest-hypothesis-falsifying-example",
    "pytest",
    "failure_noisy_stderr",
    None,
    "a hypothesis property says a slug is never empty; hypothesis shrinks a falsifying example (the empty string) and pytest exits 1",
    "pytest -q -p no:cacheprovider tests",
    files=SLUG,
    expect=1,
    confirm=r"Failing test case",
    group="fresh6-pytest-slug",
)
add(
    "pytest-hypothesis-known-flaky-echo",
    "pytest",
    "exit0_hidden_failure",
    None,
    "the agent's script marks the property suite 'known flaky' with || echo; the property test failed with a falsifying example and the step exits 0",
    "pytest -q -p no:cacheprovider tests || echo 'property tests are known flaky, not blocking'",
    files=SLUG,
    confirm=r"1 failed, 1 passed",
    group="fresh6-pytest-slug",
)

add(
    "pytest-teardown-error-tests-pass",
    "pytest",
    "plain_failure",
    None,
    "both tests pass but the tmp database fixture's teardown raises PermissionError; pytest reports 2 passed, 1 error and exits 1",
    "pytest -q -p no:cacheprovider",
    files={
        "test_db.py": dedent("""
            import pytest

            @pytest.fixture(scope="module")
            def db():
                conn = {"rows": []}
                yield conn
                raise PermissionError("cannot remove /var/lib/app/test.sqlite: read-only file system")

            def test_insert(db):
                db["rows"].append(1)
                assert db["rows"] == [1]

            def test_count(db):
                assert len(db["rows"]) == 1
        """),
    },
    expect=1,
    confirm=r"2 passed, 1 error",
)
add(
    "pytest-timeout-thread-dump",
    "pytest",
    "failure_noisy_stderr",
    None,
    "pytest-timeout (thread method) stops a test stuck on a lock after 1s and dumps every thread's stack; the run exits non-zero",
    "pytest -q -p no:cacheprovider --timeout=1 --timeout-method=thread",
    files={
        "test_lock.py": dedent("""
            import threading

            lock = threading.Lock()

            def worker():
                with lock:
                    threading.Event().wait(30)

            def test_fast():
                assert 1 + 1 == 2

            def test_waits_for_worker():
                t = threading.Thread(target=worker, daemon=True)
                t.start()
                threading.Event().wait(0.1)
                with lock:
                    pass
        """),
    },
    timeout=30,
    confirm=r"Timeout",
)
add(
    "pytest-stderr-logging-in-code-passes",
    "pytest",
    "success_alarming_stderr",
    None,
    "pytest -s runs a retry helper whose code under test writes 'ERROR: upstream 503' lines to stderr before succeeding; all 3 tests pass",
    "pytest -s -q -p no:cacheprovider",
    files={
        "retry.py": dedent("""
            import sys

            def call_with_retry(fn, attempts=3):
                for i in range(1, attempts + 1):
                    try:
                        return fn()
                    except ConnectionError as exc:
                        print(f"ERROR: attempt {i}/{attempts} failed: {exc}", file=sys.stderr)
                raise ConnectionError("all attempts failed")
        """),
        "test_retry.py": dedent("""
            import pytest
            from retry import call_with_retry

            def flaky(n):
                state = {"left": n}
                def fn():
                    if state["left"]:
                        state["left"] -= 1
                        raise ConnectionError("upstream 503 Service Unavailable")
                    return "ok"
                return fn

            def test_recovers():
                assert call_with_retry(flaky(2)) == "ok"

            def test_first_try():
                assert call_with_retry(flaky(0)) == "ok"

            def test_gives_up():
                with pytest.raises(ConnectionError, match="all attempts failed"):
                    call_with_retry(flaky(5))
        """),
        **CONF,
    },
    confirm=r"(?s)(?=.*ERROR: attempt 1/3 failed)(?=.*3 passed)",
)
add(
    "pytest-loop-packages-last-passes",
    "pytest",
    "exit0_hidden_failure",
    None,
    "a monorepo script runs pytest per package in a for loop without checking each status; the first package's test fails and the last package passes",
    'for pkg in billing shipping; do echo "== $pkg"; (cd packages/$pkg && pytest -q -p no:cacheprovider); done',
    files={
        "packages/billing/test_billing.py": "def test_rounding():\n    assert round(2.675, 2) == 2.68\n",
        "packages/shipping/test_shipping.py": "def test_zones():\n    assert sorted({'eu', 'us'}) == ['eu', 'us']\n",
    },
    confirm=r"1 failed",
)
add(
    "pytest-pipestatus-printed-not-used",
    "pytest",
    "exit0_hidden_failure",
    None,
    "the step tees pytest into a log and prints ${PIPESTATUS[0]} for the record without exiting with it; a test failed",
    'pytest -q -p no:cacheprovider | tee pytest.log; echo "pytest exit status: ${PIPESTATUS[0]}"',
    files={
        "test_parse.py": dedent("""
            from datetime import date

            def parse(s):
                d, m, y = s.split("/")
                return date(int(y), int(m), int(d))

            def test_parse_eu():
                assert parse("31/12/2024") == date(2024, 12, 31)

            def test_parse_iso():
                assert parse("2024-12-31") == date(2024, 12, 31)
        """),
    },
    confirm=r"pytest exit status: 1",
)
add(
    "pytest-skipif-missing-dep-all-skipped",
    "pytest",
    "exit0_hidden_failure",
    None,
    "the agent runs the suite to verify its fix of the parser, but every test skips via importorskip on a missing module; nothing was tested and pytest exits 0",
    "pytest -q -rs -p no:cacheprovider",
    files={
        "test_toml_fix.py": dedent("""
            import pytest

            def test_roundtrip():
                tomlkit = pytest.importorskip("tomlkit_not_installed")
                assert tomlkit.dumps(tomlkit.parse("a = 1")) == "a = 1"

            def test_comments_kept():
                tomlkit = pytest.importorskip("tomlkit_not_installed")
                assert "# c" in tomlkit.dumps(tomlkit.parse("# c\\na = 1"))
        """),
    },
    confirm=r"2 skipped",
)

# --- unittest ------------------------------------------------------------------------------------

add(
    "unittest-main-exit-false",
    "unittest",
    "exit0_hidden_failure",
    None,
    "the test script calls unittest.main(exit=False) and then prints 'tests done'; a test failed and the script exits 0",
    "python3 test_cart.py",
    files={
        "test_cart.py": dedent("""
            import unittest

            class Cart:
                def __init__(self):
                    self.items = {}
                def add(self, sku, qty=1):
                    self.items[sku] = qty
                def count(self):
                    return sum(self.items.values())

            class CartTest(unittest.TestCase):
                def test_add_twice_accumulates(self):
                    c = Cart(); c.add("a"); c.add("a")
                    self.assertEqual(c.count(), 2)
                def test_empty(self):
                    self.assertEqual(Cart().count(), 0)

            if __name__ == "__main__":
                unittest.main(exit=False)
                print("tests done")
        """),
    },
    confirm=r"FAILED \(failures=1\)",
)
add(
    "unittest-expected-failure-and-skips-ok",
    "unittest",
    "success_alarming_stderr",
    None,
    "unittest -v runs a suite with a known expectedFailure and a skipped Windows-only test; the rest pass and the run is OK",
    "python3 -m unittest -v",
    files={
        "test_paths.py": dedent("""
            import os, sys, unittest

            class Paths(unittest.TestCase):
                def test_join(self):
                    self.assertEqual(os.path.join("a", "b"), "a/b")

                @unittest.expectedFailure
                def test_unicode_normalisation_bug_1234(self):
                    self.assertEqual("e\\u0301", "\\u00e9")

                @unittest.skipUnless(sys.platform == "win32", "Windows only")
                def test_drive_letters(self):
                    self.assertTrue(os.path.splitdrive("C:/x")[0])
        """),
    },
    confirm=r"(?s)(?=.*expected failure)(?=.*OK \(skipped=1, expected failures=1\))",
)

# --- python3 scripts and data jobs ---------------------------------------------------------------

add(
    "python-etl-skips-bad-rows-ok",
    "python3",
    "success_alarming_stderr",
    None,
    "an ETL job is built to skip and log malformed rows; it logs two WARNING lines with ValueError and loads the 4 valid rows into sqlite",
    "python3 etl.py && sqlite3 out.db 'select count(*) from sales'",
    files={
        "sales.csv": "day,amount\n2024-01-01,10.5\n2024-01-02,n/a\n2024-01-03,7\n2024-01-04,\n2024-01-05,3.25\n2024-01-06,1\n",
        "etl.py": dedent("""
            import csv, logging, sqlite3
            logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
            log = logging.getLogger("etl")
            db = sqlite3.connect("out.db")
            db.execute("create table sales(day text, amount real)")
            ok = 0
            with open("sales.csv") as f:
                for n, row in enumerate(csv.DictReader(f), start=2):
                    try:
                        db.execute("insert into sales values (?, ?)", (row["day"], float(row["amount"])))
                        ok += 1
                    except ValueError as exc:
                        log.warning("line %d skipped: ValueError: %s", n, exc)
            db.commit()
            log.info("loaded %d rows", ok)
        """),
    },
    needs=("python3", "sqlite3"),
    confirm=r"(?s)(?=.*ValueError: could not convert)(?=.*loaded 4 rows)",
)
add(
    "python-sqlite-migration-caught-prints",
    "python3",
    "exit0_hidden_failure",
    None,
    "a migration script wraps its ALTER TABLE in try/except that prints the error and falls through to 'migrations complete'; the column was never added",
    "python3 migrate.py",
    files={
        "migrate.py": dedent("""
            import sqlite3
            db = sqlite3.connect("app.db")
            db.execute("create table users(id integer primary key, name text)")
            steps = ["alter table user add column email text", "create index ix_users_name on users(name)"]
            for i, sql in enumerate(steps, 1):
                try:
                    db.execute(sql)
                    print(f"step {i}: ok")
                except sqlite3.Error as exc:
                    print(f"step {i}: {type(exc).__name__}: {exc}")
            db.commit()
            print("migrations complete")
        """),
    },
    confirm=r"no such table: user",
)
add(
    "python-atexit-flush-raises",
    "python3",
    "exit0_hidden_failure",
    None,
    "a report job buffers results and writes them in an atexit hook; the hook raises (the output dir is missing), Python logs it and still exits 0 with no report",
    "python3 report.py && echo 'report job finished'",
    files={
        "report.py": dedent("""
            import atexit, json
            results = []

            @atexit.register
            def flush():
                with open("reports/summary.json", "w") as f:
                    json.dump(results, f)

            for n in range(5):
                results.append({"n": n, "sq": n * n})
            print(f"computed {len(results)} results")
        """),
    },
    confirm=r"Exception ignored in atexit callback",
)
add(
    "python-head-brokenpipe-ok",
    "python3",
    "success_alarming_stderr",
    None,
    "the agent previews the first lines of a generated listing with | head -3; the generator gets BrokenPipeError when head closes the pipe, the preview is complete",
    "python3 -c \"import sys\nfor i in range(200000): print(f'row {i}: ok')\" | head -3",
    confirm=r"(?s)(?=.*BrokenPipeError)(?=.*row 2: ok)",
)
add(
    "python-excepthook-still-exits-1",
    "python3",
    "plain_failure",
    None,
    "a CLI installs a sys.excepthook that prints a one-line 'fatal:' message; the config file is missing and Python still exits 1",
    "python3 cli.py",
    files={
        "cli.py": dedent("""
            import sys, json
            def hook(tp, val, tb):
                print(f"fatal: {tp.__name__}: {val}", file=sys.stderr)
            sys.excepthook = hook
            cfg = json.load(open("settings.json"))
            print(cfg["name"])
        """),
    },
    expect=1,
    confirm=r"fatal: FileNotFoundError",
)
add(
    "python-sigalrm-watchdog",
    "python3",
    "killed_signalled",
    None,
    "a batch script arms signal.alarm(1) as a watchdog with the default action; the stuck loop is killed by SIGALRM",
    [
        "python3",
        "-c",
        "import signal, time\nsignal.alarm(1)\nprint('processing batch', flush=True)\nwhile True: time.sleep(0.05)",
    ],
    expect="SIGALRM",
)
add(
    "python-ctypes-segv-faulthandler",
    "python3",
    "killed_signalled",
    None,
    "a script with faulthandler enabled dereferences a NULL pointer through ctypes; faulthandler prints the Python stack and the process dies of SIGSEGV",
    [
        "python3",
        "-X",
        "faulthandler",
        "-c",
        "import ctypes\ndef read_header(p):\n    return ctypes.string_at(p, 8)\nprint('reading header')\nread_header(16)",
    ],
    expect="SIGSEGV",
)
add(
    "python-recursion-deep-json",
    "python3",
    "failure_noisy_stderr",
    None,
    "a tree flattener recurses over a 5000-level nested JSON and dies of RecursionError with a long repeated traceback; exit 1",
    "python3 flatten.py",
    files={
        "flatten.py": dedent("""
            def nest(n):
                d = {}
                cur = d
                for i in range(n):
                    cur["child"] = {}
                    cur = cur["child"]
                return d

            def flatten(d, prefix=""):
                out = {}
                for k, v in d.items():
                    key = f"{prefix}.{k}" if prefix else k
                    if isinstance(v, dict):
                        out.update(flatten(v, key))
                    else:
                        out[key] = v
                return out

            print(len(flatten(nest(5000))))
        """),
    },
    expect=1,
    confirm=r"RecursionError",
)
add(
    "python-resourcewarning-unclosed-ok",
    "python3",
    "success_alarming_stderr",
    None,
    "a checksum job run with -W default writes its manifest; ResourceWarning 'unclosed file' lines appear on stderr and the manifest is complete",
    "python3 -W default manifest.py && cat MANIFEST",
    files={
        "a.txt": "alpha\n",
        "b.txt": "beta\n",
        "manifest.py": dedent("""
            import hashlib, glob
            lines = []
            for name in sorted(glob.glob("*.txt")):
                data = open(name, "rb").read()
                lines.append(f"{hashlib.sha256(data).hexdigest()[:12]}  {name}")
            with open("MANIFEST", "w") as f:
                f.write("\\n".join(lines) + "\\n")
            print(f"manifest written: {len(lines)} files")
        """),
    },
    confirm=r"(?s)(?=.*ResourceWarning: unclosed file)(?=.*manifest written: 2 files)",
)
add(
    "python-sqlite-locked-retry-ok",
    "python3",
    "success_alarming_stderr",
    None,
    "a writer retries while another connection holds the sqlite write lock; it logs 'database is locked' twice, then commits",
    "python3 writer.py",
    files={
        "writer.py": dedent("""
            import sqlite3, threading, time, logging
            logging.basicConfig(format="%(levelname)s %(message)s")
            a = sqlite3.connect("q.db", check_same_thread=False, timeout=0)
            a.execute("create table jobs(id integer)")
            a.commit()
            a.execute("begin immediate")
            threading.Timer(0.25, a.commit).start()
            b = sqlite3.connect("q.db", timeout=0)
            for attempt in range(1, 6):
                try:
                    b.execute("insert into jobs values (1)")
                    b.commit()
                    print(f"committed on attempt {attempt}")
                    break
                except sqlite3.OperationalError as exc:
                    logging.error("attempt %d: sqlite3.OperationalError: %s", attempt, exc)
                    time.sleep(0.15)
        """),
    },
    confirm=r"(?s)(?=.*database is locked)(?=.*committed on attempt)",
)
add(
    "python-json-tool-loop-last-valid",
    "python3",
    "exit0_hidden_failure",
    None,
    "a validation loop runs python3 -m json.tool on each fixture with '&& echo ok'; an early file is invalid, the last one is valid so the loop exits 0",
    'for f in fixtures/*.json; do python3 -m json.tool "$f" > /dev/null && echo "ok $f"; done',
    files={
        "fixtures/a_users.json": '{"users": [{"id": 1,}]}\n',
        "fixtures/b_roles.json": '{"roles": ["admin"]}\n',
    },
    confirm=r"Expecting property name",
)
add(
    "python-rich-traceback-colour",
    "python3",
    "coloured_output",
    "failure",
    "a CLI with rich's traceback handler (forced colour) fails to parse its YAML-ish config and exits 1 with a coloured traceback",
    "python3 app.py",
    files={
        "app.py": dedent("""
            from rich.console import Console
            from rich.traceback import install
            install(console=Console(stderr=True, force_terminal=True, width=100))

            def load(text):
                key, value = text.split("=")
                return {key.strip(): int(value)}

            load("workers = four")
        """),
    },
    expect=1,
)
add(
    "python-tqdm-resize-images-progress",
    "python3",
    "progress_on_stderr",
    "success",
    "a thumbnail job drives a tqdm bar on stderr over 300 items and writes its index file",
    "python3 job.py && wc -l index.txt",
    files={
        "job.py": dedent("""
            import time
            from tqdm import tqdm
            with open("index.txt", "w") as f:
                for i in tqdm(range(300), desc="thumbnails", mininterval=0, ncols=80):
                    time.sleep(0.002)
                    f.write(f"img_{i:04d}.png\\n")
            print("thumbnails done")
        """),
    },
    confirm=r"300 index.txt",
)
add(
    "python-latin1-log-grep-bytes",
    "python3",
    "non_utf8",
    "success",
    "a log triage script copies raw ERROR lines (latin-1 bytes) from a legacy log to stdout as bytes and counts them",
    "python3 triage.py",
    files={
        "legacy.log": "INFO d\xe9marrage\nERROR \xe9chec de connexion \xe0 la base\nINFO fin\nERROR d\xe9lai d\xe9pass\xe9\n".encode(
            "latin-1"
        ),
        "triage.py": dedent("""
            import sys
            n = 0
            for line in open("legacy.log", "rb"):
                if line.startswith(b"ERROR"):
                    sys.stdout.buffer.write(line)
                    n += 1
            print(f"{n} error lines", flush=True)
        """),
    },
    confirm=r"2 error lines",
)
add(
    "python-processpool-worker-killed",
    "python3",
    "failure_noisy_stderr",
    None,
    "a ProcessPoolExecutor worker is killed by the OOM-like SIGKILL it sends itself; the pool breaks with BrokenProcessPool and the job exits 1",
    "python3 pool.py",
    files={
        "pool.py": dedent("""
            import os, signal
            from concurrent.futures import ProcessPoolExecutor

            def render(n):
                if n == 3:
                    os.kill(os.getpid(), signal.SIGKILL)
                return n * n

            if __name__ == "__main__":
                with ProcessPoolExecutor(2) as ex:
                    print(list(ex.map(render, range(6))))
        """),
    },
    expect=1,
    confirm=r"BrokenProcessPool",
)
add(
    "python-find-py-compile-exec",
    "python3",
    "exit0_hidden_failure",
    None,
    "a syntax gate runs python3 -m py_compile through find -exec \\; which ignores each status; one module has a syntax error and find exits 0",
    "find src -name '*.py' -exec python3 -m py_compile {} \\; && echo 'syntax check passed'",
    files={
        "src/ok.py": "def f():\n    return 1\n",
        "src/broken.py": "def g(:\n    return 2\n",
    },
    confirm=r"(?s)(?=.*SyntaxError)(?=.*syntax check passed)",
)

# --- pip -----------------------------------------------------------------------------------------

add(
    "pip-uninstall-not-installed-ok",
    "pip",
    "success_alarming_stderr",
    None,
    "a cleanup step makes sure a stale package is gone with pip uninstall -y; pip warns it is not installed and exits 0, the goal holds",
    "pip uninstall -y left-pad-py && python3 -c \"import importlib.util as u; print('absent' if u.find_spec('left_pad_py') is None else 'present')\"",
    confirm=r"(?s)(?=.*WARNING: Skipping left-pad-py as it is not installed)(?=.*absent)",
)
add(
    "pip-wheel-local-no-isolation-ok",
    "pip",
    "success_alarming_stderr",
    None,
    "pip wheel -v builds a local package without build isolation; setuptools warns that a MANIFEST.in pattern matched no files and the wheel is written",
    "pip wheel -v --no-deps --no-build-isolation . -w dist 2>&1 && ls dist",
    files={
        "pyproject.toml": dedent("""
            [build-system]
            requires = ["setuptools>=61"]
            build-backend = "setuptools.build_meta"

            [project]
            name = "tinyutil"
            version = "0.1.0"
            license = {text = "MIT"}
            classifiers = ["License :: OSI Approved :: MIT License"]
        """),
        "tinyutil/__init__.py": "VERSION = '0.1.0'\n",
        "MANIFEST.in": "include CHANGES.rst\nrecursive-include tinyutil *.json\n",
    },
    timeout=60,
    confirm=r"(?s)(?=.*warning: no files found matching)(?=.*tinyutil-0\.1\.0-py3-none-any\.whl)",
)
add(
    "pip-install-req-missing-offline-or-true",
    "pip",
    "exit0_hidden_failure",
    None,
    "the agent installs the test requirements with '|| true' so the job continues; pip finds no distribution offline and nothing is installed",
    "pip install -r requirements-test.txt || true; echo 'requirements step finished'",
    files={"requirements-test.txt": "freezegun==1.5.1\nresponses>=0.25\n"},
    confirm=r"No matching distribution found",
)

# --- ruff / mypy / dmypy / stubgen ---------------------------------------------------------------

add(
    "ruff-add-noqa-baseline",
    "ruff",
    "success_alarming_stderr",
    None,
    "ruff check --add-noqa baselines the existing violations of a legacy module by writing noqa comments; it reports how many it added and exits 0",
    "ruff check --select F,E --add-noqa legacy.py && ruff check --select F,E legacy.py",
    files={
        "legacy.py": "import os, sys\n\ndef run(x):\n    if x == None:\n        return l\n    return x\n",
    },
    confirm=r"(?s)(?=.*Added \d+ noqa directive)(?=.*All checks passed)",
)
MYPY_SRC = {
    "app.py": dedent("""
        def parse_port(value: str) -> int:
            return value.split(":")[1]

        print(parse_port("localhost:8080"))
    """),
}
add(
    "dmypy-run-then-stop",
    "dmypy",
    "exit0_hidden_failure",
    None,
    "the agent checks types through the mypy daemon and stops it in the same command; dmypy run found an error but dmypy stop's status is the step's",
    "dmypy run -- app.py; dmypy stop",
    files=MYPY_SRC,
    timeout=60,
    confirm=r"Found 1 error",
    group="fresh6-dmypy-port",
)
add(
    "dmypy-run-error",
    "dmypy",
    "plain_failure",
    None,
    "dmypy run type-checks a module returning str where int is declared and exits 1 (the daemon is stopped afterwards by a trap)",
    "trap 'dmypy stop >/dev/null 2>&1' EXIT; dmypy run -- app.py",
    files=MYPY_SRC,
    timeout=60,
    expect=1,
    confirm=r"Incompatible return value type",
    group="fresh6-dmypy-port",
)
add(
    "stubgen-module-ok",
    "stubgen",
    "plain_success",
    None,
    "stubgen writes a .pyi stub for a small module into typings/",
    "stubgen geo.py -o typings && cat typings/geo.pyi",
    files={
        "geo.py": "def distance(a: tuple[float, float], b: tuple[float, float]) -> float:\n    return ((a[0]-b[0])**2 + (a[1]-b[1])**2) ** 0.5\n"
    },
    confirm=r"def distance",
)

# --- pre-commit-hooks' fixers, tomlq, csvkit -----------------------------------------------------

add(
    "end-of-file-fixer-fix-then-recheck",
    "end-of-file-fixer",
    "success_alarming_stderr",
    None,
    "the hook fixes missing final newlines (exits 1 and says 'Fixing'), the agent reruns it and the second pass is clean",
    "end-of-file-fixer README.md setup.cfg || end-of-file-fixer README.md setup.cfg && echo 'eof check clean'",
    files={"README.md": "# demo", "setup.cfg": "[metadata]\nname = demo\n\n\n"},
    confirm=r"(?s)(?=.*Fixing README.md)(?=.*eof check clean)",
)
add(
    "pretty-format-json-no-autofix-semicolon",
    "pretty-format-json",
    "exit0_hidden_failure",
    None,
    "the step runs pretty-format-json (without --autofix) and then 'echo formatted'; the file is not pretty-formatted, the check failed and nothing was changed",
    "pretty-format-json --indent 2 package.json; echo formatted",
    files={"package.json": '{"name":"x","version":"1.0.0","scripts":{"test":"jest"}}\n'},
    confirm=r"\+\+\+ package.json",
)
add(
    "tomlq-wrong-table-null",
    "tomlq",
    "exit0_hidden_failure",
    None,
    "a release script reads the version with tomlq from [tool.poetry], but the project uses [project]; tomlq prints null and the tag would be vnull",
    "v=$(tomlq -r '.tool.poetry.version' pyproject.toml); echo \"tagging release v$v\"",
    files={"pyproject.toml": '[project]\nname = "svc"\nversion = "2.3.1"\n'},
    confirm=r"tagging release vnull",
)
add(
    "csvjson-latin1-decode-error",
    "csvjson",
    "non_utf8",
    "failure",
    "csvjson converts a latin-1 export read as UTF-8; it fails on the encoding, the step dumps the file's first raw lines and exits 1",
    "csvjson customers.csv || { echo '--- first lines of customers.csv:'; head -3 customers.csv; exit 1; }",
    files={
        "customers.csv": "id,name,city\n1,Jos\xe9,M\xe1laga\n2,Fran\xe7ois,Besan\xe7on\n".encode(
            "latin-1"
        )
    },
    expect="nonzero",
)
add(
    "csvjson-latin1-encoding-ok",
    "csvjson",
    "plain_success",
    None,
    "csvjson converts the same latin-1 export with -e latin-1 to JSON",
    "csvjson -e latin-1 customers.csv",
    files={
        "customers.csv": "id,name,city\n1,Jos\xe9,M\xe1laga\n2,Fran\xe7ois,Besan\xe7on\n".encode(
            "latin-1"
        )
    },
    confirm=r"Besan",
)

# --- virtualenv, pybabel, diff-cover -------------------------------------------------------------

add(
    "virtualenv-create-ok",
    "virtualenv",
    "plain_success",
    None,
    "virtualenv creates a venv without seeding packages and the venv's python runs",
    "virtualenv --no-seed .venv && .venv/bin/python -c 'import sys; print(sys.prefix)'",
    timeout=60,
    confirm=r"\.venv",
)
BABEL = {
    "app/views.py": "from gettext import gettext as _\n\ndef hello():\n    return _('Hello')\n\ndef bye():\n    return _('Goodbye')\n",
    "babel.cfg": "[python: app/**.py]\n",
}
add(
    "pybabel-extract-progress",
    "pybabel",
    "progress_on_stderr",
    "success",
    "pybabel extract logs each file it scans on stderr and writes messages.pot",
    "pybabel extract -F babel.cfg -o messages.pot . && grep -c msgid messages.pot",
    files=BABEL,
    confirm=r"extracting messages from",
)
add(
    "pybabel-compile-fuzzy-skipped",
    "pybabel",
    "exit0_hidden_failure",
    None,
    "pybabel compile skips a catalog marked fuzzy and exits 0; no .mo file is produced for the translations",
    "pybabel compile -d locale; ls locale/de/LC_MESSAGES",
    files={
        **BABEL,
        "locale/de/LC_MESSAGES/messages.po": dedent("""
            # German translations
            #, fuzzy
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Language: de\\n"

            #, fuzzy
            msgid "Hello"
            msgstr "Hallo"

            msgid "Goodbye"
            msgstr "Auf Wiedersehen"
        """),
    },
    confirm=r"fuzzy",
)
DIFFCOV_SETUP = (
    "git init -q -b main . && git add . && git commit -qm base && git checkout -q -b feature && "
    "printf 'def fee(amount):\\n    if amount > 100:\\n        return amount * 0.02\\n    return 1.5\\n' >> price.py && "
    "git commit -qam 'add fee' && coverage run -m pytest -q -p no:cacheprovider >/dev/null && coverage xml -q"
)
DIFFCOV = {
    "price.py": "def net(gross):\n    return gross / 1.2\n",
    "test_price.py": "from price import net, fee\n\ndef test_net():\n    assert round(net(12), 2) == 10\n\ndef test_fee_small():\n    assert fee(10) == 1.5\n",
    **CONF,
}
add(
    "diff-cover-fail-under",
    "diff-cover",
    "plain_failure",
    None,
    "diff-cover --fail-under=90 finds the new fee() branch untested in the diff against main and exits 1",
    "diff-cover coverage.xml --compare-branch=main --fail-under=90",
    files=DIFFCOV,
    setup=DIFFCOV_SETUP,
    expect=1,
    confirm=r"Missing lines",
    group="fresh6-diff-cover-fee",
)
add(
    "diff-cover-report-no-threshold",
    "diff-cover",
    "exit0_hidden_failure",
    None,
    "the CI step meant to gate new code coverage runs diff-cover without --fail-under; the diff is partly uncovered and it exits 0",
    "diff-cover coverage.xml --compare-branch=main",
    files=DIFFCOV,
    setup=DIFFCOV_SETUP,
    confirm=r"Missing lines",
    group="fresh6-diff-cover-fee",
)
