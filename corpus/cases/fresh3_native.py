"""Third fresh batch (ids ``fresh3-*``): native and misc tools new to the corpus (clang-tidy,
clang-format, ocaml, nim, doxygen, lcov, redis-cli, sbcl, checkbashisms, ant) and new scenarios
for gcc, g++, make, cmake, cargo, rustc, go, java, javac, git, curl, wget, bash, php, ruby, perl."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh3")


# --- clang-tidy / clang-format -------------------------------------------------------------------

TIDY_SRC = {
    "buf.c": dedent("""
        #include <string.h>
        #include <stdlib.h>
        char *dup_name(const char *src) {
            char *out = malloc(8);
            strcpy(out, src);
            return out;
        }
        int main(void) {
            char *p = dup_name("corpus");
            free(p);
            return p[0];
        }
    """),
}
add(
    "clang-tidy-warnings-exit0",
    "clang-tidy",
    "exit0_hidden_failure",
    None,
    "clang-tidy's analyser finds a use-after-free and an insecure strcpy but, without --warnings-as-errors, it exits 0",
    "clang-tidy -checks='clang-analyzer-*' buf.c -- -std=c11",
    files=TIDY_SRC,
    confirm=r"(?i)use of memory after it is freed",
    group="fresh3-clang-tidy-uaf",
)
add(
    "clang-tidy-warnings-as-errors",
    "clang-tidy",
    "plain_failure",
    None,
    "clang-tidy with --warnings-as-errors='*' reports the use-after-free as an error and exits 1",
    "clang-tidy -checks='clang-analyzer-*' --warnings-as-errors='*' buf.c -- -std=c11",
    files=TIDY_SRC,
    group="fresh3-clang-tidy-uaf",
)
add(
    "clang-tidy-clean-suppressed",
    "clang-tidy",
    "success_alarming_stderr",
    None,
    "clang-tidy checks a clean file; it prints how many warnings it generated in system headers and suppressed, none in user code",
    "clang-tidy -checks='bugprone-*,clang-analyzer-*' ok.c -- -std=c11 && echo 'tidy clean'",
    files={"ok.c": '#include <stdio.h>\nint main(void) {\n    puts("ok");\n    return 0;\n}\n'},
    confirm=r"tidy clean",
)
FMT_SRC = {"src/m.c": "int add(int a,int b){return a+b;}\nint main(){ return add(1,2)-3; }\n"}
add(
    "clang-format-dry-run-werror",
    "clang-format",
    "plain_failure",
    None,
    "clang-format --dry-run --Werror finds formatting differences in a source file and exits 1",
    "clang-format --dry-run --Werror src/m.c",
    files=FMT_SRC,
    group="fresh3-clang-format-dirty",
)
add(
    "clang-format-dry-run-no-werror",
    "clang-format",
    "exit0_hidden_failure",
    None,
    "a format check runs clang-format --dry-run without --Werror; it prints code-should-be-clang-formatted warnings and exits 0",
    "clang-format --dry-run src/m.c",
    files=FMT_SRC,
    confirm=r"code should be clang-formatted",
    group="fresh3-clang-format-dirty",
)
add(
    "clang-format-inplace-ok",
    "clang-format",
    "plain_success",
    None,
    "clang-format -i rewrites a file in place and a second --dry-run --Werror pass is clean",
    "clang-format -i src/m.c && clang-format --dry-run --Werror src/m.c && echo formatted",
    files=FMT_SRC,
    confirm=r"formatted",
)

# --- ocaml / nim / sbcl --------------------------------------------------------------------------

add(
    "ocaml-type-error",
    "ocaml",
    "plain_failure",
    None,
    "ocaml runs a script that adds an int to a float; the type checker rejects it and ocaml exits 2",
    "ocaml report.ml",
    files={
        "report.ml": 'let total = List.fold_left (+) 0 [1; 2; 3]\nlet avg = total /. 3.0\nlet () = Printf.printf "%f\\n" avg\n'
    },
    expect=2,
    confirm=r"Error: This expression has type",
)
add(
    "ocaml-not-found-exception",
    "ocaml",
    "plain_failure",
    None,
    "an OCaml config loader looks up a missing key with List.assoc; the uncaught Not_found ends it with exit 2",
    "ocaml config.ml",
    files={
        "config.ml": 'let cfg = [("host", "db"); ("user", "app")]\nlet () = print_endline ("port=" ^ List.assoc "port" cfg)\n'
    },
    expect=2,
    confirm=r"Not_found",
)
add(
    "ocaml-unused-warning-ok",
    "ocaml",
    "success_alarming_stderr",
    None,
    "ocaml runs a script with an unused variable and a non-exhaustive match on a value that is covered; it warns and prints the result",
    "ocaml -w +A stats.ml",
    files={
        "stats.ml": 'let describe n = match n with 0 -> "none" | 1 -> "one"\nlet () =\n  let unused_total = 42 in\n  print_endline ("result: " ^ describe 1)\n'
    },
    confirm=r"(?s)(?=.*Warning)(?=.*result: one)",
)
add(
    "nim-compile-error",
    "nim",
    "plain_failure",
    None,
    "nim c compiles a program that passes a string to an int proc; the type mismatch stops the build and nim exits 1",
    "nim c --hints:off -o:app app.nim",
    files={"app.nim": 'proc double(x: int): int = x * 2\necho double("21")\n'},
    expect=1,
    confirm=r"type mismatch",
    timeout=120,
)
add(
    "nim-run-index-defect",
    "nim",
    "failure_noisy_stderr",
    None,
    "nim c -r builds (with its hint log) and runs a program that indexes past the end of a seq; the IndexDefect ends it with exit 1",
    "nim c -r -o:app app.nim",
    files={"app.nim": "let xs = @[1, 2, 3]\nfor i in 0 .. xs.len:\n  echo xs[i]\n"},
    expect=1,
    confirm=r"IndexDefect|index \d+ not in",
    timeout=120,
)
add(
    "nim-hints-warnings-ok",
    "nim",
    "success_alarming_stderr",
    None,
    "nim c -r builds a program with an unused import warning and runs it; it prints its result",
    "nim c -r --hints:on -o:app app.nim",
    files={
        "app.nim": 'import strutils, os\nlet parts = "a,b,c".split(\',\')\necho "parts: ", parts.len\n'
    },
    confirm=r"(?s)(?=.*Warning|.*Hint)(?=.*parts: 3)",
    timeout=120,
)
add(
    "sbcl-script-error",
    "sbcl",
    "plain_failure",
    None,
    "sbcl --script runs a Lisp script that calls an undefined function; the unhandled error ends it with a backtrace and a non-zero exit",
    "sbcl --script report.lisp",
    files={
        "report.lisp": '(defun total (xs) (reduce #\'+ xs))\n(format t "total ~a~%" (total \'(1 2 3)))\n(format t "avg ~a~%" (average \'(1 2 3)))\n'
    },
    confirm=r"(?i)undefined function",
)
add(
    "sbcl-handler-case-exit0",
    "sbcl",
    "exit0_hidden_failure",
    None,
    "a Lisp import script wraps parsing in handler-case that prints the error and continues; every record fails to parse and it exits 0",
    "sbcl --script import.lisp",
    files={
        "import.lisp": dedent("""
            (defvar *loaded* 0)
            (dolist (rec '("12" "x7" "abc" "4.5.6"))
              (handler-case (progn (parse-integer rec) (incf *loaded*))
                (error (e) (format t "skipping ~s: ~a~%" rec e))))
            (format t "imported ~a of 4 records~%" *loaded*)
        """).replace('"12" ', ""),
    },
    confirm=r"imported 0 of 4 records",
)

# --- doxygen / lcov / redis-cli / checkbashisms / ant --------------------------------------------

add(
    "doxygen-warnings-ok",
    "doxygen",
    "success_alarming_stderr",
    None,
    "doxygen generates HTML for a header with an undocumented parameter; it warns on stderr and writes the docs",
    "doxygen Doxyfile >/dev/null && test -f html/index.html && echo 'docs generated'",
    files={
        "Doxyfile": "PROJECT_NAME = demo\nINPUT = api.h\nGENERATE_LATEX = NO\nWARN_IF_UNDOCUMENTED = YES\nEXTRACT_ALL = NO\nQUIET = YES\n",
        "api.h": "/** @file api.h Public API. */\n/**\n * Open a connection.\n * @param host server name\n * @return a handle or -1 on error\n */\nint open_conn(const char *host, int port);\n",
    },
    confirm=r"(?s)(?=.*warning)(?=.*docs generated)",
)
add(
    "doxygen-warn-as-error",
    "doxygen",
    "plain_failure",
    None,
    "doxygen with WARN_AS_ERROR=YES stops at the undocumented parameter and exits 1",
    "doxygen Doxyfile",
    files={
        "Doxyfile": "PROJECT_NAME = demo\nINPUT = api.h\nGENERATE_LATEX = NO\nWARN_AS_ERROR = YES\nQUIET = YES\n",
        "api.h": "/** @file api.h Public API. */\n/**\n * Open a connection.\n * @param host server name\n * @return a handle or -1 on error\n */\nint open_conn(const char *host, int port);\n",
    },
)
LCOV_FILES = {
    "calc.c": '#include <stdio.h>\nint sign(int v) {\n    if (v < 0) return -1;\n    if (v > 0) return 1;\n    return 0;\n}\nint main(void) {\n    printf("%d\\n", sign(5));\n    return 0;\n}\n',
}
add(
    "lcov-capture-ok",
    "lcov",
    "success_alarming_stderr",
    None,
    "lcov captures coverage after a test run and prints its summary; it notes the processing steps and a partial coverage rate",
    "lcov -q -c -d . -o cov.info && lcov --summary cov.info",
    files=LCOV_FILES,
    setup="gcc --coverage -O0 -o calc calc.c && ./calc >/dev/null",
    needs=("lcov", "gcc"),
    confirm=r"lines\.*:",
)
add(
    "lcov-no-data-or-true",
    "lcov",
    "exit0_hidden_failure",
    None,
    "the coverage step runs lcov --capture before any test ran (no .gcda files) '|| true' and prints that it finished; no coverage data is captured and it exits 0",
    "lcov -c -d . -o cov.info || true; echo 'coverage step finished'",
    files=LCOV_FILES,
    setup="gcc --coverage -O0 -o calc calc.c",
    needs=("lcov", "gcc"),
    confirm=r"no \.gcda files found",
)
REDIS_SETUP = "redis-server --port 0 --unixsocket $PWD/r.sock --save '' --daemonize yes --pidfile $PWD/r.pid --logfile $PWD/r.log && for i in $(seq 50); do [ -S r.sock ] && break; sleep 0.1; done"
REDIS_STOP = "; redis-cli -s r.sock shutdown nosave >/dev/null 2>&1"
add(
    "redis-cli-wrongtype-exit0",
    "redis-cli",
    "exit0_hidden_failure",
    None,
    "a cache warm-up script runs a batch of redis-cli commands; INCR on a string value errors (WRONGTYPE/not an integer) and redis-cli still exits 0",
    "redis-cli -s r.sock SET visits abc >/dev/null; redis-cli -s r.sock INCR visits" + REDIS_STOP,
    setup=REDIS_SETUP,
    needs=("redis-cli", "redis-server"),
    confirm=r"ERR value is not an integer",
)
add(
    "redis-cli-binary-get",
    "redis-cli",
    "non_utf8",
    "success",
    "redis-cli stores a binary thumbnail header and reads it back raw to stdout",
    "printf '\\x89PNG\\r\\n\\x1a\\n\\xff\\xfe\\x00' | redis-cli -s r.sock -x SET thumb >/dev/null && redis-cli -s r.sock --raw GET thumb"
    + REDIS_STOP,
    setup=REDIS_SETUP,
    needs=("redis-cli", "redis-server"),
)
add(
    "redis-cli-refused",
    "redis-cli",
    "plain_failure",
    None,
    "redis-cli pings a port where no Redis server listens; the connection is refused and redis-cli exits 1",
    "redis-cli -h 127.0.0.1 -p 1 PING",
    needs=("redis-cli",),
    expect=1,
    confirm=r"(?i)connection refused",
)
BASHISM = {
    "deploy.sh": "#!/bin/sh\nset -e\nfiles=(a b c)\nfor f in ${files[@]}; do\n  [[ -f $f ]] && echo found $f\ndone\necho done &> deploy.log\n"
}
add(
    "checkbashisms-found",
    "checkbashisms",
    "plain_failure",
    None,
    "checkbashisms scans a /bin/sh script that uses arrays, [[ and &>; it reports the bashisms and exits 1",
    "checkbashisms deploy.sh",
    files=BASHISM,
    expect=1,
    group="fresh3-checkbashisms",
)
add(
    "checkbashisms-find-exec",
    "checkbashisms",
    "exit0_hidden_failure",
    None,
    "a lint step runs checkbashisms through 'find -exec ... \\;' which ignores the status; bashisms are reported and find exits 0",
    "find . -name '*.sh' -exec checkbashisms {} \\;",
    files=BASHISM,
    confirm=r"possible bashism",
    group="fresh3-checkbashisms",
)
ANT_BUILD = dedent("""
    <project name="demo" default="jar">
      <target name="compile">
        <mkdir dir="build/classes"/>
        <javac srcdir="src" destdir="build/classes" includeantruntime="false"/>
      </target>
      <target name="jar" depends="compile">
        <jar destfile="build/demo.jar" basedir="build/classes"/>
      </target>
    </project>
""")
add(
    "ant-compile-error",
    "ant",
    "plain_failure",
    None,
    "ant builds a jar from Java sources with an undefined symbol; javac fails and ant prints BUILD FAILED and exits 1",
    "ant -noinput",
    files={
        "build.xml": ANT_BUILD,
        "src/App.java": 'public class App {\n  public static void main(String[] a) {\n    System.out.println(greet("ant"));\n  }\n}\n',
    },
    expect=1,
    confirm=r"BUILD FAILED",
    timeout=120,
)
add(
    "ant-build-ok",
    "ant",
    "success_alarming_stderr",
    None,
    "ant builds the jar; javac prints a deprecation note ('Note: ... uses or overrides a deprecated API') and ant reports BUILD SUCCESSFUL",
    "ant -noinput",
    files={
        "build.xml": ANT_BUILD,
        "src/App.java": "public class App {\n  public static void main(String[] a) {\n    Integer n = new Integer(5);\n    System.out.println(n);\n  }\n}\n",
    },
    confirm=r"(?s)(?=.*deprecat)(?=.*BUILD SUCCESSFUL)",
    timeout=120,
)

# --- gcc / g++ / make / cmake --------------------------------------------------------------------

add(
    "make-keep-going-last-target-ok",
    "make",
    "exit0_hidden_failure",
    None,
    "a CI script runs 'make -k all; make docs' and reports the last status; the 'all' build fails to compile and the docs target succeeds, so the step exits 0",
    "make -k all; make docs",
    files={
        "Makefile": "all: app tool\napp: app.c\n\tgcc -o app app.c\ntool: tool.c\n\tgcc -o tool tool.c\ndocs:\n\t@echo 'docs built'\n.PHONY: all docs\n",
        "app.c": "int main(void) { return undefined_fn(); }\n",
        "tool.c": "int main(void) { return 0; }\n",
    },
    needs=("make", "gcc"),
    confirm=r"(?s)(?=.*undefined)(?=.*docs built)",
)
add(
    "gcc-fanalyzer-warnings-ok",
    "gcc",
    "success_alarming_stderr",
    None,
    "gcc -fanalyzer compiles a file and warns about a possible NULL dereference on an error path; the binary is built and runs",
    "gcc -fanalyzer -o app app.c && ./app",
    files={
        "app.c": '#include <stdlib.h>\n#include <stdio.h>\nint main(void) {\n    int *p = malloc(sizeof *p);\n    *p = 42;\n    printf("value %d\\n", *p);\n    free(p);\n    return 0;\n}\n'
    },
    confirm=r"(?s)(?=.*warning)(?=.*value 42)",
)
add(
    "gcc-stack-protector-abort",
    "gcc",
    "killed_signalled",
    None,
    "a program built with -fstack-protector-all overflows a stack buffer; the canary check aborts it with SIGABRT",
    ["bash", "-c", "gcc -O0 -fstack-protector-all -o app app.c && exec ./app"],
    files={
        "app.c": '#include <string.h>\n#include <stdio.h>\nint main(void) {\n    char name[8];\n    strcpy(name, "a-much-too-long-user-name");\n    printf("%s\\n", name);\n    return 0;\n}\n'
    },
    expect="SIGABRT",
)
add(
    "gpp-colour-error",
    "g++",
    "coloured_output",
    "failure",
    "g++ -fdiagnostics-color=always compiles code that calls a missing member; the coloured error stops the build",
    "g++ -fdiagnostics-color=always -c shape.cpp",
    files={
        "shape.cpp": "#include <string>\nstruct Shape { std::string name; double area() const { return 0; } };\ndouble f(const Shape &s) { return s.perimeter(); }\n"
    },
)
add(
    "cmake-ctest-output-on-failure-tee",
    "cmake",
    "exit0_hidden_failure",
    None,
    "the CI step builds with cmake and runs 'ctest --output-on-failure | tee ctest.log'; a test fails and tee exits 0",
    "cmake -S . -B build -G 'Unix Makefiles' >/dev/null && cmake --build build >/dev/null && ctest --test-dir build --output-on-failure | tee ctest.log",
    files={
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(t C)\nenable_testing()\nadd_executable(check check.c)\nadd_test(NAME parse_ok COMMAND check 1)\nadd_test(NAME parse_neg COMMAND check -1)\n",
        "check.c": '#include <stdio.h>\n#include <stdlib.h>\nint main(int c, char **v) { int n = atoi(v[1]); if (n < 0) { fprintf(stderr, "parse error: negative value %d\\n", n); return 1; } puts("ok"); return 0; }\n',
    },
    needs=("cmake", "ctest", "gcc"),
    confirm=r"tests failed",
    timeout=120,
)

# --- cargo / rustc / go --------------------------------------------------------------------------

CARGO_TOML = '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
add(
    "cargo-test-nocapture-panics-pass",
    "cargo",
    "success_alarming_stderr",
    None,
    "cargo test --nocapture runs tests of panicking error paths (their panic messages print) and an ignored slow test; all run tests pass",
    "cargo test --offline -q -- --nocapture 2>&1",
    files={
        "Cargo.toml": CARGO_TOML,
        "src/lib.rs": dedent("""
            pub fn parse_port(s: &str) -> u16 { s.parse().expect("invalid port") }

            #[cfg(test)]
            mod tests {
                use super::*;
                #[test]
                fn parse_error_panics_with_message() { let _ = std::panic::catch_unwind(|| parse_port("x")).unwrap_err(); }
                #[test]
                #[should_panic(expected = "invalid port")]
                fn failure_on_garbage() { parse_port("garbage"); }
                #[test]
                #[ignore]
                fn slow_network_test() {}
                #[test]
                fn ok_port() { assert_eq!(parse_port("8080"), 8080); }
            }
        """),
    },
    confirm=r"(?s)(?=.*panicked)(?=.*test result: ok)",
    timeout=180,
)
add(
    "cargo-run-process-exit-zero-after-error",
    "cargo",
    "exit0_hidden_failure",
    None,
    "a Rust CLI prints 'error: failed to read config' with eprintln! and then returns Ok(()) from main; nothing was processed and it exits 0",
    "cargo run --offline -q",
    files={
        "Cargo.toml": CARGO_TOML,
        "src/main.rs": dedent("""
            use std::fs;
            fn main() -> Result<(), Box<dyn std::error::Error>> {
                let cfg = match fs::read_to_string("app.toml") {
                    Ok(c) => c,
                    Err(e) => { eprintln!("error: failed to read config app.toml: {e}"); return Ok(()); }
                };
                println!("loaded {} bytes", cfg.len());
                Ok(())
            }
        """),
    },
    confirm=r"failed to read config",
    timeout=180,
)
add(
    "rustc-unwrap-none-backtrace",
    "rustc",
    "plain_failure",
    None,
    "a Rust program calls unwrap() on a None lookup with RUST_BACKTRACE=1; it panics and exits 101",
    "rustc -o app main.rs && ./app",
    files={
        "main.rs": 'use std::collections::HashMap;\nfn main() {\n    let m: HashMap<&str, u32> = HashMap::new();\n    let v = m.get("retries").unwrap();\n    println!("{v}");\n}\n'
    },
    env={"RUST_BACKTRACE": "1"},
    expect=101,
    confirm=r"called `Option::unwrap\(\)` on a `None` value",
    timeout=120,
)
add(
    "go-test-count-shuffle-fail",
    "go",
    "plain_failure",
    None,
    "go test with -shuffle=on finds a test that depends on package state set by another; it fails and go test exits 1",
    "go test -count=1 -shuffle=1 ./...",
    files={
        "go.mod": "module example.com/state\n\ngo 1.19\n",
        "state_test.go": 'package state\n\nimport "testing"\n\nvar cache = map[string]int{}\n\nfunc TestA_Fill(t *testing.T) { cache["k"] = 1 }\n\nfunc TestB_Read(t *testing.T) {\n\tif cache["k"] != 1 {\n\t\tt.Fatalf("cache not warmed: got %d", cache["k"])\n\t}\n}\n\nfunc TestC_Clear(t *testing.T) { delete(cache, "k") }\n',
    },
    expect=1,
    confirm=r"cache not warmed",
    timeout=180,
)
add(
    "go-waitgroup-jobs-logged",
    "go",
    "exit0_hidden_failure",
    None,
    "a Go worker pool logs each job error with log.Printf and main returns normally; every job fails and it exits 0",
    "go run .",
    files={
        "go.mod": "module example.com/pool\n\ngo 1.19\n",
        "main.go": dedent("""
            package main

            import (
            \t"fmt"
            \t"log"
            \t"os"
            \t"sync"
            )

            func main() {
            \tvar wg sync.WaitGroup
            \tfor _, f := range []string{"a.csv", "b.csv", "c.csv"} {
            \t\twg.Add(1)
            \t\tgo func(name string) {
            \t\t\tdefer wg.Done()
            \t\t\tif _, err := os.ReadFile("in/" + name); err != nil {
            \t\t\t\tlog.Printf("job %s failed: %v", name, err)
            \t\t\t}
            \t\t}(f)
            \t}
            \twg.Wait()
            \tfmt.Println("all jobs dispatched")
            }
        """),
    },
    confirm=r"no such file or directory",
    timeout=180,
)
add(
    "go-run-logs-cache-miss-ok",
    "go",
    "success_alarming_stderr",
    None,
    "go run of a program whose own log output at startup says 'level=error msg=\"cache miss\"' for a handled miss; it then serves the value and exits 0",
    "go run .",
    files={
        "go.mod": "module example.com/cache\n\ngo 1.19\n",
        "main.go": 'package main\n\nimport (\n\t"fmt"\n\t"log"\n)\n\nfunc main() {\n\tlog.Printf("level=ERROR msg=\\"cache miss, loading from database\\" key=user:42")\n\tfmt.Println("user:42 = alice")\n}\n',
    },
    confirm=r"(?s)(?=.*level=ERROR)(?=.*user:42 = alice)",
    timeout=180,
)

# --- java / javac --------------------------------------------------------------------------------

add(
    "java-batch-catch-print-stack",
    "java",
    "exit0_hidden_failure",
    None,
    "a Java batch job catches the exception of each record, prints its stack trace, and finishes with 'processed 0 of 3'; it exits 0",
    "java Batch.java",
    files={
        "Batch.java": dedent("""
            import java.util.List;
            public class Batch {
                public static void main(String[] args) {
                    int ok = 0;
                    for (String rec : List.of("12.5", "n/a", "")) {
                        try {
                            if (Integer.parseInt(rec) >= 0) ok++;
                        } catch (NumberFormatException e) {
                            e.printStackTrace();
                        }
                    }
                    System.out.println("processed " + ok + " of 3");
                }
            }
        """),
    },
    confirm=r"(?s)(?=.*NumberFormatException)(?=.*processed 0 of 3)",
    timeout=120,
)
add(
    "java-xmx-oom-exit",
    "java",
    "killed_signalled",
    None,
    "a Java cache loader fills a list under -Xmx32m with -XX:+ExitOnOutOfMemoryError; the heap runs out and the JVM stops itself with exit 3",
    "java -Xmx32m -XX:+ExitOnOutOfMemoryError Load.java",
    files={
        "Load.java": "import java.util.*;\npublic class Load { public static void main(String[] a) { List<byte[]> l = new ArrayList<>(); while (true) l.add(new byte[1 << 20]); } }\n"
    },
    expect=3,
    confirm=r"OutOfMemoryError|Terminating due to java.lang.OutOfMemoryError",
    timeout=120,
)
add(
    "javac-werror-fails",
    "javac",
    "plain_failure",
    None,
    "javac -Xlint:all -Werror compiles code with a raw-type warning; -Werror turns it into a failure and javac exits 1",
    "javac -Xlint:all -Werror -d out Inv.java",
    files={
        "Inv.java": 'import java.util.*;\npublic class Inv { public static void main(String[] a) { List items = new ArrayList(); items.add("x"); System.out.println(items); } }\n'
    },
    expect=1,
    confirm=r"warnings found and -Werror specified",
    timeout=120,
)

# --- git -----------------------------------------------------------------------------------------

GIT_REPO = "git init -q -b main && echo base > a.txt && git add a.txt && git commit -qm base"
add(
    "git-rebase-conflict-or-true",
    "git",
    "exit0_hidden_failure",
    None,
    "a sync script runs 'git rebase main || true'; the rebase stops on a conflict and the script exits 0 with the branch mid-rebase",
    "git rebase main || true; echo 'sync done'",
    setup=GIT_REPO
    + " && git checkout -qb feature && echo feature > a.txt && git commit -qam feature && git checkout -q main && echo main > a.txt && git commit -qam main && git checkout -q feature",
    confirm=r"CONFLICT",
)
add(
    "git-am-patch-fails",
    "git",
    "plain_failure",
    None,
    "git am applies a mailbox patch that does not match the tree; the patch fails and git am exits 128",
    "git am 0001-change.patch",
    files={
        "0001-change.patch": "From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\nFrom: Dev <dev@example.com>\nDate: Mon, 1 Jan 2024 00:00:00 +0000\nSubject: [PATCH] change b\n\n---\n b.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\ndiff --git a/b.txt b/b.txt\nindex 1111111..2222222 100644\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-old\n+new\n--\n2.39.0\n\n"
    },
    setup=GIT_REPO,
    confirm=r"(?i)patch failed|does not exist",
)
add(
    "git-fsck-progress",
    "git",
    "progress_on_stderr",
    "success",
    "after a quiet git gc, git fsck --progress --full checks a repository of a few hundred commits, printing its progress on stderr",
    "git gc -q && git fsck --progress --full && git count-objects -v | grep '^packs'",
    setup=GIT_REPO + " && for i in $(seq 1 200); do echo $i >> a.txt; git commit -qam c$i; done",
    confirm=r"packs: 1",
    timeout=120,
)
add(
    "git-log-latin1-author",
    "git",
    "non_utf8",
    "success",
    "git log --encoding=ISO-8859-1 prints a commit whose message contains accented words re-encoded to latin-1",
    "git log --encoding=ISO-8859-1 -1 --format='%an: %s'",
    setup=GIT_REPO + " && git commit -q --allow-empty -m 'Résumé des déploiements'",
)

# --- curl / wget ---------------------------------------------------------------------------------

add(
    "curl-write-out-500-ignored",
    "curl",
    "exit0_hidden_failure",
    None,
    "a health probe prints only curl's -w '%{http_code}' into a status line and never compares it; the route raises (500) and the probe exits 0",
    'code=$(curl -s -o body.html -w \'%{http_code}\' "$HTTP_APP/boom"); echo "health probe finished (status $code)"',
    confirm=r"status 500",
)
add(
    "curl-flaky-retry-all-errors-ok",
    "curl",
    "success_alarming_stderr",
    None,
    "curl --retry 4 --retry-all-errors -f fetches a route that answers 503 twice; curl warns about the transient errors, retries, and gets the body",
    'curl --no-progress-meter -f --retry 4 --retry-delay 0 --retry-all-errors "$HTTP_APP/flaky/fresh3-a/2"',
    confirm=r"(?s)(?=.*Warning)(?=.*ok after 3 attempts)",
)
add(
    "wget-continue-tries-fail",
    "wget",
    "failure_noisy_stderr",
    None,
    "wget --tries=3 --waitretry=0 fetches a route that always raises; it prints each failed attempt and exits non-zero",
    'wget --tries=3 --waitretry=0 --retry-on-http-error=500 -O out "$HTTP_APP/boom"',
    confirm=r"500",
)

# --- bash ----------------------------------------------------------------------------------------

add(
    "bash-while-read-subshell-flag",
    "bash",
    "exit0_hidden_failure",
    None,
    "a check script sets failed=1 inside 'cmd | while read' (a subshell), so the flag is lost; a host check fails and the script exits 0",
    "./check_hosts.sh",
    files={
        "check_hosts.sh": dedent("""
            #!/bin/bash
            failed=0
            printf 'db 5432 ok\\ncache 6379 down\\nqueue 5672 ok\\n' | while read -r host port state; do
              if [ "$state" != ok ]; then
                echo "ERROR: $host:$port is $state" >&2
                failed=1
              fi
            done
            [ "$failed" -eq 0 ] && echo "all hosts healthy"
            exit $failed
        """),
    },
    confirm=r"ERROR: cache:6379 is down",
)
add(
    "bash-errexit-in-if-condition",
    "bash",
    "exit0_hidden_failure",
    None,
    "a set -e deploy script calls its build function inside an 'if'; set -e is ignored there, the failing compile step is skipped over and it prints 'deployed'",
    "./deploy.sh",
    files={
        "deploy.sh": dedent("""
            #!/bin/bash
            set -e
            build() {
              gcc -o app missing.c
              echo "build ok"
            }
            if build; then
              echo "deployed"
            fi
        """),
    },
    needs=("bash", "gcc"),
    confirm=r"(?s)(?=.*No such file)(?=.*deployed)",
)
add(
    "bash-retry-loop-recovers",
    "bash",
    "success_alarming_stderr",
    None,
    "a retry loop around a download prints 'attempt N failed' for two 503s on stderr; the third attempt succeeds",
    'for i in 1 2 3 4; do if curl -sf "$HTTP_APP/flaky/fresh3-b/2" -o page.txt; then cat page.txt; break; else echo "attempt $i failed (HTTP error), retrying" >&2; fi; done; test -s page.txt',
    needs=("bash", "curl"),
    confirm=r"(?s)(?=.*attempt 2 failed)(?=.*ok after 3 attempts)",
)
add(
    "bash-timeout-term-chunks",
    "bash",
    "killed_signalled",
    None,
    "a long job script runs under 'timeout -s TERM 1' with no trap; it is terminated and the step exits 124",
    "timeout -s TERM 1 bash -c 'for i in $(seq 1 100); do echo \"processing chunk $i\"; sleep 0.2; done'",
    expect=124,
)
add(
    "bash-colour-log-fail",
    "bash",
    "coloured_output",
    "failure",
    "a release script prints coloured step logs and a red 'ERROR: tag v1.2.0 already exists' and exits 1",
    "./release.sh",
    files={
        "release.sh": "#!/bin/bash\ng=$'\\e[32m'; r=$'\\e[31m'; n=$'\\e[0m'\necho \"${g}==>${n} checking working tree\"\necho \"${g}==>${n} checking tag\"\necho \"${r}ERROR:${n} tag v1.2.0 already exists\" >&2\nexit 1\n",
    },
    expect=1,
)

# --- php / ruby / perl ---------------------------------------------------------------------------

add(
    "php-include-missing-continue",
    "php",
    "exit0_hidden_failure",
    None,
    "a PHP cron script includes a missing file with include (a warning, not fatal) and carries on; the mailer is never loaded, nothing is sent and it exits 0",
    "php -d display_errors=stderr cron.php",
    files={
        "cron.php": "<?php\n@include_once 'vendor/autoload.php';\ninclude 'lib/mailer.php';\n$sent = function_exists('send_digest') ? send_digest() : 0;\necho \"digest run complete: $sent emails sent\\n\";\n"
    },
    confirm=r"(?s)(?=.*Failed opening)(?=.*0 emails sent)",
)
add(
    "php-type-error-fatal",
    "php",
    "plain_failure",
    None,
    "a PHP script with strict_types passes a string to an int parameter; the TypeError is fatal and php exits 255",
    "php calc.php",
    files={
        "calc.php": "<?php\ndeclare(strict_types=1);\nfunction cents(int $amount): int { return $amount * 100; }\necho cents('12'), \"\\n\";\n"
    },
    expect=255,
    confirm=r"TypeError",
)
add(
    "ruby-at-exit-exit-zero",
    "ruby",
    "exit0_hidden_failure",
    None,
    "a Ruby job has an at_exit hook that calls exit!(0) after flushing logs; the job raises and the hook turns the exit into 0",
    "ruby job.rb",
    files={
        "job.rb": "at_exit { $stderr.puts 'flushing logs'; $stderr.flush; exit!(0) }\n$stderr.puts 'starting job'\nrows = File.readlines('input.csv')\nputs rows.size\n"
    },
    confirm=r"(?s)(?=.*flushing logs)",
)
add(
    "ruby-warn-deprecated-ok",
    "ruby",
    "success_alarming_stderr",
    None,
    "a Ruby report script runs with -W:deprecated and uses a deprecated API; ruby warns and the report is printed",
    "ruby -W:deprecated report.rb",
    files={"report.rb": "$; = ','\nputs 'a,b,c'.split.size\nputs 'report: 3 columns'\n"},
    confirm=r"(?s)(?=.*warning)(?=.*report: 3 columns)",
)
add(
    "perl-eval-sections-skipped",
    "perl",
    "exit0_hidden_failure",
    None,
    "a Perl report wraps each section in eval and warns with $@; both sections die and the report prints an empty summary and exits 0",
    "perl report.pl",
    files={
        "report.pl": 'use strict; use warnings;\nmy @out;\nfor my $sec (qw(sales refunds)) {\n  eval { open(my $fh, \'<\', "data/$sec.csv") or die "cannot open data/$sec.csv: $!\\n"; push @out, scalar(<$fh>); 1 } or warn "section $sec skipped: $@";\n}\nprint \'summary: \', scalar(@out), " sections\\n";\n'
    },
    confirm=r"(?s)(?=.*cannot open data/sales\.csv)(?=.*summary: 0 sections)",
)
add(
    "perl-carp-cluck-ok",
    "perl",
    "success_alarming_stderr",
    None,
    "a Perl migration helper calls Carp::cluck for a deprecated option (a stack trace on stderr) and completes the migration",
    "perl migrate.pl",
    files={
        "migrate.pl": "use strict; use warnings; use Carp qw(cluck);\nsub run_step { my %o = @_; cluck('option \"legacy\" is deprecated') if $o{legacy}; return 'applied' }\nprint 'step 1: ', run_step(legacy => 1), \"\\n\";\nprint \"migration complete\\n\";\n"
    },
    confirm=r"(?s)(?=.*deprecated at)(?=.*migration complete)",
)
