"""node, npm, node's test runner, tsc, eslint, prettier and mocha."""

from __future__ import annotations

from casekit import Case, case, dedent

CASES: list[Case] = []
add = CASES.append

# --- node -----------------------------------------------------------------------------------

add(
    case(
        "node-script-ok",
        "node",
        "plain_success",
        None,
        "script reads a JSON file and prints a field",
        "node -e \"const d = require('./cfg.json'); console.log('port', d.port)\"",
        files={"cfg.json": '{"port": 8080}\n'},
        confirm="8080",
    )
)
add(
    case(
        "node-module-ok",
        "node",
        "plain_success",
        None,
        "ES module computes and prints word counts",
        "node count.mjs",
        files={
            "count.mjs": "const words = 'a b a c b a'.split(' ');\nconst n = {};\nfor (const w of words) n[w] = (n[w] ?? 0) + 1;\nconsole.log(JSON.stringify(n));\n"
        },
    )
)
add(
    case(
        "node-throw",
        "node",
        "plain_failure",
        None,
        "script throws a TypeError while loading its config",
        "node app.js",
        files={
            "app.js": "function load() { throw new TypeError('cannot read config: port must be a number'); }\nload();\n"
        },
    )
)
add(
    case(
        "node-unhandled-rejection",
        "node",
        "plain_failure",
        None,
        "an awaited database call rejects and nothing handles it",
        "node -e \"async function q() { throw new Error('db down: ECONNREFUSED 127.0.0.1:5432'); } q();\"",
    )
)
add(
    case(
        "node-missing-module",
        "node",
        "plain_failure",
        None,
        "script requires a package that is not installed",
        "node -e \"require('left-pad-missing-corpus')\"",
    )
)
add(
    case(
        "node-syntax-error",
        "node",
        "plain_failure",
        None,
        "a source file with a syntax error",
        "node bad.js",
        files={"bad.js": "const x = {a: 1,, b: 2};\nconsole.log(x);\n"},
    )
)
add(
    case(
        "node-json-parse-error",
        "node",
        "plain_failure",
        None,
        "config file is not valid JSON",
        "node -e \"JSON.parse(require('fs').readFileSync('c.json','utf8'))\"",
        files={"c.json": '{"a": 1,}\n'},
    )
)
add(
    case(
        "node-exit-code-2",
        "node",
        "plain_failure",
        None,
        "CLI validates its input, prints an error and exits 2",
        "node -e \"console.error('invalid --region: mars-1'); process.exit(2)\"",
        expect=2,
    )
)
add(
    case(
        "node-uncaught-handler-logs",
        "node",
        "exit0_hidden_failure",
        None,
        "an uncaughtException handler logs the crash of the upload and lets the process exit 0",
        "node up.js",
        files={
            "up.js": dedent("""
             process.on('uncaughtException', (err) => { console.error('upload failed:', err); });
             setTimeout(() => { throw new Error('S3 PutObject failed: AccessDenied'); }, 10);
         """)
        },
        confirm="AccessDenied",
    )
)
add(
    case(
        "node-catch-console-error",
        "node",
        "exit0_hidden_failure",
        None,
        "the build promise rejects and `.catch(console.error)` swallows it; exit 0",
        "node build.js",
        files={
            "build.js": dedent("""
             async function build() {
               const fs = require('fs/promises');
               await fs.readFile('src/index.ts');
               console.log('built');
             }
             build().catch(console.error);
         """)
        },
        confirm="ENOENT",
    )
)
add(
    case(
        "node-unhandled-rejection-listener",
        "node",
        "exit0_hidden_failure",
        None,
        "an unhandledRejection listener logs the failed migration; the process exits 0",
        "node m.js",
        files={
            "m.js": dedent("""
             process.on('unhandledRejection', (r) => console.error('Unhandled rejection:', r));
             Promise.reject(new Error('migration 7 failed: relation "users" already exists'));
         """)
        },
        confirm="migration 7 failed",
    )
)
add(
    case(
        "node-emitter-error-logged",
        "node",
        "exit0_hidden_failure",
        None,
        "the stream that should write the report errors; its 'error' handler only logs",
        "node s.js",
        files={
            "s.js": dedent("""
             const fs = require('fs');
             const out = fs.createWriteStream('/nonexistent/report.csv');
             out.on('error', (e) => console.error('write error:', e.message));
             out.write('a,b\\n');
         """)
        },
        confirm="ENOENT",
    )
)
add(
    case(
        "node-throw-or-true",
        "node",
        "exit0_hidden_failure",
        None,
        "the crashing config loader runs under `|| true`",
        "node app.js || true",
        group="node-throw",
        files={
            "app.js": "function load() { throw new TypeError('cannot read config: port must be a number'); }\nload();\n"
        },
    )
)
add(
    case(
        "node-emit-warning",
        "node",
        "success_alarming_stderr",
        None,
        "script emits process warnings (one a DeprecationWarning) and finishes its work",
        "node -e \"process.emitWarning('cache dir is large'); process.emitWarning('old flag', 'DeprecationWarning', 'DEP9999'); console.log('done')\"",
    )
)
add(
    case(
        "node-buffer-deprecation",
        "node",
        "success_alarming_stderr",
        None,
        "uses the deprecated Buffer() constructor (DEP0005 warning) and prints the right hex",
        "node --pending-deprecation -e \"console.log(new Buffer('hi').toString('hex'))\"",
        confirm="6869",
    )
)
add(
    case(
        "node-retry-logs-stack",
        "node",
        "success_alarming_stderr",
        None,
        "first fetch attempt fails with a logged stack trace, the retry succeeds",
        "node r.js",
        files={
            "r.js": dedent("""
             let n = 0;
             async function fetchData() { n += 1; if (n < 2) throw new Error('ETIMEDOUT 10.0.0.5:443'); return {rows: 3}; }
             (async () => {
               for (let i = 1; i <= 3; i++) {
                 try { const d = await fetchData(); console.log('got', d.rows, 'rows'); return; }
                 catch (e) { console.error(`attempt ${i} failed, retrying:`, e); }
               }
               process.exit(1);
             })();
         """)
        },
        confirm="got 3 rows",
    )
)
add(
    case(
        "node-punycode-deprecation",
        "node",
        "success_alarming_stderr",
        None,
        "requires the deprecated punycode module and converts a domain",
        "node --pending-deprecation -e \"console.log(require('punycode').toASCII('bücher.example'))\"",
        confirm="xn--",
    )
)
add(
    case(
        "node-sigkill-self",
        "node",
        "killed_signalled",
        None,
        "node worker killed by SIGKILL partway through",
        ["node", "-e", "console.log('processing batch 1'); process.kill(process.pid, 'SIGKILL')"],
        expect="SIGKILL",
    )
)
add(
    case(
        "node-heap-oom",
        "node",
        "killed_signalled",
        None,
        "with a 16 MB heap the job runs out of memory and V8 aborts",
        [
            "node",
            "--max-old-space-size=16",
            "-e",
            "const a = []; while (true) a.push(new Array(1e5).fill(1));",
        ],
        expect="SIGABRT",
        confirm="heap out of memory",
    )
)
add(
    case(
        "node-abort",
        "node",
        "killed_signalled",
        None,
        "process.abort() during a write (SIGABRT)",
        ["node", "-e", "console.log('writing'); process.abort()"],
        expect="SIGABRT",
    )
)
add(
    case(
        "node-colors-inspect",
        "node",
        "coloured_output",
        "success",
        "prints a coloured object dump (util.inspect colors) and exits 0",
        "node -e \"console.log(require('util').inspect({ok: true, n: 3, err: null, s: 'x'}, {colors: true}))\"",
    )
)
add(
    case(
        "node-colored-error-exit",
        "node",
        "coloured_output",
        "failure",
        "FORCE_COLOR=1: a CLI prints its error in red via util.styleText-like codes and exits 1",
        "node -e \"console.error('\\x1b[31m\\x1b[1merror\\x1b[22m\\x1b[39m schema validation failed: 3 issues'); process.exit(1)\"",
        env={"FORCE_COLOR": "1"},
    )
)
add(
    case(
        "node-latin1-stdout",
        "node",
        "non_utf8",
        "success",
        "writes latin-1 encoded CSV for a legacy consumer",
        "node -e \"process.stdout.write(Buffer.from('Zoë;Müller;Ærø\\n', 'latin1'))\"",
    )
)
add(
    case(
        "node-binary-stderr-throw",
        "node",
        "non_utf8",
        "failure",
        "dumps a corrupt binary header to stderr then throws",
        "node -e \"process.stderr.write(Buffer.from([0x89,0x50,0x4e,0x47,0xff,0xfe,0x0a])); throw new Error('bad PNG header')\"",
    )
)

