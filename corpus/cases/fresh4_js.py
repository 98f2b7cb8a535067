"""Fourth fresh batch (ids ``fresh4-*``): new scenarios for node, npm, jest, vitest, mocha, tsc,
eslint and prettier."""

from __future__ import annotations

import json

from casekit import batch, dedent, package_json

CASES, add = batch("fresh4")


LINK_NM = 'ln -s "$(dirname "$(command -v tsc)")/.." node_modules'


# --- node ----------------------------------------------------------------------------------------

add(
    "node-promise-all-one-rejects-caught",
    "node",
    "exit0_hidden_failure",
    None,
    "a seed script awaits Promise.all over three inserts inside try/catch that only console.error()s; one insert rejects with a duplicate key and the script exits 0 with the seed incomplete",
    "node seed.mjs",
    files={
        "seed.mjs": dedent("""
            const insert = async (row) => {
              if (row.id === 2) throw new Error(`duplicate key value violates unique constraint "users_pkey" (id=${row.id})`);
              return row.id;
            };
            try {
              const ids = await Promise.all([1, 2, 3].map((id) => insert({ id })));
              console.log("seeded", ids);
            } catch (err) {
              console.error("seed failed:", err);
            }
        """),
    },
    confirm=r"seed failed: Error: duplicate key value",
)
add(
    "node-retry-backoff-recovers",
    "node",
    "success_alarming_stderr",
    None,
    "a deploy script calls a local flaky endpoint with exponential backoff, logging each 503 with its stack-less error; the third attempt returns 200 and it exits 0",
    "node retry.mjs",
    files={
        "retry.mjs": dedent("""
            const url = `${process.env.HTTP_APP}/flaky/fresh4-node/2`;
            for (let attempt = 1; attempt <= 5; attempt++) {
              const res = await fetch(url);
              if (res.ok) { console.log(`attempt ${attempt}: ${(await res.text()).trim()}`); process.exit(0); }
              console.error(`Error: upstream returned ${res.status} ${res.statusText} (attempt ${attempt}), backing off ${2 ** attempt * 10}ms`);
              await new Promise((r) => setTimeout(r, 2 ** attempt * 10));
            }
            process.exit(1);
        """),
    },
    confirm=r"(?s)(?=.*Error: upstream returned 503)(?=.*ok after 3 attempts)",
)
add(
    "node-server-listen-close-clean",
    "node",
    "success_alarming_stderr",
    None,
    "an integration script starts an HTTP server, requests a route that the app answers with a logged 500 handler test, then closes the server; both checks pass",
    "node smoke.mjs",
    files={
        "smoke.mjs": dedent("""
            import http from "node:http";
            const srv = http.createServer((req, res) => {
              if (req.url === "/error") {
                console.error(`[app] Error: simulated failure for ${req.url}\\n    at handler (smoke.mjs:5:21)`);
                res.writeHead(500).end("internal error");
                return;
              }
              res.end("ok");
            });
            await new Promise((r) => srv.listen(0, "127.0.0.1", r));
            const base = `http://127.0.0.1:${srv.address().port}`;
            const a = await fetch(`${base}/health`);
            const b = await fetch(`${base}/error`);
            console.log(`health=${a.status} error-route=${b.status} (expected 200/500)`);
            const ok = a.status === 200 && b.status === 500;
            srv.close(() => { console.log(ok ? "smoke checks passed, server closed" : "smoke FAILED"); process.exit(ok ? 0 : 1); });
        """),
    },
    confirm=r"(?s)(?=.*\[app\] Error: simulated failure)(?=.*smoke checks passed)",
)
add(
    "node-stream-error-event-logged",
    "node",
    "exit0_hidden_failure",
    None,
    "a build script copies assets with a read stream whose 'error' event handler only logs; the source file is missing, nothing is copied and it exits 0",
    "node copy.js; ls dist",
    setup="mkdir dist",
    files={
        "copy.js": "const fs = require('fs');\nconst src = fs.createReadStream('assets/logo.svg');\nsrc.on('error', (e) => console.error('asset copy error:', e.message));\nsrc.pipe(fs.createWriteStream('dist/logo.svg'));\nconsole.log('assets queued');\n",
    },
    confirm=r"asset copy error: ENOENT",
)
add(
    "node-process-on-exit-code-zero",
    "node",
    "exit0_hidden_failure",
    None,
    "a CLI's 'exit' handler forces process.exitCode = 0 so cleanup never fails the job; the main code threw TypeError and the process exits 0",
    "node cli.js",
    files={
        "cli.js": "process.on('uncaughtException', (e) => { console.error(e); process.exitCode = 1; });\nprocess.on('exit', () => { console.log('cleanup done'); process.exitCode = 0; });\nconst cfg = undefined;\nconsole.log(cfg.outputDir);\n",
    },
    confirm=r"TypeError: Cannot read properties of undefined",
)
add(
    "node-url-parse-pending-deprecation-ok",
    "node",
    "success_alarming_stderr",
    None,
    "a router script run with --pending-deprecation parses URLs with url.parse(); node prints a DEP0169 DeprecationWarning about security implications and the routes print",
    "node --pending-deprecation routes.js",
    files={
        "routes.js": "const url = require('url');\nfor (const u of ['http://x/api/users?id=1', 'http://x/health']) console.log('route', url.parse(u).pathname);\n"
    },
    confirm=r"(?s)(?=.*DeprecationWarning)(?=.*route /health)",
)
add(
    "node-json-invalid-config",
    "node",
    "plain_failure",
    None,
    "node requires a JSON config with a trailing comma; require throws a SyntaxError and node exits 1",
    "node -e \"const c = require('./config.json'); console.log(c.port)\"",
    files={"config.json": '{\n  "port": 8080,\n}\n'},
    expect=1,
    confirm=r"SyntaxError",
)
add(
    "node-heap-limit-killed-abort",
    "node",
    "killed_signalled",
    None,
    "a report builder accumulates strings under --max-old-space-size=24 and V8 aborts with 'heap out of memory'",
    [
        "node",
        "--max-old-space-size=24",
        "-e",
        "const a = []; for (;;) a.push('x'.repeat(1024) + a.length);",
    ],
    expect="SIGABRT",
    timeout=60,
)
add(
    "node-latin1-buffer-stdout",
    "node",
    "non_utf8",
    "failure",
    "a converter writes latin1 Buffer output to stdout and then throws because a field is missing; exits 1",
    "node conv.js",
    files={
        "conv.js": "const rows = [{n: 'Zoë', c: 'Köln'}, {n: 'José'}];\nfor (const r of rows) {\n  if (!r.c) throw new Error(`row ${r.n}: missing city`);\n  process.stdout.write(Buffer.from(`${r.n};${r.c}\\n`, 'latin1'));\n}\n"
    },
    expect=1,
)
add(
    "node-inspect-colour-ok",
    "node",
    "coloured_output",
    "success",
    "node prints a config object with util.inspect colours forced (FORCE_COLOR) for a debug dump; exits 0",
    "node -e \"console.log(require('util').inspect({retries: 3, errors: null, ok: true}, {colors: true}))\"",
)

