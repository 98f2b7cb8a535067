"""Seventh fresh batch (ids ``fresh7-*``): JavaScript scenarios (node, npm, jest, mocha, node
--test, tsc, esbuild) and JavaScript tools new to the corpus (qunit, uglifyjs, cleancss, zx,
lefthook, publint, jsonlint, html-minifier-terser)."""

from __future__ import annotations

from casekit import batch, dedent, package_json

CASES, add = batch("fresh7")

PKG = '{"name": "app", "version": "1.0.0", "private": true}\n'

# --- node ----------------------------------------------------------------------------------------

add(
    "node-fetch-timeout-stale-cache",
    "node",
    "exit0_hidden_failure",
    None,
    "a rates refresher aborts its fetch after 500 ms against a slow upstream, logs the timeout and keeps yesterday's cached rates; it exits 0 without refreshing",
    "node refresh.mjs",
    files={
        "cache.json": '{"fetchedAt": "2023-12-31T00:00:00Z", "USD": 1.08}\n',
        "refresh.mjs": dedent("""
            import { readFile, writeFile } from 'node:fs/promises';
            const cache = JSON.parse(await readFile('cache.json', 'utf8'));
            try {
              const res = await fetch(`${process.env.HTTP_APP}/slow/3`, { signal: AbortSignal.timeout(500) });
              const text = await res.text();
              await writeFile('cache.json', JSON.stringify({ fetchedAt: new Date().toISOString(), raw: text }));
              console.log('rates refreshed');
            } catch (err) {
              console.error(`rates refresh failed: ${err.name}: ${err.message}`);
              console.log(`using cached rates from ${cache.fetchedAt}`);
            }
        """),
    },
    confirm=r"TimeoutError",
)
add(
    "node-json-import-assert-deprecated",
    "node",
    "success_alarming_stderr",
    None,
    "a build script imports its JSON config with the older 'assert' import syntax; Node warns that 'assert' is deprecated in import statements and the script writes the manifest",
    "node build.mjs && cat dist/manifest.txt",
    files={
        "app.config.json": '{"name": "shop", "routes": ["/", "/cart", "/checkout"]}\n',
        "build.mjs": dedent("""
            import { mkdirSync, writeFileSync } from 'node:fs';
            import config from './app.config.json' assert { type: 'json' };
            mkdirSync('dist', { recursive: true });
            writeFileSync('dist/manifest.txt', config.routes.map((r) => `${config.name}${r}`).join('\\n') + '\\n');
            console.log(`wrote ${config.routes.length} routes`);
        """),
    },
    confirm=r"(?s)(?=.*'assert' is deprecated)(?=.*shop/checkout)",
)
add(
    "node-latin1-legacy-export",
    "node",
    "non_utf8",
    "success",
    "an export script for a legacy ERP writes customer names as ISO-8859-1 on stdout, as that system requires",
    "node export.js",
    files={
        "export.js": dedent("""
            const rows = [['1001', 'Müller GmbH', 'Köln'], ['1002', 'Café Noël', 'Besançon']];
            for (const r of rows) process.stdout.write(Buffer.from(r.join(';') + '\\r\\n', 'latin1'));
            console.error(`exported ${rows.length} customers (ISO-8859-1)`);
        """),
    },
    confirm=r"exported 2 customers",
)
add(
    "node-test-forced-colour-fail",
    "node-test",
    "coloured_output",
    "failure",
    "node --test with FORCE_COLOR=1 runs a slugify suite; one assertion fails, the spec reporter colours it and the run exits 1",
    "node --test --test-reporter=spec",
    env={"FORCE_COLOR": "1"},
    files={
        "package.json": PKG,
        "slug.js": "module.exports = (s) => s.toLowerCase().replace(/\\s+/g, '-');\n",
        "slug.test.js": dedent("""
            const test = require('node:test');
            const assert = require('node:assert');
            const slug = require('./slug');
            test('spaces', () => assert.strictEqual(slug('Hello World'), 'hello-world'));
            test('punctuation', () => assert.strictEqual(slug('Hello, World!'), 'hello-world'));
        """),
    },
    expect=1,
    confirm=r"punctuation",
)