# --- npm ------------------------------------------------------------------------------------


def pkg(scripts: dict[str, str], deps: str = "") -> str:
    import json

    body: dict[str, object] = {
        "name": "app",
        "version": "1.0.0",
        "private": True,
        "scripts": scripts,
    }
    if deps:
        body["dependencies"] = json.loads(deps)
    return json.dumps(body, indent=2) + "\n"


add(
    case(
        "npm-run-ok",
        "npm",
        "plain_success",
        None,
        "npm runs a build script that writes dist/out.txt",
        "npm run build && cat dist/out.txt",
        files={
            "package.json": pkg(
                {
                    "build": "mkdir -p dist && node -e \"require('fs').writeFileSync('dist/out.txt','ok\\\\n')\""
                }
            )
        },
        confirm="ok",
    )
)
add(
    case(
        "npm-run-fails",
        "npm",
        "plain_failure",
        None,
        "the build script exits 2; npm reports the failed lifecycle script",
        "npm run build",
        files={
            "package.json": pkg(
                {"build": "node -e \"console.error('tsc: 3 errors'); process.exit(2)\""}
            )
        },
        expect=2,
    )
)
add(
    case(
        "npm-missing-script",
        "npm",
        "plain_failure",
        None,
        "npm asked to run a script that package.json does not define",
        "npm run deploy",
        files={"package.json": pkg({"build": "echo build"})},
    )
)
add(
    case(
        "npm-script-or-true",
        "npm",
        "exit0_hidden_failure",
        None,
        "package.json's test script is `node test.js || true`; the test throws an AssertionError",
        "npm test",
        files={
            "package.json": pkg({"test": "node test.js || true"}),
            "test.js": "const assert = require('assert');\nassert.deepStrictEqual({total: 3}, {total: 4});\n",
        },
        confirm="AssertionError",
    )
)
add(
    case(
        "npm-script-exit0",
        "npm",
        "exit0_hidden_failure",
        None,
        "the build script runs a failing compile step then `; exit 0`",
        "npm run build",
        files={
            "package.json": pkg({"build": "node compile.js; exit 0"}),
            "compile.js": 'console.error(\'src/index.ts(3,7): error TS2322: Type "string" is not assignable to type "number".\');\nprocess.exit(2);\n',
        },
        confirm="TS2322",
    )
)
add(
    case(
        "npm-install-local-dep",
        "npm",
        "plain_success",
        None,
        "installs a dependency from a local directory, offline",
        "npm install --no-audit --no-fund && node -e \"console.log(require('lib').v)\"",
        files={
            "package.json": pkg({}, '{"lib": "file:./lib"}'),
            "lib/package.json": '{"name": "lib", "version": "1.0.0", "main": "index.js"}\n',
            "lib/index.js": "exports.v = 42;\n",
        },
        confirm="42",
    )
)
add(
    case(
        "npm-install-not-cached",
        "npm",
        "plain_failure",
        None,
        "offline install of a package that is not in the npm cache fails (ENOTCACHED)",
        "npm install --no-audit --no-fund corpus-not-cached-pkg-xyz",
        files={"package.json": pkg({})},
    )
)
add(
    case(
        "npm-ci-no-lockfile",
        "npm",
        "plain_failure",
        None,
        "`npm ci` in a project without package-lock.json",
        "npm ci",
        files={"package.json": pkg({})},
    )
)
add(
    case(
        "npm-pack-notices",
        "npm",
        "success_alarming_stderr",
        None,
        "npm pack builds a tarball; its file listing goes to stderr as npm notice lines",
        "npm pack && ls *.tgz",
        files={
            "package.json": '{"name": "lib", "version": "1.2.3", "main": "index.js"}\n',
            "index.js": "exports.v = 1;\n",
            "README.md": "# lib\n",
        },
        confirm="lib-1.2.3.tgz",
    )
)
add(
    case(
        "npm-install-verbose",
        "npm",
        "progress_on_stderr",
        "success",
        "verbose offline install of a local tarball logs every step to stderr",
        "npm install --loglevel=verbose --no-audit --no-fund ./lib-1.0.0.tgz && ls node_modules",
        files={
            "package.json": pkg({}),
            "lib/package.json": '{"name": "lib", "version": "1.0.0"}\n',
            "lib/index.js": "exports.v = 1;\n",
        },
        setup="cd lib && npm pack --silent >/dev/null && mv lib-1.0.0.tgz ..",
        confirm="lib",
    )
)
add(
    case(
        "npm-install-verbose-fail",
        "npm",
        "progress_on_stderr",
        "failure",
        "verbose offline install of a tarball that does not exist",
        "npm install --loglevel=verbose --no-audit --no-fund ./missing-9.9.9.tgz",
        files={"package.json": pkg({})},
    )
)
add(
    case(
        "npm-test-color-fail",
        "npm",
        "coloured_output",
        "failure",
        "`npm test` runs mocha with colours forced; one test fails",
        "npm test --color=always",
        files={
            "package.json": pkg({"test": "mocha --colors"}),
            "test/t.spec.js": "const assert = require('assert');\ndescribe('api', () => {\n  it('status', () => assert.equal(404, 200));\n});\n",
        },
    )
)
add(
    case(
        "npm-ls-missing",
        "npm",
        "plain_failure",
        None,
        "`npm ls` finds a declared dependency missing from node_modules",
        "npm ls",
        files={"package.json": pkg({}, '{"lodash": "^4.17.21"}')},
    )
)
add(
    case(
        "npm-install-cached",
        "npm",
        "plain_success",
        None,
        "installs a package from the npm cache, offline",
        "npm install --no-audit --no-fund inflight@1.0.6 && ls node_modules",
        files={"package.json": pkg({})},
        confirm="inflight",
    )
)
add(
    case(
        "npm-noisy-build-fail",
        "npm",
        "failure_noisy_stderr",
        None,
        "a build script prints dozens of warnings then fails on one error",
        "npm run build",
        files={
            "package.json": pkg({"build": "node build.js"}),
            "build.js": dedent("""
                    for (let i = 0; i < 30; i++) console.error(`warning: unused variable 'tmp${i}' in src/mod${i}.js`);
                    console.error('src/main.js:12: cannot resolve import "./config"');
                    process.exit(1);
                """),
        },
    )
)

