"""Third fresh batch (ids ``fresh3-*``): JavaScript/TypeScript tools new to the corpus (pyright,
ts-node, ava, jasmine, nyc, node-tap, commitlint, lint-staged, npm-run-all) and new scenarios
for node, npm, jest, vitest, mocha, tsc, eslint and prettier."""

from __future__ import annotations

import json

from casekit import batch, dedent

CASES, add = batch("fresh3")


# The scratch dir gets the tools' node_modules so that test files can import their runner.
LINK_NM = 'ln -s "$(dirname "$(command -v tsc)")/.." node_modules'

# --- pyright -------------------------------------------------------------------------------------

PYR_BAD = {
    "svc.py": dedent("""
        from dataclasses import dataclass

        @dataclass
        class User:
            name: str
            age: int

        def load(raw: dict[str, str]) -> User:
            return User(name=raw["name"], age=raw["age"])

        def greet(u: User | None) -> str:
            return "hi " + u.name
    """),
}
add(
    "pyright-errors",
    "pyright",
    "plain_failure",
    None,
    "pyright type-checks a module that passes a str as an int and dereferences an Optional; it reports errors and exits 1",
    "pyright svc.py",
    files=PYR_BAD,
    expect=1,
    confirm=r"\d+ errors?",
    group="fresh3-pyright-bad",
)
add(
    "pyright-errors-semicolon-true",
    "pyright",
    "exit0_hidden_failure",
    None,
    "the type-check step runs 'pyright svc.py; true' so type errors never block; pyright reports errors and the step exits 0",
    "pyright svc.py; true",
    files=PYR_BAD,
    confirm=r"error: ",
    group="fresh3-pyright-bad",
)
add(
    "pyright-clean-zero-errors",
    "pyright",
    "success_alarming_stderr",
    None,
    "pyright checks a clean module and prints '0 errors, 0 warnings, 0 informations'",
    "pyright svc.py",
    files={"svc.py": "def add(a: int, b: int) -> int:\n    return a + b\n\nprint(add(1, 2))\n"},
    confirm=r"0 errors, 0 warnings",
)

# --- ts-node -------------------------------------------------------------------------------------

TS_CFG = '{"compilerOptions": {"strict": true, "target": "ES2020", "module": "commonjs", "esModuleInterop": true}}\n'
add(
    "ts-node-type-error",
    "ts-node",
    "plain_failure",
    None,
    "ts-node runs a migration script with a type error; the TSError stops it before it runs and it exits 1",
    "ts-node migrate.ts",
    files={
        "tsconfig.json": TS_CFG,
        "migrate.ts": "interface Row { id: number; email: string }\nconst rows: Row[] = [{ id: '1', email: 'a@b.c' }];\nconsole.log(`migrating ${rows.length} rows`);\n",
    },
    expect=1,
    confirm=r"TS2322|TSError",
)
add(
    "ts-node-catch-logs-exit0",
    "ts-node",
    "exit0_hidden_failure",
    None,
    "a ts-node -T (transpile-only) seed script wraps its work in try/catch that logs the error and returns; the seed file is missing and it exits 0",
    "ts-node -T seed.ts",
    files={
        "tsconfig.json": TS_CFG,
        "seed.ts": dedent("""
            import * as fs from "fs";
            async function main(): Promise<void> {
              try {
                const users = JSON.parse(fs.readFileSync("fixtures/users.json", "utf8"));
                console.log(`seeded ${users.length} users`);
              } catch (err) {
                console.error("seed failed:", err);
              }
            }
            main();
        """),
    },
    confirm=r"seed failed:.*ENOENT",
)
add(
    "ts-node-ok",
    "ts-node",
    "plain_success",
    None,
    "ts-node runs a typed report script that prints totals",
    "ts-node report.ts",
    files={
        "tsconfig.json": TS_CFG,
        "report.ts": "const sales: Record<string, number> = { eu: 120, us: 95 };\nconst total = Object.values(sales).reduce((a, b) => a + b, 0);\nconsole.log(`total ${total}`);\n",
    },
    confirm=r"total 215",
)

