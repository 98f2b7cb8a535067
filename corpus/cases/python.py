"""python3 scripts, unittest, pytest, coverage and pip."""

from __future__ import annotations

from casekit import Case, case, dedent

CASES: list[Case] = []
add = CASES.append

# --- python3 scripts ------------------------------------------------------------------------

SUM_CSV = {
    "data.csv": "name,amount\nalpha,3\nbeta,4\ngamma,5\n",
    "total.py": dedent("""
        import csv
        with open("data.csv") as f:
            total = sum(int(r["amount"]) for r in csv.DictReader(f))
        print(f"total={total}")
    """),
}
add(
    case(
        "python3-sum-csv",
        "python3",
        "plain_success",
        None,
        "sums a small CSV and prints the total; it does",
        "python3 total.py",
        files=SUM_CSV,
        confirm="total=12",
    )
)
add(
    case(
        "python3-json-transform",
        "python3",
        "plain_success",
        None,
        "reads a JSON file, adds a field and writes it back; the output file is written",
        "python3 -c \"import json; d=json.load(open('in.json')); d['ok']=True; "
        "json.dump(d, open('out.json','w')); print('wrote out.json')\" && cat out.json",
        files={"in.json": '{"a": 1}\n'},
        confirm='"ok": true',
    )
)
add(
    case(
        "python3-argparse-help",
        "python3",
        "plain_success",
        None,
        "asks a CLI script for --help, which it prints",
        "python3 cli.py --help",
        files={
            "cli.py": dedent("""
             import argparse
             p = argparse.ArgumentParser(description="resize images")
             p.add_argument("--width", type=int, required=True)
             p.add_argument("--strict", action="store_true", help="treat errors as fatal")
             p.parse_args()
         """)
        },
    )
)
add(
    case(
        "python3-file-not-found",
        "python3",
        "plain_failure",
        None,
        "script loads a config file that does not exist and dies with a traceback",
        "python3 app.py",
        files={
            "app.py": "def load(path):\n    return open(path).read()\n\nload('/etc/app.toml')\n"
        },
    )
)
add(
    case(
        "python3-syntax-error",
        "python3",
        "plain_failure",
        None,
        "script with an unclosed parenthesis cannot even be compiled",
        "python3 bad.py",
        files={"bad.py": "def f(:\n    return 1\n"},
    )
)
add(
    case(
        "python3-module-not-found",
        "python3",
        "plain_failure",
        None,
        "script imports a module that is not installed",
        "python3 -c 'import yaml_missing_mod'",
    )
)
add(
    case(
        "python3-sys-exit-message",
        "python3",
        "plain_failure",
        None,
        "script checks a required env var, finds it missing and exits with a message",
        "python3 -c \"import os,sys; os.environ.get('API_TOKEN') or sys.exit('error: API_TOKEN is not set')\"",
    )
)
add(
    case(
        "python3-argparse-missing-arg",
        "python3",
        "plain_failure",
        None,
        "CLI called without its required --width argument exits 2 with usage",
        "python3 cli.py",
        files={
            "cli.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--width', type=int, required=True)\np.parse_args()\n"
        },
        expect=2,
    )
)
add(
    case(
        "python3-chained-exception",
        "python3",
        "plain_failure",
        None,
        "config lookup fails with KeyError re-raised as RuntimeError; the script dies",
        "python3 app.py",
        files={
            "app.py": "try:\n    {}['db_url']\nexcept KeyError as e:\n    raise RuntimeError('config broken: db_url') from e\n"
        },
    )
)
add(
    case(
        "python3-exception-group",
        "python3",
        "plain_failure",
        None,
        "two concurrent validations both fail and an ExceptionGroup ends the script",
        "python3 app.py",
        files={
            "app.py": "raise ExceptionGroup('validation', [ValueError('bad port'), TypeError('bad host')])\n"
        },
    )
)
add(
    case(
        "python3-deep-recursion",
        "python3",
        "plain_failure",
        None,
        "a recursive walk never terminates and dies with RecursionError after a huge traceback",
        "python3 -c 'def walk(n):\n    return walk(n + 1)\nwalk(0)'",
    )
)
add(
    case(
        "python3-assert-fails",
        "python3",
        "plain_failure",
        None,
        "a data check script asserts the row count is 3 but finds 2",
        "python3 check.py",
        files={
            "check.py": "rows = ['a', 'b']\nassert len(rows) == 3, f'expected 3 rows, got {len(rows)}'\nprint('check ok')\n"
        },
    )
)