# --- node --test ----------------------------------------------------------------------------

NT_PASS = {
    "math.test.js": dedent("""
    const test = require('node:test');
    const assert = require('node:assert');
    test('adds', () => assert.strictEqual(1 + 2, 3));
    test('concat', () => assert.strictEqual('a' + 'b', 'ab'));
""")
}
NT_FAIL = {
    "math.test.js": dedent("""
    const test = require('node:test');
    const assert = require('node:assert');
    test('adds', () => assert.strictEqual(1 + 2, 3));
    test('totals', () => assert.deepStrictEqual([1, 2].map((x) => x * 2), [2, 5]));
""")
}
add(
    case(
        "node-test-pass",
        "node-test",
        "plain_success",
        None,
        "node's test runner, two passing tests",
        "node --test",
        files=NT_PASS,
    )
)
add(
    case(
        "node-test-fail",
        "node-test",
        "plain_failure",
        None,
        "node's test runner with a failing deepStrictEqual",
        "node --test",
        files=NT_FAIL,
    )
)
add(
    case(
        "node-test-fail-or-true",
        "node-test",
        "exit0_hidden_failure",
        None,
        "failing node tests under `|| true`",
        "node --test || true",
        files=NT_FAIL,
        group="node-test-fail",
        confirm="fail 1",
    )
)
add(
    case(
        "node-test-pass-logs-errors",
        "node-test",
        "success_alarming_stderr",
        None,
        "the tested function logs an Error with stack via console.error; both tests pass",
        "node --test",
        files={
            "h.test.js": dedent("""
             const test = require('node:test');
             const assert = require('node:assert');
             function parse(s) { try { return JSON.parse(s); } catch (e) { console.error('parse error:', e); return null; } }
             test('bad json gives null', () => assert.strictEqual(parse('{'), null));
             test('good json', () => assert.deepStrictEqual(parse('{"a":1}'), {a: 1}));
         """)
        },
        confirm="pass 2",
    )
)
add(
    case(
        "node-test-color-fail",
        "node-test",
        "coloured_output",
        "failure",
        "FORCE_COLOR=1 with the spec reporter; one test fails",
        "node --test --test-reporter=spec",
        files=NT_FAIL,
        env={"FORCE_COLOR": "1"},
        group="node-test-fail",
    )
)

