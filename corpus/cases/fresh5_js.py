"""Fifth fresh batch (ids ``fresh5-*``): new scenarios for node, npm, pnpm, yarn, jest, vitest,
mocha, tsc, eslint and prettier."""

from __future__ import annotations

import json

from casekit import batch, dedent, package_json

CASES, add = batch("fresh5")


LINK_NM = 'ln -s "$(dirname "$(command -v tsc)")/.." node_modules'


def pkg(scripts: dict[str, str], **extra: object) -> str:
    return package_json(scripts, "shop", "0.3.0", **extra)


CARTJS = {
    "package.json": pkg({"test": "jest"}),
    "cart.js": dedent("""
        function subtotal(items) {
          return items.reduce((s, i) => s + i.price * i.qty, 0);
        }
        function applyCoupon(total, coupon) {
          if (!coupon) return total;
          if (coupon.kind === "percent") return total * (1 - coupon.value / 100);
          if (coupon.kind === "fixed") return total - coupon.value;
          throw new TypeError(`unknown coupon kind: ${coupon.kind}`);
        }
        module.exports = { subtotal, applyCoupon };
    """),
    "cart.test.js": dedent("""
        const { subtotal, applyCoupon } = require("./cart");
        test("subtotal", () => expect(subtotal([{ price: 2, qty: 3 }])).toBe(6));
        test("percent coupon", () => expect(applyCoupon(100, { kind: "percent", value: 10 })).toBe(90));
        test("fixed coupon never goes negative", () => expect(applyCoupon(5, { kind: "fixed", value: 10 })).toBe(0));
    """),
}

# --- jest ----------------------------------------------------------------------------------------

add(
    "jest-json-output-file-exit0",
    "jest",
    "exit0_hidden_failure",
    None,
    "the CI step runs jest --json --outputFile and then prints the file's numFailedTests with node; the coupon test failed but the step's status is node's",
    "jest --ci --json --outputFile=jest.json 2>/dev/null; node -e 'const r=require(\"./jest.json\"); console.log(`tests: ${r.numTotalTests} failed: ${r.numFailedTests}`)'",
    files=CARTJS,
    confirm=r"tests: 3 failed: 1",
    group="fresh5-jest-cart",
)
add(
    "jest-cart-fails",
    "jest",
    "plain_failure",
    None,
    "jest runs the cart tests; a fixed coupon larger than the total gives -5 and jest exits 1",
    "jest --ci",
    files=CARTJS,
    expect=1,
    confirm=r"Tests:\s+1 failed, 2 passed",
    group="fresh5-jest-cart",
)
add(
    "jest-npm-script-semicolon-lint",
    "npm",
    "exit0_hidden_failure",
    None,
    "package.json's test script is 'jest --ci; node -e \"...\"' (a lint-ish check after the tests); jest fails a test and the script's status is the last command's 0",
    "npm test",
    files={
        **CARTJS,
        "package.json": pkg({"test": "jest --ci; node -e \"console.log('license headers ok')\""}),
    },
    confirm=r"Tests:\s+1 failed",
    group="fresh5-jest-cart",
)
add(
    "jest-coverage-threshold-fail",
    "jest",
    "failure_noisy_stderr",
    None,
    "jest --coverage with a 95% global threshold prints the coverage table; the tests pass but the threshold is not met and jest exits 1",
    "jest --ci --coverage --coverageThreshold='{\"global\":{\"branches\":95}}' -t 'subtotal|percent'",
    files=CARTJS,
    expect=1,
    confirm=r"coverage threshold for branches",
)
add(
    "jest-mock-console-error-pass",
    "jest",
    "success_alarming_stderr",
    None,
    "jest tests a logger that prints 'UnhandledPromiseRejection'-style warnings through console.warn and console.error; jest shows them and all tests pass",
    "jest --ci logger.test.js",
    files={
        "package.json": pkg({}),
        "logger.test.js": dedent("""
            function report(err) {
              console.error(`[worker] fatal: ${err.message}\\n${err.stack.split("\\n").slice(0, 3).join("\\n")}`);
              console.warn("[worker] restarting in 1000ms");
              return "restarted";
            }
            test("report restarts the worker", () => {
              expect(report(new Error("ECONNREFUSED 127.0.0.1:6379"))).toBe("restarted");
            });
            test("noop", () => expect(1).toBe(1));
        """),
    },
    confirm=r"(?s)(?=.*fatal: ECONNREFUSED)(?=.*Tests:\s+2 passed)",
)
add(
    "jest-only-changed-no-tests",
    "jest",
    "exit0_hidden_failure",
    None,
    "a hook runs 'jest --findRelatedTests' on a changed file that no test imports, with --passWithNoTests; no test runs and jest exits 0",
    "jest --ci --passWithNoTests --findRelatedTests src/tax.js",
    files={
        **CARTJS,
        "src/tax.js": "module.exports = (n) => n * 1.2;\n",
    },
    confirm=r"No tests found",
)

