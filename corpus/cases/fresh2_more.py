"""Second fresh batch (split ``fresh``, ids ``fresh2-*``): alarming successes (recovered retries
in several languages, fixers, clean analysers, warnings, verbose traces) and more hidden failures."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh2")


GOMOD = "module example.com/app\n\ngo 1.19\n"

# --- recovered retries against the local app's flaky route --------------------------------------

add(
    "python-urllib-retry-ok",
    "python3",
    "success_alarming_stderr",
    None,
    "a python sync client logs WARNING with 'HTTP Error 503' for two attempts, then the third succeeds",
    "python3 sync.py",
    files={
        "sync.py": dedent("""
            import logging, os, time, urllib.error, urllib.request
            logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
            log = logging.getLogger("sync")
            url = os.environ["HTTP_APP"] + "/flaky/f2-py/2"
            for attempt in range(1, 6):
                try:
                    body = urllib.request.urlopen(url, timeout=5).read().decode()
                    log.info("fetched: %s", body.strip())
                    break
                except urllib.error.HTTPError as e:
                    log.warning("attempt %d failed: %s, retrying", attempt, e)
                    time.sleep(0.1)
            else:
                raise SystemExit("giving up")
        """),
    },
    confirm=r"(?s)^(?=.*HTTP Error 503)(?=.*ok after 3 attempts)",
)
add(
    "perl-http-tiny-retry-ok",
    "perl",
    "success_alarming_stderr",
    None,
    "a perl fetcher warns about two 503 answers and succeeds on the third attempt",
    "perl fetch.pl",
    files={
        "fetch.pl": dedent("""
            use strict; use warnings; use HTTP::Tiny;
            my $url = "$ENV{HTTP_APP}/flaky/f2-perl/2";
            my $http = HTTP::Tiny->new(timeout => 5);
            for my $try (1 .. 5) {
                my $r = $http->get($url);
                if ($r->{success}) { print "fetched: $r->{content}"; exit 0 }
                warn "error: attempt $try got $r->{status} $r->{reason}, retrying\\n";
                select(undef, undef, undef, 0.1);
            }
            die "giving up\\n";
        """),
    },
    confirm=r"(?s)^(?=.*503)(?=.*ok after 3 attempts)",
)
add(
    "ruby-net-http-retry-ok",
    "ruby",
    "success_alarming_stderr",
    None,
    "a ruby client rescues two 503 responses with a logged error and succeeds on the third try",
    "ruby fetch.rb",
    files={
        "fetch.rb": dedent("""
            require "net/http"
            require "logger"
            log = Logger.new($stderr)
            uri = URI("#{ENV.fetch('HTTP_APP')}/flaky/f2-ruby/2")
            5.times do |i|
              res = Net::HTTP.get_response(uri)
              if res.is_a?(Net::HTTPSuccess)
                puts "fetched: #{res.body}"
                exit 0
              end
              log.error("attempt #{i + 1}: #{res.code} #{res.message}, retrying")
              sleep 0.1
            end
            abort "giving up"
        """),
    },
    confirm=r"(?s)^(?=.*ERROR)(?=.*ok after 3 attempts)",
)
add(
    "node-fetch-retry-ok",
    "node",
    "success_alarming_stderr",
    None,
    "a node script logs console.error for two 503 answers and prints the body of the third",
    "node fetch.mjs",
    files={
        "fetch.mjs": dedent("""
            const url = `${process.env.HTTP_APP}/flaky/f2-node/2`;
            for (let i = 1; i <= 5; i++) {
              const res = await fetch(url);
              if (res.ok) { console.log("fetched:", (await res.text()).trim()); process.exit(0); }
              console.error(`Error: request failed with status ${res.status} (attempt ${i}), retrying`);
              await new Promise((r) => setTimeout(r, 100));
            }
            process.exit(1);
        """),
    },
    confirm=r"(?s)^(?=.*status 503)(?=.*ok after 3 attempts)",
)
add(
    "php-file-get-contents-retry-ok",
    "php",
    "success_alarming_stderr",
    None,
    "php's file_get_contents prints 'PHP Warning: failed to open stream: HTTP request failed! 503' twice, then the retry succeeds",
    "php -d display_errors=stderr fetch.php",
    files={
        "fetch.php": dedent("""
            <?php
            $url = getenv('HTTP_APP') . '/flaky/f2-php/2';
            for ($i = 1; $i <= 5; $i++) {
                $body = file_get_contents($url);
                if ($body !== false) { echo "fetched: $body"; exit(0); }
                usleep(100000);
            }
            exit(1);
        """),
    },
    confirm=r"(?s)^(?=.*Warning)(?=.*ok after 3 attempts)",
)
add(
    "go-http-retry-ok",
    "go",
    "success_alarming_stderr",
    None,
    "a go client logs 'error: unexpected status 503' twice and prints the body of the third answer",
    "go run .",
    files={
        "go.mod": GOMOD,
        "main.go": dedent("""
            package main

            import ("fmt"; "io"; "log"; "net/http"; "os"; "time")

            func main() {
                url := os.Getenv("HTTP_APP") + "/flaky/f2-go/2"
                for i := 1; i <= 5; i++ {
                    res, err := http.Get(url)
                    if err == nil && res.StatusCode == 200 {
                        b, _ := io.ReadAll(res.Body)
                        fmt.Printf("fetched: %s", b)
                        return
                    }
                    if err == nil { log.Printf("error: unexpected status %d (attempt %d), retrying", res.StatusCode, i); res.Body.Close() }
                    time.Sleep(100 * time.Millisecond)
                }
                os.Exit(1)
            }
        """),
    },
    timeout=120,
    confirm=r"(?s)^(?=.*status 503)(?=.*ok after 3 attempts)",
)
add(
    "parallel-retries-ok",
    "parallel",
    "success_alarming_stderr",
    None,
    "parallel runs three uploads; each hits a connection reset, logs the error, retries by itself and succeeds",
    "parallel -j2 ./upload.sh ::: a b c",
    files={
        "upload.sh": '#!/bin/bash\nfor try in 1 2; do\n  if [ "$try" = 1 ]; then echo "upload $1: error: connection reset by peer (attempt $try), retrying" >&2; sleep 0.1; continue; fi\n  echo "upload $1: ok"\ndone\n',
    },
    confirm=r"(?s)^(?=.*connection reset)(?=.*upload c: ok)",
)

# --- fixers and clean analysers ------------------------------------------------------------------

add(
    "isort-fixing",
    "isort",
    "success_alarming_stderr",
    None,
    "isort rewrites the import order of two modules, printing 'Fixing ...' for each; a check afterwards is clean",
    "isort src && isort --check-only src && echo imports-sorted",
    files={
        "src/a.py": "import sys\nimport os\nprint(os, sys)\n",
        "src/b.py": "from typing import List\nimport json\nprint(json, List)\n",
    },
    confirm=r"(?s)^(?=.*Fixing)(?=.*imports-sorted)",
)
add(
    "autopep8-verbose-fix",
    "autopep8",
    "success_alarming_stderr",
    None,
    "autopep8 -v -i lists the issues it is fixing; pycodestyle is clean afterwards",
    "autopep8 -v -i app.py && python3 -m pycodestyle app.py && echo pep8-clean",
    files={"app.py": "import os,sys\ndef f( x ):\n  return x+1\n"},
    confirm=r"(?s)^(?=.*issue\(s\) to fix)(?=.*pep8-clean)",
)
add(
    "sqlfluff-fix-ok",
    "sqlfluff",
    "success_alarming_stderr",
    None,
    "sqlfluff fix reports the violations it finds and fixes in a query; a lint afterwards passes",
    "sqlfluff fix --dialect ansi q.sql && sqlfluff lint --dialect ansi q.sql && echo sql-clean",
    files={"q.sql": "select id,name from users where id=1\n"},
    timeout=120,
    confirm=r"(?s)^(?=.*(?i:fix))(?=.*sql-clean)",
)
add(
    "cargo-fix-ok",
    "cargo",
    "success_alarming_stderr",
    None,
    "cargo fix --allow-no-vcs applies a compiler suggestion, printing warnings and 'Fixed', and the crate then builds",
    "cargo fix --allow-no-vcs --color never && cargo build -q --color never && echo built",
    files={
        "Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
        "src/main.rs": 'use std::collections::HashMap;\nuse std::fmt;\nfn main() {\n    let m: HashMap<&str, i32> = HashMap::new();\n    println!("{}", m.len());\n}\n',
    },
    timeout=180,
    confirm=r"(?s)^(?=.*Fixed)(?=.*built)",
)
add(
    "cppcheck-clean-information",
    "cppcheck",
    "success_alarming_stderr",
    None,
    "cppcheck --enable=all finds no defects but prints 'information' notes about missing system includes",
    "cppcheck --enable=all --error-exitcode=1 ok.c",
    files={
        "ok.c": '#include <stdio.h>\nint main(void) { const int xs[3] = {1, 2, 3}; int s = 0; for (int i = 0; i < 3; i++) s += xs[i]; printf("%d\\n", s); return 0; }\n'
    },
    confirm=r"information",
)
add(
    "tidy-no-errors",
    "tidy",
    "success_alarming_stderr",
    None,
    "tidy -e checks a valid page and prints 'No warnings or errors were found.'",
    "tidy -e page.html; test $? -eq 0 && echo checked",
    files={
        "page.html": '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Ok</title></head>\n<body><p>Hello</p></body>\n</html>\n',
    },
    confirm=r"(?s)^(?=.*No warnings or errors)(?=.*checked)",
)
add(
    "php-lint-no-errors",
    "php",
    "success_alarming_stderr",
    None,
    "php -l checks three files and prints 'No syntax errors detected' for each",
    'for f in src/*.php; do php -l "$f" || exit 1; done',
    files={
        "src/a.php": "<?php\necho 1;\n",
        "src/b.php": "<?php\nfunction b(): int { return 2; }\n",
        "src/c.php": "<?php\nclass C {}\n",
    },
    confirm=r"No syntax errors detected in src/c\.php",
)

# --- warnings, verbose traces, test output from code under test ----------------------------------

add(
    "clang-weverything-ok",
    "clang",
    "success_alarming_stderr",
    None,
    "clang -Weverything prints a screenful of warnings for a small program that builds and prints the right answer",
    "clang -Weverything -o stats stats.c && ./stats",
    files={
        "stats.c": '#include <stdio.h>\nint mean(int *xs, int n) { long s = 0; for (int i = 0; i < n; i++) s += xs[i]; return s / n; }\nint main() { int xs[] = {2, 4, 6}; printf("mean=%d\\n", mean(xs, 3)); }\n',
    },
    confirm=r"(?s)^(?=.*warning)(?=.*mean=4)",
)
add(
    "pytest-warnings-summary-pass",
    "pytest",
    "success_alarming_stderr",
    None,
    "pytest passes three tests and prints a warnings summary with DeprecationWarning and UserWarning from the code under test",
    "python3 -m pytest -q -p no:cacheprovider test_conv.py",
    files={
        "test_conv.py": dedent("""
            import warnings

            def convert(v, unit="c"):
                if unit == "C":
                    warnings.warn("unit 'C' is deprecated, use 'c'", DeprecationWarning)
                if v < -273.15:
                    warnings.warn(f"value {v} below absolute zero, clamped", UserWarning)
                    v = -273.15
                return v * 9 / 5 + 32

            def test_c():
                assert convert(100) == 212

            def test_upper():
                assert convert(0, "C") == 32

            def test_clamp():
                assert round(convert(-300), 2) == -459.67
        """),
    },
    confirm=r"(?s)^(?=.*DeprecationWarning)(?=.*3 passed, 2 warnings)",
)
add(
    "node-test-console-error-pass",
    "node-test",
    "success_alarming_stderr",
    None,
    "node --test passes; the code under test console.errors a stack trace for a rejected webhook signature",
    "node --test",
    files={
        "test/webhook.test.js": dedent("""
            const test = require("node:test");
            const assert = require("assert");
            function verify(sig) {
              if (sig !== "good") {
                console.error(new Error(`invalid webhook signature ${JSON.stringify(sig)}`));
                return false;
              }
              return true;
            }
            test("accepts a good signature", () => assert.ok(verify("good")));
            test("rejects a forged signature", () => assert.ok(!verify("forged")));
        """),
    },
    confirm=r"(?s)^(?=.*invalid webhook signature)(?=.*# fail 0)",
)
add(
    "vitest-stderr-pass",
    "vitest",
    "success_alarming_stderr",
    None,
    "vitest passes; the code under test writes 'ERROR' lines to stderr, which vitest echoes per test",
    "vitest run --reporter=basic",
    files={
        "src/queue.test.js": dedent("""
            import { test, expect } from "vitest";
            function drain(items) {
              const ok = [];
              for (const it of items) {
                if (typeof it !== "number") { console.error(`ERROR queue: dropping malformed item ${JSON.stringify(it)}`); continue; }
                ok.push(it);
              }
              return ok;
            }
            test("drops malformed items", () => { expect(drain([1, "x", 2, null])).toEqual([1, 2]); });
        """),
        "package.json": '{"name": "t", "private": true, "type": "module"}\n',
    },
    timeout=120,
    confirm=r"(?s)^(?=.*ERROR queue)(?=.*1 passed)",
)
add(
    "make-overriding-recipe-ok",
    "make",
    "success_alarming_stderr",
    None,
    "make warns about an overriding and an ignored recipe for the same target and still builds the program",
    "make && ./hello",
    files={
        "Makefile": "hello: hello.c\n\tgcc -o hello hello.c\nhello: hello.c\n\tgcc -O2 -o hello hello.c\n",
        "hello.c": '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n',
    },
    confirm=r"(?s)^(?=.*warning: overriding recipe)(?=.*\nhello\n?)",
)
add(
    "git-detached-head-advice",
    "git",
    "success_alarming_stderr",
    None,
    "git checkout of a release tag prints the detached HEAD advice; the working tree is at the tag",
    "git checkout v1.0 && cat VERSION",
    setup="git init -q . && echo 1.0 > VERSION && git add VERSION && git commit -q -m v1 && git tag v1.0 && echo 2.0-dev > VERSION && git commit -qam dev",
    confirm=r"(?s)^(?=.*detached HEAD)(?=.*1\.0)",
)
add(
    "strace-enoent-ok",
    "strace",
    "success_alarming_stderr",
    None,
    "strace -f traces a python import; dozens of openat calls fail with ENOENT while the program runs fine",
    "strace -f -e trace=openat,stat,newfstatat python3 -c 'import json; print(json.dumps({\"ok\": True}))'",
    needs=("strace", "python3"),
    confirm=r'(?s)^(?=.*ENOENT)(?=.*\{"ok": true\})',
)
add(
    "rsync-vv-ok",
    "rsync",
    "success_alarming_stderr",
    None,
    "rsync -vv prints its verbose delta and skip lines while syncing a tree",
    "rsync -avv --delete src/ dst/ && ls dst | wc -l",
    files={"src/a.txt": "a\n", "src/b.txt": "b\n", "dst/stale.txt": "old\n"},
    confirm=r"(?s)^(?=.*deleting stale\.txt)(?=.*\n2\n?)",
)
add(
    "swipl-singleton-warning-ok",
    "swipl",
    "success_alarming_stderr",
    None,
    "swipl loads a program with singleton-variable warnings and the goal prints the right total",
    "swipl -g main -t halt shop.pl",
    files={
        "shop.pl": "price(apple, 3).\nprice(pear, 4).\ntotal(T) :- findall(P, price(Item, P), Ps), sum_list(Ps, T).\nmain :- total(T), format('total=~w~n', [T]).\nunused(X, Y) :- true.\n",
    },
    confirm=r"(?s)^(?=.*Warning)(?=.*total=7)",
)
add(
    "nasm-warning-ok",
    "nasm",
    "success_alarming_stderr",
    None,
    "nasm warns about a label alone on a line without a colon; the program still assembles, links and runs",
    "nasm -w+all -f elf64 exit.asm -o exit.o && ld exit.o -o exit && ./exit && echo ran-ok",
    files={
        "exit.asm": "section .text\nglobal _start\n_start:\n    nop\nspare\n    mov rax, 60\n    xor rdi, rdi\n    syscall\n"
    },
    needs=("nasm", "ld"),
    confirm=r"(?s)^(?=.*warning)(?=.*ran-ok)",
)
add(
    "concurrently-logs-errors-ok",
    "concurrently",
    "success_alarming_stderr",
    None,
    "concurrently runs a cache warmer that logs ERROR lines for misses and a build; both exit 0",
    "concurrently --names warm,build 'node warm.js' 'node build.js'",
    files={
        "warm.js": "for (const k of ['users', 'orders']) console.error(`ERROR cache miss for ${k}, rebuilding`);\nconsole.log('warm: done');\n",
        "build.js": "console.log('build: 3 bundles written');\n",
    },
    confirm=r"(?s)^(?=.*ERROR cache miss)(?=.*exited with code 0)",
)

# --- more hidden failures ------------------------------------------------------------------------

add(
    "python-subprocess-check-false",
    "python3",
    "exit0_hidden_failure",
    None,
    "a python build script runs the compiler with subprocess.run(check=False) and ignores its status, then prints 'build complete'",
    "python3 build.py",
    files={
        "build.py": 'import subprocess\nsubprocess.run(["gcc", "-o", "app", "app.c"], check=False)\nprint("build complete")\n',
        "app.c": "int main(void) { return missing(); }\n",
    },
    needs=("python3", "gcc"),
    confirm=r"(?s)^(?=.*missing)(?=.*build complete)",
)
add(
    "node-test-tap-tee",
    "node-test",
    "exit0_hidden_failure",
    None,
    "node --test with the TAP reporter is teed into a report file; a test fails and tee exits 0",
    "node --test --test-reporter=tap | tee report.tap",
    files={
        "test/sum.test.js": "const test = require('node:test');\nconst assert = require('assert');\ntest('sum', () => assert.strictEqual([0.1, 0.2].reduce((a, b) => a + b), 0.3));\n",
    },
    confirm=r"not ok 1",
)
add(
    "ctest-exit-0",
    "cmake",
    "exit0_hidden_failure",
    None,
    "a CI step runs 'ctest --output-on-failure || exit 0'; one of two tests fails and the step exits 0",
    "ctest --test-dir build --output-on-failure || exit 0",
    files={
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.13)\nproject(t C)\nenable_testing()\nadd_executable(t t.c)\nadd_test(NAME ok COMMAND t 1)\nadd_test(NAME bad COMMAND t 2)\n",
        "t.c": '#include <stdio.h>\n#include <stdlib.h>\nint main(int c, char **v) { int n = atoi(v[1]); if (n * n != 1) { printf("expected 1, got %d\\n", n * n); return 1; } return 0; }\n',
    },
    setup="cmake -S . -B build >/dev/null && cmake --build build >/dev/null",
    needs=("ctest",),
    timeout=120,
    confirm=r"tests failed",
)
add(
    "bash-trap-err-continue",
    "bash",
    "exit0_hidden_failure",
    None,
    "a bash script's ERR trap only logs the failed command; the database dump fails and the script carries on to 'backup finished'",
    "bash backup.sh",
    files={
        "backup.sh": dedent("""
            #!/bin/bash
            trap 'echo "ERROR: command failed at line $LINENO: $BASH_COMMAND" >&2' ERR
            mkdir -p out
            sqlite3 missing/app.db .dump > out/dump.sql
            gzip -f out/dump.sql
            echo "backup finished"
        """),
    },
    needs=("bash", "sqlite3"),
    confirm=r"ERROR: command failed",
)
add(
    "perl-system-ignored",
    "perl",
    "exit0_hidden_failure",
    None,
    "a perl deploy script calls system() for the migration and never checks $?; the migration fails and it prints 'deployed'",
    "perl deploy.pl",
    files={
        "deploy.pl": "use strict; use warnings;\nprint \"running migrations\\n\";\nsystem('python3', '-c', 'raise SystemExit(\"migration 0042 failed: column users.email already exists\")');\nprint \"deployed\\n\";\n",
    },
    confirm=r"migration 0042 failed",
)
add(
    "go-vet-tee",
    "go",
    "exit0_hidden_failure",
    None,
    "go vet's findings are teed into vet.txt; vet reports a Printf format mismatch and tee exits 0",
    "go vet ./... 2>&1 | tee vet.txt",
    files={
        "go.mod": GOMOD,
        "main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tn := 3\n\tfmt.Printf("%s items\\n", n)\n}\n',
    },
    timeout=120,
    confirm=r"Printf format %s",
)
add(
    "timeout-or-true-partial",
    "python3",
    "exit0_hidden_failure",
    None,
    "an export runs under 'timeout 2 ... || true'; it is killed after a few of its 50 batches and the step exits 0",
    "timeout 2 python3 export.py || true; echo 'export step done'",
    files={
        "export.py": "import time\nfor i in range(1, 51):\n    print(f'exported batch {i}/50', flush=True)\n    time.sleep(0.5)\nprint('export complete')\n",
    },
    confirm=r"(?s)^(?=.*exported batch 2/50)(?!.*export complete)",
)
add(
    "sqlfluff-nofail",
    "sqlfluff",
    "exit0_hidden_failure",
    None,
    "the SQL lint step runs 'sqlfluff lint --nofail'; it reports violations in a model and exits 0",
    "sqlfluff lint --dialect ansi --nofail models",
    files={"models/orders.sql": "select id,Total from orders where total>100 ORDER by id\n"},
    timeout=120,
    confirm=r"CP0|LT0",
)
add(
    "jest-pass-with-no-tests",
    "jest",
    "exit0_hidden_failure",
    None,
    "'jest --passWithNoTests' is given a misspelt test path; no test runs and jest exits 0",
    "jest --ci --passWithNoTests test/refunds",
    files={
        "__tests__/refund.test.js": "test('refund', () => { expect(10 - 10).toBe(0); });\n",
        "package.json": '{"name": "t", "private": true}\n',
    },
    confirm=r"No tests found",
)
add(
    "pytest-no-tests-exit5-accepted",
    "pytest",
    "exit0_hidden_failure",
    None,
    "CI accepts pytest's exit 5 with '|| [ $? -eq 5 ]'; the -k expression matches no test, none runs, and the step exits 0",
    "python3 -m pytest -q -p no:cacheprovider -k refund_partial tests || [ $? -eq 5 ]",
    files={
        "tests/test_refund.py": "def test_refund_full():\n    assert 10 - 10 == 0\n\ndef test_partial_refund():\n    assert 10 - 4 == 6\n",
    },
    confirm=r"deselected",
)
add(
    "go-test-run-typo",
    "go",
    "exit0_hidden_failure",
    None,
    "'go test -run' is given a misspelt test name; no test runs, go test prints '[no tests to run]' and exits 0",
    "go test -run TestRefundPartail ./...",
    files={
        "go.mod": GOMOD,
        "refund_test.go": 'package app\n\nimport "testing"\n\nfunc TestRefundPartial(t *testing.T) {\n\tif 10-4 != 7 {\n\t\tt.Fatal("partial refund wrong")\n\t}\n}\n',
    },
    timeout=120,
    confirm=r"no tests to run",
)
add(
    "java-shutdown-hook-throws",
    "java",
    "exit0_hidden_failure",
    None,
    "a java event processor flushes its buffer in a shutdown hook; the hook throws, the JVM prints the exception and exits 0",
    "java Flush.java",
    files={
        "Flush.java": dedent("""
            public class Flush {
                public static void main(String[] args) {
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                        throw new IllegalStateException("flush of 120 buffered events failed: disk quota exceeded");
                    }));
                    System.out.println("processed 120 events");
                }
            }
        """),
    },
    timeout=120,
    confirm=r"IllegalStateException",
)
add(
    "elixir-rescue-format",
    "elixir",
    "exit0_hidden_failure",
    None,
    "an elixir seed script rescues the file error, prints the formatted exception and still reports 'seeding finished'",
    "elixir seed.exs",
    files={
        "seed.exs": dedent("""
            try do
              File.read!("priv/seeds.json") |> IO.puts()
            rescue
              e -> IO.puts(:stderr, Exception.format(:error, e, __STACKTRACE__))
            end
            IO.puts("seeding finished")
        """),
    },
    timeout=90,
    confirm=r"File\.Error",
)
add(
    "php-error-handler-suppresses",
    "php",
    "exit0_hidden_failure",
    None,
    "a php report script's error handler logs the warning and returns true; the CSV is never written and it prints 'report saved'",
    "php report.php",
    files={
        "report.php": dedent("""
            <?php
            set_error_handler(function ($no, $str, $file, $line) {
                fwrite(STDERR, "ERROR [$no] $str ($file:$line)\\n");
                return true;
            });
            file_put_contents('/nonexistent-dir/report.csv', "id,total\\n1,10\\n");
            echo "report saved\\n";
        """),
    },
    confirm=r"ERROR \[2\]",
)
add(
    "rsync-accept-23",
    "rsync",
    "exit0_hidden_failure",
    None,
    "a 'set -e' backup accepts rsync's exit 23 with '|| [ $? -eq 23 ]'; a listed file is missing, so the backup is incomplete, and it exits 0",
    "set -e; mkdir -p dst; rsync -a --files-from=list.txt . dst/ || [ $? -eq 23 ]; echo 'backup synced'",
    files={"a.txt": "a\n", "list.txt": "a.txt\ninvoices-2024.db\n"},
    confirm=r"link_stat",
)
add(
    "gpg-bad-signature-skipped",
    "gpg",
    "exit0_hidden_failure",
    None,
    "an install script verifies a release tarball with gpg '|| echo skipped'; the tarball was modified, gpg reports BAD signature, the step exits 0",
    "GNUPGHOME=$PWD/verifier gpg --batch --verify release.tar.asc release.tar || echo 'warning: signature check skipped'",
    setup=(
        "export GNUPGHOME=$PWD/signer; mkdir -m 700 signer;"
        " gpg --batch --passphrase '' --quick-gen-key 'Release Bot <rel@example.invalid>' ed25519 sign never 2>/dev/null;"
        " echo payload > release.tar; gpg --batch --armor --detach-sign -o release.tar.asc release.tar;"
        " echo tampered >> release.tar; gpg --batch --armor --export > key.asc;"
        " export GNUPGHOME=$PWD/verifier; mkdir -m 700 verifier; gpg --batch --import key.asc 2>/dev/null"
    ),
    confirm=r"BAD signature",
)
