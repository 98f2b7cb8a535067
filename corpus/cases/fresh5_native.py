"""Fifth fresh batch (ids ``fresh5-*``): new scenarios for cargo, rustc, go, gcc, g++, clang,
make, cmake, git, curl, wget, bash, java/javac/mvn, php, ruby, perl and sqlite3."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh5")


# --- cargo / rustc -------------------------------------------------------------------------------

CRATE_TOML = '[package]\nname = "ledger"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
LEDGER = {
    "Cargo.toml": CRATE_TOML,
    "src/lib.rs": dedent("""
        pub fn balance(entries: &[(i64, bool)]) -> i64 {
            entries.iter().map(|(amt, credit)| if *credit { *amt } else { -*amt }).sum()
        }

        pub fn parse_amount(s: &str) -> Result<i64, String> {
            let s = s.trim();
            let (whole, frac) = s.split_once('.').unwrap_or((s, "0"));
            let w: i64 = whole.parse().map_err(|e| format!("bad amount {s:?}: {e}"))?;
            let f: i64 = format!("{frac:0<2}")[..2].parse().map_err(|e| format!("bad cents {s:?}: {e}"))?;
            Ok(w * 100 + f)
        }

        #[cfg(test)]
        mod tests {
            use super::*;
            #[test]
            fn balance_mixed() { assert_eq!(balance(&[(500, true), (200, false)]), 300); }
            #[test]
            fn parse_simple() { assert_eq!(parse_amount("12.5"), Ok(1250)); }
            #[test]
            fn parse_negative() { assert_eq!(parse_amount("-0.50"), Ok(-50)); }
        }
    """),
}
add(
    "cargo-test-negative-cents-fail",
    "cargo",
    "plain_failure",
    None,
    "cargo test runs the ledger tests; parsing -0.50 gives +50 cents, the assertion fails and cargo exits 101",
    "cargo test --offline -q",
    files=LEDGER,
    expect=101,
    confirm=r"test result: FAILED\. 2 passed; 1 failed",
    group="fresh5-cargo-ledger",
)
add(
    "cargo-test-no-fail-fast-tail",
    "cargo",
    "exit0_hidden_failure",
    None,
    "a CI step keeps the last 15 lines of 'cargo test --no-fail-fast 2>&1'; a test fails and tail exits 0",
    "cargo test --offline --no-fail-fast 2>&1 | tail -15",
    files=LEDGER,
    confirm=r"test result: FAILED",
    group="fresh5-cargo-ledger",
)
add(
    "cargo-test-skip-filter-ok",
    "cargo",
    "exit0_hidden_failure",
    None,
    "to get green, the agent runs 'cargo test -- --skip parse_negative' in a script that then reports 'all tests passed'; the skipped test is the one that fails and was run first in the same step with '|| true'",
    "cargo test --offline -q 2>&1 || true; cargo test --offline -q -- --skip parse_negative && echo 'all tests passed'",
    files=LEDGER,
    confirm=r"(?s)(?=.*parse_negative.*FAILED)(?=.*all tests passed)",
    group="fresh5-cargo-ledger",
)
add(
    "cargo-clippy-warnings-ok",
    "cargo",
    "success_alarming_stderr",
    None,
    "cargo clippy checks a crate and prints 'warning: this expression creates a reference which is immediately dereferenced' style lints; no -D warnings, so it finishes and exits 0",
    "cargo clippy --offline 2>&1",
    files={
        "Cargo.toml": CRATE_TOML,
        "src/lib.rs": "pub fn len_of(v: &Vec<String>) -> usize {\n    let n = v.len();\n    return n;\n}\n",
    },
    needs=("cargo-clippy",),
    confirm=r"(?s)(?=.*warning)(?=.*Finished)",
)
add(
    "rustc-panic-in-thread-joined-ignored",
    "rustc",
    "exit0_hidden_failure",
    None,
    "a Rust importer spawns a worker thread and ignores the join() result; the worker panics on an unwrap and main prints 'import complete' and exits 0",
    "rustc -O -o imp imp.rs 2>/dev/null && ./imp",
    files={
        "imp.rs": dedent("""
            use std::thread;
            fn main() {
                let h = thread::spawn(|| {
                    let rows: Vec<&str> = vec!["1,alice", "2,bob", "x,carol"];
                    for r in rows {
                        let id: u32 = r.split(',').next().unwrap().parse().unwrap();
                        println!("imported {id}");
                    }
                });
                let _ = h.join();
                println!("import complete");
            }
        """),
    },
    confirm=r"(?s)panicked at .*ParseIntError",
)

# --- go ------------------------------------------------------------------------------------------

GOMOD = "module example.com/inv\n\ngo 1.19\n"
add(
    "go-test-t-error-continue",
    "go",
    "plain_failure",
    None,
    "go test runs a table test; two rows fail with t.Errorf and go test exits 1",
    "go test ./...",
    files={
        "go.mod": GOMOD,
        "slug.go": 'package inv\n\nimport "strings"\n\nfunc Slug(s string) string { return strings.ReplaceAll(strings.ToLower(s), " ", "-") }\n',
        "slug_test.go": dedent("""
            package inv

            import "testing"

            func TestSlug(t *testing.T) {
                for _, c := range []struct{ in, want string }{{"Hello World", "hello-world"}, {"  Trim me ", "trim-me"}, {"a_b", "a-b"}} {
                    if got := Slug(c.in); got != c.want {
                        t.Errorf("Slug(%q) = %q, want %q", c.in, got, c.want)
                    }
                }
            }
        """),
    },
    expect=1,
    confirm=r"--- FAIL: TestSlug",
)
add(
    "go-test-json-jq-summary",
    "go",
    "exit0_hidden_failure",
    None,
    "a CI step pipes 'go test -json' into jq to print per-test actions; a test fails and jq's exit 0 is the step's",
    'go test -json ./... | jq -r \'select(.Test != null and (.Action == "pass" or .Action == "fail")) | "\\(.Action) \\(.Test)"\'',
    files={
        "go.mod": GOMOD,
        "m_test.go": 'package inv\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {}\n\nfunc TestDiv(t *testing.T) {\n\tif 7/2 != 3.5 {\n\t\tt.Fatal("integer division")\n\t}\n}\n',
    },
    confirm=r"fail TestDiv",
)
add(
    "go-vet-printf-or-true",
    "go",
    "exit0_hidden_failure",
    None,
    "the lint target runs 'go vet ./... || true'; vet reports a Printf format mismatch and the target exits 0",
    "go vet ./... || true",
    files={
        "go.mod": GOMOD,
        "log.go": 'package inv\n\nimport "fmt"\n\nfunc Report(n int, name string) { fmt.Printf("%d items for %d\\n", n, name) }\n',
    },
    confirm=r"Printf format %d has arg name of wrong type string",
)
add(
    "go-race-detector-found",
    "go",
    "failure_noisy_stderr",
    None,
    "go test -race runs a counter test with unsynchronised goroutines; the race detector prints two goroutine stacks and fails the test, exit 1",
    "go test -race -count=1 ./...",
    files={
        "go.mod": GOMOD,
        "c_test.go": dedent("""
            package inv

            import ("sync"; "testing")

            func TestCounter(t *testing.T) {
                n := 0
                var wg sync.WaitGroup
                for i := 0; i < 4; i++ {
                    wg.Add(1)
                    go func() { defer wg.Done(); n++ }()
                }
                wg.Wait()
            }
        """),
    },
    expect=1,
    confirm=r"WARNING: DATA RACE",
)
add(
    "go-errgroup-like-logged-exit0",
    "go",
    "exit0_hidden_failure",
    None,
    "a Go sync tool runs three goroutines and only log.Printf's their errors; all three fail with connection refused and it exits 0 after 'sync finished'",
    "go run .",
    files={
        "go.mod": GOMOD,
        "main.go": dedent("""
            package main

            import ("log"; "net"; "sync"; "time")

            func main() {
                var wg sync.WaitGroup
                for _, port := range []string{"1", "2", "3"} {
                    wg.Add(1)
                    go func(p string) {
                        defer wg.Done()
                        if _, err := net.DialTimeout("tcp", "127.0.0.1:"+p, time.Second); err != nil {
                            log.Printf("replica %s: %v", p, err)
                        }
                    }(port)
                }
                wg.Wait()
                log.Println("sync finished")
            }
        """),
    },
    confirm=r"connect: connection refused",
)
add(
    "gofmt-list-or-true",
    "gofmt",
    "exit0_hidden_failure",
    None,
    "the format check runs 'gofmt -l . ; exit 0' meaning to fail on output but never does; a file is listed as unformatted",
    "gofmt -l .; exit 0",
    files={"go.mod": GOMOD, "x.go": "package inv\nfunc  X( a int)int{return a}\n"},
    confirm=r"x\.go",
)

# --- gcc / g++ / clang / make / cmake -----------------------------------------------------------

add(
    "gcc-fanalyzer-warnings-ok",
    "gcc",
    "success_alarming_stderr",
    None,
    "gcc -Wall -Wextra compiles a utility with unused-parameter and sign-compare warnings; the binary is built and runs, exit 0",
    "gcc -Wall -Wextra -o util util.c && ./util",
    files={
        "util.c": '#include <stdio.h>\nint count(const char *s, int unused) {\n  int n = 0;\n  for (int i = 0; s[i]; i++) n++;\n  return n;\n}\nint main(void) {\n  unsigned int len = 3;\n  int n = count("abc", 0);\n  if (n == len) printf("length ok: %d\\n", n);\n  return 0;\n}\n',
    },
    confirm=r"(?s)(?=.*warning: unused parameter)(?=.*length ok: 3)",
)
add(
    "gcc-asan-heap-overflow",
    "gcc",
    "failure_noisy_stderr",
    None,
    "a C ring buffer built with -fsanitize=address writes one past its heap allocation; ASan prints the heap-buffer-overflow report and exits 1",
    "gcc -g -fsanitize=address -o ring ring.c && ./ring",
    files={
        "ring.c": '#include <stdlib.h>\n#include <stdio.h>\nint main(void) {\n  int *b = malloc(8 * sizeof *b);\n  for (int i = 0; i <= 8; i++) b[i] = i;\n  printf("%d\\n", b[0]);\n  free(b);\n  return 0;\n}\n',
    },
    expect=1,
    confirm=r"heap-buffer-overflow",
)
add(
    "gcc-link-undefined-in-loop",
    "gcc",
    "exit0_hidden_failure",
    None,
    "a build script compiles each example in a for loop and prints 'built' per file without checking status; one example fails to link and the loop exits 0",
    'for f in ex*.c; do gcc -o ${f%.c} $f -lm; echo "built $f"; done',
    files={
        "ex1.c": '#include <math.h>\n#include <stdio.h>\nint main(void){printf("%f\\n", sqrt(2.0));return 0;}\n',
        "ex2.c": "int helper(int);\nint main(void){return helper(1);}\n",
    },
    confirm=r"undefined reference to `helper'",
)
add(
    "gpp-template-error-long",
    "g++",
    "failure_noisy_stderr",
    None,
    "g++ compiles code that std::sorts a list (non-random-access iterators); the template error is a long instantiation backtrace and g++ exits 1",
    "g++ -std=c++17 -c s.cpp",
    files={
        "s.cpp": "#include <algorithm>\n#include <list>\nvoid f() { std::list<int> l{3, 1, 2}; std::sort(l.begin(), l.end()); }\n"
    },
    expect=1,
    confirm=r"no match for .{1,3}operator-",
)
add(
    "gpp-uncaught-exception-abort",
    "g++",
    "killed_signalled",
    None,
    "a C++ config loader throws std::runtime_error that nothing catches; the runtime calls terminate and the process aborts (SIGABRT)",
    ["bash", "-c", "g++ -o cfg cfg.cpp && exec ./cfg"],
    files={
        "cfg.cpp": '#include <stdexcept>\n#include <cstdio>\nint main() { std::puts("loading config"); throw std::runtime_error("config.yaml: missing key \'listen\'"); }\n'
    },
    expect="SIGABRT",
    confirm=r"terminate called after throwing an instance of 'std::runtime_error'",
)
add(
    "gcc-ubsan-shift-exit0",
    "gcc",
    "exit0_hidden_failure",
    None,
    "a hash function built with -fsanitize=undefined shifts past the type width; UBSan reports the runtime error and the program still exits 0 with a wrong hash",
    "gcc -fsanitize=undefined -o h h.c && ./h",
    files={
        "h.c": '#include <stdio.h>\nint main(void) {\n  int bits = 33;\n  unsigned int h = 1u << bits;\n  printf("hash=%u\\n", h);\n  return 0;\n}\n'
    },
    confirm=r"runtime error: shift exponent 33",
)
add(
    "clang-werror-coloured",
    "clang",
    "coloured_output",
    "failure",
    "clang -Werror -fcolor-diagnostics turns an implicit-fallthrough warning into an error; coloured diagnostics and exit 1",
    "clang -Wimplicit-fallthrough -Werror -fcolor-diagnostics -c sw.c",
    files={
        "sw.c": "int f(int x) {\n  switch (x) {\n  case 1: x++;\n  case 2: return x;\n  }\n  return 0;\n}\n"
    },
    expect=1,
    confirm=r"fallthrough",
)
add(
    "make-keep-going-last-ok",
    "make",
    "exit0_hidden_failure",
    None,
    "a release script runs 'make -k all; make package', and package does not depend on the failed object; the compile error is reported and package's success ends the script with 0",
    "make -k all; make package",
    files={
        "Makefile": "all: a.o b.o\n%.o: %.c\n\tgcc -c $< -o $@\npackage:\n\ttar czf release.tgz Makefile && echo 'packaged release.tgz'\n",
        "a.c": "int a(void){return 1;}\n",
        "b.c": "int b(void){return undefined_thing;}\n",
    },
    confirm=r"undefined_thing.{1,3} undeclared",
)
add(
    "make-dry-run-says-nothing-done",
    "make",
    "plain_success",
    None,
    "make builds a tiny program and then reports the target is up to date on a second run; exit 0",
    "make && make",
    files={"Makefile": "app: app.c\n\tgcc -o app app.c\n", "app.c": "int main(void){return 0;}\n"},
    confirm=r"is up to date",
)
add(
    "make-recursive-subdir-error",
    "make",
    "failure_noisy_stderr",
    None,
    "a recursive make with --debug=b enters two subdirectories; the second has a compile error, make prints its debug trace and 'Error 1' lines and exits 2",
    "make --debug=b",
    files={
        "Makefile": "SUBDIRS = lib app\nall:\n\tfor d in $(SUBDIRS); do $(MAKE) -C $$d || exit 1; done\n",
        "lib/Makefile": "lib.o: lib.c\n\tgcc -c lib.c\n",
        "lib/lib.c": "int lib(void){return 0;}\n",
        "app/Makefile": "app.o: app.c\n\tgcc -c app.c\n",
        "app/app.c": "int main(void){ return missing(); }\nint x = ;\n",
    },
    expect=2,
    confirm=r"Error 1",
)
add(
    "cmake-ctest-output-on-failure-or-true",
    "cmake",
    "exit0_hidden_failure",
    None,
    "the CI step builds with cmake and runs 'ctest --output-on-failure || true'; one of two tests fails and the step exits 0",
    "cmake -S . -B build -G 'Unix Makefiles' >/dev/null && cmake --build build >/dev/null && (cd build && ctest --output-on-failure || true)",
    files={
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(t C)\nenable_testing()\nadd_executable(t t.c)\nadd_test(NAME parse_ok COMMAND t 1)\nadd_test(NAME parse_bad COMMAND t 2)\n",
        "t.c": '#include <stdio.h>\n#include <stdlib.h>\nint main(int c, char **v) { int n = atoi(v[1]); if (n == 2) { fprintf(stderr, "expected 4, got %d\\n", n * 3); return 1; } puts("ok"); return 0; }\n',
    },
    confirm=r"50% tests passed, 1 tests failed out of 2",
)
add(
    "cmake-deprecated-min-version-ok",
    "cmake",
    "success_alarming_stderr",
    None,
    "cmake configures a project with an old cmake_minimum_required and an unused -D variable; it prints a 'CMake Warning' that manually-specified variables were not used, and generates the build files",
    "cmake -S . -B build -DENABLE_FOO=ON",
    files={
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.0)\nproject(old C)\nadd_executable(old main.c)\n",
        "main.c": "int main(void){return 0;}\n",
    },
    confirm=r"(?s)(?=.*Manually-specified variables were not used)(?=.*Build files have been written)",
)

# --- git -----------------------------------------------------------------------------------------

GIT_BASE = dedent("""
    git init -q -b main .
    printf 'version = 1\\nname = app\\n' > settings.ini
    git add . && git commit -qm init