# --- npm -----------------------------------------------------------------------------------------

add(
    "npm-version-patch-ok",
    "npm",
    "plain_success",
    None,
    "npm version patch bumps the version in a clean git repo, commits and tags v1.0.1",
    "npm version patch -m 'release %s' && git log --oneline -1 && git tag",
    files={"package.json": PKG, "index.js": "module.exports = 1;\n"},
    setup="git init -q . && git add . && git commit -qm init",
    confirm=r"v1\.0\.1",
)
add(
    "npm-lint-script-semicolon-exit0",
    "npm",
    "exit0_hidden_failure",
    None,
    "the package's check script is 'node scripts/check-env.js; exit 0' so it never blocks; the env check reports two missing variables and npm exits 0",
    "npm run check",
    files={
        "package.json": package_json({"check": "node scripts/check-env.js; exit 0"}),
        ".env.example": "DATABASE_URL=\nSTRIPE_KEY=\nPORT=3000\n",
        "scripts/check-env.js": dedent("""
            const fs = require('fs');
            const need = fs.readFileSync('.env.example', 'utf8').split('\\n').filter(Boolean).map((l) => l.split('=')[0]);
            const env = { PORT: '3000' };
            const missing = need.filter((k) => !(k in env));
            for (const k of missing) console.error(`✖ missing required env var ${k}`);
            if (missing.length) { console.error(`${missing.length} required variables missing`); process.exit(1); }
            console.log('env ok');
        """),
    },
    confirm=r"2 required variables missing",
)

# --- jest / mocha / node --test ------------------------------------------------------------------

add(
    "jest-open-server-handle-task-timeout",
    "jest",
    "killed_signalled",
    None,
    "the tests pass but the app's server is never closed; jest does not exit and the task timeout kills it",
    ["jest", "--runInBand"],
    files={
        "package.json": PKG,
        "server.js": "const http = require('http');\nmodule.exports = http.createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1');\n",
        "server.test.js": dedent("""
            const server = require('./server');
            test('listening', (done) => { server.on('listening', () => { expect(server.address().port).toBeGreaterThan(0); done(); }); if (server.listening) { expect(server.address().port).toBeGreaterThan(0); done(); } });
        """),
    },
    timeout=20,
    expect="SIGKILL",
    confirm=r"1 passed",
)
add(
    "mocha-forbid-only",
    "mocha",
    "plain_failure",
    None,
    "the CI mocha run uses --forbid-only; a leftover it.only makes mocha fail the run with exit 1",
    "mocha --forbid-only test.js",
    files={
        "test.js": dedent("""
            const assert = require('assert');
            describe('cart', () => {
              it('adds items', () => assert.strictEqual([1, 2].length, 2));
              it.only('applies coupon', () => assert.strictEqual(100 * 0.9, 90));
              it('empties', () => assert.deepStrictEqual([], []));
            });
        """),
    },
    expect="nonzero",
    confirm=r"only",
)
add(
    "mocha-colour-pending-pass",
    "mocha",
    "coloured_output",
    "success",
    "mocha --color runs a suite with passing and pending tests; the spec reporter prints coloured ticks and exits 0",
    "mocha --color test.js",
    files={
        "test.js": dedent("""
            const assert = require('assert');
            describe('inventory', () => {
              it('counts stock', () => assert.strictEqual(3 + 4, 7));
              it('reserves items', () => assert.ok(true));
              it('syncs with warehouse API');
            });
        """),
    },
    confirm=r"2 passing",
)
add(
    "node-test-todo-failing-ok",
    "node-test",
    "success_alarming_stderr",
    None,
    "node --test runs a suite where a not-yet-implemented feature is marked todo and fails; todo failures do not fail the run and it exits 0",
    "node --test --test-reporter=tap",
    files={
        "package.json": PKG,
        "tax.js": "exports.vat = (n) => Math.round(n * 120) / 100;\nexports.reverseCharge = () => { throw new Error('not implemented'); };\n",
        "tax.test.js": dedent("""
            const test = require('node:test');
            const assert = require('node:assert');
            const { vat, reverseCharge } = require('./tax');
            test('vat', () => assert.strictEqual(vat(10), 12));
            test('reverse charge for EU B2B', { todo: 'PAY-311' }, () => assert.strictEqual(reverseCharge(10), 10));
        """),
    },
    confirm=r"(?s)(?=.*not ok 2 .*# TODO)(?=.*# fail 0)",
)

