"""Fresh batch (split ``fresh``): node, npm, vitest, jest, tsx, esbuild, rollup, stylelint,
markdownlint, htmlhint, jshint and c8."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh")


# --- node ----------------------------------------------------------------------------------------

add(
    "node-pipeline-callback-enoent",
    "node",
    "exit0_hidden_failure",
    None,
    "log compressor uses stream.pipeline with a callback that only logs; the input log is missing, exit 0",
    "node compress.js",
    files={
        "compress.js": dedent("""
            const { pipeline } = require('node:stream');
            const fs = require('node:fs');
            const zlib = require('node:zlib');
            pipeline(
              fs.createReadStream('access.log'),
              zlib.createGzip(),
              fs.createWriteStream('access.log.gz'),
              (err) => {
                if (err) console.error('Pipeline failed.', err);
                else console.log('Pipeline succeeded.');
              },
            );
        """),
    },
    confirm=r"ENOENT",
)
add(
    "node-allsettled-webhooks",
    "node",
    "exit0_hidden_failure",
    None,
    "dispatcher posts 3 webhooks with Promise.allSettled and only warns on rejections; every post is refused",
    "node dispatch.mjs",
    files={
        "dispatch.mjs": dedent("""
            const targets = ['http://127.0.0.1:1/hook', 'http://127.0.0.1:9/hook', 'http://127.0.0.1:7/hook'];
            const results = await Promise.allSettled(
              targets.map((url) => fetch(url, { method: 'POST', body: '{"event":"deploy"}' })),
            );
            results.forEach((r, i) => {
              if (r.status === 'rejected') console.warn(`webhook ${i} failed:`, r.reason);
            });
            console.log(`webhooks dispatched: ${results.length}`);
        """),
    },
    confirm=r"fetch failed",
)
add(
    "node-fetch-retry-recovers",
    "node",
    "success_alarming_stderr",
    None,
    "client retries a flaky endpoint that answers 503 twice, logging each error with its stack; the third try succeeds",
    "node retry.mjs",
    files={
        "retry.mjs": dedent("""
            const url = `${process.env.HTTP_APP}/flaky/fresh-node-retry/2`;
            for (let attempt = 1; attempt <= 5; attempt++) {
              try {
                const res = await fetch(url);
                if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText} from ${url}`);
                console.log('got:', (await res.text()).trim());
                break;
              } catch (err) {
                console.error(`attempt ${attempt} failed, retrying`, err);
                await new Promise((r) => setTimeout(r, 100));
              }
            }
        """),
    },
    confirm=r"(?s)^(?=.*Error: HTTP 503)(?=.*got: ok after 3)",
)
add(
    "node-rmdir-deprecation",
    "node",
    "success_alarming_stderr",
    None,
    "clean script removes build/ with the deprecated fs.rmdirSync recursive option; it warns and the dir is gone",
    "node clean.js && test ! -e build && echo clean-done",
    files={
        "clean.js": "const fs = require('fs');\nfs.rmdirSync('build', { recursive: true });\nconsole.log('removed build/');\n",
        "build/out/app.js": "console.log(1)\n",
    },
    confirm=r"(?s)^(?=.*DeprecationWarning)(?=.*clean-done)",
)
add(
    "node-stack-size-segv",
    "node",
    "killed_signalled",
    None,
    "deep recursion run with --stack-size far above the OS stack overflows the real stack and dies with SIGSEGV",
    ["node", "--stack-size=65500", "-e", "const walk = (n) => walk(n + 1) + 1; walk(0);"],
    expect="SIGSEGV",
)
add(
    "node-binary-header-error",
    "node",
    "non_utf8",
    "failure",
    "image tool reads a file with a bad header, prints the raw header bytes in its error and exits 1",
    "node inspect.js",
    files={
        "inspect.js": dedent("""
            const fs = require('fs');
            const buf = fs.readFileSync('photo.png');
            if (!buf.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) {
              process.stderr.write(Buffer.concat([Buffer.from('invalid PNG header: '), buf.subarray(0, 12), Buffer.from('\\n')]));
              process.exit(1);
            }
        """),
        "photo.png": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01",
    },
)

# --- vitest --------------------------------------------------------------------------------------

CART = (
    "export function total(items) {\n  return items.reduce((s, i) => s + i.price * i.qty, 0);\n}\n"
)
VITEST_PASS = {
    "src/cart.js": CART,
    "src/cart.test.js": dedent("""
        import { total } from './cart.js';
        test('sums price * qty', () => { expect(total([{ price: 2, qty: 3 }, { price: 1, qty: 1 }])).toBe(7); });
        test('empty cart', () => { expect(total([])).toBe(0); });
    """),
    "package.json": '{"name": "cart", "type": "module", "private": true}\n',
}
VITEST_FAIL = {
    **VITEST_PASS,
    "src/cart.test.js": dedent("""
        import { total } from './cart.js';
        test('sums price * qty', () => { expect(total([{ price: 2, qty: 3 }])).toBe(6); });
        test('applies 10% discount over 100', () => { expect(total([{ price: 60, qty: 2 }])).toBe(108); });
    """),
}
add(
    "vitest-pass",
    "vitest",
    "plain_success",
    None,
    "vitest runs two passing cart tests",
    "vitest run --globals",
    files=VITEST_PASS,
    confirm=r"2 passed",
)
add(
    "vitest-fail",
    "vitest",
    "plain_failure",
    None,
    "a discount test fails because discounts are not implemented; vitest exits 1",
    "vitest run --globals",
    files=VITEST_FAIL,
    confirm=r"1 failed",
)
add(
    "vitest-tee",
    "vitest",
    "exit0_hidden_failure",
    None,
    "CI pipes vitest through tee into a log; the discount test fails and tee exits 0",
    "vitest run --globals 2>&1 | tee vitest.log",
    files=VITEST_FAIL,
    confirm=r"1 failed",
)
add(
    "vitest-console-error-pass",
    "vitest",
    "success_alarming_stderr",
    None,
    "tests check that a bad payload is rejected; the code logs console.error with a stack and all tests pass",
    "vitest run --globals",
    files={
        "src/parse.js": dedent("""
            export function parse(raw) {
              try {
                return JSON.parse(raw);
              } catch (err) {
                console.error('failed to parse payload', err);
                return null;
              }
            }
        """),
        "src/parse.test.js": dedent("""
            import { parse } from './parse.js';
            test('valid payload', () => { expect(parse('{"a":1}')).toEqual({ a: 1 }); });
            test('invalid payload returns null', () => { expect(parse('{a:')).toBeNull(); });
        """),
        "package.json": '{"name": "parse", "type": "module", "private": true}\n',
    },
    confirm=r"(?s)^(?=.*failed to parse)(?=.*2 passed)",
)
add(
    "vitest-color-pass",
    "vitest",
    "coloured_output",
    "success",
    "vitest with FORCE_COLOR runs the passing cart tests",
    "vitest run --globals",
    files=VITEST_PASS,
    env={"FORCE_COLOR": "1"},
    confirm=r"passed",
)
add(
    "vitest-unhandled-rejection",
    "vitest",
    "plain_failure",
    None,
    "the tests pass but code under test leaves a rejected promise unhandled; vitest reports it and exits 1",
    "vitest run --globals",
    files={
        "src/sync.js": "export function sync() {\n  Promise.reject(new Error('sync worker lost connection'));\n  return true;\n}\n",
        "src/sync.test.js": "import { sync } from './sync.js';\ntest('sync starts', async () => { expect(sync()).toBe(true); await new Promise((r) => setTimeout(r, 50)); });\n",
        "package.json": '{"name": "sync", "type": "module", "private": true}\n',
    },
    confirm=r"sync worker lost connection",
)
add(
    "npm-test-vitest-echo",
    "npm",
    "exit0_hidden_failure",
    None,
    "package's test script is 'vitest run; echo tests finished'; a test fails and npm test exits 0",
    "npm test",
    files={
        **VITEST_FAIL,
        "package.json": '{"name": "cart", "type": "module", "private": true, "scripts": {"test": "vitest run --globals; echo tests finished"}}\n',
    },
    confirm=r"1 failed",
)

# --- jest ----------------------------------------------------------------------------------------

JEST_PKG = '{"name": "app", "private": true, "jest": {"testEnvironment": "node"}}\n'
SLUG_JS = "function slug(s) {\n  return s.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-');\n}\nmodule.exports = { slug };\n"
JEST_FAIL = {
    "package.json": JEST_PKG,
    "slug.js": SLUG_JS,
    "slug.test.js": dedent("""
        const { slug } = require('./slug');
        test('lowercases', () => { expect(slug('Hello World')).toBe('hello-world'); });
        test('strips trailing punctuation', () => { expect(slug('Hello, World!')).toBe('hello-world'); });
    """),
}
add(
    "jest-fail",
    "jest",
    "plain_failure",
    None,
    "a slug test expects trailing punctuation to be stripped, which it is not; jest exits 1",
    "jest --ci",
    files=JEST_FAIL,
    confirm=r"1 failed",
)
add(
    "jest-or-echo",
    "jest",
    "exit0_hidden_failure",
    None,
    "CI script runs jest || echo 'tests failed, continuing deploy'; a test fails",
    "jest --ci || echo 'tests failed, continuing deploy'",
    files=JEST_FAIL,
    confirm=r"1 failed",
)
add(
    "jest-color-fail",
    "jest",
    "coloured_output",
    "failure",
    "jest --colors runs the slug suite with a failing test and exits 1",
    "jest --ci --colors",
    files=JEST_FAIL,
    expect="nonzero",
    confirm=r"1 failed",
)
add(
    "jest-console-error-pass",
    "jest",
    "success_alarming_stderr",
    None,
    "tests of a retrying client pass; the client console.errors each failed attempt, which jest prints",
    "jest --ci",
    files={
        "package.json": JEST_PKG,
        "client.js": dedent("""
            async function withRetry(fn, tries = 3) {
              for (let i = 1; ; i++) {
                try {
                  return await fn();
                } catch (err) {
                  console.error(`attempt ${i} failed:`, err);
                  if (i >= tries) throw err;
                }
              }
            }
            module.exports = { withRetry };
        """),
        "client.test.js": dedent("""
            const { withRetry } = require('./client');
            test('recovers after two failures', async () => {
              let n = 0;
              const v = await withRetry(async () => { if (++n < 3) throw new Error('ECONNRESET'); return 'ok'; });
              expect(v).toBe('ok');
            });
        """),
    },
    confirm=r"(?s)^(?=.*ECONNRESET)(?=.*1 passed)",
)
add(
    "jest-infinite-loop-timeout",
    "jest",
    "killed_signalled",
    None,
    "a test spins forever in a sync loop; the task timeout kills jest",
    ["jest", "--ci"],
    files={
        "package.json": JEST_PKG,
        "wait.test.js": "test('waits for ready flag', () => {\n  let ready = false;\n  while (!ready) { /* never set */ }\n});\n",
    },
    expect="SIGKILL",
    timeout=25,
)

# --- tsx -----------------------------------------------------------------------------------------

add(
    "tsx-script-ok",
    "tsx",
    "plain_success",
    None,
    "tsx runs a typed TypeScript script that aggregates orders",
    "tsx report.ts",
    files={
        "report.ts": dedent("""
            interface Order { id: number; total: number; }
            const orders: Order[] = [{ id: 1, total: 20 }, { id: 2, total: 22.5 }];
            const sum = orders.reduce((s: number, o: Order) => s + o.total, 0);
            console.log(`orders=${orders.length} revenue=${sum.toFixed(2)}`);
        """),
    },
    confirm=r"revenue=42\.50",
)
add(
    "tsx-throw",
    "tsx",
    "plain_failure",
    None,
    "TypeScript config loader throws on a missing key and the process dies",
    "tsx load.ts",
    files={
        "load.ts": dedent("""
            type Config = Record<string, string>;
            function required(cfg: Config, key: string): string {
              const v = cfg[key];
              if (v === undefined) throw new Error(`missing required config key: ${key}`);
              return v;
            }
            console.log(required({ host: 'db' }, 'password'));
        """),
    },
)
add(
    "tsx-migration-caught",
    "tsx",
    "exit0_hidden_failure",
    None,
    "migration runner catches the failed step, logs it with console.error and returns normally",
    "tsx migrate.ts",
    files={
        "migrate.ts": dedent("""
            import { readFileSync } from 'node:fs';
            async function step(name: string): Promise<void> {
              const sql = readFileSync(`migrations/${name}.sql`, 'utf8');
              console.log(`applied ${name} (${sql.length} bytes)`);
            }
            async function main(): Promise<void> {
              try {
                await step('001_init');
                await step('002_add_index');
              } catch (err) {
                console.error('migration failed:', err);
              }
              console.log('migrate: done');
            }
            main();
        """),
        "migrations/001_init.sql": "CREATE TABLE t (id INT);\n",
    },
    confirm=r"002_add_index",
)

# --- esbuild -------------------------------------------------------------------------------------

add(
    "esbuild-bundle-ok",
    "esbuild",
    "plain_success",
    None,
    "esbuild bundles a two-module app and prints the output size",
    "esbuild src/index.js --bundle --outfile=dist/app.js && test -s dist/app.js",
    files={
        "src/index.js": "import { greet } from './greet.js';\nconsole.log(greet('world'));\n",
        "src/greet.js": "export const greet = (n) => `hello ${n}`;\n",
    },
    confirm=r"dist/app\.js",
)
add(
    "esbuild-duplicate-key-warning",
    "esbuild",
    "success_alarming_stderr",
    None,
    "esbuild bundles fine but warns about a duplicate object key and a typeof typo",
    "esbuild src/index.js --bundle --outfile=dist/app.js && test -s dist/app.js",
    files={
        "src/index.js": dedent("""
            const defaults = { retries: 3, timeout: 10, retries: 5 };
            if (typeof window == 'undefinded') console.log('server');
            console.log(defaults);
        """),
    },
    confirm=r"(?s)^(?=.*WARNING)(?=.*Duplicate key)",
)
ESB_MISSING = {"src/index.js": "import { fmt } from './format';\nconsole.log(fmt(1));\n"}
add(
    "esbuild-unresolved-or-true",
    "esbuild",
    "exit0_hidden_failure",
    None,
    "build script bundles with '|| true'; an import cannot be resolved and no bundle is written",
    "esbuild src/index.js --bundle --outfile=dist/app.js || true",
    files=ESB_MISSING,
    confirm=r"Could not resolve",
)
add(
    "esbuild-unresolved-color",
    "esbuild",
    "coloured_output",
    "failure",
    "esbuild with --color=true fails to resolve an import and exits 1",
    "esbuild src/index.js --bundle --outfile=dist/app.js --color=true",
    files=ESB_MISSING,
    expect="nonzero",
    confirm=r"Could not resolve",
)

# --- rollup --------------------------------------------------------------------------------------

add(
    "rollup-build-progress",
    "rollup",
    "progress_on_stderr",
    "success",
    "rollup bundles an ES module app, reporting input -> output and timing on stderr",
    "rollup src/main.js --file dist/bundle.js --format es && test -s dist/bundle.js",
    files={
        "src/main.js": "import { add } from './math.js';\nconsole.log(add(2, 3));\n",
        "src/math.js": "export const add = (a, b) => a + b;\nexport const unused = () => 0;\n",
    },
    confirm=r"created",
)
add(
    "rollup-unresolved-external-warning",
    "rollup",
    "success_alarming_stderr",
    None,
    "rollup warns that a bare import is unresolved and treats it as external, as intended for a library build",
    "rollup src/lib.js --file dist/lib.js --format es && test -s dist/lib.js",
    files={
        "src/lib.js": "import { debounce } from 'lodash-es';\nexport const onResize = debounce(() => 1, 100);\n",
    },
    confirm=r"(?s)^(?=.*Unresolved)(?=.*lodash-es)",
)
add(
    "rollup-syntax-error",
    "rollup",
    "plain_failure",
    None,
    "a module has a syntax error; rollup cannot parse it and exits 1",
    "rollup src/main.js --file dist/bundle.js --format es",
    files={
        "src/main.js": "import { add } from './math.js';\nconsole.log(add(2, 3);\n",
        "src/math.js": "export const add = (a, b) => a + b;\n",
    },
)

# --- stylelint, markdownlint, htmlhint, jshint ----------------------------------------------------

STYLELINT_RC = (
    '{"rules": {"color-no-invalid-hex": true, "declaration-block-no-duplicate-properties": true,'
    ' "unit-no-unknown": true, "color-named": ["never", {"severity": "warning"}]}}\n'
)
CSS_BAD = ".btn {\n  color: #12345z;\n  padding: 4pxx;\n  margin: 0;\n  margin: 2px;\n}\n"
add(
    "stylelint-errors",
    "stylelint",
    "plain_failure",
    None,
    "stylelint finds an invalid hex colour, an unknown unit and a duplicate property; exits 2",
    "stylelint 'css/**/*.css'",
    files={".stylelintrc.json": STYLELINT_RC, "css/button.css": CSS_BAD},
    confirm=r"color-no-invalid-hex",
)
add(
    "stylelint-or-true",
    "stylelint",
    "exit0_hidden_failure",
    None,
    "CSS lint step with '|| true' and the compact formatter; the stylesheet has errors",
    "stylelint --formatter compact 'css/**/*.css' || true",
    files={".stylelintrc.json": STYLELINT_RC, "css/button.css": CSS_BAD},
    confirm=r"color-no-invalid-hex",
)
add(
    "stylelint-warnings-only",
    "stylelint",
    "success_alarming_stderr",
    None,
    "stylelint reports only warning-severity named colours, which do not fail the lint",
    "stylelint 'css/**/*.css'",
    files={
        ".stylelintrc.json": STYLELINT_RC,
        "css/theme.css": "a {\n  color: red;\n}\n\n.x {\n  background: white;\n}\n",
    },
    confirm=r"(?s)^(?=.*color-named)(?=.*color-named)",
)
MD_BAD = "# Guide\n## Install\nRun `make`.   \n\n\n* one\n+ two\n# Usage\n"
add(
    "markdownlint-errors",
    "markdownlint",
    "plain_failure",
    None,
    "markdownlint finds heading spacing, trailing spaces and list style problems; exits 1",
    "markdownlint docs/",
    files={"docs/guide.md": MD_BAD},
    needs=("markdownlint",),
)
add(
    "markdownlint-loop-continue",
    "markdownlint",
    "exit0_hidden_failure",
    None,
    "docs check loops over files and echoes a note on failure instead of failing; one doc has errors",
    'for f in docs/*.md; do markdownlint "$f" || echo "lint issues in $f"; done; echo \'docs check complete\'',
    files={"docs/guide.md": MD_BAD, "docs/ok.md": "# Ok\n\nFine text.\n"},
    confirm=r"lint issues in docs/guide\.md",
)
add(
    "htmlhint-clean",
    "htmlhint",
    "success_alarming_stderr",
    None,
    "htmlhint scans a valid page and reports no errors found",
    "htmlhint index.html",
    files={
        "index.html": '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Home</title></head>\n<body><p id="a">hi</p></body>\n</html>\n'
    },
    confirm=r"no errors",
)
add(
    "htmlhint-errors",
    "htmlhint",
    "plain_failure",
    None,
    "htmlhint finds duplicate ids and an unclosed tag; exits 1",
    "htmlhint index.html",
    files={
        "index.html": '<!DOCTYPE html>\n<html lang="en">\n<head><title>Home</title></head>\n<body><p id="a">x</p><div id="a"><span>y</div></body>\n</html>\n'
    },
)
JSHINT_SRC = {
    ".jshintrc": '{"undef": true, "unused": true, "node": true, "esversion": 11}\n',
    "src/app.js": "const fs = require('fs');\nfunction load(p) {\n  return JSON.parse(fs.readFileSync(p, 'utf8'))\n}\nconsole.log(lod('x.json'));\n",
}
add(
    "jshint-errors",
    "jshint",
    "plain_failure",
    None,
    "jshint finds an undefined function, an unused function and a missing semicolon; exits 2",
    "jshint src/",
    files=JSHINT_SRC,
)
add(
    "jshint-or-true",
    "jshint",
    "exit0_hidden_failure",
    None,
    "lint step 'jshint src/ || true' hides the undefined-function error it finds",
    "jshint src/ || true",
    files=JSHINT_SRC,
    confirm=r"'lod' is not defined",
)

# --- c8 ------------------------------------------------------------------------------------------

C8_APP = {
    "lib.js": dedent("""
        function fee(amount, tier) {
          if (tier === 'gold') return 0;
          if (tier === 'silver') return amount * 0.01;
          if (amount > 1000) return 5;
          return amount * 0.02;
        }
        function refund(amount) {
          if (amount <= 0) throw new Error('bad amount');
          return -amount;
        }
        module.exports = { fee, refund };
    """),
    "test.js": dedent("""
        const assert = require('node:assert');
        const { fee } = require('./lib');
        assert.strictEqual(fee(100, 'gold'), 0);
        assert.strictEqual(fee(100, 'none'), 2);
        console.log('fee tests ok');
    """),
}
add(
    "c8-threshold-fail",
    "c8",
    "plain_failure",
    None,
    "tests pass but line coverage is far below the required 95%; c8 --check-coverage exits 1",
    "c8 --check-coverage --lines 95 node test.js",
    files=C8_APP,
    confirm=r"does not meet",
)
add(
    "c8-threshold-or-true",
    "c8",
    "exit0_hidden_failure",
    None,
    "coverage gate runs with '|| true'; coverage is below the 95% threshold",
    "c8 --check-coverage --lines 95 node test.js || true",
    files=C8_APP,
    confirm=r"does not meet",
)
add(
    "c8-report-ok",
    "c8",
    "plain_success",
    None,
    "c8 runs the passing fee tests and prints a coverage table",
    "c8 --reporter=text node test.js",
    files=C8_APP,
    confirm=r"fee tests ok",
)
