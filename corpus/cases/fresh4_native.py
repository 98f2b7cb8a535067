"""Fourth fresh batch (ids ``fresh4-*``): new scenarios for gcc, g++, clang, make, cmake, rustc,
cargo, go, javac/java, git, curl, wget, bash, php, ruby, perl and sqlite3."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh4")


# --- C / C++ -------------------------------------------------------------------------------------

PARSE_C = '#include <stdio.h>\n#include <stdlib.h>\nint main(int argc, char **argv) {\n  const char *s = argc > 1 ? argv[1] : "42";\n  long v = strtol(s, NULL, 10);\n  printf("value=%ld\\n", v);\n  return 0;\n}\n'
add(
    "gcc-wall-wextra-unused-ok",
    "gcc",
    "success_alarming_stderr",
    None,
    "gcc -Wall -Wextra compiles a tool with an unused parameter and a sign-compare warning; the binary builds and runs",
    "gcc -Wall -Wextra -o tool tool.c && ./tool",
    files={
        "tool.c": '#include <stdio.h>\nstatic int count(const int *a, int n, int unused) { int c = 0; for (unsigned i = 0; i < n; i++) c += a[i] > 0; return c; }\nint main(void) { int a[] = {1, -2, 3}; printf("positive=%d\\n", count(a, 3, 0)); return 0; }\n'
    },
    confirm=r"(?s)(?=.*warning: unused parameter)(?=.*positive=2)",
)
add(
    "gcc-build-script-continue-on-error",
    "gcc",
    "exit0_hidden_failure",
    None,
    "a build script compiles each .c in a loop and collects failures into a variable it only prints; one file has a type error and the script exits 0 without a binary for it",
    'failed=\'\'; for f in *.c; do gcc -c "$f" || failed="$failed $f"; done; echo "build finished; failed:${failed:- none}"',
    files={
        "a.c": "int a(void) { return 1; }\n",
        "b.c": "int b(void) { int *p = 3.5; return *p; }\n",
    },
    confirm=r"error: incompatible types",
)
add(
    "gcc-undefined-reference-link",
    "gcc",
    "plain_failure",
    None,
    "gcc links main.c that calls a function only declared in a header; ld reports an undefined reference and gcc exits 1",
    "gcc -o app main.c",
    files={"main.c": "int compute(int);\nint main(void) { return compute(2); }\n"},
    expect=1,
)
add(
    "gcc-asan-leak-detected-exit0",
    "gcc",
    "exit0_hidden_failure",
    None,
    "a test binary built with -fsanitize=address runs with ASAN_OPTIONS=exitcode=0 (set in CI to keep going); LeakSanitizer reports a leak and the run exits 0",
    "gcc -g -fsanitize=address -o leak leak.c && ASAN_OPTIONS=exitcode=0 ./leak",
    files={
        "leak.c": '#include <stdlib.h>\n#include <string.h>\n#include <stdio.h>\nint main(void) { char *p = malloc(64); strcpy(p, "cache entry"); p = 0; puts("done"); return 0; }\n'
    },
    confirm=r"ERROR: LeakSanitizer: detected memory leaks",
)
add(
    "gpp-unused-variable-werror-off",
    "g++",
    "success_alarming_stderr",
    None,
    "g++ -Wall compiles a C++17 program with a deprecated std::iterator base and an unused variable; warnings print, the program builds and runs",
    "g++ -std=c++17 -Wall -o it it.cpp && ./it",
    files={
        "it.cpp": '#include <iostream>\n#include <iterator>\nstruct Counter : std::iterator<std::input_iterator_tag, int> { int v = 0; };\nint main() { int unused = 5; Counter c; std::cout << "counter=" << c.v << std::endl; }\n'
    },
    confirm=r"(?s)(?=.*warning:)(?=.*counter=0)",
)
add(
    "gpp-terminate-called-abort",
    "g++",
    "killed_signalled",
    None,
    "a C++ service throws std::runtime_error from a noexcept destructor path; std::terminate aborts with SIGABRT",
    "g++ -o svc svc.cpp 2>/dev/null && exec ./svc",
    files={
        "svc.cpp": '#include <stdexcept>\n#include <cstdio>\nvoid shutdown() noexcept { throw std::runtime_error("flush failed: disk full"); }\nint main() { std::puts("serving"); shutdown(); }\n'
    },
    expect="nonzero",
    confirm=r"terminate called after throwing an instance of 'std::runtime_error'",
)
add(
    "clang-colour-diagnostics-error",
    "clang",
    "coloured_output",
    "failure",
    "clang -fcolor-diagnostics compiles a file with a missing semicolon; coloured error, exit 1",
    "clang -fcolor-diagnostics -c x.c",
    files={"x.c": "int main(void) { int x = 1 return x; }\n"},
    expect=1,
)
add(
    "clang-format-werror-in-loop",
    "clang",
    "plain_success",
    None,
    "clang -fsyntax-only checks three clean C files and exits 0",
    "clang -fsyntax-only -Wall a.c b.c c.c && echo syntax ok",
    files={
        "a.c": "int a(void) { return 1; }\n",
        "b.c": "int b(void) { return 2; }\n",
        "c.c": "int c(void) { return 3; }\n",
    },
    confirm=r"syntax ok",
)

# --- make / cmake --------------------------------------------------------------------------------

add(
    "make-shell-for-loop-recipe",
    "make",
    "exit0_hidden_failure",
    None,
    "a Makefile 'test' recipe loops over test scripts in one shell 'for t in ...; do ./$$t; done'; the first test fails but the loop's status is the last test's, so make exits 0",
    "make test",
    files={
        "Makefile": 'test:\n\tfor t in tests/*.sh; do echo "running $$t"; ./$$t; done\n',
        "tests/01_parse.sh": "#!/bin/sh\necho 'FAIL: parse(\"1e3\") returned 0, expected 1000' >&2\nexit 1\n",
        "tests/02_format.sh": "#!/bin/sh\necho 'ok: format'\n",
    },
    confirm=r"FAIL: parse",
)
add(
    "make-j-warning-clock-skew-ok",
    "make",
    "success_alarming_stderr",
    None,
    "make builds a target whose source has a future mtime; make warns 'Clock skew detected' and 'has modification time in the future' and the build completes",
    "make && cat out.txt",
    setup="touch -d '2099-01-01' in.txt",
    files={"Makefile": "out.txt: in.txt\n\ttr a-z A-Z < in.txt > out.txt\n", "in.txt": "built\n"},
    confirm=r"(?s)(?=.*modification time .*in the future)(?=.*BUILT)",
)
add(
    "make-undefined-variable-rm-empty",
    "make",
    "plain_failure",
    None,
    "a Makefile's install target copies $(BINDIR) which is unset; cp gets a missing destination operand and make exits 2",
    "make install",
    files={"Makefile": "install: app\n\tcp app $(BINDIR)/sub/\napp:\n\techo '#!/bin/sh' > app\n"},
    expect=2,
)
add(
    "make-warn-undefined-variables-ok",
    "make",
    "success_alarming_stderr",
    None,
    "make --warn-undefined-variables builds with an optional EXTRA_CFLAGS unset; make warns about the undefined variable and the object builds",
    "make --warn-undefined-variables && ls hello.o",
    files={
        "Makefile": "hello.o: hello.c\n\tgcc $(EXTRA_CFLAGS) -c hello.c -o hello.o\n",
        "hello.c": "int hello(void) { return 0; }\n",
    },
    confirm=r"(?s)(?=.*warning: undefined variable)(?=.*hello.o)",
)
add(
    "cmake-build-target-missing-or-echo",
    "cmake",
    "exit0_hidden_failure",
    None,
    "a CI script builds with 'cmake --build build --target tests || echo no tests target'; the target exists but fails to compile, and the fallback echo exits 0",
    "cmake -S . -B build -DCMAKE_BUILD_TYPE=Debug > /dev/null && cmake --build build --target tests || echo 'no tests target, skipping'",
    files={
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(p C)\nadd_executable(tests t.c)\n",
        "t.c": "int main(void) { return undefined_fn(1); }\n",
    },
    confirm=r"undefined_fn",
)
add(
    "cmake-configure-verbose-warnings-ok",
    "cmake",
    "success_alarming_stderr",
    None,
    "cmake configures a project that prints message(WARNING) about an optional dependency not found and builds anyway; the build succeeds",
    "cmake -S . -B build > cfg.log 2>&1; cat cfg.log; cmake --build build && ./build/app",
    files={
        "CMakeLists.txt": 'cmake_minimum_required(VERSION 3.16)\nproject(p C)\nfind_package(Fresh4Metrics QUIET)\nif(NOT Fresh4Metrics_FOUND)\n  message(WARNING "Fresh4Metrics not found: metrics export disabled")\nendif()\nadd_executable(app a.c)\n',
        "a.c": '#include <stdio.h>\nint main(void) { puts("app ok"); return 0; }\n',
    },
    confirm=r"(?s)(?=.*CMake Warning)(?=.*app ok)",
)

# --- rust / go -----------------------------------------------------------------------------------

add(
    "rustc-dead-code-warnings-ok",
    "rustc",
    "success_alarming_stderr",
    None,
    "rustc compiles a program with an unused error enum variant and an unused Result; dead_code and unused_must_use warnings print, the binary runs",
    "rustc -o app app.rs && ./app",
    files={
        "app.rs": '#[derive(Debug)]\nenum AppError { NotFound, Timeout }\nfn check() -> Result<(), AppError> { Err(AppError::Timeout) }\nfn main() {\n    check();\n    println!("started");\n}\n'
    },
    confirm=r"(?s)(?=.*warning: unused `Result`)(?=.*started)",
)
add(
    "rustc-unwrap-err-handled-in-main",
    "rustc",
    "exit0_hidden_failure",
    None,
    "a Rust importer matches on the Result of opening its input and only eprintln!s 'error: ...' in the Err arm, then returns normally; nothing was imported and it exits 0",
    "rustc -o imp imp.rs 2>/dev/null && ./imp",
    files={
        "imp.rs": 'use std::fs;\nfn main() {\n    match fs::read_to_string("input.csv") {\n        Ok(s) => println!("imported {} lines", s.lines().count()),\n        Err(e) => eprintln!("error: could not read input.csv: {e}"),\n    }\n}\n'
    },
    confirm=r"error: could not read input.csv",
)
add(
    "rustc-overflow-panic-debug",
    "rustc",
    "plain_failure",
    None,
    "a debug build of a Rust counter overflows a u8; it panics with 'attempt to add with overflow' and exits 101",
    "rustc -o c c.rs && ./c",
    files={
        "c.rs": 'fn main() {\n    let mut n: u8 = 250;\n    for _ in 0..10 { n += 1; }\n    println!("{n}");\n}\n'
    },
    expect=101,
)
add(
    "cargo-check-warnings-ok",
    "cargo",
    "success_alarming_stderr",
    None,
    "cargo check on a crate with an unused import and an unused variable in its error module prints warnings and 'Finished'; exits 0",
    "cargo check --offline",
    files={
        "Cargo.toml": '[package]\nname = "svc"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/main.rs": 'mod error;\nfn main() { println!("{}", error::describe(2)); }\n',
        "src/error.rs": 'use std::fmt::Write;\npub fn describe(code: u8) -> &\'static str { let unused_err = code; match code { 1 => "fatal", _ => "recoverable error" } }\n',
    },
    confirm=r"(?s)(?=.*warning: unused)(?=.*Finished)",
    timeout=120,
)
add(
    "cargo-test-filter-zero-tests",
    "cargo",
    "exit0_hidden_failure",
    None,
    "cargo test is given a filter that matches no test name ('parse_cfg' for 'parse_config'), so 0 tests run, the failing test is filtered out, and it exits 0",
    "cargo test --offline -q parse_cfg",
    files={
        "Cargo.toml": '[package]\nname = "cfgp"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/lib.rs": 'pub fn parse(s: &str) -> Option<u32> { s.trim().parse().ok() }\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn parse_config_rejects_negative() { assert_eq!(super::parse("-1"), Some(0)); }\n}\n',
    },
    confirm=r"0 passed; 0 failed; 0 ignored; 0 measured; 1 filtered out",
    timeout=120,
)
GOMOD = "module example.com/app\n\ngo 1.19\n"
add(
    "go-errgroup-less-goroutine-error-dropped",
    "go",
    "exit0_hidden_failure",
    None,
    "a Go uploader starts goroutines with a WaitGroup and writes their errors to a buffered channel that nobody reads; two uploads fail (logged) and it prints 'upload complete' and exits 0",
    "go run .",
    files={
        "go.mod": GOMOD,
        "main.go": dedent("""
            package main

            import (
            \t"fmt"
            \t"log"
            \t"sync"
            )

            func upload(n int) error {
            \tif n%2 == 1 {
            \t\treturn fmt.Errorf("upload part %d: 403 Forbidden: signature mismatch", n)
            \t}
            \treturn nil
            }

            func main() {
            \tvar wg sync.WaitGroup
            \terrs := make(chan error, 4)
            \tfor i := 0; i < 4; i++ {
            \t\twg.Add(1)
            \t\tgo func(n int) {
            \t\t\tdefer wg.Done()
            \t\t\tif err := upload(n); err != nil {
            \t\t\t\tlog.Printf("error: %v", err)
            \t\t\t\terrs <- err
            \t\t\t}
            \t\t}(i)
            \t}
            \twg.Wait()
            \tfmt.Println("upload complete")
            }
        """),
    },
    confirm=r"403 Forbidden: signature mismatch",
)
add(
    "go-test-t-log-retry-pass",
    "go",
    "success_alarming_stderr",
    None,
    "go test -v runs a test whose client retries after two simulated 'connection refused' errors (logged with t.Logf) and then passes",
    "go test -v ./...",
    files={
        "go.mod": GOMOD,
        "client_test.go": dedent("""
            package app

            import (
            \t"errors"
            \t"testing"
            )

            func TestRetry(t *testing.T) {
            \tattempts := 0
            \tcall := func() error {
            \t\tattempts++
            \t\tif attempts < 3 {
            \t\t\treturn errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")
            \t\t}
            \t\treturn nil
            \t}
            \tvar err error
            \tfor i := 0; i < 5; i++ {
            \t\tif err = call(); err == nil {
            \t\t\tbreak
            \t\t}
            \t\tt.Logf("attempt %d failed: %v", i+1, err)
            \t}
            \tif err != nil {
            \t\tt.Fatal(err)
            \t}
            }
        """),
    },
    confirm=r"(?s)(?=.*connection refused)(?=.*--- PASS: TestRetry)",
)
add(
    "go-vet-printf-or-true",
    "go",
    "exit0_hidden_failure",
    None,
    "the lint step runs 'go vet ./... || true'; vet reports a Printf format mismatch and the step exits 0",
    "go vet ./... || true",
    files={
        "go.mod": GOMOD,
        "main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Printf("%d items\\n", "three")\n}\n',
    },
    confirm=r"Printf format %d has arg",
)
add(
    "go-build-unused-import",
    "go",
    "plain_failure",
    None,
    "go build fails on an unused import ('\"os\" imported and not used') and exits non-zero",
    "go build ./...",
    files={
        "go.mod": GOMOD,
        "main.go": 'package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc main() { fmt.Println("hi") }\n',
    },
    expect="nonzero",
)
add(
    "go-panic-goroutine-noisy",
    "go",
    "failure_noisy_stderr",
    None,
    "a Go worker pool logs 300 progress lines, then one goroutine panics on a nil map write; the runtime dumps goroutine stacks and exits 2",
    "go run .",
    files={
        "go.mod": GOMOD,
        "main.go": 'package main\n\nimport (\n\t"log"\n\t"sync"\n)\n\nfunc main() {\n\tfor i := 0; i < 300; i++ {\n\t\tlog.Printf("processed batch %d ok", i)\n\t}\n\tvar wg sync.WaitGroup\n\tvar m map[string]int\n\twg.Add(1)\n\tgo func() { defer wg.Done(); m["x"] = 1 }()\n\twg.Wait()\n}\n',
    },
    expect=1,
    confirm=r"assignment to entry in nil map",
)

# --- java ----------------------------------------------------------------------------------------

add(
    "java-logger-warning-fallback-ok",
    "java",
    "success_alarming_stderr",
    None,
    "a Java job fails to read its optional override file, logs a java.util.logging WARNING with the NoSuchFileException stack trace, uses defaults and completes",
    "javac Job.java && java Job",
    files={
        "Job.java": 'import java.nio.file.*;\nimport java.util.logging.*;\npublic class Job {\n  static final Logger LOG = Logger.getLogger("job");\n  public static void main(String[] a) {\n    String cfg;\n    try { cfg = Files.readString(Path.of("override.properties")); }\n    catch (java.io.IOException e) { LOG.log(Level.WARNING, "override not found, using defaults", e); cfg = "threads=4"; }\n    System.out.println("job complete with " + cfg);\n  }\n}\n'
    },
    needs=("javac", "java"),
    confirm=r"(?s)(?=.*NoSuchFileException)(?=.*job complete with threads=4)",
)
add(
    "java-catch-exception-return-normally",
    "java",
    "exit0_hidden_failure",
    None,
    "a Java report generator catches the SQLException-like failure in main, prints the stack trace and returns normally; no report is written and the JVM exits 0",
    "javac Report.java && java Report; ls report.csv",
    files={
        "Report.java": 'public class Report {\n  static void query() throws Exception { throw new java.sql.SQLException("relation \\"orders\\" does not exist", "42P01"); }\n  public static void main(String[] a) {\n    try { query(); new java.io.FileWriter("report.csv").close(); }\n    catch (Exception e) { e.printStackTrace(); }\n  }\n}\n'
    },
    needs=("javac", "java"),
    expect=2,
    confirm=r"java.sql.SQLException: relation",
)
add(
    "java-assert-enabled-fails",
    "java",
    "plain_failure",
    None,
    "java -ea runs a check whose assert fails; it throws AssertionError and exits 1",
    "javac Check.java && java -ea Check",
    files={
        "Check.java": 'public class Check { public static void main(String[] a) { int retries = -1; assert retries >= 0 : "retries must be non-negative"; } }\n'
    },
    needs=("javac", "java"),
    expect=1,
)
add(
    "javac-xlint-all-warnings-ok",
    "javac",
    "success_alarming_stderr",
    None,
    "javac -Xlint:all compiles code using raw types and a deprecated Integer constructor; it prints warnings and writes the class file",
    "javac -Xlint:all Legacy.java && ls Legacy.class",
    files={
        "Legacy.java": "import java.util.*;\npublic class Legacy { public static List make() { List l = new ArrayList(); l.add(new Integer(5)); return l; } }\n"
    },
    confirm=r"(?s)(?=.*warning: \[)(?=.*Legacy.class)",
)

# --- git -----------------------------------------------------------------------------------------

GIT_INIT = "git init -q -b main . && git commit -q --allow-empty -m init"
add(
    "git-commit-nothing-added-or-true",
    "git",
    "exit0_hidden_failure",
    None,
    "an auto-format job runs 'git commit -am msg || true' and then 'git push' is skipped in this sandbox; the formatter wrote to an untracked file, so git commits nothing and the step exits 0",
    "echo 'x = 1' > new_module.py && git commit -am 'style: apply formatter' || true",
    setup=GIT_INIT,
    confirm=r"nothing added to commit but untracked files present",
)
add(
    "git-rebase-autostash-ok",
    "git",
    "success_alarming_stderr",
    None,
    "git rebase --autostash with local changes stashes, rebases a feature branch onto main and re-applies the stash; it prints autostash notes and 'Successfully rebased'",
    "git rebase --autostash main 2>&1; git log --oneline | head -3",
    setup=GIT_INIT
    + " && git checkout -q -b feat && echo a > a && git add a && git commit -q -m feat && git checkout -q main && echo b > b && git add b && git commit -q -m main2 && git checkout -q feat && echo dirty >> a",
    confirm=r"(?s)(?=.*Created autostash)(?=.*Successfully rebased)",
)
add(
    "git-submodule-update-missing",
    "git",
    "failure_noisy_stderr",
    None,
    "GIT_TRACE=1 git submodule update --init on a repo whose submodule URL points to a missing local path; git traces every step and fails",
    "GIT_TRACE=1 git -c protocol.file.allow=always submodule update --init",
    setup=GIT_INIT
    + " && git init -q sub && (cd sub && git commit -q --allow-empty -m s) && git -c protocol.file.allow=always submodule -q add ./sub libs/sub && git commit -q -m sub && rm -rf sub .git/modules libs/sub",
    expect="nonzero",
    confirm=r"trace: ",
)
add(
    "git-clean-dry-run-plain",
    "git",
    "plain_success",
    None,
    "git clean -n lists the untracked build artefacts it would remove; exits 0",
    "git clean -n",
    setup=GIT_INIT + " && touch build.o app.log",
    confirm=r"Would remove build.o",
)
add(
    "git-log-colour-graph",
    "git",
    "coloured_output",
    "success",
    "git log --graph --color=always --decorate of a small history with a merge; exits 0",
    "git log --graph --oneline --color=always --decorate",
    setup=GIT_INIT
    + " && git checkout -q -b f && git commit -q --allow-empty -m 'fix: error handling' && git checkout -q main && git merge -q --no-ff -m 'Merge fix' f",
)

# --- curl / wget ---------------------------------------------------------------------------------

add(
    "curl-json-error-field-200-logged",
    "curl",
    "exit0_hidden_failure",
    None,
    "a quota sync calls an API that answers 200 with {ok: false, error: ...}; the script saves the body and prints it without checking 'ok', exits 0",
    "curl -sS -o quota.json \"$HTTP_APP/api-error-200\" && echo 'quota sync response:' && cat quota.json",
    confirm=r"quota exceeded",
)
add(
    "curl-head-loop-status-printed",
    "curl",
    "exit0_hidden_failure",
    None,
    "a link checker prints the HTTP status of each URL with curl -w and never fails on non-2xx; one link is a 404 and one a 500, the checker exits 0",
    "for p in ok status/404 boom; do printf '%s ' \"$p\"; curl -s -o /dev/null -w '%{http_code}\\n' \"$HTTP_APP/$p\"; done; echo 'link check done'",
    confirm=r"boom 500",
)
add(
    "wget-spider-broken-link-or-true",
    "wget",
    "exit0_hidden_failure",
    None,
    "'wget --spider ... || true' checks the docs download link which returns 404; wget reports the broken link and the step exits 0",
    'wget --spider "$HTTP_FILES/docs/manual.pdf" 2>&1 || true',
    confirm=r"404",
)
add(
    "wget-progress-dot-big",
    "wget",
    "progress_on_stderr",
    "success",
    "wget --progress=dot:mega downloads a 2 MiB file from the local server, dot progress on stderr; exits 0",
    'wget --progress=dot:mega -O big.bin "$HTTP_APP/big/2048/0.5" && ls -l big.bin',
    confirm=r"saved",
)

# --- bash / php / ruby / perl / sqlite3 -----------------------------------------------------------

add(
    "bash-readarray-cmd-subst-fail",
    "bash",
    "exit0_hidden_failure",
    None,
    "a release script fills an array with mapfile from a process substitution running a failing 'git tag' query; the failure is invisible to set -e, the array is empty and the script prints 'nothing to release'",
    "set -euo pipefail; mapfile -t tags < <(git tag --list 'v*'; git describe --tags); echo \"tags found: ${#tags[@]}\"; echo 'nothing to release'",
    confirm=r"fatal: not a git repository",
)
add(
    "bash-retry-function-recovers",
    "bash",
    "success_alarming_stderr",
    None,
    "a bash retry() helper runs a command that fails twice ('ERROR: lock held by another process') and succeeds on the third try",
    "./deploy.sh",
    files={
        "deploy.sh": "#!/bin/bash\nset -euo pipefail\nretry() { local n=1; until \"$@\"; do (( n >= 4 )) && return 1; echo \"retry $n/3 after failure, sleeping 0.1s\" >&2; n=$((n+1)); sleep 0.1; done; }\nacquire() { c=$(cat .tries 2>/dev/null || echo 0); echo $((c+1)) > .tries; if (( c < 2 )); then echo 'ERROR: lock held by another process (pid 4242)' >&2; return 1; fi; echo 'lock acquired'; }\nretry acquire\necho 'deploy finished'\n"
    },
    confirm=r"(?s)(?=.*ERROR: lock held)(?=.*deploy finished)",
)
add(
    "bash-set-x-noisy-fail",
    "bash",
    "failure_noisy_stderr",
    None,
    "a set -x provisioning script traces 200 commands before a 'cp' of a missing template fails under set -e",
    "bash -xe ./provision.sh",
    files={
        "provision.sh": '#!/bin/bash\nfor i in $(seq 1 200); do v="item_$i"; : "$v"; done\ncp templates/nginx.conf.tpl /tmp/nginx.conf\necho done\n'
    },
    expect=1,
    confirm=r"No such file or directory",
)
add(
    "php-json-exception-caught-echo",
    "php",
    "exit0_hidden_failure",
    None,
    "a PHP import script catches the JsonException from a truncated export, echoes the message and falls through to 'import finished'; no customer was imported and php exits 0",
    "php import.php",
    files={
        "import.php": '<?php\n$raw = \'[{"name": "acme"}, {"name": \';\n$n = 0;\ntry {\n  $rows = json_decode($raw, true, 512, JSON_THROW_ON_ERROR);\n  $n = count($rows);\n} catch (JsonException $e) {\n  echo \'Import error: \', $e->getMessage(), PHP_EOL;\n}\necho "import finished ($n customers)\\n";\n'
    },
    confirm=r"Import error: Syntax error",
)
add(
    "php-deprecated-dynamic-property-ok",
    "php",
    "success_alarming_stderr",
    None,
    "php runs a legacy model that creates a dynamic property (Deprecated on PHP 8.2+) or uses an old-style construct; the notice prints and the output is right",
    "php -d error_reporting=E_ALL -d display_errors=stderr model.php",
    files={
        "model.php": "<?php\nclass User { public $name; }\n$u = new User();\n$u->name = 'ann';\n$u->email = 'ann@example.invalid';\n$parts = explode(',', 'a,b');\necho strtoupper($u->name), ' ', count($parts), PHP_EOL;\n$x = utf8_encode('abc');\n"
    },
    confirm=r"(?s)(?=.*Deprecated)(?=.*ANN 2)",
)
add(
    "ruby-rescue-retry-ok",
    "ruby",
    "success_alarming_stderr",
    None,
    "a Ruby job uses begin/rescue/retry around a flaky call, warning with the exception class twice, then succeeds",
    "ruby job.rb",
    files={
        "job.rb": 'attempts = 0\nbegin\n  attempts += 1\n  raise IOError, \'Errno::ECONNRESET: Connection reset by peer\' if attempts < 3\n  puts "synced after #{attempts} attempts"\nrescue IOError => e\n  warn "#{e.class}: #{e.message} (attempt #{attempts}), retrying"\n  retry\nend\n'
    },
    confirm=r"(?s)(?=.*IOError: Errno::ECONNRESET)(?=.*synced after 3 attempts)",
)
add(
    "ruby-system-false-ignored",
    "ruby",
    "exit0_hidden_failure",
    None,
    "a Rakefile-style Ruby script runs 'system(\"gcc ...\")' and ignores its false result; the compile fails and the script prints 'assets compiled'",
    "ruby build.rb",
    files={
        "build.rb": "system('gcc -c native/ext.c -o ext.o')\nputs 'assets compiled'\n",
        "native/ext.c": "#include <ruby_missing.h>\n",
    },
    needs=("ruby", "gcc"),
    confirm=r"fatal error: ruby_missing.h",
)
add(
    "perl-die-in-eval-warn-continue",
    "perl",
    "exit0_hidden_failure",
    None,
    "a Perl report loop evals each file's parse, warns on failure and continues; every input fails and it exits 0 with an empty summary",
    "perl report.pl a.json b.json",
    files={
        "report.pl": 'use strict; use warnings;\nmy $ok = 0;\nfor my $f (@ARGV) { eval { open(my $fh, \'<\', $f) or die "cannot open $f: $!\\n"; $ok++; 1 } or warn "skipping: $@"; }\nprint "summary: $ok files parsed\\n";\n'
    },
    confirm=r"skipping: cannot open a.json",
)
add(
    "perl-latin1-die",
    "perl",
    "non_utf8",
    "failure",
    "a Perl script dies with a message containing a latin-1 file name written as raw bytes; exits non-zero",
    'perl -e \'my $f = "r\\xe9sum\\xe9.txt"; open(my $fh, "<", $f) or die "cannot open $f: $!\\n";\'',
    expect="nonzero",
)
add(
    "sqlite3-bail-off-script-continues",
    "sqlite3",
    "exit0_hidden_failure",
    None,
    "a migration file is piped into sqlite3 ... ; echo; one statement fails with a constraint error but the step's status is echo's",
    "sqlite3 app.db < migrate.sql; echo 'migration applied'",
    files={
        "migrate.sql": "create table users(id integer primary key, email text unique not null);\ninsert into users(email) values ('a@x');\ninsert into users(email) values ('a@x');\ncreate index users_email on users(email);\n"
    },
    confirm=r"UNIQUE constraint failed",
)
add(
    "sqlite3-integrity-check-ok",
    "sqlite3",
    "plain_success",
    None,
    "sqlite3 runs PRAGMA integrity_check on a fresh database and prints ok",
    "sqlite3 db.sqlite 'create table t(x); insert into t values (1);' && sqlite3 db.sqlite 'pragma integrity_check;'",
    confirm=r"^ok",
)

# --- more alarming successes, signals, progress --------------------------------------------------

add(
    "git-init-default-branch-hint",
    "git",
    "success_alarming_stderr",
    None,
    "git init without -b in a machine without init.defaultBranch prints hint lines about the initial branch name; the repository is created",
    "git init repo && test -d repo/.git && echo created",
    confirm=r"(?s)(?=.*hint:)(?=.*created)",
)
add(
    "gcc-deprecated-attribute-ok",
    "gcc",
    "success_alarming_stderr",
    None,
    "gcc compiles a caller of a function marked __attribute__((deprecated)); it warns '-Wdeprecated-declarations' and the program runs",
    "gcc -o app app.c && ./app",
    files={
        "app.c": '#include <stdio.h>\n__attribute__((deprecated("use open_v2"))) static int open_v1(void) { return 3; }\nint main(void) { printf("fd=%d\\n", open_v1()); return 0; }\n'
    },
    confirm=r"(?s)(?=.*deprecated)(?=.*fd=3)",
)
add(
    "eslint-unused-disable-directive-warning",
    "eslint",
    "success_alarming_stderr",
    None,
    "eslint --report-unused-disable-directives warns about an eslint-disable comment that suppresses nothing; warnings only, exit 0",
    "eslint --no-eslintrc --env node --parser-options=ecmaVersion:2022 --report-unused-disable-directives-severity warn app.js",
    files={"app.js": "// eslint-disable-next-line no-undef\nconst x = 1;\nmodule.exports = x;\n"},
    confirm=r"(?s)(?=.*Unused eslint-disable directive)(?=.*0 errors)",
)
add(
    "unittest-dev-mode-resourcewarning-ok",
    "unittest",
    "success_alarming_stderr",
    None,
    "python3 -X dev -m unittest runs tests of a helper that leaves a file unclosed; a ResourceWarning prints and the tests pass",
    "python3 -X dev -m unittest -v test_read",
    files={
        "test_read.py": "import unittest\n\ndef first_line(p):\n    return open(p).readline()\n\nclass T(unittest.TestCase):\n    def test_first_line(self):\n        open('x.txt', 'w').write('hello\\n')\n        self.assertEqual(first_line('x.txt'), 'hello\\n')\n"
    },
    confirm=r"(?s)(?=.*ResourceWarning)(?=.*\nOK)",
)
add(
    "python3-json-report-zero-failures",
    "python3",
    "success_alarming_stderr",
    None,
    "a test-report summariser prints a JSON summary with an empty 'errors' list and 'failed': 0 via json.tool; the run was clean",
    "python3 -c \"import json; print(json.dumps({'suite': 'api', 'passed': 42, 'failed': 0, 'errors': [], 'error_rate': 0.0}))\" | python3 -m json.tool",
    confirm=r"\"failed\": 0",
)
add(
    "sqlite3-error-log-table-empty",
    "sqlite3",
    "success_alarming_stderr",
    None,
    "a health check queries the job_errors table grouped by status and prints 'failed|0'; no job failed",
    "sqlite3 jobs.db \"select 'failed', count(*) from job_errors where status = 'failed'; select 'errors_total', count(*) from job_errors;\"",
    setup='sqlite3 jobs.db "create table job_errors(id int, status text, message text);"',
    confirm=r"failed\|0",
)
add(
    "ruby-sigterm-self",
    "ruby",
    "killed_signalled",
    None,
    "a Ruby worker receives SIGTERM (sent by its own watchdog here) while processing and dies by the signal",
    [
        "ruby",
        "-e",
        "puts 'processing batch 1'; $stdout.flush; Process.kill('TERM', Process.pid); sleep 5; puts 'done'",
    ],
    expect="SIGTERM",
)
add(
    "npm-serve-task-timeout",
    "npm",
    "killed_signalled",
    None,
    "an agent runs 'npm start' for a dev server that never exits; the task timeout (3 s) kills it",
    "npm start",
    files={
        "package.json": '{"name": "a", "version": "1.0.0", "scripts": {"start": "node server.js"}}\n',
        "server.js": "require('http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', () => console.log('listening'));\n",
    },
    timeout=3,
    expect="SIGKILL",
)
add(
    "php-posix-kill-abrt",
    "php",
    "killed_signalled",
    None,
    "a PHP CLI job aborts itself with SIGABRT after detecting a corrupted state file",
    ["php", "-r", 'echo "state corrupted\\n"; posix_kill(posix_getpid(), 6); sleep(3);'],
    expect="SIGABRT",
)
add(
    "tar-checkpoint-progress",
    "tar",
    "progress_on_stderr",
    "success",
    "tar creates an archive with --checkpoint messages on stderr as its progress log; exits 0",
    "tar -czf out.tgz --checkpoint=20 --checkpoint-action=echo data && tar -tzf out.tgz | wc -l",
    setup="mkdir data && for i in $(seq 1 40); do head -c 20000 /dev/urandom > data/f$i; done",
    confirm=r"checkpoint",
)
add(
    "yarn-install-steps-progress",
    "yarn",
    "progress_on_stderr",
    "success",
    "yarn install --offline on a project with no dependencies prints its numbered steps and saves a lockfile",
    "yarn install --offline && ls yarn.lock",
    files={"package.json": '{"name": "a", "version": "1.0.0", "license": "MIT"}\n'},
    confirm=r"\[1/4\]",
)
add(
    "grep-a-latin1-log",
    "grep",
    "non_utf8",
    "success",
    "grep -a extracts the ERROR lines from a service log written in latin-1; it finds them and prints the raw bytes",
    "grep -a 'ERROR' service.log",
    files={
        "service.log": "INFO d\xe9marrage\nERROR connexion refus\xe9e \xe0 la base\nINFO arr\xeat\n".encode(
            "latin-1"
        )
    },
)