# --- tsc / esbuild -------------------------------------------------------------------------------

add(
    "tsc-log-then-grep-count",
    "tsc",
    "exit0_hidden_failure",
    None,
    "a type-check step writes tsc output to a log and prints grep -c of error lines; tsc found errors, grep's count exits 0",
    "tsc --noEmit --pretty false -p . > tsc.log; echo 'type check complete, errors:'; grep -c 'error TS' tsc.log",
    files={
        "tsconfig.json": '{"compilerOptions": {"strict": true, "target": "es2020", "module": "commonjs"}, "include": ["src"]}\n',
        "src/user.ts": "export interface User { id: number; email: string }\nexport function label(u: User): string { return u.name; }\nexport const n: number = '3';\n",
    },
    timeout=90,
    confirm=r"errors:\s*\n2",
)
add(
    "esbuild-import-undefined-warning-ok",
    "esbuild",
    "success_alarming_stderr",
    None,
    "esbuild bundles an app that imports a name its module does not export; it prints a WARNING that the import will be undefined and writes the bundle",
    "esbuild src/main.js --bundle --outfile=dist/app.js && ls dist",
    files={
        "src/util.js": "export const formatPrice = (c) => `$${(c / 100).toFixed(2)}`;\n",
        "src/main.js": "import * as util from './util.js';\nconsole.log(util.formatPrice(1999), util.formatDate);\n",
    },
    confirm=r"(?s)(?=.*WARNING)(?=.*app\.js)",
)

# --- qunit (new) ---------------------------------------------------------------------------------

QUNIT_SRC = "exports.parseQuery = (q) => Object.fromEntries(q.replace(/^\\?/, '').split('&').filter(Boolean).map((kv) => kv.split('=').map(decodeURIComponent)));\n"
add(
    "qunit-pass",
    "qunit",
    "plain_success",
    None,
    "qunit runs the query-string parser tests; all pass",
    "qunit test/",
    files={
        "package.json": PKG,
        "query.js": QUNIT_SRC,
        "test/query.test.js": dedent("""
            const { parseQuery } = require('../query');
            QUnit.module('parseQuery', () => {
              QUnit.test('simple', (a) => a.deepEqual(parseQuery('?a=1&b=2'), { a: '1', b: '2' }));
              QUnit.test('empty', (a) => a.deepEqual(parseQuery(''), {}));
              QUnit.test('encoded', (a) => a.deepEqual(parseQuery('q=hello%20world'), { q: 'hello world' }));
            });
        """),
    },
    confirm=r"# pass 3",
)
add(
    "qunit-console-warn-pass",
    "qunit",
    "success_alarming_stderr",
    None,
    "qunit tests a config loader whose code console.error()s about an invalid value before applying the default; every test passes",
    "qunit test/",
    files={
        "package.json": PKG,
        "config.js": dedent("""
            exports.load = (env) => {
              const port = Number(env.PORT);
              if (!Number.isInteger(port) || port <= 0) {
                console.error(`Error: invalid PORT ${JSON.stringify(env.PORT)}, falling back to 8080`);
                return { port: 8080 };
              }
              return { port };
            };
        """),
        "test/config.test.js": dedent("""
            const { load } = require('../config');
            QUnit.test('valid port', (a) => a.equal(load({ PORT: '3000' }).port, 3000));
            QUnit.test('invalid port falls back', (a) => a.equal(load({ PORT: 'abc' }).port, 8080));
        """),
    },
    confirm=r"(?s)(?=.*invalid PORT)(?=.*# fail 0)",
)