""")
add(
    "git-cherry-pick-conflict",
    "git",
    "plain_failure",
    None,
    "git cherry-pick of a fix onto main conflicts with a change made there; git reports CONFLICT and exits 1",
    "git cherry-pick fix",
    setup=GIT_BASE
    + "git checkout -qb fix && sed -i 's/version = 1/version = 2/' settings.ini && git commit -qam fix && git checkout -q main && sed -i 's/version = 1/version = 3/' settings.ini && git commit -qam other\n",
    expect=1,
    confirm=r"CONFLICT \(content\)",
)
add(
    "git-stash-pop-conflict-continue",
    "git",
    "exit0_hidden_failure",
    None,
    "an agent's update script runs 'git stash; git pull-ish merge; git stash pop; echo updated'; the stash pop conflicts and the script still ends with 'updated' and exit 0",
    "git stash -q; git merge -q upstream -m merge; git stash pop; echo 'workspace updated'",
    setup=GIT_BASE
    + "git checkout -qb upstream && sed -i 's/name = app/name = api/' settings.ini && git commit -qam up && git checkout -q main && sed -i 's/name = app/name = web/' settings.ini\n",
    confirm=r"CONFLICT",
)
add(
    "git-bisect-run-finds-commit",
    "git",
    "success_alarming_stderr",
    None,
    "git bisect run finds the first commit where the check script fails (printing its 'FAIL: version is 3' lines) and reports it; the bisect itself succeeds, exit 0",
    'git bisect start HEAD HEAD~4 && git bisect run sh -c \'grep -q "version = [12]$" settings.ini || { echo "FAIL: $(grep version settings.ini)"; exit 1; }\' && git bisect reset',
    setup=GIT_BASE
    + 'for v in 2 2 3 3; do sed -i "s/version = .*/version = $v/" settings.ini; echo $v >> log; git add . && git commit -qm "bump $v"; done\n',
    confirm=r"(?s)(?=.*FAIL: version = 3)(?=.*is the first bad commit)",
)
add(
    "git-commit-hook-nonblocking-warn",
    "git",
    "success_alarming_stderr",
    None,
    "a pre-commit hook prints 'ERROR: TODO found in settings.ini (non-blocking)' but exits 0; the commit is made and git log shows it",
    "echo 'todo = TODO remove' >> settings.ini && git commit -qam 'add todo' && git log --oneline -1",
    setup=GIT_BASE
    + "printf '#!/bin/sh\\nif git diff --cached | grep -q TODO; then echo \"ERROR: TODO found in settings.ini (non-blocking)\" >&2; fi\\nexit 0\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit\n",
    confirm=r"(?s)(?=.*ERROR: TODO found)(?=.*add todo)",
)
add(
    "git-submodule-update-missing-commit",
    "git",
    "exit0_hidden_failure",
    None,
    "a checkout script runs 'git submodule update --init || echo skipped'; the recorded submodule commit does not exist in the local source and the script exits 0 without the submodule",
    "git submodule update --init || echo 'submodules skipped'; ls vendor/lib | wc -l",
    setup=dedent("""
        mkdir lib && (cd lib && git init -q -b main && echo a > a && git add a && git commit -qm a)
        git init -q -b main .
        git -c protocol.file.allow=always submodule add -q ./lib vendor/lib
        git commit -qm 'add submodule'
        (cd vendor/lib && echo b > b && git add b && git commit -qm b)
        git add vendor/lib && git commit -qm 'bump submodule to unpushed commit'
        rm -rf vendor/lib .git/modules/vendor
        mkdir vendor/lib
    """),
    env={
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "protocol.file.allow",
        "GIT_CONFIG_VALUE_0": "always",
    },
    confirm=r"(?i)(not our ref|did not contain|unable to|fatal)",
)
add(
    "git-log-latin1-author",
    "git",
    "non_utf8",
    "success",
    "git log prints a commit message recorded in latin-1 with i18n.logOutputEncoding=latin1 as asked; the output bytes are latin-1, exit 0",
    "git -c i18n.logOutputEncoding=ISO-8859-1 log -1 --format='%an: %s'",
    setup=GIT_BASE + "echo c >> a && git add a && git commit -qm 'corrigé la façade'\n",
)

# --- curl / wget ---------------------------------------------------------------------------------

add(
    "curl-write-out-status-ignored",
    "curl",
    "exit0_hidden_failure",
    None,
    "a health-check prints the HTTP status with -w but never tests it; the endpoint raises and the server answers 500, curl exits 0",
    'curl -s -o /dev/null -w "health: %{http_code} in %{time_total}s\\n" "$HTTP_APP/boom"',
    confirm=r"health: 500",
)
add(
    "curl-retry-all-errors-recovers",
    "curl",
    "success_alarming_stderr",
    None,
    "curl --retry 4 --retry-all-errors -f meets two 503s then gets 200; it prints 'curl: (22) The requested URL returned error: 503' lines and the body, exit 0",
    'curl -sS -f --retry 4 --retry-delay 0 --retry-all-errors "$HTTP_APP/flaky/fresh5-a/2"',
    confirm=r"(?s)(?=.*returned error: 503)(?=.*ok after 3 attempts)",
)
add(
    "curl-json-api-error-jq",
    "curl",
    "exit0_hidden_failure",
    None,
    "a script posts to an API and extracts .id with 'jq -r .id'; the API answers 400 with an error object, curl (no -f) and jq exit 0 and the script prints 'created null'",
    'echo "created $(curl -s -X POST -d "{}" "$HTTP_APP/api-error" | tee resp.json | jq -r .id)"; cat resp.json',
    confirm=r"field 'name' is required",
)
add(
    "wget-spider-broken-links-or-true",
    "wget",
    "exit0_hidden_failure",
    None,
    "a docs link check runs 'wget --spider -i urls.txt || true'; one URL is a 404 and the check exits 0",
    'printf "%s/ok\\n%s/status/404\\n" "$HTTP_APP" "$HTTP_APP" > urls.txt; wget --spider -nv -i urls.txt || true',
    confirm=r"404",
)
add(
    "wget-progress-dot-download",
    "wget",
    "progress_on_stderr",
    "success",
    "wget with --progress=dot:mega downloads a 2 MB file slowly, printing dot progress on stderr; saved, exit 0",
    'wget --progress=dot:binary -O big.bin "$HTTP_APP/big/2048/1" && ls -l big.bin | awk "{print \\$5}"',
    confirm=r"2097152",
)

# --- bash ----------------------------------------------------------------------------------------

add(
    "bash-pipefail-off-gzip",
    "bash",
    "exit0_hidden_failure",
    None,
    "a backup script dumps a sqlite db with 'sqlite3 app.db .dump | gzip > backup.sql.gz' without pipefail; the db path is a directory, sqlite3 fails and gzip writes an empty backup, exit 0",
    'set -e; sqlite3 data/app.db .dump | gzip > backup.sql.gz; echo "backup written: $(zcat backup.sql.gz | wc -c) bytes"',
    setup="mkdir -p data/app.db",
    confirm=r"unable to open database|Error",
)
add(
    "bash-wait-without-pid-status",
    "bash",
    "exit0_hidden_failure",
    None,
    "a parallel build script starts three background jobs and calls plain 'wait' (which returns 0); one job fails and the script exits 0",
    "for t in css js img; do (sleep 0.1; if [ $t = js ]; then echo \"bundle $t: SyntaxError: Unexpected token '<' in app.js:12\" >&2; exit 1; fi; echo \"bundle $t ok\") & done; wait; echo 'all bundles done'",
    confirm=r"SyntaxError: Unexpected token",
)
add(
    "bash-retry-loop-recovers",
    "bash",
    "success_alarming_stderr",
    None,
    "a bash retry helper waits for a local service that fails twice (HTTP 503) before answering; it logs 'attempt N failed' and succeeds on the third, exit 0",
    'for i in 1 2 3 4; do if curl -sf "$HTTP_APP/flaky/fresh5-b/2" -o out.txt; then echo "service ready after $i attempts: $(cat out.txt)"; break; fi; echo "attempt $i failed: service unavailable (503), retrying" >&2; done; test -s out.txt',
    confirm=r"(?s)(?=.*attempt 2 failed)(?=.*service ready after 3 attempts)",
)
add(
    "bash-sigterm-self",
    "bash",
    "killed_signalled",
    None,
    "a watchdog kills the long-running seeding script with SIGTERM after it hangs; the run ends by SIGTERM",
    ["bash", "-c", "echo 'seeding 1/3'; (sleep 1; kill -TERM $$) & sleep 30; echo never"],
    expect="SIGTERM",
    confirm=r"seeding 1/3",
)

# --- java / javac / mvn --------------------------------------------------------------------------

add(
    "java-executor-task-exception-lost",
    "java",
    "exit0_hidden_failure",
    None,
    "a Java batch job submits work to an ExecutorService and never calls get(); the task's exception is swallowed, only its own log line says it failed, and the job exits 0 with 'batch done'",
    "java Batch.java",
    files={
        "Batch.java": dedent("""
            import java.util.concurrent.*;
            public class Batch {
                public static void main(String[] a) throws Exception {
                    ExecutorService ex = Executors.newFixedThreadPool(2);
                    ex.submit(() -> {
                        System.err.println("SEVERE: invoice export failed: java.sql.SQLException: Connection refused");
                        throw new IllegalStateException("export aborted");
                    });
                    ex.shutdown();
                    ex.awaitTermination(5, TimeUnit.SECONDS);
                    System.out.println("batch done");
                }
            }
        """),
    },
    confirm=r"SEVERE: invoice export failed",
)
add(
    "javac-deprecation-unchecked-ok",
    "javac",
    "success_alarming_stderr",
    None,
    "javac -Xlint:all compiles code with a raw type and a deprecated constructor; it prints warnings and the class runs, exit 0",
    "javac -Xlint:all -d out W.java && java -cp out W",
    files={
        "W.java": 'import java.util.*;\npublic class W { public static void main(String[] a) { List l = new ArrayList(); l.add(new Integer(5)); System.out.println("size=" + l.size()); } }\n'
    },
    confirm=r"(?s)(?=.*warning)(?=.*size=1)",
)
add(
    "java-stackoverflow-recursion",
    "java",
    "failure_noisy_stderr",
    None,
    "a JSON-ish tree walker recurses forever on a cyclic structure; the JVM prints a StackOverflowError with a 1024-frame trace and exits 1",
    "java -Xss512k Walk.java",
    files={
        "Walk.java": "public class Walk { static int depth(int n) { return depth(n + 1) + 1; } public static void main(String[] a) { System.out.println(depth(0)); } }\n"
    },
    expect=1,
    confirm=r"StackOverflowError",
)

# --- php / ruby / perl / sqlite3 -----------------------------------------------------------------

add(
    "php-warnings-continue-exit0",
    "php",
    "exit0_hidden_failure",
    None,
    "a PHP import script reads a missing CSV; fopen() warns, the loop never runs and the script prints 'imported 0 rows' and exits 0",
    "php -d display_errors=stderr import.php",
    files={
        "import.php": '<?php\n$fh = fopen("users.csv", "r");\n$n = 0;\nwhile ($fh && ($row = fgetcsv($fh)) !== false) { $n++; }\necho "imported $n rows\\n";\n'
    },
    confirm=r"(?s)(?=.*Failed to open stream)(?=.*imported 0 rows)",
)
add(
    "php-deprecated-dynamic-prop-ok",
    "php",
    "success_alarming_stderr",
    None,
    "PHP 8.2 runs a legacy class that creates a dynamic property; it prints 'Deprecated: Creation of dynamic property' and computes the right total, exit 0",
    "php -d display_errors=stderr -d error_reporting=E_ALL legacy.php",
    files={
        "legacy.php": '<?php\nclass Order { public $items = [2, 3]; }\n$o = new Order();\n$o->total = array_sum($o->items);\necho "total={$o->total}\\n";\n'
    },
    confirm=r"(?s)(?=.*Deprecated: Creation of dynamic property)(?=.*total=5)",
)
add(
    "php-uncaught-typeerror",
    "php",
    "plain_failure",
    None,
    "a strict_types PHP script passes a string to an int parameter; PHP throws an uncaught TypeError and exits 255",
    "php -d display_errors=stderr strict.php",
    files={
        "strict.php": '<?php\ndeclare(strict_types=1);\nfunction cents(int $n): int { return $n * 100; }\necho cents("12");\n'
    },
    expect=255,
    confirm=r"Uncaught TypeError",
)
add(
    "ruby-thread-report-on-exception",
    "ruby",
    "exit0_hidden_failure",
    None,
    "a Ruby sync script runs a worker Thread that raises; Ruby reports the thread's exception ('terminated with exception') and the main thread finishes without join, exit 0",
    "ruby sync.rb",
    files={
        "sync.rb": 't = Thread.new { sleep 0.05; raise Errno::ECONNREFUSED, "connect(2) for 127.0.0.1:5432" }\nsleep 0.2\nputs "sync finished"\n'
    },
    confirm=r"terminated with exception",
)
add(
    "ruby-warn-deprecated-ok",
    "ruby",
    "success_alarming_stderr",
    None,
    "ruby -w runs a script with a shadowed variable and an unused variable; it prints 'warning:' lines and the right result, exit 0",
    "ruby -w calc.rb",
    files={
        "calc.rb": 'def total(xs)\n  unused = 1\n  xs.sum\nend\nputs "total=#{total([1, 2, 3])}"\n'
    },
    confirm=r"(?s)(?=.*warning: assigned but unused variable)(?=.*total=6)",
)
add(
    "perl-die-in-eval-warn",
    "perl",
    "exit0_hidden_failure",
    None,
    "a Perl report script wraps the DB load in eval and only warns on $@; the load dies and the script writes an empty report, exit 0",
    "perl report.pl && wc -l < report.txt",
    files={
        "report.pl": 'use strict; use warnings;\nmy @rows = eval { die "DBI connect(\'dbname=sales\') failed: could not connect to server\\n" };\nwarn "load failed: $@" if $@;\nopen my $fh, ">", "report.txt" or die;\nprint $fh "$_\\n" for @rows;\nclose $fh;\nprint "report written\\n";\n'
    },
    confirm=r"load failed: DBI connect",
)
add(
    "perl-uninitialized-warnings-ok",
    "perl",
    "success_alarming_stderr",
    None,
    "a Perl log summariser under -w warns 'Use of uninitialized value' for blank lines but counts the requests correctly, exit 0",
    "perl -w summ.pl access.log",
    files={
        "summ.pl": 'my %c;\nwhile (<>) { chomp; my ($ip, $code) = split / /; $c{$code}++ if $code >= 200; }\nprint "$_ $c{$_}\\n" for sort keys %c;\n',
        "access.log": "1.1.1.1 200\n\n2.2.2.2 500\n3.3.3.3 200\n",
    },
    confirm=r"(?s)(?=.*Use of uninitialized value)(?=.*200 2)",
)
add(
    "sqlite3-bail-off-script-continues",
    "sqlite3",
    "exit0_hidden_failure",
    None,
    "a migration SQL script is fed to sqlite3 via a heredoc-like file with '.bail off'; one statement fails on a missing column and the rest apply, sqlite3 exits 0",
    'sqlite3 app.db < migrate.sql; echo "sqlite3 exit: $?"',
    files={
        "migrate.sql": ".bail off\ncreate table t(id integer primary key, name text);\ninsert into t(name) values ('a');\nupdate t set email = lower(name);\ncreate index t_name on t(name);\n"
    },
    confirm=r"no such column: email",
)
