"""Fourth fresh batch (ids ``fresh4-*``): tools new to the corpus. JavaScript: pnpm, yarn,
webpack, swc, tsup, vite, babel, knip, depcheck, madge, typedoc, oxlint, jscpd, svgo,
http-server. Python: autoflake, xenon, import-linter, csvkit, pdoc, rstcheck, doc8, deptry,
check-jsonschema, validate-pyproject, toml-sort, sqlformat. Debian: graphviz dot, sloccount,
splint, astyle, flawfinder, pandoc."""

from __future__ import annotations

import json

from casekit import batch, package_json

CASES, add = batch("fresh4")


LINK_NM = 'ln -s "$(dirname "$(command -v tsc)")/.." node_modules'


# --- pnpm / yarn ---------------------------------------------------------------------------------

add(
    "pnpm-recursive-no-bail-or-true",
    "pnpm",
    "exit0_hidden_failure",
    None,
    "a monorepo build runs 'pnpm -r --no-bail run build || true'; package b's build fails and the step exits 0",
    "pnpm -r --no-bail run build || true",
    files={
        "package.json": package_json({}),
        "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n",
        "packages/a/package.json": json.dumps(
            {"name": "a", "version": "1.0.0", "scripts": {"build": "echo built a"}}
        ),
        "packages/b/package.json": json.dumps(
            {
                "name": "b",
                "version": "1.0.0",
                "scripts": {"build": "node -e \"throw new Error('b: missing src/index.ts')\""},
            }
        ),
    },
    confirm=r"missing src/index.ts",
)
add(
    "pnpm-run-ok-warns",
    "pnpm",
    "success_alarming_stderr",
    None,
    "pnpm run lint runs a script that prints 'warning: 2 deprecated rules in config' and '0 errors'; it exits 0",
    "pnpm run lint",
    files={
        "package.json": package_json(
            {
                "lint": "echo 'warning: 2 deprecated rules in config (no-new-object, no-native-reassign)' >&2 && echo '0 errors, 2 warnings'"
            }
        )
    },
    confirm=r"(?s)(?=.*deprecated rules)(?=.*0 errors)",
)
add(
    "yarn-run-warn-no-license-ok",
    "yarn",
    "success_alarming_stderr",
    None,
    "yarn run build on a package without a license field; yarn warns 'package.json: No license field' and the build script writes its output",
    "yarn run build && cat out.txt",
    files={
        "package.json": json.dumps(
            {"name": "app", "version": "1.0.0", "scripts": {"build": "echo bundle > out.txt"}}
        )
    },
    confirm=r"(?s)(?=.*No license field)(?=.*bundle)",
)
add(
    "yarn-run-semicolon-chain",
    "yarn",
    "exit0_hidden_failure",
    None,
    "the CI step runs 'yarn run typecheck; yarn run build' and the build passes; the typecheck failed with a TS error",
    "yarn run typecheck; yarn run build",
    setup=LINK_NM,
    files={
        "package.json": package_json(
            {"typecheck": "tsc --noEmit --strict app.ts", "build": "echo build ok"}
        ),
        "app.ts": "const port: number = process.env.PORT;\n",
    },
    confirm=r"error TS2322",
)

# --- webpack / swc / tsup / vite / babel ---------------------------------------------------------