APP_TRACE = {
    "app.py": dedent("""
    import json, traceback
    def load(path):
        with open(path) as f:
            return json.load(f)
    try:
        cfg = load("settings.json")
    except Exception:
        traceback.print_exc()
        cfg = None
    print("finished")
""")
}
add(
    case(
        "python3-print-exc-continue",
        "python3",
        "exit0_hidden_failure",
        None,
        "script must load settings.json (absent); it prints the traceback and exits 0",
        "python3 app.py",
        files=APP_TRACE,
        confirm="FileNotFoundError",
    )
)
add(
    case(
        "python3-thread-exception",
        "python3",
        "exit0_hidden_failure",
        None,
        "the worker thread that does the export raises; the main thread exits 0 anyway",
        "python3 job.py",
        files={
            "job.py": dedent("""
             import threading
             def export():
                 rows = None
                 print("exporting", len(rows), "rows")
             t = threading.Thread(target=export)
             t.start(); t.join()
             print("main done")
         """)
        },
        confirm="Exception in thread",
    )
)
add(
    case(
        "python3-asyncio-unretrieved",
        "python3",
        "exit0_hidden_failure",
        None,
        "the async upload task fails and its exception is never retrieved; exit 0",
        "python3 up.py",
        files={
            "up.py": dedent("""
             import asyncio, gc
             async def upload():
                 raise ConnectionError("upload to bucket failed: connection refused")
             async def main():
                 asyncio.get_running_loop().create_task(upload())
                 await asyncio.sleep(0.05)
             asyncio.run(main())
             gc.collect()
         """)
        },
        confirm="never retrieved",
    )
)
add(
    case(
        "python3-atexit-exception",
        "python3",
        "exit0_hidden_failure",
        None,
        "the atexit hook that flushes results to disk raises; the interpreter still exits 0",
        "python3 flush.py",
        files={
            "flush.py": dedent("""
             import atexit
             results = [1, 2, 3]
             def flush():
                 with open("/nonexistent-dir/results.txt", "w") as f:
                     f.write(str(results))
             atexit.register(flush)
             print("computed", len(results), "results")
         """)
        },
        confirm="atexit",
    )
)
add(
    case(
        "python3-del-exception",
        "python3",
        "exit0_hidden_failure",
        None,
        "the object that commits a transaction in __del__ fails to commit; exit 0",
        "python3 tx.py",
        files={
            "tx.py": dedent("""
             class Tx:
                 def __del__(self):
                     raise OSError("commit failed: database is locked")
             t = Tx()
             del t
             print("ok")
         """)
        },
        confirm="Exception ignored",
    )
)
add(
    case(
        "python3-batch-logs-errors",
        "python3",
        "exit0_hidden_failure",
        None,
        "batch import must import all 3 records; one raises and is only logged; exit 0",
        "python3 batch.py",
        files={
            "batch.py": dedent("""
             import logging
             logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
             log = logging.getLogger("import")
             records = ["1", "2", "x"]
             done = 0
             for r in records:
                 try:
                     int(r)
                     done += 1
                 except ValueError:
                     log.exception("record %r could not be imported", r)
             log.info("imported %d/%d records", done, len(records))
         """)
        },
        confirm="imported 2/3",
    )
)
add(
    case(
        "python3-subprocess-unchecked",
        "python3",
        "exit0_hidden_failure",
        None,
        "wrapper runs the migration step, which fails, and ignores its return code",
        "python3 wrapper.py",
        files={
            "wrapper.py": dedent("""
             import subprocess, sys
             subprocess.run([sys.executable, "-c", "raise SystemExit('migration 0042 failed: column exists')"])
             print("pipeline complete")
         """)
        },
        confirm="migration 0042 failed",
    )
)
add(
    case(
        "python3-traceback-or-true",
        "python3",
        "exit0_hidden_failure",
        None,
        "the app crashes on a missing config file; `|| true` hides the exit code",
        "python3 app.py || true",
        group="python3-file-not-found",
        files={
            "app.py": "def load(path):\n    return open(path).read()\n\nload('/etc/app.toml')\n"
        },
    )
)
add(
    case(
        "python3-traceback-tee",
        "python3",
        "exit0_hidden_failure",
        None,
        "the app crashes; piping through `tee` makes the pipeline exit 0",
        "python3 app.py 2>&1 | tee run.log",
        group="python3-chained-exception",
        files={
            "app.py": "try:\n    {}['db_url']\nexcept KeyError as e:\n    raise RuntimeError('config broken: db_url') from e\n"
        },
    )
)
add(
    case(
        "python3-error-then-exit0",
        "python3",
        "exit0_hidden_failure",
        None,
        "sync script cannot reach its database, prints an error and deliberately exits 0",
        "python3 sync.py",
        files={
            "sync.py": dedent("""
             import socket, sys
             try:
                 socket.create_connection(("127.0.0.1", 9), timeout=1)
             except OSError as e:
                 print(f"ERROR: could not connect to database: {e}", file=sys.stderr)
                 sys.exit(0)
             print("synced")
         """)
        },
        confirm="could not connect",
    )
)
add(
    case(
        "python3-warning-only-output",
        "python3",
        "exit0_hidden_failure",
        None,
        "report generator finds no input rows and writes an empty report, warning only",
        "python3 report.py && wc -c report.csv",
        files={
            "report.py": dedent("""
             import csv, sys, warnings
             rows = list(csv.reader(open("input.csv"))) if False else []
             if not rows:
                 warnings.warn("no rows read from input.csv; the report is empty")
             open("report.csv", "w").close()
         """)
        },
        confirm="report is empty",
    )
)
add(
    case(
        "python3-deprecation-warning",
        "python3",
        "success_alarming_stderr",
        None,
        "script uses a deprecated API under -W default and still prints the right result",
        "python3 -W default -c \"import warnings; warnings.warn('old api', DeprecationWarning); print(6*7)\"",
        confirm="42",
    )
)
add(
    case(
        "python3-future-warning",
        "python3",
        "success_alarming_stderr",
        None,
        "module emits a FutureWarning at import, then does its job",
        "python3 mod.py",
        files={
            "mod.py": "import warnings\nwarnings.warn('use g() instead; f() will raise an error in 3.0', FutureWarning)\nprint('done: 3 files')\n"
        },
    )
)
add(
    case(
        "python3-retry-recovers",
        "python3",
        "success_alarming_stderr",
        None,
        "fetch fails twice with logged tracebacks, the third attempt succeeds and data is saved",
        "python3 fetch.py && cat out.txt",
        files={
            "fetch.py": dedent("""
             import logging
             logging.basicConfig(format="%(asctime)s %(levelname)s %(message)s")
             log = logging.getLogger("fetch")
             attempts = 0
             def fetch():
                 global attempts
                 attempts += 1
                 if attempts < 3:
                     raise ConnectionResetError(104, "Connection reset by peer")
                 return "payload"
             for i in range(5):
                 try:
                     data = fetch()
                     break
                 except ConnectionError:
                     log.exception("attempt %d failed, retrying", i + 1)
             open("out.txt", "w").write(data + "\\n")
             log.warning("succeeded after %d attempts", attempts)
         """)
        },
        confirm="payload",
    )
)
add(
    case(
        "python3-logging-warning-threshold",
        "python3",
        "success_alarming_stderr",
        None,
        "disk check logs a warning mentioning an error threshold; usage is fine",
        "python3 -c \"import logging; logging.warning('disk usage at 85%%, error threshold is 95%%'); print('disk ok')\"",
    )
)
add(
    case(
        "python3-cache-miss-error-log",
        "python3",
        "success_alarming_stderr",
        None,
        "library logs a cache miss at ERROR level and recomputes; the answer is correct",
        "python3 calc.py",
        files={
            "calc.py": dedent("""
             import logging, sys
             logging.basicConfig(stream=sys.stderr, format="%(levelname)s:%(name)s:%(message)s")
             log = logging.getLogger("cache")
             cache = {}
             def fib(n):
                 if n not in cache:
                     if n == 30:
                         log.error("cache miss for key fib(30); recomputing (error rate 0.1%)")
                     cache[n] = n if n < 2 else fib(n - 1) + fib(n - 2)
                 return cache[n]
             print("fib(30) =", fib(30))
         """)
        },
        confirm="832040",
    )
)
add(
    case(
        "python3-resource-warning",
        "python3",
        "success_alarming_stderr",
        None,
        "script leaks a file handle (ResourceWarning under -W default) but writes its output",
        "python3 -W default leak.py && cat copy.txt",
        files={
            "leak.py": "data = open('src.txt').read()\nopen('copy.txt', 'w').write(data)\nimport gc; gc.collect()\n",
            "src.txt": "copied line\n",
        },
        confirm="copied line",
    )
)
add(
    case(
        "python3-stderr-status-zero-errors",
        "python3",
        "success_alarming_stderr",
        None,
        "validator writes its status to stderr: 120 rows checked, 0 errors, 0 failures",
        "python3 -c \"import sys; print('checked 120 rows', file=sys.stderr); print('errors: 0, failures: 0', file=sys.stderr); print('valid')\"",
    )
)
add(
    case(
        "python3-sigkill-self",
        "python3",
        "killed_signalled",
        None,
        "process is killed by SIGKILL mid-job (what the OOM killer does)",
        [
            "python3",
            "-c",
            "import os, signal, sys; print('loading 2GB model'); sys.stdout.flush(); os.kill(os.getpid(), signal.SIGKILL)",
        ],
        expect="SIGKILL",
    )
)
add(
    case(
        "python3-sigterm-self",
        "python3",
        "killed_signalled",
        None,
        "process receives SIGTERM (as on a worker shutdown) before finishing",
        [
            "python3",
            "-c",
            "import os, signal, time; print('step 1/3 done', flush=True); os.kill(os.getpid(), signal.SIGTERM); time.sleep(5)",
        ],
        expect="SIGTERM",
    )
)
add(
    case(
        "python3-segfault-ctypes",
        "python3",
        "killed_signalled",
        None,
        "a C extension call dereferences NULL and the interpreter segfaults",
        [
            "python3",
            "-X",
            "faulthandler",
            "-c",
            "import ctypes; print('parsing'); ctypes.string_at(0)",
        ],
        expect="SIGSEGV",
    )
)
add(
    case(
        "python3-abort",
        "python3",
        "killed_signalled",
        None,
        "the process aborts (SIGABRT) in the middle of writing its output",
        ["python3", "-c", "import os; print('half written', flush=True); os.abort()"],
        expect="SIGABRT",
    )
)
add(
    case(
        "python3-memoryerror-ulimit",
        "python3",
        "killed_signalled",
        None,
        "under a 300 MB address-space limit the job cannot allocate its 1 GB buffer (OOM-like)",
        "ulimit -v 300000; python3 -c 'buf = bytearray(10**9); print(len(buf))'",
        confirm="MemoryError",
    )
)
add(
    case(
        "python3-sigint-self",
        "python3",
        "killed_signalled",
        None,
        "the job is interrupted with SIGINT (Ctrl-C) and stops with KeyboardInterrupt",
        [
            "python3",
            "-c",
            "import os, signal, time; os.kill(os.getpid(), signal.SIGINT); time.sleep(2)",
        ],
        expect="SIGINT",
    )
)
add(
    case(
        "python3-harness-timeout",
        "python3",
        "killed_signalled",
        None,
        "a polling loop never finishes and the 3 s task timeout kills it",
        [
            "python3",
            "-c",
            "import time\nfor i in range(100):\n    print(f'waiting for lock ({i})', flush=True)\n    time.sleep(0.5)",
        ],
        expect="SIGKILL",
        timeout=3.0,
    )
)
add(
    case(
        "python3-timeout-124",
        "python3",
        "killed_signalled",
        None,
        "`timeout 1` stops a job that would take 10 s; exit 124",
        "timeout 1 python3 -c 'import time; print(\"started\", flush=True); time.sleep(10)'",
        expect=124,
    )
)
add(
    case(
        "python3-cr-progress",
        "python3",
        "progress_on_stderr",
        "success",
        "downloader-style script draws a carriage-return progress bar on stderr and finishes",
        "python3 prog.py",
        files={
            "prog.py": dedent("""
             import sys, time
             for i in range(0, 101, 10):
                 bar = "#" * (i // 5)
                 sys.stderr.write(f"\\rdownloading model.bin [{bar:<20}] {i:3d}%")
                 sys.stderr.flush()
                 time.sleep(0.01)
             sys.stderr.write("\\n")
             print("saved model.bin (4.2 MB)")
         """)
        },
    )
)
add(
    case(
        "python3-progress-then-ioerror",
        "python3",
        "progress_on_stderr",
        "failure",
        "progress bar reaches 60% then the write fails with an OSError",
        "python3 prog.py",
        files={
            "prog.py": dedent("""
             import sys
             for i in range(0, 61, 20):
                 sys.stderr.write(f"\\rcopying {i}%")
                 sys.stderr.flush()
             sys.stderr.write("\\n")
             raise OSError(28, "No space left on device", "/data/out.bin")
         """)
        },
    )
)
add(
    case(
        "python3-ansi-log-success",
        "python3",
        "coloured_output",
        "success",
        "coloured log lines (green INFO, yellow WARN) from a run that completes",
        "python3 col.py",
        files={
            "col.py": dedent("""
             import sys
             G, Y, R = "\\033[32m", "\\033[33m", "\\033[0m"
             print(f"{G}INFO{R} starting sync", file=sys.stderr)
             print(f"{Y}WARN{R} 2 files skipped (unchanged)", file=sys.stderr)
             print(f"{G}INFO{R} sync complete: 14 files", file=sys.stderr)
         """)
        },
    )
)
add(
    case(
        "python3-ansi-error-fail",
        "python3",
        "coloured_output",
        "failure",
        "coloured red ERROR line then exit 1: the deploy step did not happen",
        "python3 col.py",
        files={
            "col.py": dedent("""
             import sys
             print("\\033[1;31mERROR\\033[0m deploy aborted: image tag not found", file=sys.stderr)
             sys.exit(1)
         """)
        },
    )
)
add(
    case(
        "python3-latin1-stdout",
        "python3",
        "non_utf8",
        "success",
        "exports names in latin-1 as the legacy consumer requires; exit 0",
        "python3 -c \"import sys; sys.stdout.buffer.write('Müller;Françoise;Zoë\\n'.encode('latin-1'))\"",
    )
)
add(
    case(
        "python3-unicode-decode-error",
        "python3",
        "non_utf8",
        "failure",
        "reads a latin-1 file as UTF-8, echoes its raw first bytes and dies with UnicodeDecodeError",
        "head -c 20 names.txt; python3 -c \"open('names.txt', encoding='utf-8').read()\"",
        files={"names.txt": "Zoë;Müller\n".encode("latin-1")},
    )
)
add(
    case(
        "python3-binary-stderr-success",
        "python3",
        "non_utf8",
        "success",
        "debug dump writes raw binary bytes to stderr; the conversion itself succeeds",
        "python3 -c \"import sys; sys.stderr.buffer.write(bytes(range(128, 256)) + b'\\n'); print('converted 3 frames')\"",
    )
)
add(
    case(
        "python3-surrogate-filenames",
        "python3",
        "non_utf8",
        "success",
        "lists a directory whose file names are latin-1 bytes and prints them raw",
        "python3 -c \"import os; [os.write(1, os.fsencode(n) + b'\\n') for n in sorted(os.listdir('d'))]\"",
        setup="mkdir d && touch d/$'caf\\xe9.txt' d/$'na\\xefve.txt'",
    )
)
add(
    case(
        "python3-binary-stderr-fail",
        "python3",
        "non_utf8",
        "failure",
        "decoder hits a corrupt frame, dumps the raw bytes to stderr and exits 3",
        "python3 -c \"import sys; sys.stderr.buffer.write(b'corrupt frame: ' + bytes([0xff, 0xfe, 0x00, 0x9c, 0xc3]) + b'\\n'); sys.exit(3)\"",
    )
)