# --- ava -----------------------------------------------------------------------------------------

AVA_PKG = '{"name": "t", "type": "module", "ava": {"files": ["test/**/*.js"]}}\n'
AVA_BAD = dedent("""
    import test from "ava";

    const parse = (s) => s.split(",").map(Number);

    test("parses numbers", (t) => {
      t.deepEqual(parse("1,2,3"), [1, 2, 3]);
    });

    test("ignores blanks", (t) => {
      t.deepEqual(parse("1,,3"), [1, 3]);
    });
""")
add(
    "ava-fail",
    "ava",
    "plain_failure",
    None,
    "ava runs a CSV parser suite; the blank-handling test fails and ava exits 1",
    "ava",
    files={"package.json": AVA_PKG, "test/parse.js": AVA_BAD},
    setup=LINK_NM,
    expect=1,
    group="fresh3-ava-bad",
)
add(
    "ava-tap-tee",
    "ava",
    "exit0_hidden_failure",
    None,
    "ava --tap is written through tee for the CI artefact; a test fails and tee exits 0",
    "ava --tap | tee ava.tap",
    files={"package.json": AVA_PKG, "test/parse.js": AVA_BAD},
    setup=LINK_NM,
    confirm=r"not ok",
    group="fresh3-ava-bad",
)
add(
    "ava-pass-logs-errors",
    "ava",
    "success_alarming_stderr",
    None,
    "ava runs tests of an error path whose code logs 'ERROR upload rejected' with t.log and console.error; all tests pass",
    "ava --verbose",
    files={
        "package.json": AVA_PKG,
        "test/upload.js": dedent("""
            import test from "ava";

            function upload(size) {
              if (size > 10) {
                console.error(`ERROR upload rejected: ${size} MB exceeds the 10 MB limit`);
                throw new RangeError("file too large");
              }
              return "stored";
            }

            test("rejects big files with an error", (t) => {
              const err = t.throws(() => upload(50), { instanceOf: RangeError });
              t.log("got expected error:", err.message);
            });

            test("stores small files", (t) => {
              t.is(upload(2), "stored");
            });
        """),
    },
    setup=LINK_NM,
    confirm=r"(?s)(?=.*upload rejected)(?=.*2 tests passed)",
)

# --- jasmine -------------------------------------------------------------------------------------

JAS_SPEC = dedent("""
    const { slug } = require("../../lib/slug");

    describe("slug", () => {
      it("lowercases", () => {
        expect(slug("Hello World")).toBe("hello-world");
      });
      it("strips accents", () => {
        expect(slug("Crème Brûlée")).toBe("creme-brulee");
      });
      xit("handles emoji", () => {});
    });
""")
JAS_FILES = {
    "lib/slug.js": "exports.slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');\n",
    "spec/support/jasmine.json": '{"spec_dir": "spec", "spec_files": ["**/*[sS]pec.js"]}\n',
    "spec/lib/slugSpec.js": JAS_SPEC,
}
add(
    "jasmine-fail",
    "jasmine",
    "plain_failure",
    None,
    "jasmine runs the slug specs; the accent-stripping spec fails and jasmine exits non-zero",
    "jasmine",
    files=JAS_FILES,
    group="fresh3-jasmine-bad",
)
add(
    "jasmine-npm-test-or-true",
    "jasmine",
    "exit0_hidden_failure",
    None,
    "package.json's test script is 'jasmine || true'; a spec fails and npm test exits 0",
    "npm test",
    files={
        **JAS_FILES,
        "package.json": '{"name": "s", "version": "1.0.0", "scripts": {"test": "jasmine || true"}}\n',
    },
    needs=("jasmine", "npm"),
    confirm=r"1 failure",
    group="fresh3-jasmine-bad",
)
add(
    "jasmine-pending-pass",
    "jasmine",
    "success_alarming_stderr",
    None,
    "jasmine runs the slug specs with the accent spec fixed; one pending spec is reported and there are 0 failures",
    "jasmine",
    files={
        **JAS_FILES,
        "lib/slug.js": "exports.slug = (s) => s.normalize('NFD').replace(/[\\u0300-\\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');\n",
    },
    confirm=r"(?s)(?=.*0 failures)(?=.*pending)",
)