add(
    "webpack-mode-unset-warning-ok",
    "webpack",
    "success_alarming_stderr",
    None,
    "webpack bundles src/index.js without a mode; it warns 'The 'mode' option has not been set' and emits dist/main.js",
    "webpack && ls dist",
    setup=LINK_NM,
    files={
        "src/index.js": "import { add } from './math.js';\nconsole.log(add(1, 2));\n",
        "src/math.js": "export const add = (a, b) => a + b;\n",
    },
    confirm=r"(?s)(?=.*WARNING in configuration)(?=.*main.js)",
)
add(
    "webpack-errors-stats-tee",
    "webpack",
    "exit0_hidden_failure",
    None,
    "the bundle step pipes webpack through tee build.log; a syntax error in a module fails the build and the pipe exits 0",
    "webpack --mode development 2>&1 | tee build.log",
    setup=LINK_NM,
    files={"src/index.js": "const cfg = { port: 8080,, };\nexport default cfg;\n"},
    confirm=r"ERROR in|Module parse failed",
)
add(
    "webpack-progress-ok",
    "webpack",
    "progress_on_stderr",
    "success",
    "webpack --progress prints its build progress percentages while bundling a small app; exits 0",
    "webpack --mode production --progress",
    setup=LINK_NM,
    files={"src/index.js": "console.log('hello');\n"},
    confirm=r"compiled successfully",
)
add(
    "swc-compile-dir-ok",
    "swc",
    "plain_success",
    None,
    "swc compiles a TypeScript source dir to dist and reports the number of files compiled",
    "swc src -d dist --config-file .swcrc && ls -R dist",
    files={
        ".swcrc": json.dumps({"jsc": {"parser": {"syntax": "typescript"}, "target": "es2019"}}),
        "src/a.ts": "export const n: number = 1;\n",
        "src/b.ts": "export function f(x: string): string { return x ?? 'y'; }\n",
    },
    confirm=r"(?i)successfully compiled",
)
add(
    "swc-error-or-echo",
    "swc",
    "exit0_hidden_failure",
    None,
    "the transpile step runs 'swc src -d dist || echo transpile skipped'; a parse error fails it and the echo exits 0",
    "swc src -d dist --config-file .swcrc || echo 'transpile skipped, using previous dist'",
    files={
        ".swcrc": json.dumps({"jsc": {"parser": {"syntax": "typescript"}}}),
        "src/a.ts": "function (x: number) { return x }\n",
    },
    confirm=r"(?i)error|expected",
)
add(
    "tsup-build-ok",
    "tsup",
    "plain_success",
    None,
    "tsup bundles a TypeScript entry to cjs and esm; exits 0 with 'Build success'",
    "tsup src/index.ts --format cjs,esm",
    setup=LINK_NM,
    files={
        "package.json": package_json({}),
        "src/index.ts": "export const greet = (n: string): string => `hi ${n}`;\n",
    },
    confirm=r"Build success",
)
add(
    "tsup-dts-type-error",
    "tsup",
    "failure_noisy_stderr",
    None,
    "tsup --dts builds JS fine but the declaration build hits a type error; it logs the build steps and the error and exits 1",
    "tsup src/index.ts --dts",
    setup=LINK_NM,
    files={
        "package.json": package_json({}),
        "src/index.ts": "export const total = (xs: number[]): string => xs.reduce((a, b) => a + b, 0);\n",
    },
    expect="nonzero",
    confirm=r"error TS2322|Type 'number' is not assignable",
)
add(
    "vite-build-ok-chunk-warning",
    "vite",
    "success_alarming_stderr",
    None,
    "vite build bundles an app with a 600 kB module; it warns that some chunks are larger than 500 kB and writes dist/",
    "vite build && ls dist",
    setup=LINK_NM
    + " && node -e \"require('fs').writeFileSync('big.js', 'export const data = ' + JSON.stringify('x'.repeat(600000)) + ';')\"",
    files={
        "index.html": '<!doctype html><script type="module" src="/main.js"></script>\n',
        "main.js": "import { data } from './big.js';\ndocument.body.textContent = data.length;\n",
    },
    confirm=r"(?s)(?=.*larger than 500 kB)(?=.*built in)",
)
add(
    "babel-preset-env-ok",
    "babel",
    "plain_success",
    None,
    "babel with preset-env transpiles src to lib and reports the file count",
    "babel src -d lib --presets @babel/preset-env && ls lib",
    setup=LINK_NM,
    files={"src/a.js": "export const f = (x = 1) => x ** 2;\n"},
    confirm=r"Successfully compiled 1 file",
)
add(
    "babel-syntax-error-loop",
    "babel",
    "exit0_hidden_failure",
    None,
    "a script transpiles each file with babel in a for loop; the first file has a syntax error, the last compiles and the loop exits 0",
    'for f in src/*.js; do babel "$f" -o "lib/$(basename "$f")"; done; ls lib',
    setup=LINK_NM + " && mkdir lib",
    files={"src/a.js": "const x = {a: 1,,};\n", "src/b.js": "const y = 2;\n"},
    confirm=r"SyntaxError",
)