# --- unittest -------------------------------------------------------------------------------

T_PASS = {
    "test_calc.py": dedent("""
    import unittest
    class Calc(unittest.TestCase):
        def test_add(self):
            self.assertEqual(1 + 1, 2)
        def test_div(self):
            self.assertAlmostEqual(1 / 3, 0.3333, places=3)
""")
}
T_FAIL = {
    "test_calc.py": dedent("""
    import unittest
    class Calc(unittest.TestCase):
        def test_add(self):
            self.assertEqual(1 + 1, 2)
        def test_total(self):
            self.assertEqual(sum([1, 2, 3]), 7, "total mismatch")
""")
}
T_ERROR = {
    "test_io.py": dedent("""
    import unittest
    class IO(unittest.TestCase):
        def test_read(self):
            with open("fixtures/missing.json") as f:
                f.read()
""")
}
T_LOGS = {
    "test_svc.py": dedent("""
    import logging, unittest
    log = logging.getLogger("svc")
    def parse(text):
        try:
            return int(text)
        except ValueError:
            log.exception("could not parse %r, using default", text)
            return 0
    class Svc(unittest.TestCase):
        def test_default(self):
            self.assertEqual(parse("abc"), 0)
        def test_ok(self):
            self.assertEqual(parse("5"), 5)
    if __name__ == "__main__":
        logging.basicConfig()
        unittest.main()
""")
}
add(
    case(
        "unittest-pass",
        "unittest",
        "plain_success",
        None,
        "two passing unit tests",
        "python3 -m unittest -v test_calc",
        files=T_PASS,
    )
)
add(
    case(
        "unittest-fail",
        "unittest",
        "plain_failure",
        None,
        "one of two unit tests fails its assertion",
        "python3 -m unittest test_calc",
        files=T_FAIL,
    )
)
add(
    case(
        "unittest-error",
        "unittest",
        "plain_failure",
        None,
        "a test errors on a missing fixture file",
        "python3 -m unittest test_io",
        files=T_ERROR,
    )
)
add(
    case(
        "unittest-fail-or-true",
        "unittest",
        "exit0_hidden_failure",
        None,
        "the failing test suite runs under `|| true`; tests failed",
        "python3 -m unittest test_calc || true",
        files=T_FAIL,
        group="unittest-fail",
        confirm="FAILED",
    )
)
add(
    case(
        "unittest-error-exit0",
        "unittest",
        "exit0_hidden_failure",
        None,
        "test run with an erroring test, then `; exit 0` in the CI step",
        "python3 -m unittest test_io; exit 0",
        files=T_ERROR,
        group="unittest-error",
        confirm="FAILED",
    )
)
add(
    case(
        "unittest-logged-traceback-pass",
        "unittest",
        "success_alarming_stderr",
        None,
        "code under test logs a traceback for bad input by design; both tests pass",
        "python3 test_svc.py",
        files=T_LOGS,
        confirm="OK",
    )
)
add(
    case(
        "unittest-skip-xfail",
        "unittest",
        "success_alarming_stderr",
        None,
        "suite with a skipped test and an expected failure; run is OK",
        "python3 -m unittest -v test_sk",
        files={
            "test_sk.py": dedent("""
             import unittest
             class T(unittest.TestCase):
                 @unittest.skip("needs GPU")
                 def test_gpu(self):
                     pass
                 @unittest.expectedFailure
                 def test_known_bug(self):
                     self.assertEqual(1, 2)
                 def test_ok(self):
                     self.assertTrue(True)
         """)
        },
        confirm="expected failures=1",
    )
)
add(
    case(
        "unittest-setupclass-error",
        "unittest",
        "plain_failure",
        None,
        "setUpClass cannot open the database so no test runs",
        "python3 -m unittest test_db",
        files={
            "test_db.py": dedent("""
             import sqlite3, unittest
             class DB(unittest.TestCase):
                 @classmethod
                 def setUpClass(cls):
                     cls.db = sqlite3.connect("file:/nonexistent/x.db?mode=ro", uri=True)
                 def test_rows(self):
                     self.assertTrue(self.db)
         """)
        },
    )
)
add(
    case(
        "unittest-pass-tee",
        "unittest",
        "plain_success",
        None,
        "passing tests piped through tee into a log file",
        "python3 -m unittest test_calc 2>&1 | tee test.log",
        files=T_PASS,
        group="unittest-pass",
    )
)

