"""Seventh fresh batch (ids ``fresh7-*``): Python scenarios (pytest, unittest, coverage, python3
jobs and scripts, pip wheel, ruff, mypy, black) and Python-packaged tools new to the corpus
(httpie, cram, yamale, jsonschema, check-json, check-toml, pygmentize, csvgrep, djlint,
cmake-format, gitlint)."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh7")

CONF = {"conftest.py": "import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n"}

# --- pytest / unittest / coverage ----------------------------------------------------------------

add(
    "pytest-live-log-errors-pass",
    "pytest",
    "success_alarming_stderr",
    None,
    "pytest with live logging at INFO runs a payment client whose code logs ERROR with a traceback on a declined card; the tests expect that and all 3 pass",
    "pytest -q -p no:cacheprovider -o log_cli=true --log-cli-level=INFO",
    files={
        **CONF,
        "payments.py": dedent("""
            import logging

            log = logging.getLogger("payments")

            class Declined(Exception):
                pass

            def charge(card, amount):
                log.info("charging %s cents to card ending %s", amount, card[-4:])
                try:
                    if card.startswith("4000"):
                        raise Declined("card_declined: insufficient_funds")
                    return {"status": "paid", "amount": amount}
                except Declined:
                    log.exception("charge failed for card ending %s", card[-4:])
                    return {"status": "declined", "amount": 0}
        """),
        "test_payments.py": dedent("""
            from payments import charge

            def test_paid():
                assert charge("4242424242424242", 500)["status"] == "paid"

            def test_declined():
                assert charge("4000000000000002", 500) == {"status": "declined", "amount": 0}

            def test_zero():
                assert charge("4242424242424242", 0)["amount"] == 0
        """),
    },
    confirm=r"(?s)(?=.*ERROR.*charge failed)(?=.*Traceback)(?=.*3 passed)",
)
add(
    "coverage-run-then-report-last-status",
    "coverage",
    "exit0_hidden_failure",
    None,
    "the test step is 'coverage run -m pytest; coverage report': a test fails, and the step's status is coverage report's 0",
    "coverage run -m pytest -q -p no:cacheprovider; coverage report -m",
    files={
        **CONF,
        "prices.py": dedent("""
            def with_vat(net, rate=0.2):
                return round(net * (1 + rate), 2)

            def discount(price, pct):
                return price - price * pct / 100
        """),
        "test_prices.py": dedent("""
            from prices import with_vat, discount

            def test_vat():
                assert with_vat(10) == 12.0

            def test_discount():
                assert discount(80, 25) == 60

            def test_discount_never_negative():
                assert discount(10, 150) == 0
        """),
    },
    confirm=r"(?s)1 failed, 2 passed.*TOTAL",
)
add(
    "pytest-xdist-worker-crash",
    "pytest",
    "failure_noisy_stderr",
    None,
    "a test calls a C-extension shim that os._exit()s inside an xdist worker; xdist reports the crashed node, replaces the worker and the run exits 1",
    "pytest -q -p no:cacheprovider -n 2",
    files={
        **CONF,
        "native.py": "import os\n\ndef load_plugin(name):\n    if name == 'broken':\n        os._exit(3)\n    return name.upper()\n",
        "test_native.py": dedent("""
            import pytest
            from native import load_plugin

            @pytest.mark.parametrize("name", ["csv", "json", "xml", "broken", "yaml", "toml"])
            def test_load(name):
                assert load_plugin(name) == name.upper()
        """),
    },
    expect=1,
    timeout=90,
    confirm=r"crashed",
)
add(
    "pytest-deprecation-warnings-summary-pass",
    "pytest",
    "success_alarming_stderr",
    None,
    "the suite passes while the code under test calls deprecated datetime.utcnow and a pending-deprecated helper; pytest prints a long warnings summary and exits 0",
    "pytest -q -p no:cacheprovider",
    files={
        **CONF,
        "stamps.py": dedent("""
            import datetime, warnings

            def legacy_format(ts):
                warnings.warn("legacy_format() is deprecated, use isoformat()", DeprecationWarning, stacklevel=2)
                return ts.strftime("%Y-%m-%d %H:%M")

            def now_utc():
                return datetime.datetime.utcnow()
        """),
        "test_stamps.py": dedent("""
            import datetime
            import pytest
            from stamps import legacy_format, now_utc

            @pytest.mark.parametrize("h", range(4))
            def test_format(h):
                assert legacy_format(datetime.datetime(2024, 1, 1, h)) == f"2024-01-01 {h:02d}:00"

            def test_now():
                assert now_utc().year >= 2024
        """),
    },
    confirm=r"(?s)(?=.*DeprecationWarning)(?=.*5 passed)",
)
add(
    "pytest-unraisable-del-warning-pass",
    "pytest",
    "success_alarming_stderr",
    None,
    "a temp-file wrapper's __del__ raises while being collected; pytest reports a PytestUnraisableExceptionWarning but both tests pass",
    "pytest -q -p no:cacheprovider",
    files={
        **CONF,
        "tmpbuf.py": dedent("""
            class Buffer:
                def __init__(self):
                    self.data = []
                def write(self, s):
                    self.data.append(s)
                    return len(s)
                def __del__(self):
                    raise OSError("flush on close failed: Bad file descriptor")
        """),
        "test_tmpbuf.py": dedent("""
            import gc
            from tmpbuf import Buffer

            def test_write():
                b = Buffer()
                assert b.write("abc") == 3
                del b
                gc.collect()

            def test_more():
                assert Buffer().write("") == 0
        """),
    },
    confirm=r"(?s)(?=.*(Unraisable|unraisable))(?=.*2 passed)",
)
add(
    "unittest-logging-errors-ok",
    "unittest",
    "success_alarming_stderr",
    None,
    "unittest runs a sync client whose code logs WARNING/ERROR lines about a failed mirror before falling back; the tests cover that path and report OK",
    "python3 -m unittest -v",
    files={
        "sync.py": dedent("""
            import logging

            logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
            log = logging.getLogger("sync")

            MIRRORS = {"eu": None, "us": ["a.tar", "b.tar"]}

            def fetch_index():
                for name, files in MIRRORS.items():
                    if files is None:
                        log.error("mirror %s failed: HTTP 502 Bad Gateway", name)
                        log.warning("falling back to next mirror")
                        continue
                    log.info("mirror %s ok (%d files)", name, len(files))
                    return files
                raise RuntimeError("no mirror available")
        """),
        "test_sync.py": dedent("""
            import unittest
            from sync import fetch_index

            class SyncTest(unittest.TestCase):
                def test_fallback(self):
                    self.assertEqual(fetch_index(), ["a.tar", "b.tar"])

                def test_twice(self):
                    self.assertEqual(len(fetch_index()), 2)
        """),
    },
    confirm=r"(?s)(?=.*ERROR sync: mirror eu failed)(?=.*\nOK)",
)
add(
    "unittest-subtests-fail",
    "unittest",
    "plain_failure",
    None,
    "a table-driven unittest uses subTest; three of the six cases fail (no subtractive numerals) and unittest exits 1",
    "python3 -m unittest test_roman",
    files={
        "roman.py": dedent("""
            def to_roman(n):
                vals = [(1000, 'M'), (500, 'D'), (100, 'C'), (50, 'L'), (10, 'X'), (5, 'V'), (1, 'I')]
                out = ''
                for v, s in vals:
                    while n >= v:
                        out += s
                        n -= v
                return out
        """),
        "test_roman.py": dedent("""
            import unittest
            from roman import to_roman

            class RomanTest(unittest.TestCase):
                def test_table(self):
                    for n, want in [(1, 'I'), (3, 'III'), (4, 'IV'), (9, 'IX'), (58, 'LVIII'), (2024, 'MMXXIV')]:
                        with self.subTest(n=n):
                            self.assertEqual(to_roman(n), want)
        """),
    },
    expect=1,
    confirm=r"FAILED \(failures=3\)",
)
add(
    "python-doctest-testmod-failures-exit0",
    "python3",
    "exit0_hidden_failure",
    None,
    "the module's __main__ runs doctest.testmod() and ignores its result; one doctest fails and the process exits 0",
    "python3 units.py",
    files={
        "units.py": dedent('''
            def parse_size(text):
                """Parse a human size.

                >>> parse_size("10K")
                10240
                >>> parse_size("1.5M")
                1572864
                >>> parse_size("2G")
                2147483648
                """
                units = {"K": 1024, "M": 1024 ** 2}
                num, unit = text[:-1], text[-1]
                return int(float(num) * units.get(unit, 1))

            if __name__ == "__main__":
                import doctest
                doctest.testmod()
        '''),
    },
    confirm=r"\*\*\*Test Failed\*\*\* 1 failures",
)
add(
    "python-compileall-quiet-or-true",
    "python3",
    "exit0_hidden_failure",
    None,
    "a packaging step byte-compiles the source tree with compileall -q || true; one module has a syntax error and the step exits 0",
    "python3 -m compileall -q src || true; echo 'byte-compile step done'",
    files={
        "src/app/__init__.py": "",
        "src/app/api.py": "def handler(event):\n    return {'status': 200}\n",
        "src/app/jobs.py": "def run(job):\n    match job:\n        case {'kind': 'email'}:\n            return send(job\n        case _:\n            return None\n",
    },
    confirm=r"SyntaxError",
)

# --- python3 scripts and data jobs ---------------------------------------------------------------

add(
    "python-etl-rows-all-rejected",
    "python3",
    "exit0_hidden_failure",
    None,
    "a CSV import logs each bad row and carries on; every row fails to parse (semicolon-separated file), it writes 0 rows and exits 0",
    "python3 import_orders.py orders.csv orders.db",
    files={
        "orders.csv": "id;customer;total\n1;acme;19.90\n2;globex;5.00\n3;initech;120.00\n",
        "import_orders.py": dedent("""
            import csv, logging, sqlite3, sys

            logging.basicConfig(format="%(asctime)s %(levelname)s %(message)s", level=logging.INFO)
            src, dst = sys.argv[1], sys.argv[2]
            db = sqlite3.connect(dst)
            db.execute("create table if not exists orders (id integer primary key, customer text, total real)")
            ok = 0
            with open(src, newline="") as fh:
                for n, row in enumerate(csv.DictReader(fh), 1):
                    try:
                        db.execute("insert into orders values (?, ?, ?)", (int(row["id"]), row["customer"], float(row["total"])))
                        ok += 1
                    except (KeyError, ValueError) as exc:
                        logging.error("row %d skipped: %r", n, exc)
            db.commit()
            logging.info("import finished: %d rows written to %s", ok, dst)
        """),
    },
    confirm=r"import finished: 0 rows written",
)
add(
    "python-migrate-partial-tables",
    "python3",
    "exit0_hidden_failure",
    None,
    "a schema migration script wraps each table's step in try/except and prints a summary; 3 of 5 tables migrate, two fail, and it exits 0",
    "python3 migrate.py",
    files={
        "migrate.py": dedent("""
            import sqlite3

            db = sqlite3.connect(":memory:")
            for t in ("users", "orders", "items", "invoices", "audit"):
                db.execute(f"create table {t} (id integer primary key, created text)")
            db.execute("create view v_orders as select id from orders")

            STEPS = [
                ("users", "alter table users add column email text"),
                ("orders", "alter table orders rename column created to created_at"),
                ("items", "alter table items add column item_id integer primary key"),
                ("invoices", "alter table invoices add column paid integer default 0"),
                ("audit", "alter table audit drop column id"),
            ]
            done = 0
            for table, sql in STEPS:
                try:
                    db.execute(sql)
                    print(f"migrated {table}")
                    done += 1
                except sqlite3.Error as exc:
                    print(f"error migrating {table}: {exc}")
            print(f"{done} of {len(STEPS)} tables migrated")
        """),
    },
    confirm=r"3 of 5 tables migrated",
)
add(
    "python-recursion-error-long-trace",
    "python3",
    "failure_noisy_stderr",
    None,
    "a tree flattener recurses on a self-referencing node; Python prints a long traceback ending in RecursionError and exits 1",
    "python3 flatten.py",
    files={
        "flatten.py": dedent("""
            def walk(node, depth=0):
                out = [node["name"]]
                for child in node.get("children", []):
                    out.extend(walk(child, depth + 1))
                return out

            root = {"name": "root", "children": [{"name": "a"}, {"name": "b", "children": []}]}
            root["children"][1]["children"].append(root)
            print(walk(root))
        """),
    },
    expect=1,
    confirm=r"RecursionError: maximum recursion depth exceeded",
)
add(
    "python-subprocess-timeout-logged-skip",
    "python3",
    "exit0_hidden_failure",
    None,
    "a check runner gives each check 1s; the type check hangs, the runner logs it as skipped and prints 'all checks finished' with exit 0",
    "python3 run_checks.py",
    files={
        "run_checks.py": dedent("""
            import subprocess, sys

            CHECKS = {
                "format": [sys.executable, "-c", "print('format: 12 files unchanged')"],
                "types": [sys.executable, "-c", "import time; print('types: checking...', flush=True); time.sleep(10)"],
                "unit": [sys.executable, "-c", "print('unit: 40 passed')"],
            }
            for name, argv in CHECKS.items():
                try:
                    r = subprocess.run(argv, capture_output=True, text=True, timeout=1)
                    print(r.stdout.strip())
                except subprocess.TimeoutExpired:
                    print(f"WARNING: check '{name}' timed out after 1s, skipping", file=sys.stderr)
            print("all checks finished")
        """),
    },
    confirm=r"check 'types' timed out",
)
add(
    "python-timeout-dev-server",
    "timeout",
    "killed_signalled",
    None,
    "the agent starts a dev server under timeout 2 to smoke-test it; the server never returns and timeout kills it with exit 124",
    "timeout 2 python3 -u serve.py",
    files={
        "serve.py": dedent("""
            import http.server, socketserver
            with socketserver.TCPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler) as httpd:
                print(f"Serving on http://127.0.0.1:{httpd.server_address[1]} (Ctrl-C to stop)")
                httpd.serve_forever()
        """),
    },
    expect=124,
    needs=("timeout", "python3"),
    confirm=r"Serving on",
)
add(
    "python-cpu-limit-regex-sigxcpu",
    "python3",
    "killed_signalled",
    None,
    "a log parser with a catastrophically backtracking regex runs under ulimit -t 1; the kernel ends it with SIGXCPU",
    "ulimit -S -t 1; exec python3 -u parse_log.py",
    files={
        "parse_log.py": dedent("""
            import re
            line = "GET /" + "a" * 40 + "!"
            pat = re.compile(r"^GET /(a+)+$")
            print("parsing 1 line", flush=True)
            print(bool(pat.match(line)))
        """),
    },
    expect="SIGXCPU",
    timeout=30,
    confirm=r"parsing 1 line",
)
add(
    "python-tqdm-progress-ok",
    "python3",
    "progress_on_stderr",
    "success",
    "a thumbnail job shows a tqdm progress bar on stderr and processes all 200 items",
    "python3 thumbs.py",
    files={
        "thumbs.py": dedent("""
            import time
            from tqdm import tqdm
            done = 0
            for i in tqdm(range(200), desc="thumbnails", mininterval=0.01):
                time.sleep(0.002)
                done += 1
            print(f"generated {done} thumbnails")
        """),
    },
    confirm=r"(?s)(?=.*thumbnails: 100%)(?=.*generated 200 thumbnails)",
)
add(
    "python-tqdm-progress-crash-midway",
    "python3",
    "progress_on_stderr",
    "failure",
    "an embedding job's tqdm bar reaches 37% and then a bad record raises KeyError; the job exits 1",
    "python3 embed.py",
    files={
        "embed.py": dedent("""
            import time
            from tqdm import tqdm
            records = [{"id": i, "text": f"doc {i}"} for i in range(100)]
            records[37] = {"id": 37, "body": "legacy field name"}
            for r in tqdm(records, desc="embedding", mininterval=0.01):
                time.sleep(0.003)
                vec = [ord(c) for c in r["text"]]
        """),
    },
    expect=1,
    confirm=r"(?s)(?=.*embedding:\s+3\d%)(?=.*KeyError: 'text')",
)
add(
    "python-rich-traceback-forced-colour",
    "python3",
    "coloured_output",
    "failure",
    "a CLI installs rich's traceback handler; with FORCE_COLOR=1 a ZeroDivisionError prints as a coloured framed traceback and the script exits 1",
    "python3 report.py",
    env={"FORCE_COLOR": "1", "COLUMNS": "100"},
    files={
        "report.py": dedent("""
            from rich.traceback import install
            install(show_locals=False)

            def average(xs):
                return sum(xs) / len(xs)

            print("weekly report")
            print(average([]))
        """),
    },
    expect=1,
    confirm=r"ZeroDivisionError",
)

# --- pip / ruff / mypy / black -------------------------------------------------------------------

add(
    "pip-wheel-setuptools-deprecations",
    "pip",
    "success_alarming_stderr",
    None,
    "pip wheel builds a local package whose setup.cfg uses deprecated dash-separated keys; setuptools prints deprecation warnings and the wheel is built",
    "pip wheel --no-deps --no-build-isolation -w dist . && ls dist",
    files={
        "setup.py": "from setuptools import setup\nsetup()\n",
        "setup.cfg": "[metadata]\nname = tinyutil\nversion = 0.3.1\ndescription-file = README.md\nhome-page = https://example.invalid\n\n[options]\npy_modules = tinyutil\n",
        "tinyutil.py": "def clamp(x, lo, hi):\n    return max(lo, min(hi, x))\n",
        "README.md": "tinyutil\n",
    },
    timeout=120,
    confirm=r"(?s)(?=.*[Dd]eprecat)(?=.*tinyutil-0\.3\.1-py3-none-any\.whl)",
)
add(
    "ruff-fix-all-fixed-then-format",
    "ruff",
    "success_alarming_stderr",
    None,
    "a pre-commit style step runs ruff check --fix (it fixes every finding) then ruff format; both exit 0",
    "ruff check --select F401,I,UP --fix . && ruff format .",
    files={
        "app.py": "import os, sys\nfrom typing import List\nimport json\n\ndef names(xs: List[str]) -> List[str]:\n    return sorted(set(xs))\n\nprint(json.dumps(names(['b','a'])))\n",
    },
    confirm=r"(?s)(?=.*Found \d+ errors? \(\d+ fixed, 0 remaining\))(?=.*file.* reformatted)",
)
add(
    "mypy-output-head-truncated",
    "mypy",
    "exit0_hidden_failure",
    None,
    "the agent pipes mypy into head -5 to keep the context short; mypy found errors but head exits 0",
    "mypy --no-error-summary --strict inventory.py | head -5",
    files={
        "inventory.py": dedent("""
            from dataclasses import dataclass

            @dataclass
            class Item:
                sku: str
                qty: int

            def total(items):
                return sum(i.qty for i in items)

            def find(items: list[Item], sku: str) -> Item:
                for i in items:
                    if i.sku == sku:
                        return i

            def restock(item: Item, n: str) -> None:
                item.qty += n

            count: int = total([Item("a", 1)])
            label: str = count
        """),
    },
    timeout=120,
    confirm=r"error:",
)
add(
    "black-check-cannot-parse",
    "black",
    "plain_failure",
    None,
    "black --check meets a file with a syntax error it cannot parse; it reports 'error: cannot format' and exits 123",
    "black --check src",
    files={
        "src/ok.py": "x = 1\n",
        "src/broken.py": "def f(:\n    return 1\n",
    },
    expect=123,
    confirm=r"cannot format",
)

# --- httpie (new) --------------------------------------------------------------------------------

add(
    "httpie-500-no-check-status",
    "http",
    "exit0_hidden_failure",
    None,
    "the agent calls the API with httpie without --check-status; the route raises and returns 500, httpie prints it and exits 0",
    'http --ignore-stdin --print=hb POST "$HTTP_APP/boom" name=widget',
    confirm=r"500 Internal Server Error",
)
add(
    "httpie-pretty-json-colour",
    "http",
    "coloured_output",
    "success",
    "httpie --pretty=all fetches a JSON endpoint and prints colourised headers and body; status 200",
    'http --check-status --ignore-stdin --pretty=all --print=hb GET "$HTTP_APP/json"',
    confirm=r"application/json",
)

# --- cram / yamale / jsonschema / pre-commit-hooks (new) -----------------------------------------

CRAM_CLI = dedent("""
    #!/usr/bin/env python3
    import sys
    args = sys.argv[1:]
    if args[:1] == ["--version"]:
        print("greet 1.2.0")
    elif args:
        print("Hello, " + " ".join(args) + "!")
    else:
        print("usage: greet NAME", file=sys.stderr)
        sys.exit(2)