# --- knip / depcheck / madge / typedoc / oxlint / jscpd / svgo / http-server ---------------------

DEPS_PROJ = {
    "package.json": package_json(
        {}, dependencies={"lodash": "^4.17.21", "left-pad": "^1.3.0"}, main="index.js"
    ),
    "index.js": "const _ = require('lodash');\nconst chalk = require('chalk');\nconsole.log(_.chunk([1, 2, 3], 2), chalk);\n",
}
add(
    "depcheck-json-piped-jq",
    "depcheck",
    "exit0_hidden_failure",
    None,
    "depcheck --json is piped to a node one-liner that prints the missing/unused counts for a dashboard; it found problems, the pipe exits 0",
    "depcheck --json | node -e \"let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const r=JSON.parse(s);console.log('unused:', r.dependencies.join(','), 'missing:', Object.keys(r.missing).join(','))})\"",
    files=DEPS_PROJ,
    confirm=r"unused: left-pad",
)
add(
    "depcheck-clean",
    "depcheck",
    "plain_success",
    None,
    "depcheck on a project whose dependencies are all used prints 'No depcheck issue'",
    "depcheck",
    files={
        "package.json": package_json({}, dependencies={"lodash": "^4.17.21"}),
        "index.js": "require('lodash');\n",
    },
    confirm=r"No depcheck issue",
)
MADGE = {
    "src/a.js": "const b = require('./b');\nmodule.exports = () => b();\n",
    "src/b.js": "const c = require('./c');\nmodule.exports = () => c();\n",
    "src/c.js": "const a = require('./a');\nmodule.exports = () => typeof a;\n",
}
add(
    "madge-circular-tee-log",
    "madge",
    "exit0_hidden_failure",
    None,
    "the architecture check pipes 'madge --circular' into tee for an artefact; the cycle is found and the pipe exits 0",
    "madge --circular --no-spinner --no-color src | tee madge.txt",
    files=MADGE,
    confirm=r"circular",
)
add(
    "madge-no-cycles-ok",
    "madge",
    "success_alarming_stderr",
    None,
    "madge --circular on an acyclic tree that includes error-handling modules prints 'No circular dependency found!' and exits 0",
    "madge --circular --no-spinner --no-color src",
    files={
        "src/errors.js": "module.exports = class AppError extends Error {};\n",
        "src/index.js": "const AppError = require('./errors');\nmodule.exports = () => { throw new AppError('x'); };\n",
    },
    confirm=r"No circular dependency found",
)
add(
    "typedoc-warnings-ok",
    "typedoc",
    "success_alarming_stderr",
    None,
    "typedoc generates docs for an entry whose exported function lacks a doc comment for a referenced type; it prints warnings and writes docs/",
    "typedoc --entryPoints src/index.ts --out docs --skipErrorChecking && ls docs/index.html",
    setup=LINK_NM,
    files={
        "tsconfig.json": '{"compilerOptions": {"strict": true}, "include": ["src"]}\n',
        "src/index.ts": "interface Internal { x: number }\n/** Parse a value. Throws {@link ParseErr} on bad input. */\nexport function parse(s: string): Internal { return { x: Number(s) }; }\n",
    },
    confirm=r"(?s)(?=.*\[warning\])(?=.*docs/index.html)",
)
add(
    "typedoc-type-error-fails",
    "typedoc",
    "plain_failure",
    None,
    "typedoc refuses to generate docs for a project with a TypeScript error and exits non-zero",
    "typedoc --entryPoints src/index.ts --out docs",
    setup=LINK_NM,
    files={
        "tsconfig.json": '{"compilerOptions": {"strict": true}, "include": ["src"]}\n',
        "src/index.ts": "export const n: number = 'one';\n",
    },
    expect="nonzero",
)
add(
    "oxlint-errors",
    "oxlint",
    "plain_failure",
    None,
    "oxlint reports a debugger statement and a no-dupe-keys error; exits 1",
    "oxlint -D correctness src",
    files={"src/a.js": "const cfg = { port: 1, port: 2 };\ndebugger;\nexport default cfg;\n"},
    expect=1,
)
add(
    "oxlint-warnings-only-ok",
    "oxlint",
    "success_alarming_stderr",
    None,
    "oxlint on code with an unused variable reports it as a warning ('Found 1 warning and 0 errors') and exits 0",
    "oxlint src",
    files={"src/a.js": "export function f() { const unusedError = new Error('x'); return 1; }\n"},
    confirm=r"(?s)(?=.*warning)(?=.*0 errors)",
)
add(
    "oxlint-colour-errors",
    "oxlint",
    "coloured_output",
    "failure",
    "oxlint with FORCE_COLOR reports an error-level rule violation in colour and exits 1",
    "oxlint -D correctness src",
    env={"FORCE_COLOR": "1"},
    files={"src/a.js": "if (x = 1 === NaN) {}\nexport {};\n"},
    expect=1,
)
add(
    "jscpd-duplicates-report-ok",
    "jscpd",
    "exit0_hidden_failure",
    None,
    "the duplication gate runs jscpd without --threshold, so its 'Found N clones' report with a high duplication percentage never fails the step; exits 0",
    "jscpd --min-lines 3 --min-tokens 20 --reporters console src",
    files={
        "src/a.js": "function total(items) {\n  let sum = 0;\n  for (const it of items) {\n    if (it.qty > 0) sum += it.qty * it.price;\n  }\n  return Math.round(sum * 100) / 100;\n}\nmodule.exports = total;\n",
        "src/b.js": "function total(items) {\n  let sum = 0;\n  for (const it of items) {\n    if (it.qty > 0) sum += it.qty * it.price;\n  }\n  return Math.round(sum * 100) / 100;\n}\nmodule.exports = total;\n",
    },
    confirm=r"(?i)found 1 clones|clone",
)
add(
    "svgo-optimise-ok",
    "svgo",
    "plain_success",
    None,
    "svgo optimises an SVG icon and reports the size reduction",
    "svgo icon.svg -o icon.min.svg",
    files={
        "icon.svg": '<?xml version="1.0"?>\n<!-- generator: editor -->\n<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24">\n  <g>\n    <rect x="0" y="0" width="24" height="24" fill="#ff0000"/>\n  </g>\n</svg>\n'
    },
    confirm=r"KiB|smaller|Done",
)
add(
    "svgo-malformed-or-true",
    "svgo",
    "exit0_hidden_failure",
    None,
    "the asset step runs 'svgo -f icons || true'; one icon is malformed XML, svgo reports the error and the step exits 0",
    "svgo -f icons -o out || true",
    setup="mkdir out",
    files={
        "icons/a.svg": '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>\n',
        "icons/b.svg": '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1"</svg>\n',
    },
    confirm=r"(?i)error",
)
add(
    "http-server-start-probe-stop",
    "http-server",
    "success_alarming_stderr",
    None,
    "a preview step starts http-server on dist/, checks the index page (200) and a missing asset (logged 404 by the server), then stops it; the preview check passed",
    "http-server dist -a 127.0.0.1 -p 0 > srv.log 2>&1 & pid=$!; sleep 2; port=$(grep -o '127.0.0.1:[0-9]*' srv.log | head -1 | cut -d: -f2); curl -s http://127.0.0.1:$port/ ; curl -s -o /dev/null -w 'missing asset: %{http_code}\\n' http://127.0.0.1:$port/app.js.map; kill $pid; wait $pid 2>/dev/null; cat srv.log; echo 'preview ok'",
    files={"dist/index.html": "<h1>preview</h1>\n"},
    confirm=r"(?s)(?=.*preview</h1>)(?=.*404)(?=.*preview ok)",
    needs=("http-server", "curl"),
)