# --- vitest --------------------------------------------------------------------------------------

add(
    "vitest-unhandled-rejection-fails",
    "vitest",
    "plain_failure",
    None,
    "vitest run: a test passes but the code leaves an unhandled promise rejection; vitest reports 'Unhandled Rejection' as an error and exits 1",
    "vitest run",
    files={
        "queue.test.js": dedent("""
            import { test, expect } from "vitest";
            function enqueue(job) {
              Promise.reject(new Error(`redis write failed for ${job}`));
              return true;
            }
            test("enqueue returns true", () => { expect(enqueue("email")).toBe(true); });
        """),
    },
    setup=LINK_NM,
    expect=1,
    confirm=r"Unhandled",
)
add(
    "vitest-todo-and-skip-pass",
    "vitest",
    "success_alarming_stderr",
    None,
    "vitest runs a suite with a test named 'throws on invalid JSON' (it expects the throw), a todo and a skipped test; exits 0",
    "vitest run --reporter=verbose",
    files={
        "parse.test.js": dedent("""
            import { test, expect, describe } from "vitest";
            describe("config parse", () => {
              test("throws SyntaxError on invalid JSON", () => {
                expect(() => JSON.parse("{oops")).toThrow(SyntaxError);
              });
              test.todo("reports the failing line number");
              test.skip("fails on BOM", () => {});
            });
        """),
    },
    setup=LINK_NM,
    confirm=r"(?s)(?=.*throws SyntaxError on invalid JSON)(?=.*1 passed)",
)
add(
    "vitest-bail-piped-to-grep",
    "vitest",
    "exit0_hidden_failure",
    None,
    "a script filters vitest's output with 'grep -E \"✓|×|Test Files\"'; a test failed, vitest exits 1, and grep (which found lines) exits 0",
    "vitest run 2>&1 | grep -E '✓|×|Test Files|FAIL'",
    files={
        "math.test.js": "import { test, expect } from 'vitest';\ntest('adds', () => expect(0.1 + 0.2).toBe(0.3));\ntest('muls', () => expect(3 * 3).toBe(9));\n",
    },
    setup=LINK_NM,
    confirm=r"Test Files\s+1 failed",
)
add(
    "vitest-coloured-fail",
    "vitest",
    "coloured_output",
    "failure",
    "vitest run with FORCE_COLOR=1 fails a float assertion; coloured diff and exit 1",
    "vitest run",
    files={
        "math.test.js": "import { test, expect } from 'vitest';\ntest('adds', () => expect(0.1 + 0.2).toBe(0.3));\n",
    },
    setup=LINK_NM,
    env={"FORCE_COLOR": "1"},
    expect=1,
    confirm=r"0\.30000000000000004",
)

# --- mocha ---------------------------------------------------------------------------------------