""")
add(
    "cram-cli-test-diff-fails",
    "cram",
    "plain_failure",
    None,
    "cram runs a CLI transcript test after the version was bumped; the output differs, cram prints the diff and exits 1",
    'PATH="$PWD/bin:$PATH" cram tests/greet.t',
    files={
        "bin/greet": CRAM_CLI,
        "tests/greet.t": "  $ greet --version\n  greet 1.1.0\n\n  $ greet Ada\n  Hello, Ada!\n\n  $ greet\n  usage: greet NAME\n  [2]\n",
    },
    expect=1,
    confirm=r"# Ran 1 tests, 0 skipped, 1 failed",
)
add(
    "cram-cli-test-pass",
    "cram",
    "plain_success",
    None,
    "cram runs a CLI transcript test that matches the program's output, including an expected exit status of 2",
    'PATH="$PWD/bin:$PATH" cram tests/greet.t',
    files={
        "bin/greet": CRAM_CLI,
        "tests/greet.t": "  $ greet --version\n  greet 1.2.0\n\n  $ greet Ada\n  Hello, Ada!\n\n  $ greet\n  usage: greet NAME\n  [2]\n",
    },
    confirm=r"# Ran 1 tests, 0 skipped, 0 failed",
)
add(
    "yamale-config-invalid",
    "yamale",
    "plain_failure",
    None,
    "yamale validates a deploy config against its schema; replicas is a string and a required key is missing, so validation fails with exit 1",
    "yamale -s schema.yaml deploy.yaml",
    files={
        "schema.yaml": "name: str()\nreplicas: int(min=1)\nimage: str()\nports: list(int())\n",
        "deploy.yaml": "name: api\nreplicas: 'three'\nports: [80, 443]\n",
    },
    expect=1,
    confirm=r"replicas",
)
add(
    "jsonschema-cli-deprecated-valid",
    "jsonschema",
    "success_alarming_stderr",
    None,
    "the legacy jsonschema CLI validates a valid config; it prints a DeprecationWarning about the CLI on stderr and exits 0",
    "jsonschema -i config.json schema.json && echo 'config valid'",
    files={
        "schema.json": '{"type": "object", "required": ["port"], "properties": {"port": {"type": "integer"}, "debug": {"type": "boolean"}}}\n',
        "config.json": '{"port": 8080, "debug": false}\n',
    },
    confirm=r"(?s)(?=.*[Dd]eprecat)(?=.*config valid)",
)
add(
    "check-json-trailing-comma",
    "check-json",
    "plain_failure",
    None,
    "the pre-commit check-json hook finds a trailing comma in a tsconfig-like file and exits 1",
    "check-json settings.json package.json",
    files={
        "settings.json": '{\n  "editor.tabSize": 2,\n  "files.eol": "\\n",\n}\n',
        "package.json": '{"name": "x", "version": "1.0.0"}\n',
    },
    expect=1,
    confirm=r"settings\.json: Failed to json decode",
)
add(
    "check-toml-loop-last-file-ok",
    "check-toml",
    "exit0_hidden_failure",
    None,
    "a hook script validates each TOML file in a for loop without collecting statuses; pyproject.toml is invalid but the last file is fine and the loop exits 0",
    'for f in pyproject.toml ruff.toml; do check-toml "$f" && echo "$f ok"; done',
    files={
        "pyproject.toml": '[project]\nname = "svc"\nversion = "0.1.0"\ndependencies = ["requests>=2",\n\n[tool.ruff]\nline-length = 100\n',
        "ruff.toml": "line-length = 100\n",
    },
    confirm=r"pyproject\.toml: Invalid value",
)
add(
    "pygmentize-terminal256",
    "pygmentize",
    "coloured_output",
    "success",
    "pygmentize renders a Python file with the terminal256 formatter for a review comment; it prints ANSI-coloured source",
    "pygmentize -f terminal256 -O style=monokai -l python app.py",
    files={
        "app.py": "def greet(name: str) -> str:\n    # say hello\n    return f'Hello, {name}!'\n"
    },
    confirm=r"greet",
)
add(
    "csvgrep-failed-orders",
    "csvgrep",
    "plain_success",
    None,
    "csvgrep filters the orders export to the failed payments for a support ticket",
    "csvgrep -c status -m failed orders.csv | csvlook",
    files={
        "orders.csv": "id,customer,status,total\n1,acme,paid,19.90\n2,globex,failed,5.00\n3,initech,paid,120.00\n4,umbrella,failed,42.00\n",
    },
    needs=("csvgrep", "csvlook"),
    confirm=r"umbrella",
)

# --- djlint / cmake-format / gitlint (new) -------------------------------------------------------

TEMPLATE = dedent("""
    <!DOCTYPE html>
    <html>
    <head><title>{{ title }}</title></head>
    <body>
    <img src="{{ logo }}">
    <div class="nav"><a href="/">Home</a><a href="/about" target="_blank">About</a></div>
    {% if user %}<p>Hello {{ user.name }}</p>{% endif %}
    <script src="app.js"></script>
    </body>
    </html>