# --- tsc ------------------------------------------------------------------------------------

TS_OK = {
    "src/index.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\nconsole.log(add(1, 2));\n",
    "tsconfig.json": '{"compilerOptions": {"strict": true, "outDir": "dist", "target": "es2020", "module": "commonjs"}, "include": ["src"]}\n',
}
TS_BAD = {
    **TS_OK,
    "src/index.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\nconst n: number = add(1, '2');\nlet s: string = n;\n",
}
add(
    case(
        "tsc-clean",
        "tsc",
        "plain_success",
        None,
        "type-checks and compiles a small strict project",
        "tsc -p . && ls dist",
        files=TS_OK,
        confirm="index.js",
    )
)
add(
    case(
        "tsc-noemit-clean",
        "tsc",
        "plain_success",
        None,
        "type-check only, no errors",
        "tsc --noEmit -p .",
        files=TS_OK,
        group="tsc-clean",
    )
)
add(
    case(
        "tsc-type-errors",
        "tsc",
        "plain_failure",
        None,
        "two type errors in a strict project",
        "tsc --noEmit -p .",
        files=TS_BAD,
        expect=2,
    )
)
add(
    case(
        "tsc-errors-pretty",
        "tsc",
        "coloured_output",
        "failure",
        "the same type errors with --pretty (coloured, code frames)",
        "tsc --noEmit --pretty -p .",
        files=TS_BAD,
        expect=2,
        group="tsc-type-errors",
    )
)
add(
    case(
        "tsc-errors-or-true",
        "tsc",
        "exit0_hidden_failure",
        None,
        "type errors under `|| true` in a build script",
        "tsc --noEmit -p . || true",
        files=TS_BAD,
        group="tsc-type-errors",
        confirm="error TS",
    )
)
add(
    case(
        "tsc-missing-tsconfig",
        "tsc",
        "plain_failure",
        None,
        "tsc -p pointed at a directory without tsconfig.json",
        "tsc -p nowhere",
        setup="mkdir nowhere",
    )
)

