"""Second fresh batch (split ``fresh``, ids ``fresh2-*``): robot, behave, pycodestyle,
pydocstyle, yapf, radon, mdformat, twine, yq and invoke, and more runs of python3, pytest,
unittest, coverage and pip."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh2")


# --- robot framework -----------------------------------------------------------------------------

ROBOT_SUITE = dedent("""
    *** Settings ***
    Library    OperatingSystem
    Library    Collections

    *** Variables ***
    ${EXPECTED_NODES}    3

    *** Test Cases ***
    Config File Is Written
        Create File    ${CURDIR}/app.cfg    workers=4
        File Should Exist    ${CURDIR}/app.cfg

    Cluster Has All Nodes
        @{nodes}=    Create List    node-a    node-b
        ${count}=    Get Length    ${nodes}
        Should Be Equal As Integers    ${count}    ${EXPECTED_NODES}    msg=cluster is missing nodes
""")
add(
    "robot-suite-fail",
    "robot",
    "plain_failure",
    None,
    "a Robot Framework suite expects three cluster nodes, finds two, and robot exits 1",
    "robot --output NONE --report NONE --log NONE cluster.robot",
    files={"cluster.robot": ROBOT_SUITE},
    confirm=r"cluster is missing nodes",
)
add(
    "robot-suite-fail-echo-report",
    "robot",
    "exit0_hidden_failure",
    None,
    "acceptance step runs robot then '; echo' the report location; a test fails and the echo makes it exit 0",
    'robot --outputdir results cluster.robot; echo "report: results/report.html"',
    files={"cluster.robot": ROBOT_SUITE},
    confirm=r"1 failed",
)
add(
    "robot-warn-retry-pass",
    "robot",
    "success_alarming_stderr",
    None,
    "a robot suite logs WARN lines about a refused connection it retries; both tests pass",
    "robot --output NONE --report NONE --log NONE health.robot",
    files={
        "health.robot": dedent("""
            *** Test Cases ***
            Service Answers After Retry
                Log    Connection refused by 127.0.0.1:5432, retrying in 1s (attempt 1/3)    WARN
                Log    ERROR: backend not ready yet    WARN
                Should Be Equal    ready    ready

            Config Is Valid
                Should Contain    workers=4    workers
        """),
    },
    confirm=r"(?s)^(?=.*WARN)(?=.*2 tests?, 2 passed, 0 failed)",
)

# --- behave --------------------------------------------------------------------------------------

BEHAVE_FILES = {
    "features/cart.feature": dedent("""
        Feature: Shopping cart
          Scenario: adding apples
            Given an empty cart
            When I add 2 apples
            Then the cart holds 3 items

          Scenario: removing an item
            Given an empty cart
            When I add 1 apples
            Then the cart holds 1 items
    """),
    "features/steps/cart_steps.py": dedent("""
        from behave import given, when, then

        @given("an empty cart")
        def empty(ctx):
            ctx.cart = []

        @when("I add {n:d} apples")
        def add_apples(ctx, n):
            ctx.cart += ["apple"] * n

        @then("the cart holds {n:d} items")
        def holds(ctx, n):
            assert len(ctx.cart) == n, f"expected {n} items, got {len(ctx.cart)}"
    """),
}
add(
    "behave-fail-or-echo",
    "behave",
    "exit0_hidden_failure",
    None,
    "CI runs behave '|| echo' a notice; one scenario's assertion fails and the echo exits 0",
    "behave --no-color features || echo 'behave reported problems, see above'",
    files=BEHAVE_FILES,
    confirm=r"expected 3 items, got 2",
)
add(
    "behave-fail",
    "behave",
    "plain_failure",
    None,
    "behave runs the cart feature; one scenario fails and behave exits 1",
    "behave --no-color features",
    files=BEHAVE_FILES,
    confirm=r"1 failed",
)
add(
    "behave-logged-errors-pass",
    "behave",
    "success_alarming_stderr",
    None,
    "behave scenarios exercise a payment client that logs errors and a traceback for a declined card; all steps pass",
    "behave --no-color --no-logcapture features",
    files={
        "features/pay.feature": dedent("""
            Feature: Payments
              Scenario: declined card is reported
                Given a card that the bank declines
                When I pay 20 EUR
                Then the payment is marked declined
        """),
        "features/steps/pay_steps.py": dedent("""
            import logging
            from behave import given, when, then
            logging.basicConfig(level=logging.INFO)
            log = logging.getLogger("payments")

            class Declined(Exception):
                pass

            @given("a card that the bank declines")
            def card(ctx):
                ctx.card = "4000000000000002"

            @when("I pay {amount:d} EUR")
            def pay(ctx, amount):
                try:
                    raise Declined(f"card {ctx.card[-4:]} declined: insufficient funds")
                except Declined:
                    log.exception("ERROR payment of %s EUR failed", amount)
                    ctx.status = "declined"

            @then("the payment is marked declined")
            def marked(ctx):
                assert ctx.status == "declined"
        """),
    },
    confirm=r"(?s)^(?=.*Traceback)(?=.*1 scenario passed, 0 failed)",
)

# --- pycodestyle / pydocstyle --------------------------------------------------------------------

STYLE_SRC = {
    "src/app.py": "import os,sys\ndef main( argv ):\n    x=1\n    return x+len(argv)\n",
    "src/util.py": "def helper():\n    return 42\n",
}
add(
    "pycodestyle-tee",
    "pycodestyle",
    "exit0_hidden_failure",
    None,
    "lint step pipes pycodestyle into tee for the CI artifact; style errors are found and tee exits 0",
    "pycodestyle src | tee pycodestyle.txt",
    files=STYLE_SRC,
    confirm=r"E231",
)
add(
    "pycodestyle-clean",
    "pycodestyle",
    "plain_success",
    None,
    "pycodestyle checks a clean module and the step prints a summary",
    "pycodestyle src/util.py && echo 'pycodestyle: 0 issues'",
    files=STYLE_SRC,
    confirm=r"0 issues",
)
add(
    "pydocstyle-verbose-fail",
    "pydocstyle",
    "failure_noisy_stderr",
    None,
    "pydocstyle --verbose --explain lists missing docstrings with long explanations and exits 1",
    "pydocstyle --verbose --explain --source src",
    files=STYLE_SRC,
    confirm=r"D103",
)

# --- yapf ----------------------------------------------------------------------------------------

add(
    "yapf-diff-fail",
    "yapf",
    "plain_failure",
    None,
    "yapf --diff finds a badly formatted module and exits non-zero",
    "yapf --diff src/app.py",
    files=STYLE_SRC,
    confirm=r"\+\+\+",
)
add(
    "yapf-inplace-ok",
    "yapf",
    "plain_success",
    None,
    "yapf -i reformats the module and a following --diff finds nothing",
    "yapf -i -r src && yapf --diff -r src && echo 'formatted with yapf'",
    files=STYLE_SRC,
    confirm=r"formatted with yapf",
)

# --- radon ---------------------------------------------------------------------------------------

add(
    "radon-syntax-error-exit0",
    "radon",
    "exit0_hidden_failure",
    None,
    "complexity report over a package with a Python 2 module: radon prints ERROR for it and exits 0 without its figures",
    "radon cc -s -a pkg",
    files={
        "pkg/new.py": "def f(x):\n    if x:\n        return 1\n    return 2\n",
        "pkg/legacy.py": "def g(x):\n    print 'value', x\n    return x\n",
    },
    confirm=r"ERROR",
)
add(
    "radon-mi-ok",
    "radon",
    "plain_success",
    None,
    "radon mi prints the maintainability index of two small modules",
    "radon mi -s pkg",
    files={
        "pkg/a.py": "def f(x):\n    return x + 1\n",
        "pkg/b.py": "def g(y):\n    return y * 2\n",
    },
    confirm=r"pkg/a\.py - A",
)

# --- mdformat ------------------------------------------------------------------------------------

MD = {"docs/guide.md": "Title\n=====\n\n* one\n* two\n\nSome   text  here.\n"}
add(
    "mdformat-check-fail",
    "mdformat",
    "plain_failure",
    None,
    "mdformat --check finds an unformatted markdown file and exits 1",
    "mdformat --check docs",
    files=MD,
)
add(
    "mdformat-check-or-true",
    "mdformat",
    "exit0_hidden_failure",
    None,
    "docs job runs 'mdformat --check docs || true'; the guide is not formatted and the failure is swallowed",
    "mdformat --check docs || true",
    files=MD,
    confirm=r"guide\.md",
)

# --- twine ---------------------------------------------------------------------------------------

TWINE_PKG = {
    "pyproject.toml": dedent("""
        [build-system]
        requires = ["setuptools"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "acme-widgets"
        version = "0.1.0"
    """),
    "acme_widgets/__init__.py": "VERSION = '0.1.0'\n",
}
TWINE_SETUP = "pip wheel -q --no-deps --no-build-isolation -w dist . >/dev/null 2>&1"
add(
    "twine-check-warnings-pass",
    "twine",
    "success_alarming_stderr",
    None,
    "twine check passes a wheel without a long description, printing WARNING lines about it",
    "twine check dist/*",
    files=TWINE_PKG,
    setup=TWINE_SETUP,
    timeout=120,
    confirm=r"(?s)^(?=.*WARNING)(?=.*PASSED)",
)
add(
    "twine-check-strict-fail",
    "twine",
    "plain_failure",
    None,
    "twine check --strict fails the same wheel on its missing long description and exits 1",
    "twine check --strict dist/*",
    files=TWINE_PKG,
    setup=TWINE_SETUP,
    timeout=120,
    confirm=r"FAILED",
)

# --- yq (python, jq wrapper) ---------------------------------------------------------------------

DEPLOY = {
    "deploy.yaml": "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n      - name: web\n        image: web:1.0\n",
    "broken.yaml": "spec:\n  replicas: 1\n   image: web:1.0\n",
}
add(
    "yq-parse-error",
    "yq",
    "plain_failure",
    None,
    "yq reads a YAML file with a bad indent, reports the parser error and exits 1",
    "yq -y '.spec.replicas = 3' broken.yaml",
    files=DEPLOY,
)
add(
    "yq-fallback-copy",
    "yq",
    "exit0_hidden_failure",
    None,
    "render step sets replicas with yq, falls back to copying the template on error; the YAML is broken so replicas stay unset",
    "yq -y '.spec.replicas = 3' broken.yaml > out.yaml || cp broken.yaml out.yaml; echo 'rendered out.yaml'",
    files=DEPLOY,
    confirm=r"(?i)error",
)
add(
    "yq-set-replicas",
    "yq",
    "plain_success",
    None,
    "yq sets the replica count of a deployment and prints the result",
    "yq -y '.spec.replicas = 3' deploy.yaml",
    files=DEPLOY,
    confirm=r"replicas: 3",
)

# --- invoke --------------------------------------------------------------------------------------

INVOKE_PROJECT = {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "tests/test_calc.py": "from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n",
    "conftest.py": "import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n",
}
add(
    "invoke-warn-true",
    "invoke",
    "exit0_hidden_failure",
    None,
    "an invoke task runs the test suite with warn=True; the test fails, the task prints its summary and invoke exits 0",
    "invoke test",
    files={
        **INVOKE_PROJECT,
        "tasks.py": dedent("""
            from invoke import task

            @task
            def test(c):
                c.run("python3 -m pytest -q -p no:cacheprovider tests", warn=True)
                print("test task finished")
        """),
    },
    confirm=r"1 failed",
)
add(
    "invoke-unexpected-exit",
    "invoke",
    "plain_failure",
    None,
    "an invoke task runs the test suite; the test fails and invoke exits with pytest's code",
    "invoke test",
    files={
        **INVOKE_PROJECT,
        "tasks.py": 'from invoke import task\n\n@task\ndef test(c):\n    c.run("python3 -m pytest -q -p no:cacheprovider tests")\n',
    },
    confirm=r"1 failed",
)

# --- python3 -------------------------------------------------------------------------------------

add(
    "python-del-flush-ignored",
    "python3",
    "exit0_hidden_failure",
    None,
    "export script buffers rows and flushes them in __del__; the flush raises, Python prints 'Exception ignored' and exits 0 with nothing written",
    "python3 export.py; ls -l out.csv 2>&1 || true",
    files={
        "export.py": dedent("""
            class BufferedWriter:
                def __init__(self, path):
                    self.path, self.rows = path, []
                def write(self, row):
                    self.rows.append(row)
                def __del__(self):
                    with open(self.path + "/nope/out.csv", "w") as fh:
                        fh.writelines(",".join(map(str, r)) + "\\n" for r in self.rows)

            w = BufferedWriter(".")
            for i in range(3):
                w.write((i, i * i))
            print("queued 3 rows for export")
        """),
    },
    confirm=r"Exception ignored",
)
add(
    "python-pool-error-callback",
    "python3",
    "exit0_hidden_failure",
    None,
    "thumbnail job maps images over a multiprocessing pool with an error_callback that only logs; every worker raises and the job exits 0",
    "python3 thumbs.py",
    files={
        "thumbs.py": dedent("""
            import logging, multiprocessing as mp
            logging.basicConfig(format="%(levelname)s %(message)s")

            def thumb(name):
                raise OSError(f"cannot identify image file {name!r}")

            def on_error(exc):
                logging.error("thumbnail failed: %s", exc)

            if __name__ == "__main__":
                with mp.Pool(2) as pool:
                    for n in ["a.png", "b.png", "c.png"]:
                        pool.apply_async(thumb, (n,), error_callback=on_error)
                    pool.close()
                    pool.join()
                print("thumbnail job done")
        """),
    },
    confirm=r"cannot identify image file",
)
add(
    "python-dev-warnings-ok",
    "python3",
    "success_alarming_stderr",
    None,
    "a migration script run with -X dev prints ResourceWarning and DeprecationWarning lines but migrates all rows",
    "python3 -X dev migrate.py && sqlite3 app.db 'select count(*) from users'",
    files={
        "migrate.py": dedent("""
            import sqlite3, datetime, warnings
            warnings.warn("the 'legacy_id' column is deprecated and will be dropped in 3.0", DeprecationWarning)
            f = open("rows.txt", "w"); f.write("x")
            del f
            db = sqlite3.connect("app.db")
            db.execute("create table users (name text, created text)")
            for n in ["ada", "bob", "cy"]:
                db.execute("insert into users values (?, ?)", (n, datetime.datetime.utcnow().isoformat()))
            db.commit()
            db.close()
            print("migrated 3 rows")
        """),
    },
    needs=("python3", "sqlite3"),
    confirm=r"(?s)^(?=.*Warning)(?=.*migrated 3 rows)",
)
add(
    "python-timeout-int",
    "python3",
    "killed_signalled",
    None,
    "a crawler loop is stopped by 'timeout -s INT 2'; Python prints a KeyboardInterrupt traceback and timeout exits 124",
    "timeout -s INT 2 python3 crawl.py",
    files={
        "crawl.py": "import time\nn = 0\nwhile True:\n    n += 1\n    print(f'page {n}', flush=True)\n    time.sleep(0.5)\n",
    },
    expect=124,
    confirm=r"KeyboardInterrupt",
)
add(
    "python-latin1-rejects",
    "python3",
    "non_utf8",
    "failure",
    "a CSV importer writes the raw Latin-1 rows it rejects to stderr and exits 1",
    "python3 importer.py customers.csv",
    files={
        "importer.py": dedent("""
            import sys
            bad = 0
            for raw in open(sys.argv[1], "rb"):
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError:
                    bad += 1
                    sys.stderr.buffer.write(b"rejected row: " + raw)
            if bad:
                print(f"{bad} rows are not UTF-8; import aborted", file=sys.stderr)
                sys.exit(1)
        """),
        "customers.csv": "id,name\n1,Ana\n2,Jos\xe9\n3,Fran\xe7oise\n".encode("latin-1"),
    },
    confirm=r"import aborted",
)

# --- unittest, coverage, pip, pytest --------------------------------------------------------------

add(
    "unittest-logged-exception-ok",
    "unittest",
    "success_alarming_stderr",
    None,
    "a unittest suite checks that a worker logs and skips a poisoned message; logging prints ERROR and a traceback, tests are OK",
    "python3 -m unittest -v test_worker",
    files={
        "test_worker.py": dedent("""
            import json, logging, unittest
            log = logging.getLogger("worker")
            logging.basicConfig(level=logging.INFO)

            def handle(messages):
                done = []
                for m in messages:
                    try:
                        done.append(json.loads(m)["id"])
                    except (ValueError, KeyError):
                        log.exception("ERROR dropping poisoned message %r", m)
                return done

            class WorkerTest(unittest.TestCase):
                def test_skips_poison(self):
                    self.assertEqual(handle(['{"id": 1}', "{not json", '{"id": 3}']), [1, 3])

                def test_empty(self):
                    self.assertEqual(handle([]), [])
        """),
    },
    confirm=r"(?s)^(?=.*Traceback)(?=.*\bOK\b)",
)
add(
    "coverage-run-semicolon-report",
    "coverage",
    "exit0_hidden_failure",
    None,
    "CI runs 'coverage run -m pytest; coverage report'; a test fails but the report's exit 0 ends the step",
    "coverage run -m pytest -q -p no:cacheprovider tests; coverage report -m",
    files=INVOKE_PROJECT,
    confirm=r"1 failed",
)
add(
    "pip-verbose-no-index-fail",
    "pip",
    "failure_noisy_stderr",
    None,
    "pip install -vv of a package that is not available offline prints pages of index-lookup detail and exits 1",
    "pip install -vv --no-index --find-links wheels 'requests-mock-server==9.9'",
    setup="mkdir -p wheels",
    confirm=r"No matching distribution",
)
add(
    "pytest-make-dash-recipe",
    "make",
    "exit0_hidden_failure",
    None,
    "a Makefile's check target runs '-pytest' so make ignores its failure and goes on to print 'checks done'",
    "make check",
    files={
        **INVOKE_PROJECT,
        "Makefile": "check:\n\t-python3 -m pytest -q -p no:cacheprovider tests\n\t@echo checks done\n",
    },
    confirm=r"(?s)^(?=.*1 failed)(?=.*Error 1 \(ignored\))",
)
add(
    "pytest-stderr-invalid-qty-pass",
    "pytest",
    "success_alarming_stderr",
    None,
    "a property test passes; code under test prints 'ERROR invalid quantity' on stderr for rejected inputs and -s shows it",
    "python3 -m pytest -s -q -p no:cacheprovider test_qty.py",
    files={
        "test_qty.py": dedent("""
            import sys

            def parse_qty(text):
                try:
                    n = int(text)
                except ValueError:
                    print(f"ERROR invalid quantity {text!r}, using 0", file=sys.stderr)
                    return 0
                return max(n, 0)

            def test_valid():
                assert parse_qty("7") == 7

            def test_invalid_is_zero():
                for bad in ["x", "", "1.5"]:
                    assert parse_qty(bad) == 0
        """),
    },
    confirm=r"(?s)^(?=.*ERROR invalid quantity)(?=.*2 passed)",
)