# --- Python tools --------------------------------------------------------------------------------

AF = {
    "app.py": "import os\nimport sys\nimport json\n\n\ndef main():\n    unused = 1\n    print(json.dumps({}))\n"
}
add(
    "autoflake-inplace-fixes",
    "autoflake",
    "success_alarming_stderr",
    None,
    "autoflake -i -v removes unused imports and reports what it fixed; a second --check passes",
    "autoflake -i -v --remove-all-unused-imports app.py && autoflake --check --remove-all-unused-imports app.py",
    files=AF,
    confirm=r"(?s)(?=.*(?i:fix|unused))(?=.*No issues detected)",
)
add(
    "autoflake-check-or-true",
    "autoflake",
    "exit0_hidden_failure",
    None,
    "the pre-commit-like step runs 'autoflake --check ... || true'; unused imports remain and the step exits 0",
    "autoflake --check --remove-all-unused-imports app.py || true",
    files=AF,
    confirm=r"(?i)unused imports",
)
XEN = {
    "calc.py": "def route(a, b, c, d):\n    if a:\n        if b:\n            for i in range(3):\n                if c and i:\n                    return 1\n                elif d or i > 1:\n                    return 2\n        elif c:\n            return 3\n    elif d:\n        while b:\n            if a or c:\n                break\n    return 0\n"
}
add(
    "xenon-rank-exceeded",
    "xenon",
    "plain_failure",
    None,
    "xenon --max-absolute A finds a function of complexity rank C and exits 1",
    "xenon --max-absolute A --max-modules A --max-average A calc.py",
    files=XEN,
    expect=1,
    confirm=r"ERROR:xenon",
)
add(
    "xenon-semicolon-continue",
    "xenon",
    "exit0_hidden_failure",
    None,
    "a quality script runs 'xenon ...; radon cc -s calc.py' to show scores; xenon's complexity gate fails and radon's listing exits 0",
    "xenon --max-absolute A calc.py; radon cc -s calc.py",
    files=XEN,
    confirm=r"ERROR:xenon",
)
IMPLINT = {
    ".importlinter": "[importlinter]\nroot_package = shop\n\n[importlinter:contract:layers]\nname = Layers\ntype = layers\nlayers =\n    shop.api\n    shop.domain\n",
    "shop/__init__.py": "",
    "shop/api.py": "from shop import domain\n",
}
add(
    "lint-imports-kept",
    "lint-imports",
    "plain_success",
    None,
    "import-linter checks a layers contract that the package keeps; 'Contracts: 1 kept, 0 broken'",
    "lint-imports",
    files={**IMPLINT, "shop/domain.py": "def price():\n    return 1\n"},
    env={"PYTHONPATH": "."},
    confirm=r"1 kept, 0 broken",
)
add(
    "lint-imports-broken",
    "lint-imports",
    "plain_failure",
    None,
    "import-linter finds the domain layer importing the api layer and exits 1",
    "lint-imports",
    files={**IMPLINT, "shop/domain.py": "from shop import api\n"},
    env={"PYTHONPATH": "."},
    expect=1,
    confirm=r"BROKEN|broken",
)
CSV_BAD = "id,name,amount\n1,ann,3.5\n2,bob\n3,cy,4,extra\n"
add(
    "csvclean-errors-report",
    "csvclean",
    "exit0_hidden_failure",
    None,
    "a data-prep step runs csvclean on an export with short and long rows and carries on; the rows are reported as errors (and dropped) and the step exits 0",
    "csvclean export.csv > clean.csv; cat clean.csv",
    files={"export.csv": CSV_BAD},
    confirm=r"(?i)expected 3 columns|error",
)
add(
    "csvstat-summary-ok",
    "csvstat",
    "plain_success",
    None,
    "csvstat summarises a clean CSV (types, nulls, min/max) and exits 0",
    "csvstat --csv sales.csv",
    files={"sales.csv": "region,amount\nnorth,10\nsouth,20\nnorth,5\n"},
    confirm=r"amount",
)
add(
    "csvsql-query-bad-column",
    "csvsql",
    "failure_noisy_stderr",
    None,
    "csvsql runs a SQL query naming a column that does not exist; SQLAlchemy raises OperationalError with a long traceback and it exits 1",
    "csvsql --query 'select region, sum(amt) from sales group by region' sales.csv",
    files={"sales.csv": "region,amount\nnorth,10\nsouth,20\n"},
    expect="nonzero",
    confirm=r"no such column",
)
add(
    "pdoc-import-error-warning",
    "pdoc",
    "plain_failure",
    None,
    "pdoc is asked to document a module whose import raises; pdoc reports the error and exits 1",
    "pdoc -o docs mymod",
    env={"PYTHONPATH": "."},
    files={"mymod.py": "import missing_dependency_fresh4\n"},
    expect="nonzero",
)
add(
    "pdoc-build-ok",
    "pdoc",
    "plain_success",
    None,
    "pdoc writes HTML docs for a small module",
    "pdoc -o docs mymod && ls docs",
    env={"PYTHONPATH": "."},
    files={
        "mymod.py": '"""Utilities."""\n\ndef add(a: int, b: int) -> int:\n    """Add two ints."""\n    return a + b\n'
    },
    confirm=r"mymod.html",
)
RST_BAD = "Title\n====\n\nSome text with a `broken link <http://x>`_\n\n.. code-block:: python\n\n   def f(:\n       pass\n"
add(
    "rstcheck-clean-success",
    "rstcheck",
    "plain_success",
    None,
    "rstcheck on a valid README prints 'Success! No issues detected.'",
    "rstcheck README.rst",
    files={
        "README.rst": "Title\n=====\n\nText.\n\n.. code-block:: python\n\n   def f():\n       return 1\n"
    },
    confirm=r"No issues detected",
)
add(
    "doc8-errors-or-true",
    "doc8",
    "exit0_hidden_failure",
    None,
    "the docs lint runs 'doc8 docs || true'; doc8 reports line-too-long and trailing whitespace errors and the step exits 0",
    "doc8 docs || true",
    files={"docs/index.rst": "Guide\n=====\n\n" + "word " * 40 + "\n\nTrailing space here   \n"},
    confirm=r"Total accumulated errors = [1-9]",
)
add(
    "deptry-issues",
    "deptry",
    "plain_failure",
    None,
    "deptry finds an import of a package not declared in pyproject.toml and an unused declared dependency; exits 1",
    "deptry .",
    files={
        "pyproject.toml": '[project]\nname = "svc"\nversion = "0.1"\ndependencies = ["requests", "left-pad-py"]\n',
        "svc/__init__.py": "import requests\nimport yaml\n",
    },
    expect=1,
    confirm=r"DEP00[12]",
)
add(
    "deptry-clean",
    "deptry",
    "success_alarming_stderr",
    None,
    "deptry on a project whose imports match its dependencies logs its scan and 'Success! No dependency issues found.'",
    "deptry .",
    files={
        "pyproject.toml": '[project]\nname = "svc"\nversion = "0.1"\ndependencies = ["requests"]\n',
        "svc/__init__.py": "import requests\n",
    },
    confirm=r"No dependency issues found",
)
SCHEMA = json.dumps(
    {
        "type": "object",
        "required": ["name", "replicas"],
        "properties": {"name": {"type": "string"}, "replicas": {"type": "integer", "minimum": 1}},
    }
)
add(
    "check-jsonschema-invalid",
    "check-jsonschema",
    "plain_failure",
    None,
    "check-jsonschema validates a deploy config with replicas 0 against a local schema; it reports the violation and exits 1",
    "check-jsonschema --schemafile schema.json deploy.json",
    files={"schema.json": SCHEMA, "deploy.json": '{"name": "api", "replicas": 0}\n'},
    expect=1,
    confirm=r"Schema validation errors",
)
add(
    "check-jsonschema-loop-last-ok",
    "check-jsonschema",
    "exit0_hidden_failure",
    None,
    "a loop validates each config file separately; the first is invalid, the last valid, and the loop exits 0",
    'for f in configs/*.json; do check-jsonschema --schemafile schema.json "$f"; done',
    files={
        "schema.json": SCHEMA,
        "configs/a.json": '{"name": "api"}\n',
        "configs/b.json": '{"name": "web", "replicas": 2}\n',
    },
    confirm=r"'replicas' is a required property",
)
add(
    "check-jsonschema-valid",
    "check-jsonschema",
    "plain_success",
    None,
    "check-jsonschema validates a correct config and prints 'ok -- validation done'",
    "check-jsonschema --schemafile schema.json deploy.json",
    files={"schema.json": SCHEMA, "deploy.json": '{"name": "api", "replicas": 3}\n'},
    confirm=r"validation done",
)
add(
    "validate-pyproject-valid",
    "validate-pyproject",
    "plain_success",
    None,
    "validate-pyproject accepts a correct pyproject.toml",
    "validate-pyproject pyproject.toml",
    files={"pyproject.toml": '[project]\nname = "svc"\nversion = "1.0"\n'},
    confirm=r"Valid file",
)
add(
    "toml-sort-in-place-ok",
    "toml-sort",
    "plain_success",
    None,
    "toml-sort --in-place sorts a config and a later --check passes",
    "toml-sort --in-place --all config.toml && toml-sort --check --all config.toml && cat config.toml",
    files={"config.toml": "[tool]\nzeta = 1\nalpha = 2\n"},
    confirm=r"alpha = 2",
)
add(
    "sqlformat-reindent-ok",
    "sqlformat",
    "plain_success",
    None,
    "sqlformat reindents a one-line SQL query with upper-case keywords",
    "sqlformat --reindent --keywords upper query.sql",
    files={
        "query.sql": "select id, name from users where active = 1 and created_at > '2024-01-01' order by name;\n"
    },
    confirm=r"SELECT id",
)