# --- npm -----------------------------------------------------------------------------------------

add(
    "npm-run-prebuild-warn-build-ok",
    "npm",
    "success_alarming_stderr",
    None,
    "npm run build runs a prebuild that warns about a missing optional .env file (logged to stderr) and a build that writes dist/app.js; exits 0",
    "npm run build && cat dist/app.js",
    files={
        "package.json": package_json(
            {
                "prebuild": "test -f .env || echo 'WARN: .env not found, falling back to defaults (error reporting disabled)' >&2",
                "build": "mkdir -p dist && echo 'console.log(1)' > dist/app.js",
            }
        ),
    },
    confirm=r"(?s)(?=.*WARN: .env not found)(?=.*console.log\(1\))",
)
add(
    "npm-run-posttest-masks",
    "npm",
    "exit0_hidden_failure",
    None,
    "the package's test script is 'node test.js; node report.js' so the report always runs; the test script fails its assertion and npm test exits 0",
    "npm test",
    files={
        "package.json": package_json({"test": "node test.js; node report.js"}),
        "test.js": "const assert = require('assert');\nassert.strictEqual([1,2,3].indexOf(4), 3, 'indexOf should find 4');\n",
        "report.js": "console.log('report written to coverage/index.html');\n",
    },
    confirm=r"AssertionError",
)
add(
    "npm-ci-offline-cache-miss",
    "npm",
    "failure_noisy_stderr",
    None,
    "npm ci --offline with a lockfile naming a package that is not in the cache; npm logs its verbose timing and fails with ENOTCACHED",
    "npm ci --loglevel=verbose",
    files={
        "package.json": package_json({}, dependencies={"left-pad-fresh4-missing": "1.0.0"}),
        "package-lock.json": json.dumps(
            {
                "name": "app",
                "version": "1.0.0",
                "lockfileVersion": 3,
                "requires": True,
                "packages": {
                    "": {
                        "name": "app",
                        "version": "1.0.0",
                        "dependencies": {"left-pad-fresh4-missing": "1.0.0"},
                    },
                    "node_modules/left-pad-fresh4-missing": {
                        "version": "1.0.0",
                        "resolved": "https://registry.npmjs.org/left-pad-fresh4-missing/-/left-pad-fresh4-missing-1.0.0.tgz",
                    },
                },
            }
        ),
    },
    expect="nonzero",
    confirm=r"ENOTCACHED|notarget|E404|cache mode",
)
add(
    "npm-run-workspace-if-present",
    "npm",
    "exit0_hidden_failure",
    None,
    "npm run lint --workspaces --if-present is used to lint all packages, but the script is named 'lint:js' so every workspace is skipped and no lint ran; the wrapper greps the log and prints 'no lint output'",
    "npm run lint --workspaces --if-present 2>&1 | tee lint.log; grep -q 'eslint' lint.log || echo 'lint step: no lint output (0 problems?)'",
    files={
        "package.json": package_json({}, workspaces=["packages/*"]),
        "packages/a/package.json": package_json({"lint:js": "eslint ."}).replace('"app"', '"a"'),
    },
    confirm=r"no lint output",
)
add(
    "npm-pack-dry-run-ok",
    "npm",
    "plain_success",
    None,
    "npm pack --dry-run lists the tarball contents of a small package and exits 0",
    "npm pack --dry-run",
    files={
        "package.json": package_json({}, files=["index.js"]),
        "index.js": "module.exports = 1;\n",
    },
    confirm=r"app-1.0.0.tgz",
)
add(
    "npm-exec-missing-bin-offline",
    "npm",
    "plain_failure",
    None,
    "npx runs a CLI that is not installed while npm is offline; it cannot fetch it and exits non-zero",
    "npx --yes cowsay-fresh4-missing hello",
    expect="nonzero",
)