# --- eslint (v8, eslintrc) ------------------------------------------------------------------

ESLINTRC = '{"root": true, "env": {"node": true, "es2022": true}, "parserOptions": {"ecmaVersion": 2022}, "extends": "eslint:recommended", "rules": {"semi": ["error", "always"], "no-console": "warn"}}\n'
ES_ENV = {"ESLINT_USE_FLAT_CONFIG": "false"}
add(
    case(
        "eslint-clean",
        "eslint",
        "plain_success",
        None,
        "lints a clean file",
        "eslint src",
        env=ES_ENV,
        files={".eslintrc.json": ESLINTRC, "src/a.js": "const x = 1;\nmodule.exports = x;\n"},
    )
)
add(
    case(
        "eslint-errors",
        "eslint",
        "plain_failure",
        None,
        "lint finds an undefined variable and a missing semicolon",
        "eslint src",
        env=ES_ENV,
        files={".eslintrc.json": ESLINTRC, "src/a.js": "const x = y + 1\nmodule.exports = x;\n"},
    )
)
add(
    case(
        "eslint-warnings-only",
        "eslint",
        "success_alarming_stderr",
        None,
        "only warnings (no-console); eslint exits 0 with a `0 errors` summary",
        "eslint src",
        env=ES_ENV,
        files={
            ".eslintrc.json": ESLINTRC,
            "src/a.js": "console.log('hi');\nconsole.log('there');\n",
        },
        confirm="0 errors",
    )
)
add(
    case(
        "eslint-fix-all",
        "eslint",
        "plain_success",
        None,
        "--fix repairs the only (fixable) problems; the file is fixed",
        "eslint --fix src && cat src/a.js",
        env=ES_ENV,
        files={".eslintrc.json": ESLINTRC, "src/a.js": "const x = 1\nmodule.exports = x\n"},
        confirm="x = 1;",
    )
)
add(
    case(
        "eslint-max-warnings",
        "eslint",
        "plain_failure",
        None,
        "warnings exceed --max-warnings 0, so the lint step fails",
        "eslint --max-warnings 0 src",
        env=ES_ENV,
        files={".eslintrc.json": ESLINTRC, "src/a.js": "console.log('hi');\n"},
    )
)
add(
    case(
        "eslint-errors-color",
        "eslint",
        "coloured_output",
        "failure",
        "forced colour; lint errors",
        "eslint --color src",
        env=ES_ENV,
        files={".eslintrc.json": ESLINTRC, "src/a.js": "const x = y + 1\nmodule.exports = x;\n"},
        group="eslint-errors",
    )
)
add(
    case(
        "eslint-warnings-color",
        "eslint",
        "coloured_output",
        "success",
        "forced colour; warnings only, exit 0",
        "eslint --color src",
        env=ES_ENV,
        files={".eslintrc.json": ESLINTRC, "src/a.js": "console.log('hi');\n"},
    )
)
add(
    case(
        "eslint-bad-config",
        "eslint",
        "plain_failure",
        None,
        "the config extends a shareable config that is not installed (exit 2)",
        "eslint src",
        env=ES_ENV,
        expect=2,
        files={
            ".eslintrc.json": '{"root": true, "extends": "airbnb-corpus-missing"}\n',
            "src/a.js": "const x = 1;\n",
        },
    )
)
add(
    case(
        "eslint-errors-or-true",
        "eslint",
        "exit0_hidden_failure",
        None,
        "lint errors in a CI step ending with `|| true`",
        "eslint src || true",
        env=ES_ENV,
        files={".eslintrc.json": ESLINTRC, "src/a.js": "const x = y + 1\nmodule.exports = x;\n"},
        group="eslint-errors",
        confirm="problem",
    )
)

