"""Fresh batch (split ``fresh``): python3, pytest (+xdist, hypothesis), nox, tox, sqlfluff,
vulture, pyflakes, codespell, sqlite-utils, pre-commit and uv."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh")


# --- pytest, pytest-xdist, hypothesis ----------------------------------------------------------

PRICING = {
    "pricing.py": dedent("""
        import logging
        log = logging.getLogger("pricing")

        def net(gross, vat=0.2):
            if gross < 0:
                log.error("negative gross amount %s rejected", gross)
                raise ValueError(f"gross must be >= 0, got {gross}")
            return round(gross / (1 + vat), 2)

        def discount(price, pct):
            return round(price * (1 - pct / 100), 2)
    """),
}
XDIST_TESTS = {
    **PRICING,
    "tests/test_pricing.py": dedent("""
        import pytest
        from pricing import net, discount

        @pytest.mark.parametrize("gross", range(0, 400, 10))
        def test_net_not_above_gross(gross):
            assert net(gross) <= gross

        def test_discount_ten_percent():
            assert discount(100, 10) == 90

        def test_discount_rounding():
            assert discount(80, 25) == 55.0
    """),
    "conftest.py": "import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n",
}
add(
    "pytest-xdist-fail-tail",
    "pytest",
    "exit0_hidden_failure",
    None,
    "CI step runs the suite on 2 xdist workers piped into tail; a rounding test fails, tail exits 0",
    "python3 -m pytest -n 2 -q -p no:cacheprovider tests 2>&1 | tail -n 15",
    files=XDIST_TESTS,
    confirm=r"1 failed",
    timeout=150,
)
add(
    "pytest-xdist-verbose-one-fail",
    "pytest",
    "failure_noisy_stderr",
    None,
    "verbose xdist run prints a PASSED line per param, one rounding test fails and pytest exits 1",
    "python3 -m pytest -n 2 -vv -p no:cacheprovider tests",
    files=XDIST_TESTS,
    confirm=r"1 failed",
    timeout=150,
)
add(
    "pytest-xdist-pass",
    "pytest",
    "plain_success",
    None,
    "the pricing suite without the broken test passes on two xdist workers",
    "python3 -m pytest -n 2 -q -p no:cacheprovider tests -k 'not rounding'",
    files=XDIST_TESTS,
    confirm=r"passed",
    timeout=150,
)

add(
    "pytest-rp-captured-traceback-pass",
    "pytest",
    "success_alarming_stderr",
    None,
    "tests check that bad input is rejected; the code logs the error and -rP prints the captured logs of the passing tests",
    "python3 -m pytest -rP -p no:cacheprovider test_reject.py",
    files={
        **PRICING,
        "test_reject.py": dedent("""
            import logging, traceback, sys
            import pytest
            from pricing import net

            def test_negative_rejected():
                with pytest.raises(ValueError):
                    net(-5)

            def test_reject_is_reported():
                try:
                    net(-1)
                except ValueError:
                    traceback.print_exc()
                else:
                    raise AssertionError("negative amount accepted")

            def test_positive():
                assert net(120) == 100.0
        """),
    },
    confirm=r"(?s)^(?=.*Traceback)(?=.*3 passed)",
)
add(
    "pytest-sessionfinish-forces-zero",
    "pytest",
    "exit0_hidden_failure",
    None,
    "a conftest hook resets the exit status to 0 to 'tolerate flaky tests'; a real assertion fails",
    "python3 -m pytest -q -p no:cacheprovider",
    files={
        "conftest.py": dedent("""
            def pytest_sessionfinish(session, exitstatus):
                if exitstatus == 1:
                    print("\\nnote: failures tolerated (flaky suite), forcing exit 0")
                    session.exitstatus = 0
        """),
        "test_inventory.py": dedent("""
            def reserve(stock, qty):
                return stock - qty

            def test_reserve():
                assert reserve(10, 3) == 7

            def test_reserve_never_negative():
                assert reserve(2, 5) >= 0, "stock went negative"
        """),
    },
    confirm=r"1 failed",
)
add(
    "pytest-junitxml-then-echo",
    "pytest",
    "exit0_hidden_failure",
    None,
    "script runs the tests writing junit xml, then echoes where the report is; a test errors in setup",
    "python3 -m pytest -q -p no:cacheprovider --junitxml=report.xml; echo 'test report written to report.xml'",
    files={
        "test_db.py": dedent("""
            import pytest, sqlite3

            @pytest.fixture
            def db():
                conn = sqlite3.connect("file:missing.db?mode=ro", uri=True)
                yield conn
                conn.close()

            def test_schema(db):
                assert db.execute("select 1").fetchone() == (1,)
        """),
    },
    confirm=r"1 error",
)

HYPO = {
    "slug.py": dedent("""
        import re, sys

        def slugify(text):
            s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
            if not s:
                print(f"ERROR slugify: input {text!r} has no usable characters, using 'item'", file=sys.stderr)
                return "item"
            return s
    """),
}
add(
    "hypothesis-falsified",
    "pytest",
    "plain_failure",
    None,
    "a property test claims slugify output length never exceeds the input; hypothesis finds a counterexample",
    "python3 -m pytest -q -p no:cacheprovider test_slug.py",
    files={
        **HYPO,
        "test_slug.py": dedent("""
            from hypothesis import given, strategies as st, settings
            from slug import slugify

            @settings(database=None, derandomize=True)
            @given(st.text())
            def test_not_longer(text):
                assert len(slugify(text)) <= len(text)
        """),
    },
    confirm=r"FAILED test_slug.py::test_not_longer",
)
add(
    "hypothesis-pass-stderr-errors",
    "pytest",
    "success_alarming_stderr",
    None,
    "property tests of slugify pass; the code under test prints ERROR lines for empty inputs and -s shows them",
    "python3 -m pytest -q -s -p no:cacheprovider test_slug.py",
    files={
        **HYPO,
        "test_slug.py": dedent("""
            from hypothesis import given, strategies as st, settings
            from slug import slugify

            @settings(database=None, derandomize=True, max_examples=60)
            @given(st.text(alphabet="!? -_", max_size=6))
            def test_always_some_slug(text):
                assert slugify(text)

            @settings(database=None, derandomize=True)
            @given(st.from_regex(r"[a-z]{1,10}", fullmatch=True))
            def test_lowercase_identity(text):
                assert slugify(text) == text
        """),
    },
    confirm=r"(?s)^(?=.*ERROR slugify)(?=.*2 passed)",
)

# --- python3 scripts ---------------------------------------------------------------------------

add(
    "python3-threadpool-callback-logs",
    "python3",
    "exit0_hidden_failure",
    None,
    "exporter submits 3 jobs to a thread pool; every job raises, a done-callback only logs, exit 0",
    "python3 export.py",
    files={
        "export.py": dedent("""
            import logging, os
            from concurrent.futures import ThreadPoolExecutor
            logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
            log = logging.getLogger("export")

            def export(name):
                with open(os.path.join("out-missing-dir", name + ".csv"), "w") as f:
                    f.write("id,value\\n")

            def done(fut):
                exc = fut.exception()
                if exc:
                    log.error("export job failed", exc_info=exc)

            with ThreadPoolExecutor(2) as pool:
                for name in ("users", "orders", "invoices"):
                    pool.submit(export, name).add_done_callback(done)
            print("export finished")
        """),
    },
    confirm=r"FileNotFoundError",
)
add(
    "python3-asyncio-gather-swallowed",
    "python3",
    "exit0_hidden_failure",
    None,
    "async fetcher uses gather(return_exceptions=True) and just prints results; 2 of 3 fetches raised",
    "python3 fetch.py",
    files={
        "fetch.py": dedent("""
            import asyncio

            async def fetch(port):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                return f"port {port} ok"

            async def main():
                results = await asyncio.gather(fetch(1), fetch(9), fetch(2), return_exceptions=True)
                for r in results:
                    print("result:", r)
                print("all fetches processed")

            asyncio.run(main())
        """),
    },
    confirm=r"Connect",
)
add(
    "python3-upload-502-logged",
    "python3",
    "exit0_hidden_failure",
    None,
    "uploader posts a report to the local app which answers 502; it logs the error and exits 0",
    "python3 upload.py",
    files={
        "upload.py": dedent("""
            import logging, os, urllib.request, urllib.error
            logging.basicConfig(level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s")
            log = logging.getLogger("uploader")
            url = os.environ["HTTP_APP"] + "/status/502"
            log.info("uploading report.json to %s", url)
            try:
                urllib.request.urlopen(urllib.request.Request(url, data=b"{}", method="POST"), timeout=5)
                log.info("upload complete")
            except urllib.error.HTTPError as e:
                log.error("upload failed: %s %s", e.code, e.reason)
        """),
    },
    confirm=r"upload failed: 502",
)
add(
    "python3-urllib-retry-recovers",
    "python3",
    "success_alarming_stderr",
    None,
    "client retries a flaky endpoint that answers 503 twice; it logs each traceback and the third try succeeds",
    "python3 client.py",
    files={
        "client.py": dedent("""
            import logging, os, time, urllib.request
            logging.basicConfig(format="%(levelname)s %(message)s")
            url = os.environ["HTTP_APP"] + "/flaky/fresh-py-retry/2"
            for attempt in range(1, 6):
                try:
                    body = urllib.request.urlopen(url, timeout=5).read().decode()
                    print("response:", body.strip())
                    break
                except Exception:
                    logging.exception("attempt %d failed, retrying in 0.2s", attempt)
                    time.sleep(0.2)
            else:
                raise SystemExit("giving up")
        """),
    },
    confirm=r"(?s)^(?=.*Traceback)(?=.*response: ok after 3)",
)
add(
    "python3-git-probe-fallback",
    "python3",
    "success_alarming_stderr",
    None,
    "release script probes for a tag that does not exist yet (git prints fatal), then creates it as designed",
    "python3 release.py",
    files={
        "release.py": dedent("""
            import subprocess
            probe = subprocess.run(["git", "rev-parse", "--verify", "v1.2.0"])
            if probe.returncode != 0:
                print("tag v1.2.0 not found, creating it")
                subprocess.run(["git", "tag", "v1.2.0"], check=True)
            print(subprocess.run(["git", "tag", "--list"], capture_output=True, text=True, check=True).stdout.strip())
        """),
    },
    setup="git init -q . && git commit -q --allow-empty -m init",
    confirm=r"(?s)^(?=.*fatal:)(?=.*not found, creating it\nv1\.2\.0)",
)
add(
    "python3-cpu-limit-sigxcpu",
    "python3",
    "killed_signalled",
    None,
    "a solver under a 1 s CPU rlimit spins past it and the kernel ends it with SIGXCPU",
    [
        "python3",
        "-c",
        "import resource\nresource.setrlimit(resource.RLIMIT_CPU, (1, 5))\nprint('solving...', flush=True)\nx = 0\nwhile True:\n    x += 1\n",
    ],
    expect="SIGXCPU",
)

# --- nox and tox --------------------------------------------------------------------------------

NOXFILE = dedent("""
    import nox

    @nox.session(python=False)
    def lint(session):
        session.run("python", "-c", "print('lint: 4 files checked')")

    @nox.session(python=False)
    def tests(session):
        session.run("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_calc.py")

    @nox.session(python=False)
    def tests_tolerant(session):
        session.run("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_calc.py", success_codes=[0, 1])
""")
CALC_FAIL = dedent("""
    def mean(xs):
        return sum(xs) / len(xs)

    def test_mean():
        assert mean([1, 2, 3]) == 2

    def test_mean_empty():
        assert mean([]) == 0
""")
CALC_OK = "def test_add():\n    assert 1 + 1 == 2\n\ndef test_str():\n    assert 'a' * 2 == 'aa'\n"
add(
    "nox-tests-fail",
    "nox",
    "plain_failure",
    None,
    "nox runs the test session; mean([]) raises ZeroDivisionError and the session fails",
    "nox -s tests",
    files={"noxfile.py": NOXFILE, "test_calc.py": CALC_FAIL},
    confirm=r"ZeroDivisionError",
)
add(
    "nox-success-codes-hide",
    "nox",
    "exit0_hidden_failure",
    None,
    "a nox session accepts pytest exit 1 via success_codes; a test fails and nox reports the session successful",
    "nox -s tests_tolerant",
    files={"noxfile.py": NOXFILE, "test_calc.py": CALC_FAIL},
    confirm=r"1 failed",
)
add(
    "nox-two-sessions-ok",
    "nox",
    "progress_on_stderr",
    "success",
    "nox runs lint and tests sessions, both pass; nox logs its steps on stderr",
    "nox -s lint tests",
    files={"noxfile.py": NOXFILE, "test_calc.py": CALC_OK},
    confirm=r"2 passed",
)

TOX_BASE = dedent("""
    [tox]
    env_list = py
    skip_missing_interpreters = false

    [testenv]
    skip_install = true
    package = skip
""")
add(
    "tox-ignore-outcome",
    "tox",
    "exit0_hidden_failure",
    None,
    "tox env has ignore_outcome = true; its unittest run fails and tox still exits 0",
    "tox -e py",
    files={
        "tox.ini": TOX_BASE
        + "ignore_outcome = true\ncommands = python -m unittest -v test_parse\n",
        "test_parse.py": dedent("""
            import unittest

            def parse_port(s):
                return int(s.split(":")[1])

            class T(unittest.TestCase):
                def test_ok(self):
                    self.assertEqual(parse_port("h:80"), 80)

                def test_no_port(self):
                    self.assertEqual(parse_port("localhost"), None)
        """),
    },
    confirm=r"IndexError",
    timeout=120,
)
add(
    "tox-dash-command",
    "tox",
    "exit0_hidden_failure",
    None,
    "tox command prefixed with '-' ignores its exit code; the checker script fails on a bad config",
    "tox -e py",
    files={
        "tox.ini": TOX_BASE
        + "commands =\n    - python check_config.py\n    python -c \"print('checks done')\"\n",
        "check_config.py": dedent("""
            import json
            cfg = json.load(open("config.json"))
            assert cfg["replicas"] > 0, "replicas must be positive"
        """),
        "config.json": '{"replicas": 0}\n',
    },
    confirm=r"replicas must be positive",
    timeout=120,
)
add(
    "tox-deprecation-warnings-pass",
    "tox",
    "success_alarming_stderr",
    None,
    "tox runs a test module under -W default; DeprecationWarnings print but every test passes",
    "tox -e py",
    files={
        "tox.ini": TOX_BASE + "commands = python -W default -m unittest test_dates\n",
        "test_dates.py": dedent("""
            import datetime, unittest

            class T(unittest.TestCase):
                def test_utcnow(self):
                    now = datetime.datetime.utcnow()
                    self.assertGreater(now.year, 2000)

                def test_locale(self):
                    import locale
                    self.assertEqual(len(locale.getdefaultlocale()), 2)

                def test_fromtimestamp(self):
                    self.assertEqual(datetime.datetime.utcfromtimestamp(0).year, 1970)
        """),
    },
    confirm=r"(?s)^(?=.*DeprecationWarning)(?=.*OK)",
    timeout=120,
)

# --- sqlfluff ----------------------------------------------------------------------------------

SQL_DIRTY = "SELECT id,name FROM users  WHERE active=1\n  ORDER BY name\n"
add(
    "sqlfluff-nofail",
    "sqlfluff",
    "exit0_hidden_failure",
    None,
    "SQL lint step runs with --nofail; the query has spacing violations so the check failed but exits 0",
    "sqlfluff lint --dialect ansi --nofail query.sql",
    files={"query.sql": SQL_DIRTY},
    confirm=r"L:\s+1",
)
add(
    "sqlfluff-fix-applied",
    "sqlfluff",
    "success_alarming_stderr",
    None,
    "sqlfluff fix rewrites the query, listing each violation it fixed; the file ends up clean",
    "sqlfluff fix --dialect ansi query.sql && sqlfluff lint --dialect ansi query.sql && echo LINT-CLEAN",
    files={"query.sql": SQL_DIRTY},
    confirm=r"LINT-CLEAN",
)
add(
    "sqlfluff-parse-error",
    "sqlfluff",
    "plain_failure",
    None,
    "a migration with a misspelled keyword cannot be parsed and sqlfluff lint exits non-zero",
    "sqlfluff lint --dialect ansi migrate.sql",
    files={"migrate.sql": "CREAT TABLE orders (id INT PRIMARY KEY, total NUMERIC);\n"},
)

# --- vulture, pyflakes, codespell ---------------------------------------------------------------

DEAD = {
    "app/service.py": dedent("""
        import os
        import json

        def handler(event):
            return {"ok": True, "n": len(event)}

        def _legacy_handler(event):
            return None

        def main():
            print(handler([1, 2]))
            return
            print("unreachable")
    """),
}
add(
    "vulture-or-true",
    "vulture",
    "exit0_hidden_failure",
    None,
    "dead-code check finds unused imports, a dead function and unreachable code; '|| true' hides it",
    "vulture app/ || true",
    files=DEAD,
    confirm=r"unused import",
)
add(
    "vulture-clean-whitelist",
    "vulture",
    "plain_success",
    None,
    "vulture on a small module whose only unused hook is whitelisted finds nothing",
    "vulture lib.py whitelist.py && echo 'no dead code'",
    files={
        "lib.py": "def area(w, h):\n    return w * h\n\n\ndef on_load(event):\n    return area(2, 3) + len(event)\n",
        "whitelist.py": "from lib import on_load\non_load\n",
    },
    confirm=r"no dead code",
)
add(
    "pyflakes-tee",
    "pyflakes",
    "exit0_hidden_failure",
    None,
    "pyflakes output is teed into a report file; it finds an undefined name, tee exits 0",
    "python3 -m pyflakes app/ | tee pyflakes.txt",
    files={
        **DEAD,
        "app/api.py": "def total(items):\n    return sum(i.price for i in itmes)\n",
    },
    confirm=r"undefined name 'itmes'",
)
add(
    "pyflakes-errors",
    "pyflakes",
    "plain_failure",
    None,
    "pyflakes finds an undefined name and an unused import and exits 1",
    "python3 -m pyflakes app/",
    files={
        **DEAD,
        "app/api.py": "def total(items):\n    return sum(i.price for i in itmes)\n",
    },
)
TYPO = {
    "README.md": "# Widgets\n\nThis libary recieves widgets and stores them seperately.\n",
    "src/util.py": "def occurence(xs, x):\n    # teh number of times x occurs\n    return xs.count(x)\n",
}
add(
    "codespell-or-true",
    "codespell",
    "exit0_hidden_failure",
    None,
    "spell check of docs and code finds several typos; the CI step appends '|| true'",
    "codespell README.md src || true",
    files=TYPO,
    confirm=r"recieves ==> receives",
)
add(
    "codespell-write-fixes",
    "codespell",
    "success_alarming_stderr",
    None,
    "codespell -w fixes every typo in the README and reports each FIXED word; a recheck is clean",
    "codespell -w README.md && codespell README.md && echo 'no typos left'",
    files={"README.md": TYPO["README.md"]},
    confirm=r"(?s)^(?=.*FIXED)(?=.*no typos left)",
)

# --- sqlite-utils ------------------------------------------------------------------------------

add(
    "sqlite-utils-insert-query",
    "sqlite-utils",
    "plain_success",
    None,
    "loads a JSON list into a table and queries it back",
    "sqlite-utils insert app.db users users.json --pk id && sqlite-utils query app.db 'select name from users order by id'",
    files={"users.json": '[{"id": 1, "name": "ada"}, {"id": 2, "name": "linus"}]\n'},
    confirm=r"linus",
)
add(
    "sqlite-utils-bad-column",
    "sqlite-utils",
    "plain_failure",
    None,
    "report query names a column the table does not have; sqlite-utils exits with an error",
    "sqlite-utils insert app.db users users.json --pk id && sqlite-utils query app.db 'select email from users'",
    files={"users.json": '[{"id": 1, "name": "ada"}]\n'},
)

# --- pre-commit ---------------------------------------------------------------------------------

PRECOMMIT_REPO = dedent("""
    git init -q .
    git add -A
    git commit -q -m init
""")
NO_PRINT = '#!/bin/bash\nif grep -n "print(" "$@"; then echo "error: print() found"; exit 1; fi\n'
PC_CONFIG = dedent("""
    repos:
      - repo: local
        hooks:
          - id: no-print
            name: forbid print() in src
            entry: ./hooks/no-print.sh
            language: system
            files: ^src/.*\\.py$
          - id: json-valid
            name: check json
            entry: python3 -m json.tool
            language: system
            files: \\.json$
""")
add(
    "pre-commit-hook-fails",
    "pre-commit",
    "plain_failure",
    None,
    "pre-commit runs local hooks on all files; the print() hook finds a print and fails the run",
    "pre-commit run --all-files",
    files={
        ".pre-commit-config.yaml": PC_CONFIG,
        "src/app.py": "def run():\n    print('debug')\n",
        "hooks/no-print.sh": NO_PRINT,
        "data.json": '{"a": 1}\n',
    },
    setup=PRECOMMIT_REPO,
    confirm=r"print\(\) found",
)
add(
    "pre-commit-or-true",
    "pre-commit",
    "exit0_hidden_failure",
    None,
    "pre-commit in a CI script with '|| true'; the JSON hook rejects a malformed file",
    "pre-commit run --all-files --show-diff-on-failure || true",
    files={
        ".pre-commit-config.yaml": PC_CONFIG,
        "src/app.py": "def run():\n    return 1\n",
        "hooks/no-print.sh": NO_PRINT,
        "data.json": '{"a": 1,}\n',
    },
    setup=PRECOMMIT_REPO,
    confirm=r"Expecting property name",
)
add(
    "pre-commit-verbose-warning-pass",
    "pre-commit",
    "success_alarming_stderr",
    None,
    "a verbose hook prints a deprecation WARNING but exits 0; every hook passes",
    "pre-commit run --all-files",
    files={
        ".pre-commit-config.yaml": dedent("""
            repos:
              - repo: local
                hooks:
                  - id: config-check
                    name: config check
                    entry: ./hooks/config-check.sh
                    language: system
                    pass_filenames: false
                    verbose: true
        """),
        "settings.toml": "timeout = 5\n",
        "hooks/config-check.sh": "#!/bin/bash\necho 'WARNING: key \"timeout\" is deprecated, use \"timeout_s\"' >&2\necho 'ERROR count: 0'\n",
    },
    setup=PRECOMMIT_REPO,
    confirm=r"(?s)^(?=.*WARNING)(?=.*Passed)",
)

# --- uv ----------------------------------------------------------------------------------------

add(
    "uv-venv-progress",
    "uv",
    "progress_on_stderr",
    "success",
    "uv creates a virtualenv from the local interpreter and reports its steps on stderr",
    "uv venv --python python3 .venv && test -x .venv/bin/python && echo venv-ready",
    env={
        "UV_OFFLINE": "1",
        "UV_PYTHON_DOWNLOADS": "never",
        "UV_CACHE_DIR": "/tmp/autofix-corpus-uv-cache",
    },
    confirm=r"venv-ready",
)
add(
    "uv-pip-install-offline-or-true",
    "uv",
    "exit0_hidden_failure",
    None,
    "setup script installs a dependency offline with '|| true'; the package cannot be resolved",
    "uv venv -q --python python3 .venv && uv pip install --python .venv/bin/python 'requests-corpus-missing==2.0' || true; echo 'environment ready'",
    env={
        "UV_OFFLINE": "1",
        "UV_PYTHON_DOWNLOADS": "never",
        "UV_CACHE_DIR": "/tmp/autofix-corpus-uv-cache",
    },
    confirm=r"requests-corpus-missing",
)