# --- pytest ---------------------------------------------------------------------------------

P_PASS = {
    "test_math.py": dedent("""
    import math
    def test_sqrt():
        assert math.sqrt(16) == 4
    def test_floor():
        assert math.floor(2.7) == 2
    def test_gcd():
        assert math.gcd(12, 18) == 6
""")
}
P_FAIL = {
    "test_math.py": dedent("""
    import math
    def test_sqrt():
        assert math.sqrt(16) == 4
    def test_round():
        assert round(2.675, 2) == 2.68
""")
}
P_PARAM = {
    "test_p.py": dedent("""
    import pytest
    @pytest.mark.parametrize("n,expected", [(1, 1), (2, 4), (3, 9), (4, 15)])
    def test_square(n, expected):
        assert n * n == expected
""")
}
PY = "pytest -p no:cacheprovider"
add(
    case(
        "pytest-pass",
        "pytest",
        "plain_success",
        None,
        "three passing tests",
        f"{PY} -q test_math.py",
        files=P_PASS,
    )
)
add(
    case(
        "pytest-pass-verbose",
        "pytest",
        "plain_success",
        None,
        "three passing tests, verbose",
        f"{PY} -v test_math.py",
        files=P_PASS,
        group="pytest-pass",
    )
)
add(
    case(
        "pytest-fail",
        "pytest",
        "plain_failure",
        None,
        "a float rounding test fails",
        f"{PY} test_math.py",
        files=P_FAIL,
    )
)
add(
    case(
        "pytest-param-fail",
        "pytest",
        "plain_failure",
        None,
        "one of four parametrized cases has a wrong expectation",
        f"{PY} -q test_p.py",
        files=P_PARAM,
    )
)
add(
    case(
        "pytest-collection-error",
        "pytest",
        "plain_failure",
        None,
        "test module imports a missing package; collection errors out (exit 2)",
        f"{PY} test_imp.py",
        files={"test_imp.py": "import no_such_pkg_here\n\ndef test_x():\n    pass\n"},
        expect=2,
    )
)
add(
    case(
        "pytest-no-tests",
        "pytest",
        "plain_failure",
        None,
        "pytest pointed at a directory with no tests collects nothing (exit 5)",
        f"{PY} tests/",
        setup="mkdir tests && echo 'x = 1' > tests/helpers.py",
        expect=5,
    )
)
add(
    case(
        "pytest-usage-error",
        "pytest",
        "plain_failure",
        None,
        "pytest called with an option that does not exist (exit 4)",
        f"{PY} --no-such-option test_math.py",
        files=P_PASS,
        expect=4,
    )
)
add(
    case(
        "pytest-fixture-error",
        "pytest",
        "plain_failure",
        None,
        "a test requests a fixture that is not defined",
        f"{PY} -q test_fx.py",
        files={"test_fx.py": "def test_db(database):\n    assert database\n"},
    )
)
add(
    case(
        "pytest-exitfirst",
        "pytest",
        "plain_failure",
        None,
        "-x stops at the first failure in a suite of five",
        f"{PY} -x -q test_x.py",
        files={"test_x.py": "".join(f"def test_{i}():\n    assert {i} != 2\n" for i in range(5))},
    )
)
add(
    case(
        "pytest-skip-xfail-pass",
        "pytest",
        "success_alarming_stderr",
        None,
        "suite passes with skips and an xfail; summary names the xfail",
        f"{PY} -rsx test_s.py",
        files={
            "test_s.py": dedent("""
             import pytest
             @pytest.mark.skip(reason="needs network")
             def test_net(): pass
             @pytest.mark.xfail(reason="known bug #12: raises ValueError")
             def test_bug(): raise ValueError("boom")
             def test_ok(): assert True
         """)
        },
        confirm="1 passed",
    )
)
add(
    case(
        "pytest-warnings-summary-pass",
        "pytest",
        "success_alarming_stderr",
        None,
        "tests pass; the code they exercise emits deprecation warnings shown in the summary",
        f"{PY} test_w.py",
        files={
            "test_w.py": dedent("""
             import warnings
             def old():
                 warnings.warn("old() is deprecated and will raise an error in 2.0", DeprecationWarning)
                 return 1
             def test_a(): assert old() == 1
             def test_b(): assert old() + 1 == 2
         """)
        },
        confirm="warnings summary",
    )
)
add(
    case(
        "pytest-live-log-errors-pass",
        "pytest",
        "success_alarming_stderr",
        None,
        "tests of an error handler pass; live logging shows the ERROR lines it logs",
        f"{PY} --log-cli-level=ERROR test_h.py",
        files={
            "test_h.py": dedent("""
             import logging
             log = logging.getLogger("handler")
             def handle(msg):
                 try:
                     return int(msg)
                 except ValueError:
                     log.error("bad message %r dropped: invalid literal", msg)
                     return None
             def test_bad(): assert handle("x") is None
             def test_good(): assert handle("3") == 3
         """)
        },
        confirm="2 passed",
    )
)
add(
    case(
        "pytest-printed-traceback-pass",
        "pytest",
        "success_alarming_stderr",
        None,
        "with -s, code under test prints a handled traceback to stderr; the test passes",
        f"{PY} -s -q test_t.py",
        files={
            "test_t.py": dedent("""
             import traceback
             def safe_div(a, b):
                 try:
                     return a / b
                 except ZeroDivisionError:
                     traceback.print_exc()
                     return float("inf")
             def test_div0():
                 assert safe_div(1, 0) == float("inf")
         """)
        },
        confirm="1 passed",
    )
)
add(
    case(
        "pytest-fail-or-true",
        "pytest",
        "exit0_hidden_failure",
        None,
        "the failing suite runs as `pytest || true`; a test failed",
        f"{PY} test_math.py || true",
        files=P_FAIL,
        group="pytest-fail",
        confirm="1 failed",
    )
)
add(
    case(
        "pytest-fail-tail",
        "pytest",
        "exit0_hidden_failure",
        None,
        "failing tests piped to `tail -n 15`; the pipeline exits 0",
        f"{PY} -q test_p.py | tail -n 15",
        files=P_PARAM,
        group="pytest-param-fail",
        confirm="1 failed",
    )
)
add(
    case(
        "pytest-fail-set-e-off",
        "pytest",
        "exit0_hidden_failure",
        None,
        "CI script with `set +e` runs the failing tests then a cleanup step that succeeds",
        "set +e\n" + f"{PY} -q test_x.py\n" + "rm -rf build\necho 'cleanup done'\n",
        files={"test_x.py": "def test_a():\n    assert 'abc'.upper() == 'ABc'\n"},
        confirm="1 failed",
    )
)
add(
    case(
        "pytest-collection-error-exit0",
        "pytest",
        "exit0_hidden_failure",
        None,
        "collection error hidden behind `; exit 0`",
        f"{PY} test_imp.py; exit 0",
        files={"test_imp.py": "import no_such_pkg_here\n\ndef test_x():\n    pass\n"},
        group="pytest-collection-error",
        confirm="error",
    )
)
add(
    case(
        "pytest-fail-color",
        "pytest",
        "coloured_output",
        "failure",
        "forced colour; a list comparison test fails",
        f"{PY} --color=yes -q test_c.py",
        files={"test_c.py": "def test_lists():\n    assert [1, 2, 3] == [1, 2, 4]\n"},
    )
)
add(
    case(
        "pytest-pass-color",
        "pytest",
        "coloured_output",
        "success",
        "forced colour; all tests pass",
        f"{PY} --color=yes test_math.py",
        files=P_PASS,
        group="pytest-pass",
    )
)
add(
    case(
        "pytest-pass-color-warnings",
        "pytest",
        "coloured_output",
        "success",
        "forced colour; tests pass with a yellow warnings summary",
        f"{PY} --color=yes test_w.py",
        files={
            "test_w.py": "import warnings\ndef test_a():\n    warnings.warn('slow path used', UserWarning)\n    assert True\n"
        },
    )
)
add(
    case(
        "pytest-fail-noisy-stderr",
        "pytest",
        "failure_noisy_stderr",
        None,
        "with -s, the code under test floods stderr with debug logs; one test fails",
        f"{PY} -s -q test_n.py",
        files={
            "test_n.py": dedent("""
             import sys
             def work(n):
                 for i in range(n):
                     print(f"DEBUG worker: step {i} ok (retry budget 3)", file=sys.stderr)
                 return n
             def test_work(): assert work(40) == 40
             def test_total(): assert work(5) == 6
         """)
        },
    )
)
add(
    case(
        "pytest-latin1-output",
        "pytest",
        "non_utf8",
        "success",
        "test prints latin-1 bytes with -s; the test passes",
        f"{PY} -s -q test_l.py",
        files={
            "test_l.py": "import sys\ndef test_name():\n    sys.stdout.buffer.write('Zoë\\n'.encode('latin-1')); sys.stdout.flush()\n    assert len('Zoë') == 3\n"
        },
    )
)
add(
    case(
        "pytest-many-warnings-fail",
        "pytest",
        "failure_noisy_stderr",
        None,
        "a failing test among passing ones that each emit several warnings",
        f"{PY} -W default test_mw.py",
        files={
            "test_mw.py": "import warnings\n"
            + "".join(
                f"def test_{i}():\n    warnings.warn('deprecated option {i}', DeprecationWarning)\n    assert {i} < 7\n"
                for i in range(9)
            )
        },
    )
)