# --- jest / vitest / mocha -----------------------------------------------------------------------

add(
    "jest-error-boundary-tests-pass",
    "jest",
    "success_alarming_stderr",
    None,
    "jest tests an error handler that console.error()s the caught exception with its stack; jest shows the console.error blocks and all 3 tests pass",
    "jest --ci handler.test.js",
    files={
        "package.json": '{"name": "t", "private": true}\n',
        "handler.js": "function handle(fn) { try { return { ok: true, value: fn() }; } catch (err) { console.error('handler caught:', err); return { ok: false, error: err.message }; } }\nmodule.exports = { handle };\n",
        "handler.test.js": "const { handle } = require('./handler');\ntest('returns value', () => expect(handle(() => 2).value).toBe(2));\ntest('wraps TypeError', () => expect(handle(() => null.x).ok).toBe(false));\ntest('wraps thrown Error', () => expect(handle(() => { throw new Error('db down'); }).error).toBe('db down'));\n",
    },
    confirm=r"(?s)(?=.*console.error)(?=.*Tests:\s+3 passed, 3 total)",
)
add(
    "jest-echo-status-after",
    "jest",
    "exit0_hidden_failure",
    None,
    "the test step runs jest and then echoes its status for the log ('jest exited with N'), so the echo's 0 is the step's status; a float test failed",
    'jest --ci; echo "jest exited with $?"',
    files={
        "package.json": '{"name": "t", "private": true}\n',
        "sum.test.js": "test('sum', () => expect(0.1 + 0.2).toBe(0.3));\ntest('ok', () => expect(1).toBe(1));\n",
    },
    confirm=r"jest exited with 1",
)
add(
    "jest-snapshot-obsolete-ci-fail",
    "jest",
    "plain_failure",
    None,
    "jest --ci refuses to write a new snapshot for a test without one; the test fails and jest exits 1",
    "jest --ci snap.test.js",
    files={
        "package.json": '{"name": "t", "private": true}\n',
        "snap.test.js": "test('renders', () => expect({ title: 'Hi', items: [1, 2] }).toMatchSnapshot());\n",
    },
    expect=1,
)
add(
    "vitest-expected-error-logs-pass",
    "vitest",
    "success_alarming_stderr",
    None,
    "vitest runs tests whose code under test logs 'Error: invalid token' via console.error for rejected logins; all tests pass",
    "vitest run --reporter=verbose",
    setup=LINK_NM,
    files={
        "auth.js": "export function login(token) { if (token !== 'good') { console.error(new Error('invalid token: ' + token)); return false; } return true; }\n",
        "auth.test.js": "import { test, expect } from 'vitest';\nimport { login } from './auth.js';\ntest('accepts good token', () => expect(login('good')).toBe(true));\ntest('rejects bad token', () => expect(login('bad')).toBe(false));\n",
    },
    confirm=r"(?s)(?=.*invalid token: bad)(?=.*2 passed)",
)
add(
    "vitest-run-typo-filter-no-tests",
    "vitest",
    "exit0_hidden_failure",
    None,
    "vitest run is given a file filter with a typo and --passWithNoTests; no test file matches, nothing runs and it exits 0",
    "vitest run --passWithNoTests athu",
    setup=LINK_NM,
    files={
        "auth.test.js": "import { test, expect } from 'vitest';\ntest('x', () => expect(1).toBe(2));\n"
    },
    confirm=r"No test files found",
)
add(
    "vitest-fail-colour",
    "vitest",
    "coloured_output",
    "failure",
    "vitest with FORCE_COLOR runs a failing date-format test; coloured diff, exit 1",
    "vitest run",
    env={"FORCE_COLOR": "1"},
    setup=LINK_NM,
    files={
        "fmt.test.js": "import { test, expect } from 'vitest';\ntest('iso date', () => expect(new Date(0).toISOString().slice(0, 10)).toBe('1970-01-02'));\n"
    },
    expect=1,
)
add(
    "mocha-retries-flaky-pass",
    "mocha",
    "success_alarming_stderr",
    None,
    "mocha --retries 2 reruns a test whose first attempt throws ECONNRESET (logged by the test); the retry passes and mocha exits 0",
    "mocha --retries 2 test.js",
    files={
        "test.js": "let n = 0;\nconst assert = require('assert');\ndescribe('queue client', () => {\n  it('publishes', () => {\n    n += 1;\n    if (n === 1) { console.error('Error: read ECONNRESET (attempt ' + n + ')'); throw new Error('read ECONNRESET'); }\n    assert.ok(true);\n  });\n});\n"
    },
    confirm=r"(?s)(?=.*ECONNRESET)(?=.*1 passing)",
)
add(
    "mocha-grep-matches-nothing",
    "mocha",
    "exit0_hidden_failure",
    None,
    "mocha --grep with a misspelled suite name runs 0 tests and exits 0; the failing billing test never ran",
    "mocha --grep 'biling' test.js",
    files={
        "test.js": "const assert = require('assert');\ndescribe('billing', () => { it('charges tax', () => assert.strictEqual(100 * 1.2, 121)); });\n"
    },
    confirm=r"0 passing",
)
add(
    "mocha-before-hook-fails",
    "mocha",
    "plain_failure",
    None,
    "a mocha before() hook throws while seeding fixtures; the suite's tests are skipped and mocha exits 1",
    "mocha test.js",
    files={
        "test.js": "describe('users', () => {\n  before(() => { throw new Error('fixture users.json missing'); });\n  it('lists', () => {});\n});\n"
    },
    expect=1,
    confirm=r"before all\" hook",
)