# --- nyc -----------------------------------------------------------------------------------------

NYC_FILES = {
    "lib/price.js": dedent("""
        exports.price = (base, kind) => {
          if (kind === "member") return base * 0.9;
          if (kind === "staff") return base * 0.5;
          if (kind === "vip") return base * 0.7;
          return base;
        };
    """),
    "test/price.test.js": "const assert = require('assert');\nconst { price } = require('../lib/price');\nit('member discount', () => assert.strictEqual(price(100, 'member'), 90));\n",
}
add(
    "nyc-check-coverage-fail",
    "nyc",
    "plain_failure",
    None,
    "nyc --check-coverage --lines 90 runs mocha; the tests pass but line coverage is below 90% and nyc exits 1",
    "nyc --check-coverage --lines 90 mocha",
    files=NYC_FILES,
    needs=("nyc", "mocha"),
    expect=1,
    confirm=r"does not meet global threshold",
)
add(
    "nyc-mocha-fail-then-report",
    "nyc",
    "exit0_hidden_failure",
    None,
    "the coverage step runs 'nyc mocha; nyc report' and its status is the report's; a test fails and the step exits 0",
    "nyc --silent mocha; nyc report --reporter=text-summary",
    files={
        **NYC_FILES,
        "test/vip.test.js": "const assert = require('assert');\nconst { price } = require('../lib/price');\nit('vip discount', () => assert.strictEqual(price(100, 'vip'), 75));\n",
    },
    needs=("nyc", "mocha"),
    confirm=r"1 failing",
)
add(
    "nyc-report-ok",
    "nyc",
    "plain_success",
    None,
    "nyc runs mocha over the price tests and prints a text coverage table",
    "nyc --reporter=text mocha",
    files=NYC_FILES,
    needs=("nyc", "mocha"),
    confirm=r"1 passing",
)

# --- node-tap ------------------------------------------------------------------------------------

TAP_BAD = dedent("""
    const t = require("tap");
    const { price } = require("./price");
    t.equal(price(100, "member"), 90, "member price");
    t.equal(price(100, "vip"), 75, "vip price");
    t.end();
""")
add(
    "tap-fail",
    "tap",
    "plain_failure",
    None,
    "node-tap runs a price test file; the vip price assertion fails and tap exits 1",
    "tap --no-coverage -R classic price.test.js",
    files={"price.js": NYC_FILES["lib/price.js"], "price.test.js": TAP_BAD},
    setup=LINK_NM,
    expect=1,
    group="fresh3-tap-bad",
)
add(
    "tap-fail-or-true",
    "tap",
    "exit0_hidden_failure",
    None,
    "a test wrapper runs 'tap ... || true' to always collect the TAP report; the vip assertion fails and it exits 0",
    "tap --no-coverage -R tap price.test.js || true",
    files={"price.js": NYC_FILES["lib/price.js"], "price.test.js": TAP_BAD},
    setup=LINK_NM,
    confirm=r"not ok",
    group="fresh3-tap-bad",
)
add(
    "tap-pass-stderr-warnings",
    "tap",
    "success_alarming_stderr",
    None,
    "node-tap runs tests whose code under test prints a deprecation warning and an 'error' retry line on stderr; every assertion passes",
    "tap --no-coverage -R classic retry.test.js",
    files={
        "retry.test.js": dedent("""
            const t = require("tap");
            let calls = 0;
            function get() {
              calls++;
              if (calls < 2) { console.error(`error: attempt ${calls} failed with ETIMEDOUT, retrying`); return null; }
              return "ok";
            }
            process.emitWarning("get() without options is deprecated", "DeprecationWarning");
            let r = null;
            while (r === null) r = get();
            t.equal(r, "ok", "eventually succeeds");
            t.end();
        """),
    },
    setup=LINK_NM,
    confirm=r"(?s)(?=.*ETIMEDOUT)(?=.*(pass|ok))",
)

