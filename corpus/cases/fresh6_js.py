"""Sixth fresh batch (ids ``fresh6-*``): new scenarios for the JavaScript tools (node, npm, jest,
vitest, mocha, node --test, tsc, eslint, prettier, sucrase, knip, wait-on)."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh6")


PKG = '{"name": "app", "version": "1.0.0", "private": true}\n'

# --- jest ----------------------------------------------------------------------------------------

add(
    "jest-force-exit-open-handle-pass",
    "jest",
    "success_alarming_stderr",
    None,
    "a test leaves a heartbeat interval running; jest --forceExit prints its open-handle warning after all tests pass and exits 0",
    "jest --forceExit",
    files={
        "package.json": PKG,
        "heartbeat.js": "exports.start = () => setInterval(() => {}, 1000);\nexports.add = (a, b) => a + b;\n",
        "heartbeat.test.js": "const h = require('./heartbeat');\ntest('add', () => { h.start(); expect(h.add(2, 3)).toBe(5); });\n",
    },
    timeout=60,
    confirm=r"(?s)(?=.*Force exiting Jest)(?=.*1 passed)",
)
add(
    "jest-esm-syntax-unexpected-token",
    "jest",
    "failure_noisy_stderr",
    None,
    "a test imports an ES module file without a transform; jest prints its long 'Jest encountered an unexpected token' guide and exits 1",
    "jest",
    files={
        "package.json": PKG,
        "src/dates.mjs.js": "export const isoDay = (d) => d.toISOString().slice(0, 10);\n",
        "dates.test.js": "const { isoDay } = require('./src/dates.mjs.js');\ntest('day', () => expect(isoDay(new Date(0))).toBe('1970-01-01'));\n",
    },
    timeout=60,
    expect=1,
    confirm=r"Jest encountered an unexpected token",
)
add(
    "jest-list-tests-instead-of-run",
    "jest",
    "exit0_hidden_failure",
    None,
    "to verify a fix, the agent's command runs jest --listTests (which only lists files) and the failing test is never run",
    "jest --listTests && node -e \"require('./total.test.helper')\"",
    files={
        "package.json": PKG,
        "total.js": "module.exports = (xs) => xs.reduce((a, b) => a + b);\n",
        "total.test.js": "const total = require('./total');\ntest('empty', () => expect(total([])).toBe(0));\n",
        "total.test.helper.js": "const total = require('./total');\ntry { console.log('empty total:', total([])); } catch (e) { console.log('empty total threw:', e.message); }\n",
    },
    timeout=60,
    confirm=r"empty total threw: Reduce of empty array",
)

# --- vitest / mocha / node --test ----------------------------------------------------------------

add(
    "vitest-filter-typo-pass-with-no-tests",
    "vitest",
    "exit0_hidden_failure",
    None,
    "vitest run --passWithNoTests is given a misspelled file filter; no test file matches, nothing ran, and it exits 0",
    "vitest run --passWithNoTests chekcout",
    files={
        "package.json": PKG,
        "checkout.test.js": "import { test, expect } from 'vitest';\ntest('tax', () => expect(0.1 + 0.2).toBe(0.3));\n",
    },
    timeout=60,
    confirm=r"No test files found",
)
add(
    "vitest-todo-and-skip-pass",
    "vitest",
    "plain_success",
    None,
    "vitest runs a suite with two passing tests, a skipped one and a todo; the run passes",
    "vitest run",
    files={
        "package.json": PKG,
        "queue.test.js": dedent("""
            import { test, expect } from 'vitest';
            const q = [];
            test('push', () => { q.push(1); expect(q.length).toBe(1); });
            test('shift', () => { expect(q.shift()).toBe(1); });
            test.skip('priority ordering', () => {});
            test.todo('persistence');
        """),
    },
    timeout=60,
    confirm=r"2 passed",
)
add(
    "mocha-retries-flaky-logs-econnreset",
    "mocha",
    "success_alarming_stderr",
    None,
    "a mocha test with this.retries(3) hits a simulated ECONNRESET twice (logged with console.error) and passes on the third try",
    "mocha test.js",
    files={
        "test.js": dedent("""
            const assert = require('assert');
            let calls = 0;
            function fetchRates() {
              calls++;
              if (calls < 3) { const e = new Error('read ECONNRESET'); e.code = 'ECONNRESET'; throw e; }
              return { EUR: 1, USD: 1.09 };
            }
            describe('rates', function () {
              this.retries(3);
              it('loads rates', function () {
                try { assert.strictEqual(fetchRates().USD, 1.09); }
                catch (e) { console.error(`Error: ${e.message} (attempt ${calls})`); throw e; }
              });
            });
        """),
    },
    confirm=r"(?s)(?=.*ECONNRESET)(?=.*1 passing)",
)
add(
    "mocha-color-failing-assert",
    "mocha",
    "coloured_output",
    "failure",
    "mocha --color runs a failing deep-equal assertion and prints a coloured diff; exit 1",
    "mocha --color test.js",
    files={
        "test.js": "const assert = require('assert');\nit('merges config', () => {\n  assert.deepStrictEqual(Object.assign({a: 1}, {b: 2}), {a: 1, b: 3});\n});\n",
    },
    expect=1,
)
add(
    "node-test-todo-skip-pass",
    "node-test",
    "success_alarming_stderr",
    None,
    "node --test runs tests whose code under test logs 'ERROR' for rejected input via console.error; all pass (one todo)",
    "node --test",
    files={
        "test/validate.test.js": dedent("""
            const test = require('node:test');
            const assert = require('node:assert');
            function validate(email) {
              if (!email.includes('@')) { console.error(`ERROR invalid email rejected: ${email}`); return false; }
              return true;
            }
            test('accepts', () => assert.ok(validate('a@b.c')));
            test('rejects', () => assert.ok(!validate('nope')));
            test('unicode domains', { todo: true });
        """),
    },
    confirm=r"(?s)(?=.*ERROR invalid email rejected)(?=.*# fail 0)",
)

# --- node scripts --------------------------------------------------------------------------------

add(
    "node-worker-error-logged",
    "node",
    "exit0_hidden_failure",
    None,
    "a report script offloads the aggregation to a worker thread whose error event is only logged; the worker throws, no report is written, node exits 0",
    "node main.js && echo 'report step finished'",
    files={
        "main.js": dedent("""
            const { Worker } = require('worker_threads');
            const w = new Worker('./agg.js', { workerData: { rows: [1, 2, null, 4] } });
            w.on('message', (m) => require('fs').writeFileSync('report.json', JSON.stringify(m)));
            w.on('error', (e) => console.error('worker failed:', e.stack));
            w.on('exit', () => console.log('aggregation finished'));
        """),
        "agg.js": dedent("""
            const { workerData, parentPort } = require('worker_threads');
            const total = workerData.rows.reduce((a, r) => a + r.toFixed(2) * 1, 0);
            parentPort.postMessage({ total });
        """),
    },
    confirm=r"Cannot read properties of null",
)
add(
    "node-spawn-enoent-handled",
    "node",
    "exit0_hidden_failure",
    None,
    "a build script spawns 'protoc-gen-ts' and only logs the child's 'error' event; the binary is missing, nothing is generated and node exits 0",
    "node gen.js",
    files={
        "gen.js": dedent("""
            const { spawn } = require('child_process');
            const p = spawn('protoc-gen-ts', ['--out', 'gen', 'api.proto']);
            p.on('error', (e) => console.error(`codegen: ${e.message}`));
            p.on('close', (code) => console.log(`codegen step done (code ${code})`));
        """),
    },
    confirm=r"spawn protoc-gen-ts ENOENT",
)
add(
    "node-config-fallback-defaults-ok",
    "node",
    "success_alarming_stderr",
    None,
    "a dev server config loader is built to fall back to defaults when the optional local override is absent; it logs the ENOENT and prints the merged config",
    "node config.js",
    files={
        "config.js": dedent("""
            const fs = require('fs');
            const defaults = { port: 3000, host: '127.0.0.1' };
            let local = {};
            try { local = JSON.parse(fs.readFileSync('config.local.json', 'utf8')); }
            catch (e) { console.warn(`warn: no local config (${e.code}: ${e.message}), using defaults`); }
            console.log('config:', JSON.stringify({ ...defaults, ...local }));
        """),
    },
    confirm=r'(?s)(?=.*ENOENT: no such file)(?=.*config: \{"port":3000)',
)
add(
    "node-process-abort-invariant",
    "node",
    "killed_signalled",
    None,
    "a data migration calls process.abort() when an invariant breaks; node dies of SIGABRT",
    [
        "node",
        "-e",
        "const rows=[{id:1},{id:1}];const ids=new Set(rows.map(r=>r.id));if(ids.size!==rows.length){console.error('duplicate ids, aborting');process.abort();}",
    ],
    expect="SIGABRT",
)
add(
    "node-latin1-buffer-stdout",
    "node",
    "non_utf8",
    "success",
    "a node export script writes a CSV encoded as latin1 to stdout for a legacy system",
    "node -e \"process.stdout.write(Buffer.from('id;nom\\n1;Crème brûlée\\n2;Façade\\n', 'latin1')); console.error('exported 2 rows')\"",
    confirm=r"exported 2 rows",
)

# --- npm -----------------------------------------------------------------------------------------

add(
    "npm-workspaces-test-one-fails",
    "npm",
    "failure_noisy_stderr",
    None,
    "npm test --workspaces runs each package's test script; the api package's test throws and npm exits non-zero",
    "npm test --workspaces",
    files={
        "package.json": '{"name": "mono", "private": true, "workspaces": ["packages/*"]}\n',
        "packages/api/package.json": '{"name": "api", "version": "1.0.0", "scripts": {"test": "node test.js"}}\n',
        "packages/api/test.js": "const assert = require('assert');\nassert.strictEqual(encodeURIComponent('a b'), 'a+b');\n",
        "packages/web/package.json": '{"name": "web", "version": "1.0.0", "scripts": {"test": "node -e \\"console.log(\'web ok\')\\""}}\n',
    },
    setup="npm install --offline --no-audit --no-fund >/dev/null 2>&1 || true",
    expect="nonzero",
    confirm=r"AssertionError",
)
add(
    "npm-test-if-present-missing-script",
    "npm",
    "exit0_hidden_failure",
    None,
    "the pipeline runs 'npm run test:unit --if-present' but the script is named 'test'; npm silently skips it and the tests never ran",
    "npm run test:unit --if-present && echo 'unit tests: done'",
    files={
        "package.json": '{"name": "svc", "version": "1.0.0", "scripts": {"test": "node -e \\"process.exit(1)\\""}}\n'
    },
    confirm=r"unit tests: done",
)
add(
    "npm-pack-dry-run-notices",
    "npm",
    "success_alarming_stderr",
    None,
    "npm pack --dry-run lists the tarball contents as 'npm notice' lines on stderr, with a warning about a missing repository field; it exits 0",
    "npm pack --dry-run",
    files={
        "package.json": '{"name": "tiny-lib", "version": "0.2.0", "main": "index.js", "files": ["index.js"]}\n',
        "index.js": "module.exports = () => 42;\n",
    },
    confirm=r"(?s)(?=.*npm notice)(?=.*tiny-lib-0\.2\.0\.tgz)",
)

# --- tsc / eslint / prettier ---------------------------------------------------------------------

add(
    "tsc-pretty-colour-errors",
    "tsc",
    "coloured_output",
    "failure",
    "tsc --pretty forces coloured diagnostics for a null-safety error under strict; exit 2",
    "tsc --noEmit --strict --pretty user.ts",
    files={
        "user.ts": "interface User { name?: string }\nexport const upper = (u: User): string => u.name.toUpperCase();\n"
    },
    expect=2,
)
add(
    "eslint-json-summary-node",
    "eslint",
    "exit0_hidden_failure",
    None,
    "a CI annotation step pipes eslint -f json into a node summariser that prints counts; eslint found an error and the summariser exits 0",
    "eslint -f json src | node -e \"let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const r=JSON.parse(s);const e=r.reduce((a,f)=>a+f.errorCount,0);console.log('eslint errors: '+e)})\"",
    files={
        ".eslintrc.json": '{"root": true, "env": {"node": true, "es2022": true}, "rules": {"no-undef": "error"}}\n',
        "src/sum.js": "module.exports = (xs) => xs.reduce((a, b) => a + b, totl);\n",
    },
    confirm=r"eslint errors: 1",
)
add(
    "prettier-write-one-syntax-error-or-true",
    "prettier",
    "exit0_hidden_failure",
    None,
    "prettier --write formats the sources under '|| true'; one file has a syntax error and is left unformatted",
    "prettier --write 'src/**/*.js' || true",
    files={
        "src/a.js": "const a = {x:1,y:2}\n",
        "src/b.js": "function broken( {\n  return 1\n}\n",
    },
    confirm=r"SyntaxError",
)

# --- sucrase / knip / remark / wait-on -----------------------------------------------------------

add(
    "sucrase-build-ts-ok",
    "sucrase",
    "plain_success",
    None,
    "sucrase strips the TypeScript types from src into out and the output runs",
    "sucrase ./src -d ./out --transforms typescript,imports && node out/main.js",
    files={
        "src/main.ts": "import { greet } from './greet';\nconsole.log(greet('ci'));\n",
        "src/greet.ts": "export function greet(name: string): string { return `hello ${name}`; }\n",
    },
    confirm=r"hello ci",
)
KNIP = {
    "package.json": '{"name": "knip-demo", "version": "1.0.0", "main": "src/index.js", "type": "commonjs"}\n',
    "src/index.js": "const { add } = require('./math');\nconsole.log(add(1, 2));\n",
    "src/math.js": "exports.add = (a, b) => a + b;\nexports.sub = (a, b) => a - b;\n",
    "src/old-helpers.js": "exports.pad = (s) => ' ' + s;\n",
}
add(
    "knip-unused-file-export",
    "knip",
    "plain_failure",
    None,
    "knip finds an unused file and an unused export and exits 1",
    "knip --no-progress",
    files=KNIP,
    timeout=60,
    expect=1,
    confirm=r"old-helpers",
    group="fresh6-knip",
)
add(
    "knip-no-exit-code",
    "knip",
    "exit0_hidden_failure",
    None,
    "the dead-code gate runs knip with --no-exit-code; it reports an unused file and export and exits 0",
    "knip --no-progress --no-exit-code",
    files=KNIP,
    timeout=60,
    confirm=r"old-helpers",
    group="fresh6-knip",
)
add(
    "wait-on-timeout-continue-smoke",
    "wait-on",
    "exit0_hidden_failure",
    None,
    "the e2e script waits for the server with wait-on, logs and carries on when it times out, and the final echo is its status; the server never came up",
    "wait-on -t 1500 http://127.0.0.1:9/health || echo 'server not ready, continuing'; echo 'e2e stage finished'",
    confirm=r"(?s)(?=.*Timed out)(?=.*server not ready)",
)
add(
    "wait-on-app-ready",
    "wait-on",
    "plain_success",
    None,
    "wait-on sees the local app answer /ok and the smoke request succeeds",
    'wait-on -t 5000 "${HTTP_APP/http:/http-get:}/ok" && curl -fsS "$HTTP_APP/ok"',
    needs=("wait-on", "curl"),
    confirm=r"^ok",
)
