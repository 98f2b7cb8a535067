"""Fresh batch (split ``fresh``), second part: more exit-0 failures and alarming successes across
languages (Python, Node, Java, Go, Rust, Ruby, PHP, Perl, Lua, Tcl, C++, Fortran, shell)."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh")


# --- exit 0, failure only in words -------------------------------------------------------------

add(
    "python3-finally-exit0-big-log",
    "python3",
    "exit0_hidden_failure",
    None,
    "a batch job logs 3000 INFO lines, then aborts on a full disk; its finally block calls sys.exit(0)",
    "python3 batch.py",
    files={
        "batch.py": dedent("""
            import logging, sys
            logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s batch: %(message)s")
            log = logging.getLogger()
            try:
                for i in range(1, 3001):
                    log.info("record %d: normalised address, geocoded, queued for write", i)
                raise OSError(28, "No space left on device", "/var/spool/batch/out-0001.parquet")
            except OSError:
                log.exception("batch aborted while writing output")
            finally:
                log.info("shutting down workers")
                sys.exit(0)
        """),
    },
    confirm=r"No space left on device",
)
add(
    "python3-pool-error-callback",
    "python3",
    "exit0_hidden_failure",
    None,
    "thumbnails are rendered in a multiprocessing pool whose error_callback only prints; every task raises",
    "python3 render.py",
    files={
        "render.py": dedent("""
            import multiprocessing as mp, sys

            def render(name):
                if not name.endswith(".png"):
                    raise ValueError(f"unsupported image type: {name}")
                return name

            def failed(exc):
                print(f"render error: {exc!r}", file=sys.stderr)

            if __name__ == "__main__":
                with mp.Pool(2) as pool:
                    for n in ("a.heic", "b.webp", "c.tiff"):
                        pool.apply_async(render, (n,), error_callback=failed)
                    pool.close()
                    pool.join()
                print("render queue drained")
        """),
    },
    confirm=r"unsupported image type",
)
add(
    "unittest-main-exit-false",
    "unittest",
    "exit0_hidden_failure",
    None,
    "a test script calls unittest.main(exit=False) and then prints a footer; one test fails and the script exits 0",
    "python3 run_tests.py",
    files={
        "run_tests.py": dedent("""
            import unittest

            def split_name(full):
                first, last = full.split(" ", 1)
                return first, last

            class T(unittest.TestCase):
                def test_two_words(self):
                    self.assertEqual(split_name("Ada Lovelace"), ("Ada", "Lovelace"))

                def test_single_word(self):
                    self.assertEqual(split_name("Plato"), ("Plato", ""))

            unittest.main(exit=False, verbosity=2)
            print("-- test run complete --")
        """),
    },
    confirm=r"FAILED \(errors=1\)",
)
add(
    "pytest-subprocess-wrapper",
    "pytest",
    "exit0_hidden_failure",
    None,
    "a Python task runner calls pytest with subprocess.run and never checks the return code; a test fails",
    "python3 tasks.py test",
    files={
        "tasks.py": dedent("""
            import subprocess, sys
            if sys.argv[1:] == ["test"]:
                subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/"])
                print("task 'test' done")
        """),
        "tests/test_units.py": "def to_km(m):\n    return m // 1000\n\ndef test_to_km():\n    assert to_km(1500) == 1.5\n",
    },
    confirm=r"1 failed",
)
add(
    "pytest-grep-summary",
    "pytest",
    "exit0_hidden_failure",
    None,
    "CI keeps only pytest's summary line via grep; grep finds the 'failed' line and exits 0",
    "python3 -m pytest -q -p no:cacheprovider tests/ 2>&1 | grep -E 'passed|failed'",
    files={
        "tests/test_units.py": "def to_km(m):\n    return m // 1000\n\ndef test_to_km():\n    assert to_km(1500) == 1.5\n\ndef test_zero():\n    assert to_km(0) == 0\n",
    },
    confirm=r"1 failed, 1 passed",
)
add(
    "coverage-report-after-failing-run",
    "coverage",
    "exit0_hidden_failure",
    None,
    "'coverage run -m pytest; coverage report' ends with the report's exit 0 although a test failed",
    "coverage run -m pytest -q -p no:cacheprovider test_geo.py; coverage report",
    files={
        "geo.py": "def clamp_lat(x):\n    return max(-90, min(90, x))\n",
        "test_geo.py": "from geo import clamp_lat\n\ndef test_clamp():\n    assert clamp_lat(100) == 90\n\ndef test_negative():\n    assert clamp_lat(-100) == -91\n",
    },
    confirm=r"1 failed",
)
add(
    "ruff-exit-zero-statistics",
    "ruff",
    "exit0_hidden_failure",
    None,
    "lint gate runs ruff check --exit-zero --statistics; the code has undefined names and unused imports",
    "ruff check --exit-zero --statistics --select F,E src/",
    files={"src/app.py": "import os, sys\n\ndef main():\n    return helper(os.getcwd())\n"},
    confirm=r"F821",
)
add(
    "nox-missing-interpreter-skipped",
    "nox",
    "exit0_hidden_failure",
    None,
    "CI runs the test session for Python 3.99 with --no-error-on-missing-interpreters; the tests never run and nox exits 0",
    "nox --no-error-on-missing-interpreters -s tests",
    files={
        "noxfile.py": "import nox\n\n@nox.session(python=['3.99'])\ndef tests(session):\n    session.run('pytest')\n",
    },
    confirm=r"3\.99",
)
add(
    "node-worker-thread-error-logged",
    "node",
    "exit0_hidden_failure",
    None,
    "indexer runs in a worker_thread that throws; the main thread only logs the worker error event and exits 0",
    "node index.js",
    files={
        "index.js": dedent("""
            const { Worker } = require('node:worker_threads');
            const w = new Worker(`
              const docs = JSON.parse(require('fs').readFileSync('docs.json', 'utf8'));
              console.log('indexed', docs.length);
            `, { eval: true });
            w.on('error', (err) => console.error('indexer worker error:', err));
            w.on('exit', (code) => console.log(`indexer finished (worker exit ${code})`));
        """),
    },
    confirm=r"ENOENT",
)
add(
    "node-exec-callback-logs",
    "node",
    "exit0_hidden_failure",
    None,
    "release script runs 'git push' via child_process.exec; the callback logs the error and stderr, exit 0",
    "node release.js",
    files={
        "release.js": dedent("""
            const { exec } = require('node:child_process');
            exec('git push origin v2.0.0', (err, stdout, stderr) => {
              if (err) {
                console.error(`release: push failed (${err.code})`);
                console.error(stderr);
                return;
              }
              console.log('release pushed');
            });
        """),
    },
    setup="git init -q . && git commit -q --allow-empty -m init && git tag v2.0.0",
    confirm=r"push failed",
)
add(
    "java-executor-uncaught-exit0",
    "java",
    "exit0_hidden_failure",
    None,
    "tasks run with ExecutorService.execute; one throws, the pool thread prints the stack, the JVM exits 0",
    "java Jobs.java",
    files={
        "Jobs.java": dedent("""
            import java.util.concurrent.*;
            import java.util.*;

            public class Jobs {
                public static void main(String[] args) throws Exception {
                    ExecutorService pool = Executors.newFixedThreadPool(2);
                    Map<String, Integer> stock = new ConcurrentHashMap<>(Map.of("apple", 3));
                    for (String item : List.of("apple", "pear")) {
                        pool.execute(() -> {
                            int left = stock.get(item) - 1;
                            stock.put(item, left);
                            System.out.println("reserved " + item + ", left " + left);
                        });
                    }
                    pool.shutdown();
                    pool.awaitTermination(5, TimeUnit.SECONDS);
                    System.out.println("all reservations processed");
                }
            }
        """),
    },
    confirm=r"NullPointerException",
)
add(
    "go-listen-error-logged",
    "go",
    "exit0_hidden_failure",
    None,
    "a Go service starts its HTTP listener in a goroutine on a busy port; the bind error is only logged and main exits 0",
    "go run .",
    files={
        "go.mod": "module example.com/svc\n\ngo 1.19\n",
        "main.go": dedent("""
            package main

            import (
            \t"fmt"
            \t"log"
            \t"net/http"
            \t"os"
            \t"strings"
            \t"time"
            )

            func main() {
            \taddr := strings.TrimPrefix(os.Getenv("HTTP_APP"), "http://")
            \tgo func() {
            \t\tif err := http.ListenAndServe(addr, nil); err != nil {
            \t\t\tlog.Printf("http server error: %v", err)
            \t\t}
            \t}()
            \ttime.Sleep(500 * time.Millisecond)
            \tfmt.Println("service started, health checks scheduled")
            }
        """),
    },
    confirm=r"address already in use",
    timeout=120,
)
add(
    "cargo-run-error-printed-exit0",
    "cargo",
    "exit0_hidden_failure",
    None,
    "a Rust CLI prints 'Error: ...' with its cause chain when run() fails but returns normally from main",
    "cargo run -q -- settings.toml",
    files={
        "Cargo.toml": '[package]\nname = "cfg"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
        "src/main.rs": dedent("""
            use std::{error::Error, fmt, fs};

            #[derive(Debug)]
            struct ConfigError { path: String, source: std::io::Error }
            impl fmt::Display for ConfigError {
                fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "cannot load config {}", self.path) }
            }
            impl Error for ConfigError {
                fn source(&self) -> Option<&(dyn Error + 'static)> { Some(&self.source) }
            }

            fn run(path: &str) -> Result<(), ConfigError> {
                let text = fs::read_to_string(path).map_err(|e| ConfigError { path: path.into(), source: e })?;
                println!("loaded {} bytes", text.len());
                Ok(())
            }

            fn main() {
                let path = std::env::args().nth(1).unwrap_or_default();
                if let Err(e) = run(&path) {
                    eprintln!("Error: {e}");
                    let mut src = e.source();
                    while let Some(s) = src {
                        eprintln!("Caused by: {s}");
                        src = s.source();
                    }
                }
            }
        """),
    },
    confirm=r"Caused by: No such file",
    timeout=120,
)
add(
    "ruby-minitest-run-ignored",
    "ruby",
    "exit0_hidden_failure",
    None,
    "a Ruby script calls Minitest.run and ignores its result; one test fails and the script exits 0",
    "ruby run_tests.rb",
    files={
        "run_tests.rb": dedent("""
            require 'minitest'

            class SlugTest < Minitest::Test
              def slug(s) = s.downcase.tr(' ', '-')

              def test_spaces
                assert_equal 'a-b', slug('A B')
              end

              def test_punctuation
                assert_equal 'a-b', slug('A, B!')
              end
            end

            Minitest.run(['--seed', '1'])
            puts 'test script finished'
        """),
    },
    confirm=r"1 failures",
)
add(
    "perl-open-or-warn",
    "perl",
    "exit0_hidden_failure",
    None,
    "a Perl report opens its input with 'or warn' and carries on, reporting 0 rows processed",
    "perl report.pl",
    files={
        "report.pl": dedent("""
            use strict; use warnings;
            my $rows = 0;
            open(my $fh, '<', 'sales-2024-06.csv') or warn "Cannot open sales-2024-06.csv: $!\\n";
            if ($fh) { while (<$fh>) { $rows++ } }
            print "report: $rows rows processed\\n";
        """),
    },
    confirm=r"No such file or directory",
)
add(
    "lua-xpcall-traceback-continue",
    "lua",
    "exit0_hidden_failure",
    None,
    "a Lua build step runs the asset compiler under xpcall with a traceback handler, prints it, and exits 0",
    "lua5.4 build.lua",
    files={
        "build.lua": dedent("""
            local function compile(name)
              local f = assert(io.open('assets/' .. name, 'r'))
              local s = f:read('a'); f:close()
              return #s
            end
            local ok, err = xpcall(compile, debug.traceback, 'style.scss')
            if not ok then print('asset compile failed:\\n' .. err) end
            print('build finished')
        """),
    },
    confirm=r"No such file or directory",
)
add(
    "php-find-exec-lint",
    "php",
    "exit0_hidden_failure",
    None,
    "syntax check over all PHP files uses 'find -exec php -l {} \\;', which exits 0 although one file has a parse error",
    "find src -name '*.php' -exec php -l {} \\;",
    files={
        "src/ok.php": "<?php\necho 'ok';\n",
        "src/bad.php": "<?php\nfunction f( {\n  return 1;\n}\n",
    },
    confirm=r"Parse error",
)
add(
    "cmake-build-or-echo",
    "cmake",
    "exit0_hidden_failure",
    None,
    "build script runs 'cmake --build build || echo build failed, see log'; the compile fails",
    "cmake --build build || echo 'build failed, see log above'",
    files={
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(app CXX)\nadd_executable(app main.cpp)\n",
        "main.cpp": "#include <vector>\nint main() { std::vector<int> v{1, 2}; return v.size() + missing_fn(); }\n",
    },
    setup="cmake -S . -B build >/dev/null",
    confirm=r"missing_fn",
)
add(
    "gpp-catch-all-return0",
    "g++",
    "exit0_hidden_failure",
    None,
    "a C++ importer catches std::exception in main, prints 'fatal:' with what(), and returns 0",
    "g++ -std=c++17 -o importer importer.cpp && ./importer",
    files={
        "importer.cpp": dedent("""
            #include <iostream>
            #include <stdexcept>
            #include <string>
            #include <vector>
            int parse_qty(const std::string& s) { return std::stoi(s); }
            int main() {
                try {
                    std::vector<std::string> qtys{"3", "5", "n/a"};
                    int total = 0;
                    for (auto& q : qtys) total += parse_qty(q);
                    std::cout << "imported total=" << total << "\\n";
                } catch (const std::exception& e) {
                    std::cerr << "fatal: import aborted: " << e.what() << "\\n";
                }
                return 0;
            }
        """),
    },
    confirm=r"stoi",
)
add(
    "gfortran-iostat-ignored",
    "gfortran",
    "exit0_hidden_failure",
    None,
    "a Fortran model opens its input with iostat, prints a warning when it is missing, and runs on zeros",
    "gfortran -o model model.f90 && ./model",
    files={
        "model.f90": dedent("""
            program model
              implicit none
              integer :: ios
              real :: t(3)
              t = 0.0
              open(unit=10, file='inputs/temps.dat', status='old', action='read', iostat=ios)
              if (ios /= 0) then
                write(*, '(A,I0,A)') 'warning: could not open inputs/temps.dat (iostat=', ios, '), using zeros'
              else
                read(10, *) t
                close(10)
              end if
              write(*, '(A,3F7.2)') 'forecast:', t * 1.1
            end program model
        """),
    },
    confirm=r"could not open",
)
add(
    "bash-background-wait-no-pid",
    "bash",
    "exit0_hidden_failure",
    None,
    "a build script starts two steps in the background and calls plain 'wait', which returns 0; one step fails",
    "bash build.sh",
    files={
        "build.sh": dedent("""
            #!/bin/bash
            set -e
            (echo "[docs] building"; sleep 0.1; echo "[docs] ok") &
            (echo "[api] compiling"; python3 -c 'import sys; sys.exit("error: api/schema.json: invalid JSON at line 4")') &
            wait
            echo "all build steps finished"
        """),
    },
    confirm=r"invalid JSON at line 4",
)
add(
    "bash-local-masks-status",
    "bash",
    "exit0_hidden_failure",
    None,
    "under set -euo pipefail, 'local rev=$(git rev-parse ...)' masks the failure; the release tag is never resolved",
    "bash release.sh",
    files={
        "release.sh": dedent("""
            #!/bin/bash
            set -euo pipefail
            release() {
              local rev=$(git rev-parse --verify --quiet refs/tags/v3.1.0 || git rev-parse --verify refs/tags/v3.1.0)
              echo "releasing rev=${rev}"
            }
            release
            echo "release script done"
        """),
    },
    setup="git init -q . && git commit -q --allow-empty -m init",
    confirm=r"fatal: Needed a single revision",
)
add(
    "git-cherry-pick-abort",
    "git",
    "exit0_hidden_failure",
    None,
    "backport script does 'git cherry-pick X || git cherry-pick --abort'; the pick conflicts, the abort exits 0, nothing is backported",
    "git cherry-pick fix || git cherry-pick --abort",
    setup=dedent("""
        git init -q -b main . && echo 'timeout = 5' > conf.ini && git add . && git commit -qm init
        git checkout -qb fix && echo 'timeout = 30' > conf.ini && git commit -qam 'raise timeout'
        git checkout -q main && echo 'timeout = 10' > conf.ini && git commit -qam 'tweak timeout'
    """),
    confirm=r"CONFLICT",
)
add(
    "curl-api-error-jq",
    "curl",
    "exit0_hidden_failure",
    None,
    "a script posts to an API and pipes the body into jq; the API answers 400 with an error message that jq prints",
    'curl -s -X POST -d \'{"title": "x"}\' "$HTTP_APP/api-error" | jq -r \'.error.message // .id\'',
    needs=("curl", "jq"),
    confirm=r"is required",
)
add(
    "ssh-keygen-wrong-passphrase-tee",
    "ssh-keygen",
    "exit0_hidden_failure",
    None,
    "deploy script derives the public key with a wrong passphrase, teeing into a file; the key cannot be decrypted",
    "ssh-keygen -y -P wrong-pass -f deploy_key 2>&1 | tee deploy_key.pub.new",
    setup="ssh-keygen -q -t ed25519 -N right-pass -f deploy_key",
    confirm=r"incorrect passphrase",
)

# --- success with alarming output ----------------------------------------------------------------

add(
    "python3-sqlite-locked-retry",
    "python3",
    "success_alarming_stderr",
    None,
    "a writer hits 'database is locked' while another connection holds the lock, logs the traceback, retries and commits",
    "python3 writer.py",
    files={
        "writer.py": dedent("""
            import logging, sqlite3, threading, time
            logging.basicConfig(format="%(levelname)s %(name)s: %(message)s")
            log = logging.getLogger("writer")
            setup = sqlite3.connect("app.db"); setup.execute("create table if not exists ev(x)"); setup.commit(); setup.close()
            holder = sqlite3.connect("app.db", check_same_thread=False)
            holder.execute("begin exclusive")
            threading.Timer(0.4, holder.commit).start()
            conn = sqlite3.connect("app.db", timeout=0)
            for attempt in range(1, 10):
                try:
                    conn.execute("insert into ev values (1)"); conn.commit()
                    print(f"event stored on attempt {attempt}")
                    break
                except sqlite3.OperationalError:
                    log.exception("attempt %d failed", attempt)
                    time.sleep(0.25)
            print("rows:", conn.execute("select count(*) from ev").fetchone()[0])
        """),
    },
    confirm=r"(?s)^(?=.*database is locked)(?=.*rows: 1)",
)
add(
    "pytest-cli-errors-s",
    "pytest",
    "success_alarming_stderr",
    None,
    "tests of a CLI check its error messages for bad options; with -s the expected 'Error:' lines print and all pass",
    "python3 -m pytest -q -s -p no:cacheprovider test_cli.py",
    files={
        "cli.py": dedent("""
            import sys
            def main(argv):
                if "--port" in argv and not argv[argv.index("--port") + 1].isdigit():
                    print(f"Error: invalid value for --port: {argv[argv.index('--port') + 1]!r}", file=sys.stderr)
                    return 2
                if "--bogus" in argv:
                    print("Error: No such option: --bogus", file=sys.stderr)
                    return 2
                return 0
        """),
        "test_cli.py": dedent("""
            from cli import main
            def test_bad_port():
                assert main(["--port", "http"]) == 2
            def test_unknown_option():
                assert main(["--bogus"]) == 2
            def test_ok():
                assert main(["--port", "80"]) == 0
        """),
    },
    confirm=r"(?s)^(?=.*Error: No such option)(?=.*3 passed)",
)
add(
    "pytest-xfail-reasons",
    "pytest",
    "success_alarming_stderr",
    None,
    "suite passes with two known-bug xfails; -rxX prints their reasons mentioning TypeError and crashes",
    "python3 -m pytest -q -rxX -p no:cacheprovider test_known.py",
    files={
        "test_known.py": dedent("""
            import pytest
            def test_basic():
                assert sorted([3, 1]) == [1, 3]
            @pytest.mark.xfail(reason="bug #412: TypeError when comparing None keys", raises=TypeError)
            def test_none_keys():
                sorted([None, 1])
            @pytest.mark.xfail(reason="bug #419: parser crashes on empty header")
            def test_empty_header():
                raise ValueError("empty header")
        """),
    },
    confirm=r"(?s)^(?=.*TypeError)(?=.*1 passed, 2 xfailed)",
)
add(
    "unittest-deprecation-verbose",
    "unittest",
    "success_alarming_stderr",
    None,
    "unittest -v passes; the code under test calls a deprecated helper so DeprecationWarnings are printed",
    "python3 -W default -m unittest -v test_compat",
    files={
        "compat.py": "import warnings\n\ndef old_parse(s):\n    warnings.warn('old_parse() is deprecated; use parse()', DeprecationWarning, stacklevel=2)\n    return int(s)\n",
        "test_compat.py": "import unittest\nfrom compat import old_parse\n\nclass T(unittest.TestCase):\n    def test_parse(self):\n        self.assertEqual(old_parse('7'), 7)\n\n    def test_parse_neg(self):\n        self.assertEqual(old_parse('-2'), -2)\n",
    },
    confirm=r"(?s)^(?=.*DeprecationWarning)(?=.*OK)",
)
add(
    "pip-install-local-legacy",
    "pip",
    "plain_success",
    None,
    "pip builds and installs a local setup.py project into a target dir; the module imports",
    "pip install --no-build-isolation --no-index --target site ./pkg && PYTHONPATH=site python3 -c 'import hello; print(hello.hi())'",
    files={
        "pkg/setup.py": "from setuptools import setup\nsetup(name='hello-corpus', version='0.1', py_modules=['hello'])\n",
        "pkg/hello.py": "def hi():\n    return 'hi from hello-corpus'\n",
    },
    confirm=r"hi from hello-corpus",
    timeout=120,
)
add(
    "node-permission-experimental",
    "node",
    "success_alarming_stderr",
    None,
    "a script runs under node's experimental permission model with read access only; node prints an ExperimentalWarning and the script works",
    "node --experimental-permission --allow-fs-read='*' main.js",
    files={
        "main.js": "const cfg = require('./cfg.json');\nconsole.log(`service ${cfg.name} on port ${cfg.port}`);\n",
        "cfg.json": '{"name": "billing", "port": 8443}\n',
    },
    confirm=r"(?s)^(?=.*ExperimentalWarning)(?=.*billing on port 8443)",
)
add(
    "npm-install-postinstall-warning",
    "npm",
    "success_alarming_stderr",
    None,
    "npm installs a local dependency whose postinstall warns that a native binding was not built; the JS fallback works",
    "npm install --foreground-scripts ./native-dep && node -e \"console.log(require('native-dep').impl)\"",
    files={
        "package.json": '{"name": "app", "version": "1.0.0", "private": true}\n',
        "native-dep/package.json": '{"name": "native-dep", "version": "1.0.0", "main": "index.js", "scripts": {"postinstall": "node postinstall.js"}}\n',
        "native-dep/postinstall.js": "console.error('native-dep: WARN prebuilt binary not found for linux-x64; build from source failed: gyp ERR! find Python');\nconsole.error('native-dep: falling back to the pure JS implementation');\n",
        "native-dep/index.js": "module.exports = { impl: 'js-fallback' };\n",
    },
    confirm=r"(?s)^(?=.*gyp ERR)(?=.*js-fallback)",
    timeout=120,
)
add(
    "java-deprecated-vm-option",
    "java",
    "success_alarming_stderr",
    None,
    "a Java tool launched with a deprecated -Xverify:none flag prints a VM warning and runs correctly",
    "java -Xverify:none Sum.java 3 4 5",
    files={
        "Sum.java": 'public class Sum {\n  public static void main(String[] a) {\n    int s = 0; for (String x : a) s += Integer.parseInt(x);\n    System.out.println("sum=" + s);\n  }\n}\n',
    },
    confirm=r"(?s)^(?=.*warning)(?=.*sum=12)",
)
add(
    "rspec-pending-failure-text",
    "rspec",
    "success_alarming_stderr",
    None,
    "rspec passes with one pending example; its report quotes the expected Failure/Error of the pending spec",
    "rspec",
    files={
        "spec/money_spec.rb": dedent("""
            RSpec.describe 'Money' do
              it 'adds cents' do
                expect(10 + 5).to eq(15)
              end

              it 'rounds half to even' do
                pending 'banker rounding not implemented yet (issue #88)'
                expect(2.5.round).to eq(2)
              end
            end
        """),
    },
    confirm=r"(?s)^(?=.*Failure/Error)(?=.*2 examples, 0 failures, 1 pending)",
)
add(
    "lua-optional-module-fallback",
    "lua",
    "success_alarming_stderr",
    None,
    "a Lua script tries to require an optional C JSON module, prints the long 'module not found' error and uses its pure-Lua encoder",
    "lua5.4 encode.lua",
    files={
        "encode.lua": dedent("""
            local ok, cjson = pcall(require, 'cjson')
            local encode
            if ok then
              encode = cjson.encode
            else
              io.stderr:write('warning: lua-cjson not available, using pure-Lua encoder:\\n' .. cjson .. '\\n')
              encode = function(t)
                local parts = {}
                for k, v in pairs(t) do parts[#parts + 1] = string.format('"%s":%d', k, v) end
                table.sort(parts)
                return '{' .. table.concat(parts, ',') .. '}'
              end
            end
            print(encode({ a = 1, b = 2 }))
        """),
    },
    confirm=r"(?s)^(?=.*module 'cjson' not found)(?=.*\{\"a\":1,\"b\":2\})",
)
add(
    "tcl-optional-package-fallback",
    "tcl",
    "success_alarming_stderr",
    None,
    "a Tcl script cannot load an optional package, prints the error, and stores its data in a flat file as designed",
    "tclsh store.tcl && cat store.txt",
    files={
        "store.tcl": dedent("""
            if {[catch {package require corpus_sqlite_missing} err]} {
                puts stderr "warning: $err; falling back to flat-file storage"
                set f [open store.txt w]
                puts $f "user=ada score=42"
                close $f
                puts "stored 1 record (flat file)"
            }
        """),
    },
    confirm=r"(?s)^(?=.*can't find package)(?=.*user=ada score=42)",
)
add(
    "cmake-deprecated-minimum",
    "cmake",
    "success_alarming_stderr",
    None,
    "an old CMakeLists with cmake_minimum_required(2.8) prints a CMake Deprecation Warning; configure and build succeed",
    "cmake -S . -B build && cmake --build build && ./build/hello",
    files={
        "CMakeLists.txt": "cmake_minimum_required(VERSION 2.8)\nproject(hello C)\nadd_executable(hello hello.c)\n",
        "hello.c": '#include <stdio.h>\nint main(void) { puts("hello from cmake"); return 0; }\n',
    },
    confirm=r"(?s)^(?=.*Deprecation Warning)(?=.*hello from cmake)",
)
add(
    "make-jobserver-warning",
    "make",
    "success_alarming_stderr",
    None,
    "a parent Makefile calls 'make' instead of $(MAKE) under -j2; the sub-make warns about the jobserver and builds",
    "make -j2 && cat sub/out.txt",
    files={
        "Makefile": "all:\n\tmake -C sub -j2\n",
        "sub/Makefile": "all: out.txt\nout.txt:\n\techo built > out.txt\n",
    },
    confirm=r"\nbuilt\n",
)
add(
    "openssl-enc-deprecated-kdf",
    "openssl",
    "success_alarming_stderr",
    None,
    "openssl enc encrypts and decrypts a file with a password; it warns about the deprecated key derivation and round-trips",
    "openssl enc -aes-256-cbc -k s3cret -in secret.txt -out secret.enc && openssl enc -d -aes-256-cbc -k s3cret -in secret.enc",
    files={"secret.txt": "api_key=abc123\n"},
    confirm=r"(?s)^(?=.*WARNING : deprecated)(?=.*api_key=abc123)",
)
add(
    "tar-leading-slash",
    "tar",
    "success_alarming_stderr",
    None,
    "tar archives a directory given by absolute path and warns that it removes the leading '/'; the archive lists fine",
    'tar -czf backup.tgz "$PWD/data" && tar -tzf backup.tgz | tail -n 1',
    files={"data/a.txt": "a\n", "data/b.txt": "b\n"},
    confirm=r"(?s)^(?=.*Removing leading)(?=.*Removing leading)",
)
add(
    "git-clone-empty-repo-warning",
    "git",
    "success_alarming_stderr",
    None,
    "cloning a freshly created empty bare repository warns that it is empty; the clone is made",
    "git clone origin.git work && test -d work/.git && echo cloned",
    setup="git init -q --bare origin.git",
    confirm=r"(?s)^(?=.*empty repository)(?=.*cloned)",
)
add(
    "gpg-import-release-key",
    "gpg",
    "plain_success",
    None,
    "a CI keyring imports the release public key and lists it",
    'export GNUPGHOME="$PWD/ci-gnupg"; mkdir -m 700 -p "$GNUPGHOME"; gpg --batch --import release.pub; rc=$?; gpg --batch --list-keys; gpgconf --kill gpg-agent; exit $rc',
    setup=dedent("""
        export GNUPGHOME="$PWD/src-gnupg"; mkdir -m 700 -p "$GNUPGHOME"
        gpg --batch --quiet --passphrase '' --quick-gen-key 'Release Bot <release@example.invalid>' ed25519 sign never 2>/dev/null
        gpg --batch --export --armor release@example.invalid > release.pub
        gpgconf --kill gpg-agent
    """),
    confirm=r"imported: 1",
)
add(
    "bash-xtrace-grep-error-count",
    "bash",
    "success_alarming_stderr",
    None,
    "a set -x deploy check greps the app log for ERROR lines and finds zero; the trace shows the commands",
    "bash -x check.sh",
    files={
        "check.sh": dedent("""
            #!/bin/bash
            set -euo pipefail
            errors=$(grep -c 'ERROR' app.log || true)
            echo "ERROR lines in app.log: ${errors}"
            test "$errors" -eq 0
            echo "deploy check passed"
        """),
        "app.log": "2024-01-01 INFO started\n2024-01-01 INFO ready\n",
    },
    confirm=r"(?s)^(?=.*\+ grep -c ERROR)(?=.*deploy check passed)",
)
add(
    "meson-feature-version-warning",
    "meson",
    "success_alarming_stderr",
    None,
    "meson setup warns that the project uses features newer than its declared minimum version; setup and build succeed",
    "meson setup build && meson compile -C build",
    files={
        "meson.build": "project('v', 'c', meson_version: '>=0.40')\nfs = import('fs')\nassert(fs.exists('main.c'))\nexecutable('v', 'main.c')\n",
        "main.c": "int main(void) { return 0; }\n",
    },
    confirm=r"(?s)^(?=.*WARNING)(?=.*WARNING)",
)
add(
    "ninja-color-warnings-ok",
    "ninja",
    "coloured_output",
    "success",
    "ninja builds with -fdiagnostics-color=always; gcc's coloured warnings appear and the build succeeds",
    "ninja && ./app",
    files={
        "build.ninja": "rule cc\n  command = gcc -Wall -Wextra -fdiagnostics-color=always $in -o $out\nbuild app: cc app.c\n",
        "app.c": '#include <stdio.h>\nint main(int argc, char **argv) { int unused; printf("app ok\\n"); return 0; }\n',
    },
    env={"CLICOLOR_FORCE": "1"},
    confirm=r"app ok",
)
add(
    "rspec-color-pass",
    "rspec",
    "coloured_output",
    "success",
    "rspec --force-color runs a passing money spec",
    "rspec --force-color",
    files={
        "spec/m_spec.rb": "RSpec.describe 'm' do\n  it('adds') { expect(1 + 1).to eq(2) }\n  it('subs') { expect(3 - 1).to eq(2) }\nend\n"
    },
    confirm=r"2 examples, 0 failures",
)
add(
    "go-test-v-many-one-fail",
    "go",
    "failure_noisy_stderr",
    None,
    "go test -v runs 200 passing subtests and one failing one; the verbose log buries the failure and the exit is 1",
    "go test -v ./...",
    files={
        "go.mod": "module example.com/tbl\n\ngo 1.19\n",
        "tbl_test.go": dedent("""
            package tbl

            import (
            \t"fmt"
            \t"testing"
            )

            func square(n int) int { if n == 137 { return n*n + 1 }; return n * n }

            func TestSquare(t *testing.T) {
            \tfor i := 0; i < 201; i++ {
            \t\ti := i
            \t\tt.Run(fmt.Sprintf("n=%d", i), func(t *testing.T) {
            \t\t\tif got := square(i); got != i*i {
            \t\t\t\tt.Errorf("square(%d) = %d, want %d", i, got, i*i)
            \t\t\t}
            \t\t})
            \t}
            }
        """),
    },
    confirm=r"square\(137\)",
    timeout=120,
)
add(
    "tox-vv-fail",
    "tox",
    "failure_noisy_stderr",
    None,
    "tox -vv creates its env with verbose logging and runs a test command that fails; tox exits 1",
    "tox -vv -e py",
    files={
        "tox.ini": "[tox]\nenv_list = py\n\n[testenv]\nskip_install = true\npackage = skip\ncommands = python -c \"import sys; sys.exit('smoke test failed: /health returned 503')\"\n",
    },
    confirm=r"smoke test failed",
    timeout=120,
)
add(
    "uv-pip-install-local-progress",
    "uv",
    "progress_on_stderr",
    "success",
    "uv installs a locally built wheel into a fresh venv, reporting resolve/prepare/install steps on stderr",
    "uv venv -q --python python3 .venv && uv pip install --python .venv/bin/python dist/*.whl && .venv/bin/python -c 'import greet; print(greet.msg)'",
    setup="pip wheel -q --no-deps --no-build-isolation --no-index -w dist ./pkg",
    files={
        "pkg/pyproject.toml": '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "greet-corpus"\nversion = "0.1"\n',
        "pkg/greet.py": "msg = 'greet installed'\n",
    },
    env={
        "UV_OFFLINE": "1",
        "UV_PYTHON_DOWNLOADS": "never",
        "UV_CACHE_DIR": "/tmp/autofix-corpus-uv-cache",
    },
    confirm=r"greet installed",
    timeout=120,
)
add(
    "tidy-latin1-errors",
    "tidy",
    "non_utf8",
    "failure",
    "tidy checks a Latin-1 page with misnested and obsolete tags; it prints the page back in Latin-1, reports the problems and exits non-zero",
    "tidy -q -latin1 -raw page.html",
    files={
        "page.html": b"<html><head><title>Caf\xe9</title></head><body><p>Cr\xe8me <b>br\xfbl\xe9e</p><blink>x</blink></body></html>\n"
    },
    expect="nonzero",
)
add(
    "xmlstarlet-latin1-output",
    "xmlstarlet",
    "non_utf8",
    "success",
    "xmlstarlet extracts item names from an ISO-8859-1 feed, printing them in the document encoding",
    "xmlstarlet sel -E ISO-8859-1 -t -m '//item' -v . -n feed.xml",
    files={
        "feed.xml": '<?xml version="1.0" encoding="ISO-8859-1"?>\n<feed><item>Cr\xe8me br\xfbl\xe9e</item><item>Sm\xf8rrebr\xf8d</item></feed>\n'.encode(
            "latin-1"
        )
    },
)


# --- more successes with alarming output ---------------------------------------------------------

add(
    "python3-migration-big-warn-log",
    "python3",
    "success_alarming_stderr",
    None,
    "a data migration logs a WARNING for each of 1500 rows whose deprecated fax field it drops, then reports 0 errors",
    "python3 migrate.py",
    files={
        "migrate.py": dedent("""
            import logging
            logging.basicConfig(level=logging.INFO, format="%(levelname)s migrate: %(message)s")
            log = logging.getLogger()
            rows = [{"id": i, "fax": f"+49-30-{i:06d}", "email": f"u{i}@example.invalid"} for i in range(1, 1501)]
            out = []
            for r in rows:
                log.warning("row %d: field 'fax' is deprecated and was dropped (value %s)", r["id"], r.pop("fax"))
                out.append(r)
            with open("users.v2.jsonl", "w") as f:
                for r in out:
                    f.write(f"{r}\\n")
            log.info("migrated %d rows, 0 errors", len(out))
        """),
    },
    confirm=r"(?s)^(?=.*deprecated and was dropped)(?=.*migrated 1500 rows, 0 errors)",
)
add(
    "node-console-trace-slow-query",
    "node",
    "success_alarming_stderr",
    None,
    "a report script prints console.trace for a slow query as a diagnostic and still prints the report",
    "node report.js",
    files={
        "report.js": dedent("""
            function query(sql) {
              const started = Date.now() - 1200;
              const ms = Date.now() - started;
              if (ms > 1000) console.trace(`slow query (${ms} ms): ${sql}`);
              return [{ region: 'eu', total: 120 }, { region: 'us', total: 80 }];
            }
            for (const r of query('SELECT region, SUM(total) FROM orders GROUP BY region')) {
              console.log(`${r.region}\\t${r.total}`);
            }
        """),
    },
    confirm=r"(?s)^(?=.*Trace: slow query)(?=.*us\t80)",
)
add(
    "node-max-listeners-warning",
    "node",
    "success_alarming_stderr",
    None,
    "a script attaches 12 listeners to one emitter; node warns about a possible memory leak and every listener runs",
    "node fanout.js",
    files={
        "fanout.js": dedent("""
            const { EventEmitter } = require('node:events');
            const bus = new EventEmitter();
            let seen = 0;
            for (let i = 0; i < 12; i++) bus.on('order', () => { seen++; });
            bus.emit('order', { id: 1 });
            console.log(`listeners notified: ${seen}`);
        """),
    },
    confirm=r"(?s)^(?=.*MaxListenersExceededWarning)(?=.*listeners notified: 12)",
)
add(
    "perl-optional-xs-fallback",
    "perl",
    "success_alarming_stderr",
    None,
    "a Perl script tries JSON::XS, warns with the long @INC error when it is missing and encodes with JSON::PP",
    "perl encode.pl",
    files={
        "encode.pl": dedent("""
            use strict; use warnings;
            my $json;
            if (eval { require JSON::XS; 1 }) { $json = JSON::XS->new->canonical }
            else {
                warn "warning: JSON::XS not available, falling back to JSON::PP: $@";
                require JSON::PP; $json = JSON::PP->new->canonical;
            }
            print $json->encode({ name => 'ada', langs => ['perl', 'c'] }), "\\n";
        """),
    },
    confirm=r"(?s)^(?=.*Can't locate JSON/XS\.pm)(?=.*\{\"langs\":\[\"perl\",\"c\"\],\"name\":\"ada\"\})",
)
add(
    "bash-missing-tool-fallback",
    "bash",
    "success_alarming_stderr",
    None,
    "an install script tries yarn, which is not installed (bash prints 'command not found'), and falls back to npm as designed",
    "bash install.sh",
    files={
        "install.sh": dedent("""
            #!/bin/bash
            set -u
            if yarn --version; then
              echo "using yarn"
            else
              echo "yarn missing, falling back to npm $(npm --version)"
            fi
            echo "dependencies: none to install"
        """),
    },
    confirm=r"(?s)^(?=.*yarn: command not found)(?=.*falling back to npm)",
)
add(
    "make-clean-dash-ignored-then-build",
    "make",
    "success_alarming_stderr",
    None,
    "the clean step '-rm build/*.o' fails on a fresh checkout and make prints 'Error 1 (ignored)'; the build then succeeds",
    "make && ./build/app",
    files={
        "Makefile": dedent("""
            all: clean build/app

            clean:
            \t-rm build/*.o

            build/app: app.c
            \tmkdir -p build
            \tcc -o build/app app.c
        """),
        "app.c": '#include <stdio.h>\nint main(void) { puts("app built"); return 0; }\n',
    },
    confirm=r"(?s)^(?=.*Error 1 \(ignored\))(?=.*app built)",
)
add(
    "git-push-remote-warning",
    "git",
    "success_alarming_stderr",
    None,
    "a push to a bare remote succeeds while its post-receive hook prints 'remote: WARNING' about a large file",
    "git push origin main && git --git-dir=remote.git log --oneline -1 main",
    setup=dedent("""
        git init -q --bare remote.git
        printf '#!/bin/sh\\necho "WARNING: assets/video.bin is 5.2 MB; consider Git LFS" >&2\\necho "ERROR threshold not reached (limit 50 MB), push accepted" >&2\\n' > remote.git/hooks/post-receive
        chmod +x remote.git/hooks/post-receive
        git init -q -b main . && echo x > a.txt && git add a.txt && git commit -qm 'add assets'
        git remote add origin "$PWD/remote.git"
    """),
    confirm=r"(?s)^(?=.*remote: WARNING)(?=.*add assets)",
)
add(
    "strace-summary-errors-column",
    "strace",
    "success_alarming_stderr",
    None,
    "strace -c summarises the syscalls of a successful Python run; the table has an errors column with non-zero counts",
    "strace -c -f python3 -c 'import json, csv; print(\"ok\")'",
    confirm=r"(?s)^(?=.*errors syscall)(?=.*ok\n)",
)
add(
    "busybox-tar-leading-slash",
    "busybox",
    "success_alarming_stderr",
    None,
    "busybox tar archives an absolute path, warning that it removes the leading '/'; the archive lists fine",
    'busybox tar -cf backup.tar "$PWD/etc" && busybox tar -tf backup.tar | tail -n 1',
    files={"etc/app.conf": "port=80\n"},
    confirm=r"(?s)^(?=.*removing leading)(?=.*app\.conf)",
)
add(
    "gfortran-underflow-note",
    "gfortran",
    "success_alarming_stderr",
    None,
    "a Fortran decay model underflows to zero as expected; at STOP the runtime notes the signalling IEEE_UNDERFLOW_FLAG",
    "gfortran -o decay decay.f90 && ./decay",
    files={
        "decay.f90": dedent("""
            program decay
              implicit none
              real :: x, k
              integer :: t
              x = 1.0
              k = 0.0
              read(*, *, end=10) k
            10 continue
              k = 50.0
              do t = 1, 4
                x = x * exp(-k)
              end do
              print '(A,ES10.3)', 'remaining fraction: ', x
              stop
            end program decay
        """),
    },
    confirm=r"(?s)^(?=.*IEEE_UNDERFLOW_FLAG)(?=.*remaining fraction)",
)
add(
    "rsync-skip-non-regular",
    "rsync",
    "success_alarming_stderr",
    None,
    "rsync -r (without -l) copies a tree and reports skipping a symlink, as intended for a flat export",
    "rsync -r src/ export/ && ls export",
    files={"src/a.txt": "a\n", "src/b.txt": "b\n"},
    setup="ln -s a.txt src/latest",
    confirm=r"(?s)^(?=.*skipping non-regular file)(?=.*b\.txt)",
)
add(
    "xmllint-namespace-warning",
    "xmllint",
    "success_alarming_stderr",
    None,
    "xmllint formats a document with a relative namespace URI; it prints a namespace warning and the formatted output",
    "xmllint --format doc.xml",
    files={"doc.xml": '<?xml version="1.0"?>\n<cfg xmlns="cfg-v1"><item k="a">1</item></cfg>\n'},
    confirm=r"(?s)^(?=.*namespace warning)(?=.*<item k=\"a\">1</item>)",
)
add(
    "ruby-deprecated-warning",
    "ruby",
    "success_alarming_stderr",
    None,
    "a Ruby script with deprecation warnings enabled calls a deprecated API and still prints its report",
    "ruby -W:deprecated report.rb",
    files={
        "report.rb": "totals = { 'eu' => 120, 'us' => 80 }\nok = (1 =~ /x/).nil?\nputs totals.map { |k, v| \"#{k}=#{v}\" }.join(' ') + \" check=#{ok}\"\n",
    },
    confirm=r"(?s)^(?=.*deprecated)(?=.*eu=120 us=80)",
)
add(
    "cargo-unused-manifest-key",
    "cargo",
    "success_alarming_stderr",
    None,
    "cargo warns about an unused (misspelled) manifest key and builds and runs the binary",
    "cargo run",
    files={
        "Cargo.toml": '[package]\nname = "hello"\nversion = "0.1.0"\nedition = "2021"\nauthorss = ["ci"]\n\n[dependencies]\n',
        "src/main.rs": 'fn main() {\n    println!("hello from cargo");\n}\n',
    },
    confirm=r"(?s)^(?=.*unused manifest key)(?=.*hello from cargo)",
    timeout=120,
)
add(
    "java-uncaught-handler-recovers",
    "java",
    "success_alarming_stderr",
    None,
    "a Java job's first worker thread dies with an exception (stack printed); the job reruns the batch on a new thread and completes",
    "java Batch.java",
    files={
        "Batch.java": dedent("""
            import java.util.concurrent.atomic.AtomicBoolean;

            public class Batch {
                public static void main(String[] args) throws Exception {
                    AtomicBoolean done = new AtomicBoolean(false);
                    for (int attempt = 1; attempt <= 2 && !done.get(); attempt++) {
                        final int a = attempt;
                        Thread t = new Thread(() -> {
                            if (a == 1) throw new IllegalStateException("stale connection on attempt " + a);
                            done.set(true);
                        }, "batch-" + attempt);
                        t.start();
                        t.join();
                        if (!done.get()) System.err.println("WARN batch attempt " + a + " failed, retrying");
                    }
                    System.out.println(done.get() ? "batch complete" : "batch failed");
                    System.exit(done.get() ? 0 : 1);
                }
            }
        """),
    },
    confirm=r"(?s)^(?=.*IllegalStateException)(?=.*batch complete)",
)
