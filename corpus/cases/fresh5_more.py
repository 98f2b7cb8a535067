"""Fifth fresh batch (ids ``fresh5-*``): more alarming successes, progress, colour, non-UTF-8 and
signal runs across everyday and new tools."""

from __future__ import annotations

import json

from casekit import batch, dedent

CASES, add = batch("fresh5")


LINK_NM = 'ln -s "$(dirname "$(command -v tsc)")/.." node_modules'
GIT_BASE = (
    "git init -q -b main . && printf 'a\\nb\\n' > f.txt && git add . && git commit -qm init\n"
)

add(
    "pytest-rp-captured-traceback-pass",
    "pytest",
    "success_alarming_stderr",
    None,
    "pytest -rP shows the captured stderr of passing tests, where an importer prints the traceback of a corrupt row it skips; 2 passed",
    "pytest -q -rP -p no:cacheprovider",
    files={
        "test_imp.py": dedent("""
            import sys, traceback
            def load(rows):
                out = []
                for r in rows:
                    try:
                        out.append(int(r))
                    except ValueError:
                        traceback.print_exc()
                return out
            def test_skips_corrupt():
                assert load(["1", "x", "3"]) == [1, 3]
            def test_empty():
                assert load([]) == []
        """),
    },
    confirm=r"(?s)(?=.*ValueError: invalid literal)(?=.*2 passed)",
)
add(
    "pytest-color-yes-pass",
    "pytest",
    "coloured_output",
    "success",
    "pytest --color=yes runs a passing suite with a deprecation warning summary; coloured output, exit 0",
    "pytest --color=yes -p no:cacheprovider",
    files={
        "test_w.py": "import warnings\n\ndef test_a():\n    warnings.warn('old API', DeprecationWarning)\n    assert True\n"
    },
    confirm=r"1 passed",
)
add(
    "python-urllib-retry-recovers",
    "python3",
    "success_alarming_stderr",
    None,
    "a Python fetch script retries a local endpoint that answers 503 twice, logging 'HTTP Error 503' each time, then gets 200 and saves it; exit 0",
    "python3 fetch.py",
    files={
        "fetch.py": dedent("""
            import os, time, logging, urllib.request, urllib.error
            logging.basicConfig(format="%(levelname)s %(message)s", level=logging.INFO)
            url = os.environ["HTTP_APP"] + "/flaky/fresh5-py/2"
            for attempt in range(1, 5):
                try:
                    body = urllib.request.urlopen(url, timeout=5).read().decode()
                    break
                except urllib.error.HTTPError as e:
                    logging.error("attempt %d: %s", attempt, e)
                    time.sleep(0.1)
            open("page.txt", "w").write(body)
            logging.info("saved: %s", body.strip())
        """),
    },
    confirm=r"(?s)(?=.*HTTP Error 503)(?=.*saved: ok after 3 attempts)",
)
add(
    "python-segfault-ctypes",
    "python3",
    "killed_signalled",
    None,
    "a native-extension shim reads through a null pointer via ctypes; the interpreter dies with SIGSEGV",
    ["python3", "-c", "import ctypes; print('loading codec', flush=True); ctypes.string_at(0)"],
    expect="SIGSEGV",
    confirm=r"loading codec",
)
add(
    "go-test-v-logs-errors-pass",
    "go",
    "success_alarming_stderr",
    None,
    "go test -v runs a test whose t.Logf lines report the error paths it exercises ('error: connection reset'); the test passes, exit 0",
    "go test -v ./...",
    files={
        "go.mod": "module example.com/r\n\ngo 1.19\n",
        "r_test.go": 'package r\n\nimport ("errors"; "testing")\n\nfunc TestRetry(t *testing.T) {\n\tfor i, err := range []error{errors.New("connection reset by peer"), errors.New("i/o timeout"), nil} {\n\t\tif err != nil {\n\t\t\tt.Logf("attempt %d: error: %v", i+1, err)\n\t\t\tcontinue\n\t\t}\n\t\tt.Logf("attempt %d: ok", i+1)\n\t}\n}\n',
    },
    confirm=r"(?s)(?=.*error: connection reset)(?=.*--- PASS: TestRetry)",
)
add(
    "cargo-test-nocapture-error-output-pass",
    "cargo",
    "success_alarming_stderr",
    None,
    "cargo test -- --nocapture shows a parser test printing 'Error: unexpected end of input' for the input it must reject; all tests pass",
    "cargo test --offline -- --nocapture",
    files={
        "Cargo.toml": '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/lib.rs": 'pub fn parse(s: &str) -> Result<u32, String> { s.parse().map_err(|e| format!("{e}")) }\n#[cfg(test)]\nmod t {\n    #[test]\n    fn rejects_empty() {\n        let e = super::parse("").unwrap_err();\n        eprintln!("Error: unexpected end of input ({e})");\n        assert!(e.contains("empty"));\n    }\n}\n',
    },
    confirm=r"(?s)(?=.*Error: unexpected end of input)(?=.*test result: ok)",
)
add(
    "cargo-test-color-always-fail",
    "cargo",
    "coloured_output",
    "failure",
    "cargo test --color always fails an assertion; coloured output and exit 101",
    "cargo test --offline --color always",
    files={
        "Cargo.toml": '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/lib.rs": "#[cfg(test)]\nmod t {\n    #[test]\n    fn rounding() { assert_eq!(0.1f64 + 0.2, 0.3); }\n}\n",
    },
    expect=101,
    confirm=r"FAILED",
)
add(
    "gpp-wall-unused-runs",
    "g++",
    "success_alarming_stderr",
    None,
    "g++ -Wall -Wextra compiles a CLI with an unused variable and a comparison of signed and unsigned; it runs and prints the right count, exit 0",
    "g++ -Wall -Wextra -o cnt cnt.cpp && ./cnt",
    files={
        "cnt.cpp": '#include <vector>\n#include <cstdio>\nint main() {\n  std::vector<int> v{1, 2, 3};\n  int unused = 0;\n  int n = 0;\n  for (int i = 0; i < v.size(); i++) n += v[i];\n  std::printf("count=%d\\n", n);\n}\n'
    },
    confirm=r"(?s)(?=.*warning: unused variable)(?=.*count=6)",
)
add(
    "make-ignored-clean-error-build-ok",
    "make",
    "success_alarming_stderr",
    None,
    "make runs a '-rm' clean step that fails on a missing directory (make prints 'Error 1 (ignored)') and then builds the program, which runs; exit 0",
    "make && ./app",
    files={
        "Makefile": "all: clean app\nclean:\n\t-rmdir build\napp: app.c\n\tgcc -o app app.c\n.PHONY: all clean\n",
        "app.c": '#include <stdio.h>\nint main(void){puts("app built and running");return 0;}\n',
    },
    confirm=r"(?s)(?=.*\(ignored\))(?=.*app built and running)",
)
add(
    "ctest-verbose-error-text-pass",
    "cmake",
    "success_alarming_stderr",
    None,
    "ctest -V runs a test that prints 'ERROR: simulated disk full' while checking the error path; the test passes and ctest reports 100% tests passed",
    "cmake -S . -B build >/dev/null && cmake --build build >/dev/null && cd build && ctest -V",
    files={
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(t C)\nenable_testing()\nadd_executable(t t.c)\nadd_test(NAME disk_full_path COMMAND t)\n",
        "t.c": '#include <stdio.h>\nint write_block(int full) { if (full) { fprintf(stderr, "ERROR: simulated disk full (ENOSPC)\\n"); return -1; } return 0; }\nint main(void) { return write_block(1) == -1 && write_block(0) == 0 ? 0 : 1; }\n',
    },
    confirm=r"(?s)(?=.*ERROR: simulated disk full)(?=.*100% tests passed)",
)
add(
    "git-am-whitespace-warning-ok",
    "git",
    "success_alarming_stderr",
    None,
    "git am applies a mailed patch that adds trailing whitespace; git warns '1 line adds whitespace errors' and the commit is applied, exit 0",
    "git am -q fix.patch && git log --oneline -1",
    setup=GIT_BASE
    + "git checkout -qb tmp && printf 'a\\nb \\n' > f.txt && git commit -qam 'fix b' && git format-patch -1 --stdout > fix.patch && git checkout -q main && git branch -qD tmp\n",
    confirm=r"(?s)(?=.*whitespace)(?=.*fix b)",
)
add(
    "git-clone-local-progress",
    "git",
    "progress_on_stderr",
    "success",
    "git clone --progress --no-local of a local repository prints counting/compressing/receiving progress on stderr and checks out the tree",
    "git clone --progress --no-local src dst && ls dst",
    setup="mkdir src && cd src && git init -q -b main && for i in $(seq 1 40); do head -c 2000 /dev/urandom | base64 > f$i.txt; done && git add . && git commit -qm init",
    confirm=r"(?s)(?=.*Receiving objects)(?=.*f1\.txt)",
)
add(
    "git-diff-latin1-file",
    "git",
    "non_utf8",
    "success",
    "git diff shows a change to a latin-1 encoded properties file; the diff contains latin-1 bytes, exit 0",
    "git diff",
    setup="git init -q -b main . && printf 'greeting=Ol\\xe1\\n' > msg.properties && git add . && git commit -qm init && printf 'greeting=Ol\\xe1, se\\xf1or\\n' > msg.properties",
)
add(
    "curl-progress-bar-download",
    "curl",
    "progress_on_stderr",
    "success",
    "curl -# downloads a 3 MB file over 1 s with a progress bar on stderr and saves it; exit 0",
    'curl -# -f -o data.bin "$HTTP_APP/big/3072/1" && wc -c < data.bin',
    confirm=r"3145728",
)
add(
    "eslint-warnings-only-ok",
    "eslint",
    "success_alarming_stderr",
    None,
    "npm run lint runs eslint with a rule at warn level; it prints '1 problem (0 errors, 1 warning)' and exits 0 (warnings are allowed)",
    "npm run -s lint",
    files={
        "package.json": json.dumps(
            {
                "name": "w",
                "version": "1.0.0",
                "scripts": {
                    "lint": "eslint --no-eslintrc --env node --parser-options ecmaVersion:2022 --rule 'no-unused-vars: warn' src"
                },
            }
        )
        + "\n",
        "src/a.js": "const errorCount = 0;\n",
    },
    confirm=r"0 errors, 1 warning",
)
add(
    "node-maxlisteners-warning-ok",
    "node",
    "success_alarming_stderr",
    None,
    "a node event bus registers 11 listeners on one event; node prints MaxListenersExceededWarning ('Possible EventEmitter memory leak detected') and the bus delivers all events, exit 0",
    "node bus.js",
    files={
        "bus.js": "const { EventEmitter } = require('events');\nconst bus = new EventEmitter();\nlet n = 0;\nfor (let i = 0; i < 11; i++) bus.on('job', () => n++);\nbus.emit('job');\nsetImmediate(() => console.log(`delivered ${n} handlers`));\n"
    },
    confirm=r"(?s)(?=.*MaxListenersExceededWarning)(?=.*delivered 11 handlers)",
)
add(
    "tsc-skiplibcheck-deprecated-option-ok",
    "tsc",
    "success_alarming_stderr",
    None,
    "tsc --noEmit with a tsconfig using the deprecated 'importsNotUsedAsValues' plus ignoreDeprecations passes; a deliberate @ts-expect-error line type-checks, exit 0 and the script prints 'typecheck ok'",
    "tsc -p . && echo 'typecheck ok: error-handling module compiles'",
    files={
        "tsconfig.json": json.dumps(
            {"compilerOptions": {"strict": True, "noEmit": True}, "include": ["src"]}
        ),
        "src/err.ts": "export class HttpError extends Error {\n  constructor(public status: number, msg: string) { super(msg); }\n}\n// @ts-expect-error status must be a number\nexport const bad = new HttpError('500', 'Internal Server Error');\n",
    },
    confirm=r"typecheck ok: error-handling",
)
add(
    "ruby-rescue-retry-recovers",
    "ruby",
    "success_alarming_stderr",
    None,
    "a Ruby deploy helper retries a local endpoint with rescue/retry, warning 'Net::HTTPServiceUnavailable' twice, then succeeds; exit 0",
    "ruby fetch.rb",
    files={
        "fetch.rb": dedent("""
            require "net/http"
            tries = 0
            begin
              tries += 1
              res = Net::HTTP.get_response(URI(ENV["HTTP_APP"] + "/flaky/fresh5-rb/2"))
              raise "HTTP #{res.code} #{res.class}" unless res.is_a?(Net::HTTPSuccess)
              puts "deployed: #{res.body}"
            rescue => e
              warn "attempt #{tries} failed: #{e.message}"
              retry if tries < 4
              raise
            end
        """),
    },
    confirm=r"(?s)(?=.*HTTPServiceUnavailable)(?=.*deployed: ok after 3)",
)
add(
    "perl-c-syntax-ok-typo-warning",
    "perl",
    "success_alarming_stderr",
    None,
    "perl -wc checks a script's syntax; it warns 'Name \"main::verbos\" used only once: possible typo' and says 'syntax OK', exit 0",
    "perl -wc tool.pl",
    files={"tool.pl": 'my $n = 1;\n$verbos = 1;\nprint "$n\\n";\n'},
    confirm=r"(?s)(?=.*possible typo)(?=.*syntax OK)",
)
add(
    "php-trigger-warning-handled-ok",
    "php",
    "success_alarming_stderr",
    None,
    "a PHP job triggers E_USER_WARNING for a skipped invalid row ('Warning: row 2: invalid email') and imports the others; exit 0",
    "php -d display_errors=stderr job.php",
    files={
        "job.php": '<?php\n$rows = ["a@x.io", "nope", "c@x.io"];\n$ok = 0;\nforeach ($rows as $i => $r) {\n  if (!filter_var($r, FILTER_VALIDATE_EMAIL)) { trigger_error("row " . ($i + 1) . ": invalid email \'$r\'", E_USER_WARNING); continue; }\n  $ok++;\n}\necho "imported $ok of " . count($rows) . " rows (1 skipped by design)\\n";\n'
    },
    confirm=r"(?s)(?=.*Warning: row 2: invalid email)(?=.*imported 2 of 3)",
)
add(
    "java-printstacktrace-fallback-ok",
    "java",
    "success_alarming_stderr",
    None,
    "a Java loader tries a cached file, prints the FileNotFoundException stack trace, and falls back to defaults as designed; it prints the loaded config and exits 0",
    "java Load.java",
    files={
        "Load.java": 'import java.io.*;\npublic class Load { public static void main(String[] a) { String port = "8080"; try { new FileReader("cache/config.properties"); } catch (FileNotFoundException e) { e.printStackTrace(); System.err.println("using defaults"); } System.out.println("config loaded: port=" + port); } }\n'
    },
    confirm=r"(?s)(?=.*java\.io\.FileNotFoundException)(?=.*config loaded: port=8080)",
)
add(
    "sqlite3-import-extra-columns-ok",
    "sqlite3",
    "success_alarming_stderr",
    None,
    "sqlite3 .import loads a CSV with a short row; sqlite warns the row has fewer columns (filled with NULL) and imports all rows, exit 0",
    "sqlite3 app.db -cmd 'create table u(id,name,city)' '.mode csv' '.import users.csv u' 'select count(*) from u'",
    files={"users.csv": "1,ann,Oslo\n2,bob\n3,cy,Rome\n"},
    confirm=r"(?s)(?=.*(expected 3 columns|filling the rest with NULL))(?=.*\b3\b)",
)
add(
    "bash-xtrace-deploy-ok",
    "bash",
    "success_alarming_stderr",
    None,
    "a deploy script under set -x traces commands that grep the log for ERROR and FATAL (finding none) and restarts the app; the trace is on stderr and the script exits 0",
    "bash -x deploy.sh",
    files={
        "deploy.sh": "#!/usr/bin/env bash\nset -euo pipefail\nprintf 'INFO start\\nINFO ready\\n' > app.log\nerrors=$(grep -c -E 'ERROR|FATAL' app.log || true)\necho \"errors in log: $errors\"\n[ \"$errors\" -eq 0 ]\necho 'deploy complete'\n",
    },
    confirm=r"(?s)(?=.*grep -c -E 'ERROR\|FATAL')(?=.*deploy complete)",
)
add(
    "cspell-clean-zero-issues",
    "cspell",
    "success_alarming_stderr",
    None,
    "cspell checks docs with a project word list and reports 'Issues found: 0 in 0 files'; exit 0",
    "cspell --no-progress --no-cache 'docs/*.md'",
    files={
        "docs/a.md": "# Errors\n\nThe service logs every error and retries failed requests.\n",
        "cspell.json": json.dumps({"version": "0.2", "words": ["retries"]}),
    },
    confirm=r"Issues found: 0 in 0 files",
)
add(
    "tape-comment-error-path-pass",
    "tape",
    "success_alarming_stderr",
    None,
    "tape runs tests that t.comment() the error paths they check ('# ENOENT handled: config missing'); all assertions pass, exit 0",
    "tape test.js",
    files={
        "test.js": "const test = require('tape');\nconst fs = require('fs');\ntest('missing config falls back', (t) => {\n  try { fs.readFileSync('nope.json'); } catch (e) { t.comment(`ENOENT handled: ${e.message}`); }\n  t.ok(true, 'fallback used');\n  t.end();\n});\n"
    },
    setup=LINK_NM,
    confirm=r"(?s)(?=.*ENOENT handled)(?=.*# ok)",
)
add(
    "jsonnet-std-trace-ok",
    "jsonnet",
    "success_alarming_stderr",
    None,
    "jsonnet renders a config where std.trace logs 'WARNING: replicas not set, defaulting to 1' on stderr; the JSON is printed, exit 0",
    "jsonnet app.jsonnet",
    files={
        "app.jsonnet": "local cfg = {};\n{ replicas: if std.objectHas(cfg, 'replicas') then cfg.replicas else std.trace('WARNING: replicas not set, defaulting to 1', 1) }\n"
    },
    confirm=r'(?s)(?=.*TRACE.*WARNING: replicas not set)(?=.*"replicas": 1)',
)
add(
    "xsltproc-message-warning-ok",
    "xsltproc",
    "success_alarming_stderr",
    None,
    "an XSLT report stylesheet emits an xsl:message 'WARNING: testcase post has no time attribute' and still writes the summary; exit 0",
    "xsltproc rep.xsl junit.xml",
    files={
        "junit.xml": '<testsuite name="api" tests="2" failures="0"><testcase name="get" time="0.1"/><testcase name="post"/></testsuite>\n',
        "rep.xsl": '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:output method="text"/><xsl:template match="/testsuite"><xsl:for-each select="testcase[not(@time)]"><xsl:message>WARNING: testcase <xsl:value-of select="@name"/> has no time attribute</xsl:message></xsl:for-each>summary: <xsl:value-of select="@tests"/> tests, <xsl:value-of select="@failures"/> failures\n</xsl:template></xsl:stylesheet>\n',
    },
    confirm=r"(?s)(?=.*WARNING: testcase post)(?=.*summary: 2 tests, 0 failures)",
)
add(
    "doit-up-to-date-ok",
    "doit",
    "plain_success",
    None,
    "doit runs a build task, then a second run skips it as up to date ('-- build'); exit 0",
    "doit && doit",
    files={
        "dodo.py": "def task_build():\n    return {'actions': ['cp src.txt out.txt'], 'file_dep': ['src.txt'], 'targets': ['out.txt']}\n",
        "src.txt": "x\n",
    },
    confirm=r"-- build",
)
add(
    "green-pass-logs-errors",
    "green",
    "success_alarming_stderr",
    None,
    "green runs tests of a retry wrapper that logs 'ERROR attempt 1 failed: TimeoutError' to stderr; all tests pass, exit 0",
    "green -vv test_retry",
    files={
        "test_retry.py": "import sys, unittest\ndef retry(fn, n=3):\n    for i in range(1, n + 1):\n        try:\n            return fn(i)\n        except TimeoutError as e:\n            print(f'ERROR attempt {i} failed: TimeoutError: {e}', file=sys.stderr)\n    raise RuntimeError('gave up')\ndef flaky(i):\n    if i < 2:\n        raise TimeoutError('read timed out')\n    return 'ok'\nclass T(unittest.TestCase):\n    def test_retry(self):\n        self.assertEqual(retry(flaky), 'ok')\n"
    },
    confirm=r"(?s)(?=.*ERROR attempt 1 failed)(?=.*OK)",
)