# --- coverage -------------------------------------------------------------------------------

COV = {
    "calc.py": "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n\ndef mul(a, b):\n    return a * b\n",
    "test_calc.py": "from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n",
}
add(
    case(
        "coverage-run-report",
        "coverage",
        "plain_success",
        None,
        "runs the tests under coverage and prints the report",
        "coverage run -m pytest -q -p no:cacheprovider && coverage report",
        files=COV,
        confirm="TOTAL",
    )
)
add(
    case(
        "coverage-fail-under",
        "coverage",
        "plain_failure",
        None,
        "coverage is below the required 90% so the report step fails (exit 2)",
        "coverage run -m pytest -q -p no:cacheprovider && coverage report --fail-under=90",
        files=COV,
        expect=2,
    )
)
add(
    case(
        "coverage-no-data",
        "coverage",
        "plain_failure",
        None,
        "coverage report is asked for before anything was measured",
        "coverage report",
    )
)
add(
    case(
        "coverage-run-script-raises",
        "coverage",
        "plain_failure",
        None,
        "the measured script raises an exception",
        "coverage run app.py",
        files={"app.py": "raise ValueError('bad input file')\n"},
    )
)
add(
    case(
        "coverage-html",
        "coverage",
        "plain_success",
        None,
        "writes an HTML coverage report",
        "coverage run -m pytest -q -p no:cacheprovider && coverage html && ls htmlcov/index.html",
        files=COV,
        group="coverage-run-report",
    )
)
add(
    case(
        "coverage-fail-under-or-true",
        "coverage",
        "exit0_hidden_failure",
        None,
        "coverage threshold check fails but the step ends in `|| true`",
        "coverage run -m pytest -q -p no:cacheprovider && coverage report --fail-under=90 || true",
        files=COV,
        group="coverage-fail-under",
        confirm="Coverage failure",
    )
)