# --- commitlint / lint-staged / npm-run-all ------------------------------------------------------

CL_CFG = {
    "commitlint.config.js": "module.exports = { extends: ['@commitlint/config-conventional'] };\n"
}
add(
    "commitlint-bad-message",
    "commitlint",
    "plain_failure",
    None,
    "commitlint checks a commit message without a conventional type; it reports the problems and exits 1",
    "echo 'Fixed the login bug.' | commitlint",
    files=CL_CFG,
    setup=LINK_NM,
    expect=1,
    group="fresh3-commitlint-bad",
)
add(
    "commitlint-hook-or-true",
    "commitlint",
    "exit0_hidden_failure",
    None,
    "a commit-msg hook script runs commitlint '|| true' ('warn only'); the message is invalid and the hook exits 0",
    "echo 'Fixed the login bug.' > msg.txt; commitlint --edit msg.txt || true",
    files=CL_CFG,
    setup=LINK_NM + " && git init -q",
    confirm=r"type may not be empty",
    group="fresh3-commitlint-bad",
)
add(
    "commitlint-ok",
    "commitlint",
    "plain_success",
    None,
    "commitlint checks a conventional commit message and prints nothing",
    "echo 'fix(auth): handle expired refresh tokens' | commitlint && echo 'message ok'",
    files=CL_CFG,
    setup=LINK_NM,
    confirm=r"message ok",
)
LS_SETUP = "git init -q && git add package.json && git commit -qm init && git add src"
LS_PKG = json.dumps(
    {"name": "ls", "version": "1.0.0", "lint-staged": {"*.py": "ruff check --no-cache"}}
)
add(
    "lint-staged-task-fails",
    "lint-staged",
    "plain_failure",
    None,
    "lint-staged runs ruff on the staged Python file, which has an unused import; the task fails and lint-staged exits 1",
    "lint-staged",
    files={"package.json": LS_PKG, "src/app.py": "import os\n\nprint('hi')\n"},
    setup=LS_SETUP,
    needs=("lint-staged", "git", "ruff"),
    expect=1,
    confirm=r"F401",
)
add(
    "lint-staged-ok",
    "lint-staged",
    "plain_success",
    None,
    "lint-staged runs ruff on the staged Python file, which is clean",
    "lint-staged",
    files={"package.json": LS_PKG, "src/app.py": "print('hi')\n"},
    setup=LS_SETUP,
    needs=("lint-staged", "git", "ruff"),
)
RUN_PKG = json.dumps(
    {
        "name": "r",
        "version": "1.0.0",
        "scripts": {
            "lint": "node -e \"console.error('src/a.js: 2 problems (2 errors)'); process.exit(1)\"",
            "build": "node -e \"console.log('built dist/app.js')\"",
            "test": "node -e \"console.log('12 passing')\"",
        },
    }
)
add(
    "run-p-one-fails",
    "run-p",
    "plain_failure",
    None,
    "run-p runs lint, build and test in parallel; lint exits 1 and run-p exits 1",
    "run-p --print-label lint build test",
    files={"package.json": RUN_PKG},
    needs=("run-p", "npm"),
    expect=1,
)
add(
    "run-s-continue-or-true",
    "run-s",
    "exit0_hidden_failure",
    None,
    "the CI script runs 'run-s --continue-on-error lint build test || true'; lint fails and the step exits 0",
    "run-s --continue-on-error lint build test || true",
    files={"package.json": RUN_PKG},
    needs=("run-s", "npm"),
    confirm=r"2 problems \(2 errors\)",
)