add(
    "mocha-allow-uncaught-async-pass",
    "mocha",
    "success_alarming_stderr",
    None,
    "mocha runs specs for an EventEmitter-based downloader that emits and handles 'error' events (logged with stacks); all specs pass",
    "mocha --reporter spec dl.spec.js",
    files={
        "dl.spec.js": dedent("""
            const assert = require("assert");
            const { EventEmitter } = require("events");
            function download(url) {
              const ev = new EventEmitter();
              ev.on("error", (e) => console.error("download error:", e.stack.split("\\n")[0]));
              setImmediate(() => ev.emit("error", new Error(`ETIMEDOUT ${url}`)));
              return ev;
            }
            describe("download", () => {
              it("emits error on timeout", (done) => {
                const ev = download("http://127.0.0.1:9/file");
                ev.on("error", (e) => { assert.match(e.message, /ETIMEDOUT/); done(); });
              });
            });
        """),
    },
    confirm=r"(?s)(?=.*download error: Error: ETIMEDOUT)(?=.*1 passing)",
)
add(
    "mocha-done-called-twice-exit0-reporter",
    "mocha",
    "exit0_hidden_failure",
    None,
    "the test step pipes mocha's TAP output through 'tee mocha.tap'; a spec fails an assertion ('not ok') and the pipeline exits 0",
    "mocha --reporter tap q.spec.js | tee mocha.tap",
    files={
        "q.spec.js": "const assert = require('assert');\ndescribe('queue', () => {\n  it('fifo', () => assert.deepStrictEqual([1,2,3].reverse(), [1,2,3]));\n  it('len', () => assert.equal([1].length, 1));\n});\n",
    },
    confirm=r"not ok 1 queue fifo",
)

# --- node ----------------------------------------------------------------------------------------

add(
    "node-stream-pipeline-error-logged",
    "node",
    "exit0_hidden_failure",
    None,
    "an export script gzips a file with stream.pipeline and only logs the callback's error; the source file is missing, nothing is written and it exits 0",
    "node export.js; ls -la out/ 2>&1 | tail -n +2",
    files={
        "export.js": dedent("""
            const fs = require("fs");
            const zlib = require("zlib");
            const { pipeline } = require("stream");
            fs.mkdirSync("out", { recursive: true });
            pipeline(fs.createReadStream("data/events.ndjson"), zlib.createGzip(), fs.createWriteStream("out/events.ndjson.gz"), (err) => {
              if (err) console.error("export failed:", err.message);
              else console.log("export done");
            });
        """),
    },
    confirm=r"export failed: ENOENT",
)
add(
    "node-process-exitcode-overwritten",
    "node",
    "exit0_hidden_failure",
    None,
    "a build script sets process.exitCode = 1 when a page fails to render, but a later cleanup step resets process.exitCode = 0; it exits 0 with the failed page listed",
    "node build.js",
    files={
        "build.js": dedent("""
            const pages = ["index", "about", "pricing"];
            for (const p of pages) {
              try {
                if (p === "pricing") throw new ReferenceError("plans is not defined");
                console.log(`rendered ${p}.html`);
              } catch (e) {
                console.error(`failed to render ${p}: ${e.stack}`);
                process.exitCode = 1;
              }
            }
            // cleanup
            process.exitCode = 0;
            console.log("cleaned temp dir");
        """),
    },
    confirm=r"ReferenceError: plans is not defined",
)
add(
    "node-experimental-warning-ok",
    "node",
    "success_alarming_stderr",
    None,
    "node runs a script that imports JSON via import attributes and uses a deprecated Buffer() call; node prints ExperimentalWarning/DeprecationWarning and the script prints its result, exit 0",
    "node main.mjs",
    files={
        "main.mjs": "import cfg from './cfg.json' with { type: 'json' };\nconst b = new Buffer('ok');\nconsole.log(`port=${cfg.port} ${b.toString()}`);\n",
        "cfg.json": '{"port": 8080}\n',
    },
    confirm=r"(?s)(?=.*Warning)(?=.*port=8080 ok)",
)
add(
    "node-heap-limit-oom",
    "node",
    "killed_signalled",
    None,
    "a report builder accumulates rows in memory under --max-old-space-size=32; V8 aborts with 'JavaScript heap out of memory' (SIGABRT)",
    [
        "node",
        "--max-old-space-size=32",
        "-e",
        "const rows=[]; for(;;) rows.push({id: rows.length, payload: 'x'.repeat(64) + rows.length});",
    ],
    expect="SIGABRT",
    confirm=r"heap out of memory",
    timeout=60,
)
add(
    "node-latin1-buffer-stdout",
    "node",
    "non_utf8",
    "success",
    "a converter writes a latin-1 encoded CSV header to stdout for a legacy system as asked; the bytes are not UTF-8 and it exits 0",
    'node -e \'process.stdout.write(Buffer.from("id;prénom;société\\n1;José;Café\\n", "latin1"))\'',
)