# --- pip ------------------------------------------------------------------------------------

MAKE_WHEEL = dedent("""
    python3 - <<'E'
    import zipfile
    name, ver = "corpus_demo", "0.1"
    with zipfile.ZipFile(f"{name}-{ver}-py3-none-any.whl", "w") as z:
        z.writestr(f"{name}/__init__.py", "x = 1\\n")
        z.writestr(f"{name}-{ver}.dist-info/METADATA",
                   "Metadata-Version: 2.1\\nName: corpus-demo\\nVersion: 0.1\\nRequires-Dist: corpus-missing-dep>=1\\n")
        z.writestr(f"{name}-{ver}.dist-info/WHEEL",
                   "Wheel-Version: 1.0\\nGenerator: hand\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
        z.writestr(f"{name}-{ver}.dist-info/RECORD", "")
    E
""")
PKG = {
    "pkg/pyproject.toml": dedent("""
        [build-system]
        requires = ["setuptools"]
        build-backend = "setuptools.build_meta"
        [project]
        name = "corpus-pkg"
        version = "0.1"
    """),
    "pkg/src/corpus_pkg/__init__.py": "VALUE = 1\n",
}
BROKEN_PKG = {
    "pkg/setup.py": dedent("""
        from setuptools import setup
        import sys
        print("running build with extension 'fastcore'", file=sys.stderr)
        raise RuntimeError("cannot find libfastcore.so: set FASTCORE_HOME")
    """),
}
add(
    case(
        "pip-install-local-wheel",
        "pip",
        "plain_success",
        None,
        "installs a local wheel without dependencies into a target directory",
        "pip install --no-deps --target site ./corpus_demo-0.1-py3-none-any.whl && ls site",
        setup=MAKE_WHEEL,
        confirm="corpus_demo",
    )
)
add(
    case(
        "pip-missing-dependency",
        "pip",
        "plain_failure",
        None,
        "installing a wheel whose dependency is not available fails to resolve",
        "pip install --target site ./corpus_demo-0.1-py3-none-any.whl",
        setup=MAKE_WHEEL,
    )
)
add(
    case(
        "pip-no-such-package",
        "pip",
        "plain_failure",
        None,
        "pip is asked for a package that no index or link provides",
        "pip install corpus-no-such-dist-xyz",
    )
)
add(
    case(
        "pip-build-local-project",
        "pip",
        "plain_success",
        None,
        "builds and installs a local setuptools project",
        "pip install --no-build-isolation --no-deps --target site ./pkg && ls site",
        files=PKG,
        confirm="corpus_pkg",
    )
)
add(
    case(
        "pip-setup-py-raises",
        "pip",
        "failure_noisy_stderr",
        None,
        "building a local sdist runs a setup.py that raises; pip prints the build log",
        "pip install --no-build-isolation --target site ./pkg",
        files=BROKEN_PKG,
    )
)
add(
    case(
        "pip-uninstall-not-installed",
        "pip",
        "success_alarming_stderr",
        None,
        "removing a package that is already absent is a no-op with a WARNING",
        "pip uninstall -y corpus-never-installed",
    )
)
add(
    case(
        "pip-show-missing",
        "pip",
        "plain_failure",
        None,
        "`pip show` of a package that is not installed exits 1",
        "pip show corpus-never-installed",
    )
)
add(
    case(
        "pip-list-json",
        "pip",
        "plain_success",
        None,
        "lists installed packages as JSON",
        "pip list --format=json | head -c 300",
        confirm="black",
    )
)
add(
    case(
        "pip-conflicting-requirements",
        "pip",
        "plain_failure",
        None,
        "a requirements file pins the same local project twice at incompatible versions",
        "pip install --no-build-isolation --target site -r req.txt",
        files={**PKG, "req.txt": "./pkg\ncorpus-pkg==0.2\n"},
    )
)
add(
    case(
        "pip-install-or-true",
        "pip",
        "exit0_hidden_failure",
        None,
        "the dependency install fails to resolve but the step ends in `|| true`",
        "pip install corpus-no-such-dist-xyz || true",
        group="pip-no-such-package",
        confirm="ERROR",
    )
)
add(
    case(
        "pip-wheel-verbose",
        "pip",
        "progress_on_stderr",
        "success",
        "builds a wheel of a local project with -v, a long step-by-step log",
        "pip wheel -v --no-build-isolation --no-deps -w dist ./pkg && ls dist",
        files=PKG,
        confirm="corpus_pkg-0.1",
    )
)
add(
    case(
        "pip-requirements-parse-error",
        "pip",
        "plain_failure",
        None,
        "a requirements file has an invalid line",
        "pip install -r req.txt",
        files={"req.txt": "requests>=2.0\nthis is not valid ===\n"},
    )
)