""")
add(
    "djlint-lint-findings",
    "djlint",
    "plain_failure",
    None,
    "djlint --lint finds accessibility and style issues in a Jinja template (img without alt, missing lang) and exits 1",
    "djlint templates --lint --profile=jinja",
    files={"templates/base.html": TEMPLATE},
    expect=1,
    confirm=r"H006|H005",
)
add(
    "djlint-lint-or-true-in-hook",
    "djlint",
    "exit0_hidden_failure",
    None,
    "a lint script runs djlint --lint || true so template findings never block; djlint found issues and the step exits 0",
    "djlint templates --lint --profile=jinja || true",
    files={"templates/base.html": TEMPLATE},
    confirm=r"H006|H005",
    group="fresh7-djlint-lint-findings",
)
add(
    "cmake-lint-findings",
    "cmake-lint",
    "plain_failure",
    None,
    "cmake-lint checks a CMakeLists.txt and reports naming and line-length findings; it exits 1",
    "cmake-lint CMakeLists.txt",
    files={
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(demo C)\nset(mySources main.c util.c)\nadd_executable(demo ${mySources})\ntarget_compile_options(demo PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wnull-dereference)\n",
    },
    expect=1,
    confirm=r"C0",
)
add(
    "cmake-format-in-place-ok",
    "cmake-format",
    "plain_success",
    None,
    "cmake-format -i rewrites a CMakeLists.txt in place and a --check run afterwards is clean",
    "cmake-format -i CMakeLists.txt && cmake-format --check CMakeLists.txt && echo 'CMakeLists.txt formatted'",
    files={
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(demo C)\nADD_EXECUTABLE(demo main.c   util.c)\ntarget_link_libraries(demo PRIVATE m)\n",
    },
    confirm=r"formatted",
)
add(
    "gitlint-commit-msg-violations",
    "gitlint",
    "plain_failure",
    None,
    "a commit-msg hook runs gitlint on the message file; the title is too long and ends with a period, gitlint exits with the violation count",
    "gitlint --msg-filename COMMIT_EDITMSG",
    files={
        "COMMIT_EDITMSG": "Fix the flaky retry logic in the payment client that was causing intermittent failures in CI.\nrefs #42\n",
    },
    setup="git init -q .",
    expect="nonzero",
    confirm=r"T1 Title exceeds max length",
)