# --- npm / pnpm / yarn ---------------------------------------------------------------------------

add(
    "npm-ls-invalid-then-echo",
    "npm",
    "exit0_hidden_failure",
    None,
    "a dependency-audit step runs 'npm ls --all; echo checked'; npm ls reports a missing dependency (exit 1) and the echo makes the step exit 0",
    "npm ls --all; echo 'dependency tree checked'",
    files={
        "package.json": pkg({}, dependencies={"left-pad-fresh5": "^1.3.0"}),
    },
    confirm=r"missing: left-pad-fresh5",
)
add(
    "npm-install-local-ebadengine-ok",
    "npm",
    "success_alarming_stderr",
    None,
    "npm installs a vendored local package whose engines field asks for node >=99; npm prints 'npm warn EBADENGINE Unsupported engine' and installs it anyway, and the package loads; exit 0",
    "npm install --no-package-lock ./vendor/legacy-lib && node -p 'require(\"legacy-lib\").version'",
    files={
        "package.json": pkg({}),
        "vendor/legacy-lib/package.json": json.dumps(
            {
                "name": "legacy-lib",
                "version": "2.1.0",
                "main": "index.js",
                "engines": {"node": ">=99"},
            }
        )
        + "\n",
        "vendor/legacy-lib/index.js": "module.exports = { version: '2.1.0' };\n",
    },
    confirm=r"(?s)(?=.*EBADENGINE)(?=.*2\.1\.0)",
)
add(
    "npm-run-silent-or-exit0",
    "npm",
    "exit0_hidden_failure",
    None,
    "a typecheck script is declared as 'tsc --noEmit || exit 0'; tsc reports a type error and the script exits 0",
    "npm run -s typecheck",
    files={
        "package.json": pkg({"typecheck": "tsc --noEmit --strict index.ts || exit 0"}),
        "index.ts": "const port: number = process.env.PORT ?? 'x';\nexport default port;\n",
    },
    setup=LINK_NM,
    confirm=r"error TS2322",
)
add(
    "pnpm-no-bail-exit0",
    "pnpm",
    "exit0_hidden_failure",
    None,
    "the release script runs 'pnpm -r --no-bail run test || echo ...' to see all failures; the ui package's test fails and the step exits 0",
    "pnpm -r --no-bail --workspace-concurrency=1 run test || echo 'some package tests failed; continuing release'",
    files={
        "package.json": json.dumps({"name": "mono", "private": True}) + "\n",
        "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n",
        "packages/core/package.json": json.dumps(
            {
                "name": "core",
                "version": "1.0.0",
                "scripts": {"test": "node -e \"console.log('core: 4 passing')\""},
            }
        )
        + "\n",
        "packages/ui/package.json": json.dumps(
            {
                "name": "ui",
                "version": "1.0.0",
                "scripts": {"test": "node -e \"console.error('ui: 1 failing'); process.exit(1)\""},
            }
        )
        + "\n",
    },
    confirm=r"ui: 1 failing",
)
add(
    "yarn-run-script-ok-warnings",
    "yarn",
    "success_alarming_stderr",
    None,
    "yarn run build succeeds; the package.json lacks a license field so yarn prints 'warning package.json: No license field' and the build script warns about a large bundle; exits 0",
    "yarn run build",
    files={
        "package.json": json.dumps(
            {"name": "shop", "version": "0.3.0", "scripts": {"build": "node build.js"}}
        )
        + "\n",
        "build.js": "console.warn('WARNING in asset size limit: main.js (612 KiB) exceeds the recommended limit (244 KiB)');\nrequire('fs').writeFileSync('dist.js', '//built');\nconsole.log('build complete: dist.js');\n",
    },
    env={"YARN_CACHE_FOLDER": "/tmp/fresh5-yarn-cache"},
    confirm=r"(?s)(?=.*No license field)(?=.*build complete)",
)