# --- node / npm ----------------------------------------------------------------------------------

add(
    "node-exitcode-reset-finally",
    "node",
    "exit0_hidden_failure",
    None,
    "a sync script sets process.exitCode = 1 when an upload fails, then a finally block resets it to 0 during cleanup; it exits 0",
    "node sync.js",
    files={
        "sync.js": dedent("""
            const fs = require("fs");
            async function main() {
              try {
                const data = fs.readFileSync("export/latest.json");
                console.log("uploaded", data.length, "bytes");
              } catch (err) {
                console.error("sync failed:", err.message);
                process.exitCode = 1;
              } finally {
                console.log("cleanup: removing temp files");
                process.exitCode = 0;
              }
            }
            main();
        """),
    },
    confirm=r"sync failed: ENOENT",
)
add(
    "node-write-stream-error-logged",
    "node",
    "exit0_hidden_failure",
    None,
    "an export script writes to a stream whose directory does not exist; the 'error' event is only logged and it prints 'export written' and exits 0",
    "node export.js",
    files={
        "export.js": dedent("""
            const fs = require("fs");
            const out = fs.createWriteStream("reports/2024/q1.csv");
            out.on("error", (err) => console.error("stream error:", err.code, err.path));
            out.write("id,total\\n1,9.99\\n");
            out.end(() => console.log("export written"));
            console.log("export written");
        """),
    },
    confirm=r"stream error: ENOENT",
)
add(
    "node-deprecated-api-ok",
    "node",
    "success_alarming_stderr",
    None,
    "a build script uses url.parse and new Buffer(); node prints DeprecationWarnings on stderr and the script writes its output",
    "node build.js && cat dist/host.txt",
    files={
        "build.js": dedent("""
            const url = require("url");
            const fs = require("fs");
            const u = url.parse("https://api.example.com:8443/v1");
            const b = new Buffer(u.hostname);
            fs.mkdirSync("dist", { recursive: true });
            fs.writeFileSync("dist/host.txt", b.toString() + "\\n");
        """),
    },
    confirm=r"(?s)(?=.*DeprecationWarning)(?=.*api\.example\.com)",
)
add(
    "node-timeout-kill-after",
    "node",
    "killed_signalled",
    None,
    "a dev server script ignores SIGTERM; 'timeout -k 1 2' sends TERM, then KILL to the group, and the step ends by SIGKILL",
    "timeout -k 1 2 node server.js",
    files={
        "server.js": "process.on('SIGTERM', () => console.log('SIGTERM received, draining connections...'));\nconsole.log('listening on :3000');\nsetInterval(() => {}, 1000);\n",
    },
    expect="SIGKILL",
)
add(
    "npm-ci-script-semicolon",
    "npm",
    "exit0_hidden_failure",
    None,
    "npm run ci runs 'npm run lint; npm run test' and the script's status is the test's; lint fails and npm exits 0",
    "npm run ci",
    files={
        "package.json": json.dumps(
            {
                "name": "app",
                "version": "1.0.0",
                "scripts": {
                    "ci": "npm run lint; npm run test",
                    "lint": "node -e \"console.error('src/index.js:3:7 error  no-undef  config is not defined'); process.exit(1)\"",
                    "test": "node -e \"console.log('tests: 4 passed')\"",
                },
            }
        ),
    },
    confirm=r"no-undef",
)
add(
    "npm-prebuild-fails",
    "npm",
    "plain_failure",
    None,
    "npm run build triggers a prebuild script that checks the Node version range and exits 1",
    "npm run build",
    files={
        "package.json": json.dumps(
            {
                "name": "app",
                "version": "1.0.0",
                "scripts": {
                    "prebuild": "node -e \"const m=+process.versions.node.split('.')[0]; if (m < 99) { console.error('error: Node >= 99 required, found ' + process.version); process.exit(1) }\"",
                    "build": "node -e \"console.log('built')\"",
                },
            }
        ),
    },
    expect=1,
    confirm=r"Node >= 99 required",
)