# --- prettier -------------------------------------------------------------------------------

add(
    case(
        "prettier-check-clean",
        "prettier",
        "plain_success",
        None,
        "files already formatted",
        "prettier --check src",
        files={"src/a.js": "const a = { b: 1 };\nexport default a;\n"},
    )
)
add(
    case(
        "prettier-check-dirty",
        "prettier",
        "plain_failure",
        None,
        "--check finds an unformatted file",
        "prettier --check src",
        files={"src/a.js": "const a = {b:1}\nexport default a\n"},
    )
)
add(
    case(
        "prettier-write",
        "prettier",
        "plain_success",
        None,
        "--write reformats the file in place",
        "prettier --write src && cat src/a.js",
        files={"src/a.js": "const a = {b:1}\nexport default a\n"},
        confirm="b: 1",
    )
)
add(
    case(
        "prettier-syntax-error",
        "prettier",
        "plain_failure",
        None,
        "a file that cannot be parsed (exit 2)",
        "prettier --check src",
        expect=2,
        files={"src/a.js": "const a = {b:1\nexport default a\n"},
    )
)
add(
    case(
        "prettier-check-dirty-color",
        "prettier",
        "coloured_output",
        "failure",
        "FORCE_COLOR=1; --check finds unformatted files",
        "prettier --check src",
        env={"FORCE_COLOR": "1"},
        group="prettier-check-dirty",
        files={"src/a.js": "const a = {b:1}\nexport default a\n"},
    )
)