# --- tsc -----------------------------------------------------------------------------------------

add(
    "tsc-noemitonerror-false-emits",
    "tsc",
    "exit0_hidden_failure",
    None,
    "a build script runs tsc (which still emits JS despite errors) and then 'ls dist' as its last command; tsc reports a type error and the script exits 0",
    "tsc --outDir dist --strict src/*.ts; ls dist",
    files={"src/price.ts": "export function price(n: number): string {\n  return n * 1.2;\n}\n"},
    setup=LINK_NM,
    confirm=r"error TS2322",
)
add(
    "tsc-listfiles-clean",
    "tsc",
    "plain_success",
    None,
    "tsc --noEmit --listFiles type-checks a small strict project with no errors and lists the files it read; exits 0",
    "tsc --noEmit --strict --listFiles src/*.ts | grep -c 'src/'",
    files={
        "src/a.ts": "export const a = (x: number): number => x + 1;\n",
        "src/b.ts": "import { a } from './a';\nexport const b = a(1);\n",
    },
    confirm=r"(?m)^2$",
)

# --- eslint / prettier ---------------------------------------------------------------------------

ESL_CFG = {
    ".eslintrc.json": json.dumps(
        {
            "root": True,
            "env": {"node": True, "es2022": True},
            "parserOptions": {"ecmaVersion": 2022},
            "extends": "eslint:recommended",
            "rules": {"no-console": "off"},
        }
    ),
}
add(
    "eslint-fix-dry-run-json-exit0",
    "eslint",
    "exit0_hidden_failure",
    None,
    "a bot runs eslint with -f json piped to a node summariser that prints only errorCount; eslint finds an undefined variable (exit 1) and the summariser exits 0",
    'eslint --no-eslintrc -c .eslintrc.json -f json src | node -e \'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);for(const f of r)for(const m of f.messages)console.log(`${m.ruleId}: ${m.message}`);console.log("errors:",r.reduce((a,f)=>a+f.errorCount,0))})\'',
    files={
        **ESL_CFG,
        "src/a.js": "function total(items) {\n  return itms.length;\n}\ntotal([]);\n",
    },
    confirm=r"no-undef: 'itms' is not defined",
)
add(
    "eslint-fix-applied-ok",
    "eslint",
    "success_alarming_stderr",
    None,
    "eslint --fix rewrites 'var' to 'const' and == to === (fixable rules); a follow-up run with --max-warnings 0 passes; the script prints the fixed file with the word 'error' in it and exits 0",
    "eslint --no-eslintrc -c .eslintrc.json --rule 'no-var: error' --rule 'prefer-const: error' --fix src && eslint --no-eslintrc -c .eslintrc.json --max-warnings 0 src && cat src/a.js",
    files={
        **ESL_CFG,
        "src/a.js": "var error = new Error('disk full');\nconsole.error(error.message);\n",
    },
    confirm=r"const error = new Error",
)
add(
    "prettier-check-list-different-or-true",
    "prettier",
    "exit0_hidden_failure",
    None,
    "the format gate runs 'prettier --list-different . || true'; two files are not formatted and the gate exits 0",
    "prettier --list-different 'src/**/*.{js,json}' || true",
    files={
        "src/a.js": "const a = {b:1,c:[1,2,3]}\n",
        "src/cfg.json": '{"a":1,\n"b":2}\n',
        "src/ok.js": "const ok = 1;\n",
    },
    confirm=r"src/a\.js",
)
add(
    "prettier-write-reports-changed",
    "prettier",
    "plain_success",
    None,
    "prettier --write reformats two files and leaves one unchanged (printed as '(unchanged)'); exits 0",
    "prettier --write src",
    files={
        "src/a.js": "const a = {b:1}\n",
        "src/b.ts": "let b:number=2\n",
        "src/c.js": "const c = 3;\n",
    },
    confirm=r"src/b\.ts",
)