# --- jest / vitest / mocha -----------------------------------------------------------------------

JEST_BAD = {
    "package.json": '{"name": "t", "private": true}\n',
    "sum.test.js": "const add = (a, b) => a + b;\ntest('adds', () => expect(add(1, 2)).toBe(3));\ntest('adds floats', () => expect(add(0.1, 0.2)).toBe(0.3));\n",
}
add(
    "jest-json-outputfile-summary",
    "jest",
    "exit0_hidden_failure",
    None,
    "CI runs jest with --json --outputFile and then prints the failed count with node; a test fails and the node step exits 0",
    "jest --ci --json --outputFile=report.json 2>/dev/null; node -p \"require('./report.json').numFailedTests + ' failed tests'\"",
    files=JEST_BAD,
    needs=("jest", "node"),
    confirm=r"1 failed tests",
)
add(
    "jest-test-failing-passes",
    "jest",
    "success_alarming_stderr",
    None,
    "jest runs a suite that marks a known bug with test.failing (its assertion fails, as declared) and logs an error; the suite passes",
    "jest --ci --verbose",
    files={
        "package.json": '{"name": "t", "private": true}\n',
        "bug.test.js": dedent("""
            const round = (x) => Math.round(x * 100) / 100;
            test("rounds to cents", () => expect(round(1.234)).toBe(1.23));
            test.failing("known bug #512: binary float rounding", () => expect(round(1.005)).toBe(1.01));
            test("logs on bad input", () => {
              console.error("error: invalid amount 'abc'");
              expect(Number.isNaN(Number("abc"))).toBe(true);
            });
        """),
    },
    confirm=r"(?s)(?=.*invalid amount)(?=.*Tests:.*passed)",
)
add(
    "vitest-retry-flaky-pass",
    "vitest",
    "success_alarming_stderr",
    None,
    "vitest runs a flaky test with retry: 2; the first attempt fails and logs the error, the retry passes",
    "vitest run --reporter=verbose",
    files={
        "flaky.test.js": dedent("""
            import { test, expect } from "vitest";
            let attempt = 0;
            test("fetches profile", { retry: 2 }, () => {
              attempt++;
              if (attempt === 1) {
                console.warn("attempt 1 failed: ECONNRESET, retrying");
                throw new Error("ECONNRESET");
              }
              expect(attempt).toBe(2);
            });
        """),
    },
    confirm=r"(?s)(?=.*ECONNRESET)(?=.*1 passed)",
)
add(
    "mocha-json-reporter-summary",
    "mocha",
    "exit0_hidden_failure",
    None,
    "a script pipes mocha's JSON report into node to print pass/fail counts; one test fails and the node step exits 0",
    "mocha --reporter json | node -e \"let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const r=JSON.parse(s).stats;console.log('passes: '+r.passes+', failures: '+r.failures)})\"",
    files={
        "test/queue.test.js": "const assert = require('assert');\nit('enqueues', () => assert.ok(true));\nit('dequeues in order', () => assert.deepStrictEqual([2, 1], [1, 2]));\n"
    },
    needs=("mocha", "node"),
    confirm=r"failures: 1",
)
add(
    "mocha-pending-ok",
    "mocha",
    "plain_success",
    None,
    "mocha runs a suite with two pending tests and two passing ones",
    "mocha",
    files={
        "test/a.test.js": "const assert = require('assert');\nit('one', () => assert.ok(1));\nit('two', () => assert.ok(2));\nit('todo: pagination');\nit.skip('slow export', () => {});\n"
    },
    confirm=r"2 passing",
)

# --- tsc / eslint / prettier ---------------------------------------------------------------------

