"""Second fresh batch (split ``fresh``, ids ``fresh2-*``): sass, lessc, terser, ajv,
html-validate, concurrently and biome, and more runs of node, npm, jest, vitest, tsc, eslint,
mocha and prettier."""

from __future__ import annotations

import json

from casekit import batch, dedent, package_json

CASES, add = batch("fresh2")


def pkg(scripts: dict[str, str], **extra: object) -> str:
    return package_json(scripts, "web-app", "1.0.0", **extra)


# --- sass ----------------------------------------------------------------------------------------

SCSS_BAD = {"src/main.scss": "$gap: 8px;\n.card {\n  padding: $gutter;\n  margin: $gap;\n}\n"}
add(
    "sass-undefined-variable",
    "sass",
    "plain_failure",
    None,
    "sass compiles a stylesheet that uses an undefined variable and exits 65",
    "sass --no-color src/main.scss dist/main.css",
    files=SCSS_BAD,
    confirm=r"Undefined variable",
)
add(
    "sass-deprecations-ok",
    "sass",
    "success_alarming_stderr",
    None,
    "sass compiles a legacy stylesheet using @import and slash division; it prints deprecation warnings and writes the CSS",
    'sass --no-color src/main.scss dist/main.css && echo "css bytes: $(wc -c < dist/main.css)"',
    files={
        "src/_vars.scss": "$gap: 16px;\n",
        "src/main.scss": "@import 'vars';\n.card {\n  padding: $gap / 2;\n  margin: $gap;\n}\n",
    },
    confirm=r"(?s)^(?=.*DEPRECATION)(?=.*css bytes: [1-9])",
)
add(
    "npm-sass-or-true",
    "npm",
    "exit0_hidden_failure",
    None,
    "'npm run build:css' runs sass with '|| true' in the script; the stylesheet does not compile and npm exits 0",
    "npm run build:css",
    files={
        **SCSS_BAD,
        "package.json": pkg({"build:css": "sass --no-color src/main.scss dist/main.css || true"}),
    },
    confirm=r"Undefined variable",
)

# --- less ----------------------------------------------------------------------------------------

LESS_BAD = {"styles/site.less": "@brand: #336699;\n.header {\n  color: darken(@brand, 10%;\n}\n"}
add(
    "lessc-parse-error",
    "lessc",
    "plain_failure",
    None,
    "lessc cannot parse a stylesheet with an unclosed paren and exits 1",
    "lessc --no-color styles/site.less site.css",
    files=LESS_BAD,
)
add(
    "lessc-set-plus-e-script",
    "lessc",
    "exit0_hidden_failure",
    None,
    "a 'set +e' asset script compiles each stylesheet and then prints 'assets built'; one fails to parse and the script exits 0",
    "bash build-assets.sh",
    files={
        **LESS_BAD,
        "styles/print.less": "@w: 10px;\n.page { margin: @w; }\n",
        "build-assets.sh": '#!/bin/bash\nset +e\nmkdir -p dist\nfor f in styles/*.less; do\n  lessc --no-color "$f" "dist/$(basename "${f%.less}").css"\ndone\necho \'assets built\'\n',
    },
    confirm=r"(?s)^(?=.*site\.less)(?=.*assets built)",
)

# --- terser --------------------------------------------------------------------------------------

add(
    "terser-loop-last-ok",
    "terser",
    "exit0_hidden_failure",
    None,
    "a minify loop runs terser per file; the first file has a syntax error but the loop's status is the last file's, 0",
    'bash -c \'mkdir -p dist; for f in src/a.js src/b.js; do terser "$f" -c -m -o "dist/$(basename $f)"; done\'',
    files={
        "src/a.js": "export function total(xs) {\n  return xs.reduce((a, b) => a + b, 0\n}\n",
        "src/b.js": "export const twice = (x) => x * 2;\n",
    },
    confirm=r"(?i)parse error|SyntaxError|Unexpected token",
)
add(
    "terser-ok",
    "terser",
    "plain_success",
    None,
    "terser minifies a module and the output runs",
    "terser src/b.js -c -m -o dist.js && node -e \"import('./dist.js').then(m => console.log('twice(4) =', m.twice(4)))\"",
    files={
        "src/b.js": "export const twice = (x) => x * 2;\n",
        "package.json": '{"type": "module"}\n',
    },
    confirm=r"twice\(4\) = 8",
)

# --- ajv-cli -------------------------------------------------------------------------------------