# --- tsc / eslint / prettier ---------------------------------------------------------------------

add(
    "tsc-noemitonerror-false-emits",
    "tsc",
    "exit0_hidden_failure",
    None,
    "the build script runs 'tsc; node dist/index.js' so the emitted JS runs despite type errors; tsc reports an error and the step exits 0",
    "tsc --outDir dist index.ts; node dist/index.js",
    files={
        "index.ts": "function area(r: number): number { return Math.PI * r * r; }\nconsole.log(area('2' as unknown as string));\n"
    },
    confirm=r"error TS2345",
)
add(
    "tsc-build-incremental-ok",
    "tsc",
    "plain_success",
    None,
    "tsc -b builds a small project with a tsconfig and writes dist/ and a tsbuildinfo; exits 0",
    "tsc -b && ls dist",
    files={
        "tsconfig.json": '{"compilerOptions": {"outDir": "dist", "strict": true, "composite": true}, "files": ["a.ts"]}\n',
        "a.ts": "export const x: number = 1;\n",
    },
    confirm=r"a\.js",
)
add(
    "tsc-listfiles-extended-diagnostics",
    "tsc",
    "success_alarming_stderr",
    None,
    "tsc --extendedDiagnostics on a clean project prints statistics including an 'Errors: 0' style counter and 'Check time'; exits 0",
    "tsc --noEmit --extendedDiagnostics --strict err.ts",
    files={
        "err.ts": "export class HttpError extends Error { constructor(public status: number) { super(`HTTP ${status}`); } }\n"
    },
    confirm=r"Check time",
)
add(
    "eslint-fix-dry-run-or-true",
    "eslint",
    "exit0_hidden_failure",
    None,
    "lint runs 'eslint --fix-dry-run . || true'; an undefined variable remains an error and the step exits 0",
    "eslint --no-eslintrc --env node --parser-options=ecmaVersion:2022 --rule 'no-undef: error' --rule 'prefer-const: error' --fix-dry-run app.js || true",
    files={"app.js": "let port = 3000;\nconsole.log(prot);\n"},
    confirm=r"'prot' is not defined",
)
add(
    "eslint-max-warnings-zero-clean",
    "eslint",
    "success_alarming_stderr",
    None,
    "eslint --max-warnings 0 --format compact on a clean file named errorHandler.js prints nothing problematic and exits 0; the script then echoes '0 errors, 0 warnings'",
    "eslint --no-eslintrc --env node --rule 'no-unused-vars: error' --max-warnings 0 errorHandler.js && echo 'eslint: 0 errors, 0 warnings'",
    files={
        "errorHandler.js": "module.exports = function errorHandler(err, req, res) {\n  res.status(500).json({ error: err.message });\n};\n"
    },
    confirm=r"0 errors, 0 warnings",
)
add(
    "prettier-check-glob-no-match",
    "prettier",
    "plain_failure",
    None,
    "prettier --check with a glob that matches no file ('src/**/*.tsx' in a JS project) errors 'No files matching the pattern' and exits 2",
    "prettier --check 'src/**/*.tsx'",
    files={"src/a.js": "const a = 1;\n"},
    expect=2,
)
add(
    "prettier-write-list-changed",
    "prettier",
    "success_alarming_stderr",
    None,
    "prettier --write formats error-handling modules and lists them; the names (errors.js, failures.js) appear and the files are formatted",
    "prettier --write '*.js' && prettier --check '*.js'",
    files={
        "errors.js": "export const E={NOT_FOUND:404,SERVER_ERROR:500}\n",
        "failures.js": "export function fail(msg){throw new Error(msg)}\n",
    },
    confirm=r"(?s)(?=.*errors.js)(?=.*All matched files use Prettier code style)",
)