TSC_BAD = {
    "tsconfig.json": '{"compilerOptions": {"strict": true, "noEmit": true, "target": "ES2020"}, "include": ["src"]}\n',
    "src/a.ts": "export function total(xs: number[]): number { return xs.reduce((a, b) => a + b, '') }\n",
    "src/b.ts": "import { total } from './a';\nconst n: string = total([1, 2]);\nconsole.log(n.toFixed(2));\n",
}
add(
    "tsc-head-first-errors",
    "tsc",
    "exit0_hidden_failure",
    None,
    "a script shows only the first lines of 'tsc -p .' with head; type errors are found and head exits 0",
    "tsc -p . | head -n 5",
    files=TSC_BAD,
    confirm=r"error TS\d+",
)
add(
    "tsc-watch-timeout",
    "tsc",
    "killed_signalled",
    None,
    "an agent starts 'tsc --watch' under 'timeout 25'; the watcher never exits, so timeout stops it and the step exits 124",
    "timeout 25 tsc --watch --preserveWatchOutput -p .",
    files={
        **TSC_BAD,
        "src/a.ts": "export function total(xs: number[]): number { return xs.reduce((a, b) => a + b, 0) }\n",
        "src/b.ts": "import { total } from './a';\nconsole.log(total([1, 2]));\n",
    },
    expect=124,
    confirm=r"Watching for file changes",
)
ES_CFG = json.dumps(
    {
        "root": True,
        "env": {"node": True, "es2022": True},
        "parserOptions": {"ecmaVersion": 2022},
        "rules": {
            "semi": ["error", "always"],
            "quotes": ["error", "double"],
            "no-unused-vars": "error",
            "eqeqeq": "error",
        },
    }
)
add(
    "eslint-fix-leaves-errors",
    "eslint",
    "plain_failure",
    None,
    "eslint --fix fixes the quote and semicolon errors but an unused variable and == remain; it exits 1",
    "eslint --no-eslintrc -c .eslintrc.json --fix src",
    files={
        ".eslintrc.json": ES_CFG,
        "src/app.js": "const fs = require('fs')\nfunction check(a) { return a == null }\nmodule.exports = { check }\n",
    },
    expect=1,
    confirm=r"no-unused-vars",
)
add(
    "eslint-quiet-warnings-hidden",
    "eslint",
    "plain_success",
    None,
    "eslint --quiet runs with warn-level rules only; warnings are suppressed and it exits 0 with no output",
    "eslint --no-eslintrc --quiet --env node --rule 'no-console: warn' src && echo 'lint passed'",
    files={"src/app.js": "console.log('starting');\nmodule.exports = {};\n"},
    confirm=r"lint passed",
)
add(
    "prettier-check-or-write",
    "prettier",
    "success_alarming_stderr",
    None,
    "a format step runs 'prettier --check . || prettier --write .'; the check warns about unformatted files and the write fixes them",
    "prettier --check src || prettier --write src",
    files={"src/a.js": "const x = {a:1,b:2}\n", "src/b.js": "function f( a ){return a}\n"},
    confirm=r"(?s)(?=.*\[warn\])(?=.*src/b\.js)",
)
add(
    "prettier-list-different-wc",
    "prettier",
    "exit0_hidden_failure",
    None,
    "a check counts unformatted files with 'prettier --list-different | wc -l' and prints the count; two files are unformatted and wc exits 0",
    'echo "unformatted files: $(prettier --list-different src | wc -l)"',
    files={
        "src/a.js": "const x = {a:1,b:2}\n",
        "src/b.js": "function f( a ){return a}\n",
        "src/c.js": "export const y = 1;\n",
    },
    confirm=r"unformatted files: 2",
)
add(
    "eslint-colour-stylish-fail",
    "eslint",
    "coloured_output",
    "failure",
    "eslint --color reports == and unused-variable errors in stylish format and exits 1",
    "eslint --no-eslintrc -c .eslintrc.json --color src",
    files={
        ".eslintrc.json": ES_CFG,
        "src/app.js": 'const fs = require("fs");\nfunction check(a) { return a == null; }\nmodule.exports = { check };\n',
    },
    expect=1,
)