SCHEMA = json.dumps(
    {
        "type": "object",
        "required": ["name", "port"],
        "properties": {"name": {"type": "string"}, "port": {"type": "integer", "maximum": 65535}},
    }
)
add(
    "ajv-invalid",
    "ajv",
    "plain_failure",
    None,
    "ajv validates a service config whose port is out of range and exits 1",
    "ajv validate -s schema.json -d service.json",
    files={"schema.json": SCHEMA, "service.json": '{"name": "api", "port": 70000}'},
    confirm=r"invalid",
)
add(
    "ajv-glob-tee",
    "ajv",
    "exit0_hidden_failure",
    None,
    "config validation over a directory is teed into a log; one config is missing a required field and tee exits 0",
    "ajv validate -s schema.json -d 'configs/*.json' 2>&1 | tee validate.log",
    files={
        "schema.json": SCHEMA,
        "configs/api.json": '{"name": "api", "port": 8080}',
        "configs/worker.json": '{"name": "worker"}',
    },
    confirm=r"worker\.json invalid",
)
add(
    "ajv-strict-log-valid",
    "ajv",
    "success_alarming_stderr",
    None,
    "ajv with --strict=log logs 'strict mode: unknown keyword' for a docs-only keyword and reports the data valid",
    "ajv validate --strict=log -s schema.json -d service.json",
    files={
        "schema.json": json.dumps(
            {"type": "object", "x-docs": "internal", "properties": {"port": {"type": "integer"}}}
        ),
        "service.json": '{"port": 8080}',
    },
    confirm=r"(?s)^(?=.*strict mode)(?=.*service\.json valid)",
)

# --- html-validate -------------------------------------------------------------------------------

HTML_BAD = {
    "public/index.html": '<!DOCTYPE html>\n<html>\n<head><title>Shop</title></head>\n<body>\n<img src="logo.png">\n<div><p>Unclosed</div>\n<button>Buy</button>\n</body>\n</html>\n',
}
add(
    "html-validate-colour",
    "html-validate",
    "coloured_output",
    "failure",
    "html-validate with FORCE_COLOR=1 reports the same errors in colour and exits 1",
    "html-validate --formatter stylish public/index.html",
    files=HTML_BAD,
    env={"FORCE_COLOR": "1"},
    expect="nonzero",
)
add(
    "html-validate-clean",
    "html-validate",
    "plain_success",
    None,
    "html-validate checks a valid page; the step echoes that validation passed",
    "html-validate public/ok.html && echo 'html-validate: 1 file, no errors'",
    files={
        "public/ok.html": '<!DOCTYPE html>\n<html lang="en">\n<head><title>Ok</title></head>\n<body>\n<img src="logo.png" alt="Logo">\n<button type="button">Buy</button>\n</body>\n</html>\n',
    },
    confirm=r"no errors",
)

# --- concurrently --------------------------------------------------------------------------------

CONC_FILES = {
    "api.js": "console.log('api: listening on :3000');\nsetTimeout(() => console.log('api: shutting down'), 300);\n",
    "worker.js": "console.log('worker: connecting to queue');\nsetTimeout(() => { throw new Error('ECONNREFUSED 127.0.0.1:5672 (amqp)'); }, 100);\n",
}
add(
    "concurrently-success-first",
    "concurrently",
    "exit0_hidden_failure",
    None,
    "concurrently --success command-api runs the api and the worker; the worker crashes with an uncaught error but the api's exit 0 decides",
    "concurrently --success command-api --names api,worker 'node api.js' 'node worker.js'",
    files=CONC_FILES,
    confirm=r"ECONNREFUSED",
)
add(
    "concurrently-one-fails",
    "concurrently",
    "plain_failure",
    None,
    "concurrently runs the api and the worker; the worker crashes and concurrently exits 1",
    "concurrently --names api,worker 'node api.js' 'node worker.js'",
    files=CONC_FILES,
    confirm=r"ECONNREFUSED",
)

# --- biome ---------------------------------------------------------------------------------------

BIOME_SRC = {
    "src/app.js": "var total = 0\nfunction add(x) { if (x == null) { return } total += x }\ndebugger\nexport { add, total }\n",
    "biome.json": '{"formatter": {"enabled": true}, "linter": {"enabled": true, "rules": {"recommended": true}}}\n',
}
add(
    "biome-lint-errors",
    "biome",
    "plain_failure",
    None,
    "biome lint finds a debugger statement and a loose equality and exits 1",
    "biome lint --colors=off src",
    files=BIOME_SRC,
)
add(
    "biome-ci-or-true",
    "biome",
    "exit0_hidden_failure",
    None,
    "'biome ci src || true' finds lint and format errors and the step exits 0",
    "biome ci --colors=off src || true",
    files=BIOME_SRC,
    confirm=r"(?i)error",
)
add(
    "biome-format-write",
    "biome",
    "success_alarming_stderr",
    None,
    "biome format --write reformats the file and reports it fixed; a follow-up check of the format passes",
    "biome format --colors=off --write src && biome format --colors=off src && echo format-clean",
    files={
        "src/app.js": "const a  =  {x:1,y :2}\nexport default a\n",
        "biome.json": BIOME_SRC["biome.json"],
    },
    confirm=r"(?s)^(?=.*Fixed)(?=.*format-clean)",
)
add(
    "biome-format-colour",
    "biome",
    "coloured_output",
    "failure",
    "biome format --colors=force shows the formatting diff in colour and exits 1",
    "biome format --colors=force src",
    files={
        "src/app.js": "const a  =  {x:1,y :2}\nexport default a\n",
        "biome.json": BIOME_SRC["biome.json"],
    },
    expect="nonzero",
)