# --- mocha ----------------------------------------------------------------------------------

M_PASS = {
    "test/t.spec.js": "const assert = require('assert');\ndescribe('math', () => {\n  it('adds', () => assert.equal(1 + 1, 2));\n  it('muls', () => assert.equal(2 * 3, 6));\n});\n"
}
M_FAIL = {
    "test/t.spec.js": "const assert = require('assert');\ndescribe('math', () => {\n  it('adds', () => assert.equal(1 + 1, 2));\n  it('divides', () => assert.strictEqual(7 / 2, 3));\n});\n"
}
add(
    case(
        "mocha-pass",
        "mocha",
        "plain_success",
        None,
        "two passing mocha tests",
        "mocha",
        files=M_PASS,
    )
)
add(
    case(
        "mocha-fail",
        "mocha",
        "plain_failure",
        None,
        "a failing mocha assertion",
        "mocha",
        files=M_FAIL,
    )
)
add(
    case(
        "mocha-fail-or-true",
        "mocha",
        "exit0_hidden_failure",
        None,
        "failing mocha suite under `|| true`",
        "mocha || true",
        files=M_FAIL,
        group="mocha-fail",
        confirm="1 failing",
    )
)
add(
    case(
        "mocha-pass-console-error",
        "mocha",
        "success_alarming_stderr",
        None,
        "code under test console.errors a stack trace on bad input; tests pass",
        "mocha",
        files={
            "test/t.spec.js": dedent("""
             const assert = require('assert');
             function safeParse(s) { try { return JSON.parse(s); } catch (e) { console.error(e); return {}; } }
             describe('safeParse', () => {
               it('returns {} on bad input', () => assert.deepEqual(safeParse('{oops'), {}));
             });
         """)
        },
        confirm="1 passing",
    )
)
add(
    case(
        "mocha-colors-fail",
        "mocha",
        "coloured_output",
        "failure",
        "--colors; a failing test",
        "mocha --colors",
        files=M_FAIL,
        group="mocha-fail",
    )
)
add(
    case(
        "mocha-colors-pass",
        "mocha",
        "coloured_output",
        "success",
        "--colors; all pass",
        "mocha --colors",
        files=M_PASS,
        group="mocha-pass",
    )
)
add(
    case(
        "mocha-async-timeout",
        "mocha",
        "plain_failure",
        None,
        "an async test never resolves and hits mocha's 200 ms timeout",
        "mocha --timeout 200",
        files={
            "test/t.spec.js": "describe('api', () => {\n  it('responds', () => new Promise(() => {}));\n});\n"
        },
    )
)