# --- uglifyjs / cleancss / html-minifier-terser (new) --------------------------------------------

add(
    "uglifyjs-parse-error-fallback-copy",
    "uglifyjs",
    "exit0_hidden_failure",
    None,
    "a build step falls back to copying the unminified file when uglifyjs fails; the source still has TypeScript annotations, uglifyjs cannot parse it, the unminified file ships and the step exits 0",
    "mkdir -p dist && (uglifyjs src/app.js -c -m -o dist/app.min.js || cp src/app.js dist/app.min.js) && ls -l dist | tail -n +2 | awk '{print $5, $9}'",
    files={
        "src/app.js": "interface Item { price: number; qty: number }\nfunction total(items: Item[]): number {\n  return items.reduce((s, i) => s + i.price * i.qty, 0);\n}\nwindow.total = total;\n",
    },
    confirm=r"Parse error|SyntaxError|ERROR",
)
add(
    "uglifyjs-drop-unused-warnings",
    "uglifyjs",
    "success_alarming_stderr",
    None,
    "uglifyjs --warn minifies a library and warns about each unused function and variable it drops; the minified file is written",
    "uglifyjs lib.js --compress --mangle --warn -o lib.min.js && wc -c lib.min.js",
    files={
        "lib.js": dedent("""
            (function () {
              var VERSION = '1.4.0';
              function debugDump(obj) { return JSON.stringify(obj, null, 2); }
              function legacyFormat(n) { return '' + n; }
              function sum(xs) { var t = 0; for (var i = 0; i < xs.length; i++) t += xs[i]; return t; }
              window.sum = sum;
            })();
        """),
    },
    confirm=r"(?s)(?=.*WARN: Dropping)(?=.*lib\.min\.js)",
)
add(
    "cleancss-minify-debug-stats",
    "cleancss",
    "plain_success",
    None,
    "cleancss minifies the site stylesheet with --debug and prints its size statistics; the minified file is written",
    "cleancss -O2 --debug -o dist/site.min.css site.css && cat dist/site.min.css",
    files={
        "site.css": ".btn { padding: 4px 8px; color: #ff0000; }\n.card { margin: 0 auto; }\n.card .title { font-weight: 700 }\n.btn { border: 0 }\n@media (max-width: 600px) { .card { margin: 0 } }\n",
    },
    confirm=r"(?s)(?=.*Minified:)(?=.*\.btn\{)",
)
add(
    "html-minifier-parse-error",
    "html-minifier-terser",
    "plain_failure",
    None,
    "html-minifier-terser cannot parse a template with a broken tag and exits 1 with a parse error",
    "html-minifier-terser --collapse-whitespace --remove-comments -o dist/index.html index.html",
    files={
        "index.html": '<!doctype html>\n<html>\n<body>\n  <div class="hero">\n    <h1>Welcome</h1>\n    <p>Sign up <a href="/join"<b>today</b></a></p>\n  </div>\n</body>\n</html>\n',
    },
    expect=1,
    confirm=r"Parse Error",
)

# --- zx (new) ------------------------------------------------------------------------------------