# --- node ----------------------------------------------------------------------------------------

add(
    "node-unhandled-rejections-warn",
    "node",
    "exit0_hidden_failure",
    None,
    "a sync script run with --unhandled-rejections=warn: the upload promise rejects, Node prints a warning and exits 0",
    "node --unhandled-rejections=warn sync.js",
    files={
        "sync.js": dedent("""
            async function upload(file) {
              throw new Error(`upload of ${file} failed: 403 Forbidden (bucket policy)`);
            }
            upload("report.pdf");
            console.log("sync started");
        """),
    },
    confirm=r"403 Forbidden",
)
add(
    "node-uncaught-exception-handler",
    "node",
    "exit0_hidden_failure",
    None,
    "a job installs an uncaughtException handler that only logs; the job's parser throws, the stack is logged, exit 0",
    "node job.js",
    files={
        "job.js": dedent("""
            process.on("uncaughtException", (err) => {
              console.error("[job] uncaught:", err);
            });
            setTimeout(() => {
              const rows = JSON.parse('{"rows": [1, 2,');
              console.log("imported", rows.length);
            }, 10);
        """),
    },
    confirm=r"SyntaxError",
)
add(
    "node-pipeline-callback",
    "node",
    "exit0_hidden_failure",
    None,
    "a gzip step uses stream.pipeline with a callback that only logs; the input file is missing and Node exits 0",
    "node compress.js",
    files={
        "compress.js": dedent("""
            const fs = require("fs"), zlib = require("zlib"), { pipeline } = require("stream");
            pipeline(fs.createReadStream("export.ndjson"), zlib.createGzip(), fs.createWriteStream("export.ndjson.gz"), (err) => {
              if (err) console.error("compress failed:", err.message);
              else console.log("compressed");
            });
        """),
    },
    confirm=r"ENOENT",
)
add(
    "node-ignores-term-killed",
    "node",
    "killed_signalled",
    None,
    "a node server ignores SIGTERM; timeout -k sends SIGKILL to the process group after the grace period",
    "timeout -k 1 1 node server.js",
    files={
        "server.js": "process.on('SIGTERM', () => console.log('SIGTERM received, draining connections...'));\nsetInterval(() => {}, 1000);\nconsole.log('listening');\n",
    },
    expect="SIGKILL",
    confirm=r"draining",
)
add(
    "node-buffer-deprecation-ok",
    "node",
    "success_alarming_stderr",
    None,
    "a checksum script uses the deprecated Buffer() constructor; Node prints DEP0005 and the checksum is right",
    "node sum.js",
    files={
        "sum.js": "const crypto = require('crypto');\nconst b = new Buffer('hello');\nconsole.log(crypto.createHash('sha1').update(b).digest('hex'));\n",
    },
    confirm=r"(?s)^(?=.*DEP0005)(?=.*aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d)",
)
add(
    "node-trace-warnings-fail",
    "node",
    "failure_noisy_stderr",
    None,
    "a node script with --trace-warnings emits many warnings with stacks, then fails to read its input and exits 1",
    "node --trace-warnings load.js",
    files={
        "load.js": dedent("""
            const { EventEmitter } = require("events");
            const bus = new EventEmitter();
            for (let i = 0; i < 15; i++) bus.on("msg", () => {});
            for (let i = 0; i < 5; i++) process.emitWarning(`cache ${i} is stale, rebuilding`, "CacheWarning");
            require("fs").readFileSync("data/input.json");
        """),
    },
    confirm=r"ENOENT",
)

# --- npm -----------------------------------------------------------------------------------------

add(
    "npm-test-exit-0",
    "npm",
    "exit0_hidden_failure",
    None,
    "package.json's test script is 'node --test || exit 0'; a test fails and npm test exits 0",
    "npm test",
    files={
        "package.json": pkg({"test": "node --test || exit 0"}),
        "test/slug.test.js": "const test = require('node:test');\nconst assert = require('assert');\nconst slug = (s) => s.toLowerCase().replace(' ', '-');\ntest('slug of two spaces', () => assert.strictEqual(slug('A B C'), 'a-b-c'));\n",
    },
    confirm=r"# fail 1",
)
add(
    "npm-install-offline-verbose",
    "npm",
    "failure_noisy_stderr",
    None,
    "npm install --loglevel verbose of a package that is not in the offline cache prints verbose logs and exits 1",
    "npm install --loglevel verbose left-pad-corpus-missing@1.0.0",
    files={"package.json": pkg({})},
    confirm=r"(?i)ENOTCACHED|E404|offline",
)
add(
    "npm-run-script-fails",
    "npm",
    "plain_failure",
    None,
    "npm run build runs a node script that cannot find its entry module and exits 1",
    "npm run build",
    files={"package.json": pkg({"build": "node scripts/build.js"})},
)