# --- Debian tools --------------------------------------------------------------------------------

add(
    "dot-syntax-error",
    "dot",
    "plain_failure",
    None,
    "graphviz dot renders a pipeline graph with a syntax error and exits 1",
    "dot -Tsvg pipeline.dot -o pipeline.svg",
    files={"pipeline.dot": "digraph G {\n  build -> test\n  test -> -> deploy\n}\n"},
    expect=1,
    confirm=r"syntax error",
)
add(
    "dot-warning-render-ok",
    "dot",
    "success_alarming_stderr",
    None,
    "dot renders a graph with an unknown attribute value; it warns and writes the SVG",
    "dot -Tsvg g.dot -o g.svg && grep -c '<svg' g.svg",
    files={"g.dot": "digraph G {\n  node [shape=roundbox];\n  error -> retry -> success;\n}\n"},
    confirm=r"(?sm)(?=.*Warning)(?=.*^1$)",
)
add(
    "dot-loop-or-true",
    "dot",
    "exit0_hidden_failure",
    None,
    "the docs build renders each .dot in a loop with '|| true'; one graph has a syntax error and is not rendered, the step exits 0",
    'for f in *.dot; do dot -Tpng "$f" -o "${f%.dot}.png" || true; done; ls *.png',
    files={"a.dot": "digraph { a -> b }\n", "b.dot": "digraph { a -> }\n"},
    confirm=r"syntax error",
)
add(
    "sloccount-report",
    "sloccount",
    "plain_success",
    None,
    "sloccount counts lines of code in a small C and Python tree and prints its totals",
    "sloccount src",
    files={
        "src/a/main.c": "int main(void) {\n  return 0;\n}\n",
        "src/b/util.py": "def f():\n    return 1\n",
    },
    confirm=r"Total Physical Source Lines of Code",
)
add(
    "splint-warnings",
    "splint",
    "plain_failure",
    None,
    "splint checks a C file with a possibly-null dereference and an ignored return value; it reports code warnings and exits 1",
    "splint +posixlib buf.c",
    files={
        "buf.c": "#include <stdlib.h>\n#include <string.h>\nchar *dup(const char *s) { char *p = malloc(strlen(s) + 1); strcpy(p, s); return p; }\n"
    },
    expect=1,
    confirm=r"code warning",
)
add(
    "splint-weak-or-true",
    "splint",
    "exit0_hidden_failure",
    None,
    "the static-analysis step runs 'splint ... || true'; splint finds a memory leak and the step exits 0",
    "splint +posixlib leak.c || true",
    files={
        "leak.c": "#include <stdlib.h>\nvoid f(void) { char *p = malloc(10); if (p) p[0] = 'a'; }\n"
    },
    confirm=r"code warning",
)
add(
    "astyle-format-ok",
    "astyle",
    "plain_success",
    None,
    "astyle reformats a C file in place to allman style and lists it as Formatted",
    "astyle --style=allman -n a.c && cat a.c",
    files={"a.c": "int main(void){if(1){return 0;}}\n"},
    confirm=r"Formatted",
)
add(
    "astyle-dry-run-check-ignored",
    "astyle",
    "exit0_hidden_failure",
    None,
    "the format check runs 'astyle --dry-run' which lists files that would change but always exits 0; two files are unformatted and the check passes",
    "astyle --style=google --dry-run *.c",
    files={"a.c": "int a(void){return 1;}\n", "b.c": "int b(void)\n{\nreturn 2;\n}\n"},
    confirm=r"Formatted",
)
add(
    "flawfinder-hits-exit0",
    "flawfinder",
    "exit0_hidden_failure",
    None,
    "the security scan runs flawfinder without --error-level; it reports strcpy/system hits of level 4-5 and exits 0",
    "flawfinder --quiet src",
    files={
        "src/cmd.c": "#include <string.h>\n#include <stdlib.h>\nvoid run(const char *user) { char buf[16]; strcpy(buf, user); system(buf); }\n"
    },
    confirm=r"\[[45]\] \(",
)
add(
    "flawfinder-error-level-fails",
    "flawfinder",
    "plain_failure",
    None,
    "flawfinder --error-level=4 finds a level-4 hit and exits 1",
    "flawfinder --quiet --error-level=4 src",
    files={
        "src/cmd.c": "#include <string.h>\nvoid run(const char *user) { char buf[16]; strcpy(buf, user); }\n"
    },
    expect=1,
)
add(
    "flawfinder-no-hits",
    "flawfinder",
    "success_alarming_stderr",
    None,
    "flawfinder on safe code prints 'No hits found' with its disclaimer that not every hit is a vulnerability; exits 0",
    "flawfinder --error-level=1 src",
    files={"src/ok.c": '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n'},
    confirm=r"No hits found",
)
add(
    "pandoc-title-warning-ok",
    "pandoc",
    "success_alarming_stderr",
    None,
    "pandoc converts a markdown changelog to standalone HTML without a title; it prints [WARNING] about the missing title and writes the file",
    "pandoc -s CHANGELOG.md -o changelog.html && grep -c '<h2' changelog.html",
    files={
        "CHANGELOG.md": "## 1.2.0\n\n- fix: crash on empty config\n\n## 1.1.0\n\n- feat: retries\n"
    },
    confirm=r"(?sm)(?=.*\[WARNING\])(?=.*^2$)",
)
add(
    "pandoc-fail-if-warnings",
    "pandoc",
    "plain_failure",
    None,
    "pandoc --fail-if-warnings turns the missing-title warning into a failure; exits 3",
    "pandoc -s --fail-if-warnings CHANGELOG.md -o changelog.html",
    files={"CHANGELOG.md": "## 1.2.0\n\n- fix\n"},
    expect="nonzero",
)
add(
    "pandoc-missing-resource-or-true",
    "pandoc",
    "exit0_hidden_failure",
    None,
    "the docs step builds a self-contained HTML with '|| true'; an embedded image is missing, pandoc fails and the step exits 0 with no output file",
    "pandoc -s --self-contained --metadata title=Guide guide.md -o guide.html || true; ls guide.html",
    files={"guide.md": "# Guide\n\n![architecture](img/arch.png)\n"},
    expect=2,
    confirm=r"img/arch.png",
)
add(
    "pandoc-latin1-input",
    "pandoc",
    "non_utf8",
    "failure",
    "the docs step echoes a latin-1 encoded markdown file to its log and converts it with pandoc --fail-if-warnings; the non-UTF-8 input warning fails the conversion",
    "cat notes.md >&2; pandoc --fail-if-warnings notes.md -t plain",
    files={"notes.md": "# R\xe9sum\xe9\n\nCaf\xe9 cr\xe8me\n".encode("latin-1")},
    expect="nonzero",
)
add(
    "doc8-clean-zero-errors",
    "doc8",
    "success_alarming_stderr",
    None,
    "doc8 on well-formed docs prints its scan summary with 'Total accumulated errors = 0' and exits 0",
    "doc8 docs",
    files={"docs/index.rst": "Guide\n=====\n\nShort lines only.\n"},
    confirm=r"Total accumulated errors = 0",
)
add(
    "splint-clean-no-warnings",
    "splint",
    "success_alarming_stderr",
    None,
    "splint checks a clean C file and prints 'Finished checking --- no warnings'",
    "splint clean.c",
    files={"clean.c": "int add(int a, int b) { return a + b; }\n"},
    confirm=r"no warnings",
)