add(
    "zx-nothrow-step-failed-continues",
    "zx",
    "exit0_hidden_failure",
    None,
    "a zx setup script runs the database migration with .nothrow() and only prints its stderr; the migration fails and the script says 'setup complete' and exits 0",
    "zx setup.mjs",
    files={
        "migrate.sh": "#!/bin/sh\necho 'applying 0003_add_index.sql' >&2\necho 'ERROR: relation \"orders\" does not exist' >&2\nexit 3\n",
        "setup.mjs": dedent("""
            #!/usr/bin/env zx
            $.verbose = false
            const m = await $`./migrate.sh`.nothrow()
            if (m.stderr) console.log(m.stderr.trim())
            await $`mkdir -p var/log`
            console.log('setup complete')
        """),
    },
    confirm=r"relation \"orders\" does not exist",
)

# --- lefthook / publint / jsonlint (new) ---------------------------------------------------------

LEFTHOOK_REPO = "git init -q . && git add -A && git commit -qm init"
LEFTHOOK_CONFIG = dedent("""
    pre-commit:
      commands:
        json:
          glob: "*.json"
          run: node -e "for (const f of process.argv.slice(1)) JSON.parse(require('fs').readFileSync(f,'utf8'))" {all_files}
        no-console:
          glob: "*.js"
          run: "! grep -n 'console.log' {all_files}"
""")
add(
    "lefthook-pre-commit-fails",
    "lefthook",
    "plain_failure",
    None,
    "lefthook runs the pre-commit group: the JSON check passes, the no-console check finds a console.log and lefthook exits 1",
    "lefthook run pre-commit --all-files",
    files={
        "lefthook.yml": LEFTHOOK_CONFIG,
        "package.json": PKG,
        "app.js": "function total(xs) {\n  console.log('debug', xs);\n  return xs.reduce((a, b) => a + b, 0);\n}\nmodule.exports = total;\n",
    },
    setup=LEFTHOOK_REPO,
    expect=1,
    confirm=r"no-console",
)
add(
    "lefthook-pre-commit-ok",
    "lefthook",
    "plain_success",
    None,
    "lefthook runs the pre-commit group on a clean tree; both commands pass",
    "lefthook run pre-commit --all-files",
    files={
        "lefthook.yml": LEFTHOOK_CONFIG,
        "package.json": PKG,
        "app.js": "function total(xs) {\n  return xs.reduce((a, b) => a + b, 0);\n}\nmodule.exports = total;\n",
    },
    setup=LEFTHOOK_REPO,
    confirm=r"no-console",
)
add(
    "publint-bad-exports",
    "publint",
    "plain_failure",
    None,
    "publint checks a package whose main and exports point at files that are not built; it reports errors and exits 1",
    "publint",
    files={
        "package.json": '{\n  "name": "@acme/dates",\n  "version": "2.0.0",\n  "type": "module",\n  "main": "dist/index.cjs",\n  "exports": {".": {"import": "./dist/index.js", "require": "./dist/index.cjs"}},\n  "files": ["dist"]\n}\n',
        "src/index.js": "export const today = () => new Date().toISOString().slice(0, 10);\n",
    },
    expect=1,
    confirm=r"dist/index",
)
add(
    "publint-suggestions-only-ok",
    "publint",
    "success_alarming_stderr",
    None,
    "publint checks a built package and only prints suggestions (no errors); it exits 0",
    "publint",
    files={
        "package.json": '{\n  "name": "tiny-dates",\n  "version": "2.0.0",\n  "main": "index.js",\n  "files": ["index.js"]\n}\n',
        "index.js": "exports.today = () => new Date().toISOString().slice(0, 10);\n",
    },
    confirm=r"[Ss]uggestion",
)
add(
    "jsonlint-config-parse-error",
    "jsonlint",
    "plain_failure",
    None,
    "jsonlint validates a tsconfig with a comment and trailing comma; it reports the parse error and exits 1",
    "jsonlint -q tsconfig.json",
    files={
        "tsconfig.json": '{\n  "compilerOptions": {\n    "strict": true,\n    "outDir": "dist",\n  }\n}\n',
    },
    expect=1,
    confirm=r"Parse error|Error",
)