# --- jest, vitest, tsc, eslint, mocha, prettier --------------------------------------------------

add(
    "jest-console-error-pass",
    "jest",
    "success_alarming_stderr",
    None,
    "jest tests pass; the retry helper under test logs console.error with a stack for each failed attempt",
    "jest --ci retry.test.js",
    files={
        "retry.test.js": dedent("""
            async function retry(fn, n) {
              for (let i = 1; ; i++) {
                try { return await fn(); } catch (e) {
                  console.error(`attempt ${i} failed:`, e);
                  if (i >= n) throw e;
                }
              }
            }
            test("recovers after two failures", async () => {
              let calls = 0;
              const r = await retry(async () => { if (++calls < 3) throw new Error("ETIMEDOUT"); return "ok"; }, 5);
              expect(r).toBe("ok");
            });
        """),
        "package.json": '{"name": "t", "private": true}\n',
    },
    confirm=r"(?s)^(?=.*ETIMEDOUT)(?=.*1 passed)",
)
add(
    "jest-no-tests",
    "jest",
    "plain_failure",
    None,
    "jest is pointed at a pattern that matches no test file and exits 1",
    "jest --ci tests/integration",
    files={"package.json": '{"name": "t", "private": true}\n', "src/a.js": "module.exports = 1;\n"},
    confirm=r"No tests found",
)
add(
    "vitest-unhandled-error",
    "vitest",
    "plain_failure",
    None,
    "vitest's tests pass but an unhandled rejection from the code under test makes vitest exit 1",
    "vitest run --reporter=basic",
    files={
        "src/cache.test.js": dedent("""
            import { test, expect } from "vitest";
            function warm() { Promise.reject(new Error("redis: connection lost")); return true; }
            test("warm returns true", () => { expect(warm()).toBe(true); });
        """),
        "package.json": '{"name": "t", "private": true, "type": "module"}\n',
    },
    confirm=r"connection lost",
    timeout=120,
)
add(
    "tsc-non-blocking-echo",
    "tsc",
    "exit0_hidden_failure",
    None,
    "typecheck step 'tsc --noEmit || echo ...' marks type errors as non-blocking; tsc finds errors and the step exits 0",
    "tsc --noEmit --strict src/index.ts || echo 'type errors found (non-blocking)'",
    files={
        "src/index.ts": "function area(r: number): number { return Math.PI * r * r }\nconst a: string = area('3');\nexport { a }\n"
    },
    confirm=r"error TS",
)
add(
    "eslint-warnings-only",
    "eslint",
    "success_alarming_stderr",
    None,
    "eslint reports only warnings (no-console, no-unused-vars set to warn) and exits 0",
    "eslint --no-eslintrc --env node --parser-options ecmaVersion:2022 --rule 'no-console: warn' --rule 'no-unused-vars: warn' src",
    files={"src/log.js": "const unused = 1;\nconsole.log('started');\n"},
    confirm=r"0 errors, 2 warnings",
)
add(
    "mocha-wrapper-script",
    "mocha",
    "exit0_hidden_failure",
    None,
    "a test wrapper script runs mocha, then prints 'tests done' and cleans up; a test fails and the wrapper exits 0",
    "./run-tests.sh",
    files={
        "run-tests.sh": "#!/bin/bash\necho '== unit tests'\nmocha --reporter dot test/\necho '== tests done'\nrm -rf .tmp-fixtures\n",
        "test/date.test.js": "const assert = require('assert');\ndescribe('iso', () => {\n  it('formats', () => assert.strictEqual(new Date(0).toISOString().slice(0, 10), '1970-01-02'));\n  it('year', () => assert.strictEqual(new Date(0).getUTCFullYear(), 1970));\n});\n",
    },
    needs=("mocha",),
    confirm=r"1 failing",
)
add(
    "prettier-check-colour",
    "prettier",
    "coloured_output",
    "failure",
    "prettier --check in forced colour lists files that need formatting and exits 1",
    "prettier --check 'src/**/*.js'",
    files={"src/a.js": "const x = {a:1,\n  b:2}\n", "src/b.js": "export const y = 1;\n"},
    env={"FORCE_COLOR": "1"},
    expect="nonzero",
)
