"""Fresh batch (split ``fresh``): ninja, meson, autoconf, cppcheck, tcc, gfortran, gcc, make,
cargo, go, java, escript (Erlang) and strace."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh")


# --- ninja ---------------------------------------------------------------------------------------

NINJA = dedent("""
    rule cc
      command = gcc -Wall -Wextra -c $in -o $out
      description = CC $out
    rule link
      command = gcc $in -o $out
      description = LINK $out
    build main.o: cc main.c
    build util.o: cc util.c
    build app: link main.o util.o
""")
MAIN_C = '#include <stdio.h>\nint twice(int);\nint main(void) { printf("%d\\n", twice(21)); return 0; }\n'
add(
    "ninja-build-ok",
    "ninja",
    "plain_success",
    None,
    "ninja compiles and links a two-file C program",
    "ninja && ./app",
    files={
        "build.ninja": NINJA,
        "main.c": MAIN_C,
        "util.c": "int twice(int x) { return 2 * x; }\n",
    },
    confirm=r"^42$|\n42\n",
)
NINJA_BAD = {
    "build.ninja": NINJA,
    "main.c": MAIN_C,
    "util.c": "int twice(int x) { return 2 * y; }\n",
}
add(
    "ninja-compile-error",
    "ninja",
    "plain_failure",
    None,
    "util.c uses an undeclared variable; ninja reports FAILED and stops",
    "ninja",
    files=NINJA_BAD,
    confirm=r"FAILED",
)
add(
    "ninja-then-echo",
    "ninja",
    "exit0_hidden_failure",
    None,
    "build script runs ninja then echoes a completion line; the compile fails and no app is linked",
    "ninja; echo 'build step finished'",
    files=NINJA_BAD,
    confirm=r"FAILED",
)
_many = {
    f"w{i:02d}.c": f"int f{i}(int a, int b) {{ int unused{i}; return a; }}\n" for i in range(14)
}
_rules = "".join(f"build w{i:02d}.o: cc w{i:02d}.c\n" for i in range(14))
add(
    "ninja-k0-warnings-one-error",
    "ninja",
    "failure_noisy_stderr",
    None,
    "ninja -k 0 compiles 14 files full of warnings and one file with an error; the build fails",
    "ninja -k 0 -j 2",
    files={**_many, **NINJA_BAD, "build.ninja": NINJA + _rules},
    confirm=r"FAILED",
)

# --- meson ---------------------------------------------------------------------------------------

CALC_C = dedent("""
    #include <stdio.h>
    #include <stdlib.h>
    int main(int argc, char **argv) {
        if (argc != 4) { fprintf(stderr, "usage: calc A B SUM\\n"); return 2; }
        int a = atoi(argv[1]), b = atoi(argv[2]), want = atoi(argv[3]);
        if (a + b != want) { fprintf(stderr, "calc: %d + %d = %d, expected %d\\n", a, b, a + b, want); return 1; }
        printf("ok %d\\n", a + b);
        return 0;
    }
""")
MESON_OK = "project('calc', 'c')\nexe = executable('calc', 'calc.c')\ntest('add', exe, args: ['2', '3', '5'])\n"
add(
    "meson-setup-compile-ok",
    "meson",
    "plain_success",
    None,
    "meson configures a C project and ninja builds it",
    "meson setup build && meson compile -C build",
    files={"meson.build": MESON_OK, "calc.c": CALC_C},
    confirm=r"Linking target calc",
)
add(
    "meson-missing-dependency",
    "meson",
    "plain_failure",
    None,
    "meson setup needs a dependency that is not installed and stops with an error",
    "meson setup build",
    files={
        "meson.build": "project('img', 'c')\ndep = dependency('libcorpusimg-missing')\nexecutable('img', 'calc.c', dependencies: dep)\n",
        "calc.c": CALC_C,
    },
    confirm=r"libcorpusimg-missing",
)
add(
    "meson-test-or-true",
    "meson",
    "exit0_hidden_failure",
    None,
    "meson test with a wrong expected sum fails; the CI step appends '|| true'",
    "meson test -C build --print-errorlogs || true",
    files={
        "meson.build": "project('calc', 'c')\nexe = executable('calc', 'calc.c')\ntest('add', exe, args: ['2', '3', '5'])\ntest('add-big', exe, args: ['20', '30', '60'])\n",
        "calc.c": CALC_C,
    },
    setup="meson setup build >/dev/null && meson compile -C build >/dev/null",
    confirm=r"expected 60",
)
add(
    "meson-test-verbose-stderr-pass",
    "meson",
    "success_alarming_stderr",
    None,
    "meson test -v shows a test program that prints usage errors for bad-argument checks it expects; all pass",
    "meson test -C build -v",
    files={
        "meson.build": "project('calc', 'c')\nexe = executable('calc', 'calc.c')\ntest('add', exe, args: ['2', '3', '5'])\ntest('usage-error', exe, args: ['1'], should_fail: true)\n",
        "calc.c": CALC_C,
    },
    setup="meson setup build >/dev/null && meson compile -C build >/dev/null",
    confirm=r"(?s)^(?=.*usage: calc)(?=.*Expected Fail:\s+1\s*\nFail:\s+0)",
)
add(
    "meson-compile-warnings",
    "meson",
    "success_alarming_stderr",
    None,
    "meson builds at warning_level=3; the compiler warns about unused parameters but the build succeeds",
    "meson setup build -Dwarning_level=3 >/dev/null && meson compile -C build && ./build/calc 1 1 2",
    files={
        "meson.build": MESON_OK,
        "calc.c": CALC_C
        + "static int helper(int x, int y) { return x; }\nint use(void) { return helper(1, 2); }\n",
    },
    confirm=r"(?s)^(?=.*warning:)(?=.*ok 2)",
)

# --- autoconf ------------------------------------------------------------------------------------

AC_NEEDS_LIB = dedent("""
    AC_INIT([imgtool], [1.0])
    AC_PROG_CC
    AC_CHECK_LIB([corpusimg], [img_open], [], [AC_MSG_ERROR([libcorpusimg is required to build imgtool])])
    AC_CONFIG_FILES([Makefile])
    AC_OUTPUT
""")
MAKEFILE_IN = "all:\n\t@echo built imgtool\n"
add(
    "autoconf-configure-error",
    "autoconf",
    "plain_failure",
    None,
    "configure checks for a library that is not installed and stops with configure: error",
    "autoconf && ./configure",
    files={"configure.ac": AC_NEEDS_LIB, "Makefile.in": MAKEFILE_IN},
    confirm=r"libcorpusimg is required",
)
add(
    "autoconf-steps-ignored",
    "autoconf",
    "exit0_hidden_failure",
    None,
    "build script runs configure and make with '|| true' each; configure fails so nothing is built",
    "autoconf; ./configure || true; make || true; echo 'build script done'",
    files={"configure.ac": AC_NEEDS_LIB, "Makefile.in": MAKEFILE_IN},
    confirm=r"libcorpusimg is required",
)
add(
    "autoconf-obsolete-warnings",
    "autoconf",
    "success_alarming_stderr",
    None,
    "autoconf -Wall warns about obsolete macros in an old configure.ac; configure and make still succeed",
    "autoconf -Wall && ./configure && make",
    files={
        "configure.ac": dedent("""
            AC_INIT([oldtool], [0.9])
            AC_PROG_CC
            AC_HEADER_STDC
            AC_TRY_COMPILE([#include <stdio.h>], [puts("x");], [have_puts=yes], [have_puts=no])
            AC_CONFIG_FILES([Makefile])
            AC_OUTPUT
        """),
        "Makefile.in": "all:\n\t@echo built oldtool\n",
    },
    confirm=r"(?s)^(?=.*obsolete)(?=.*built oldtool)",
)

# --- cppcheck ------------------------------------------------------------------------------------

BUGGY_C = dedent("""
    #include <stdlib.h>
    #include <string.h>
    int first(const int *v) {
        int buf[4];
        for (int i = 0; i <= 4; i++) buf[i] = v[i];
        return buf[0];
    }
    char *dup(const char *s) {
        char *p = malloc(strlen(s));
        strcpy(p, s);
        return p;
    }
    int deref(void) {
        int *p = NULL;
        return *p;
    }
""")
add(
    "cppcheck-default-exit0",
    "cppcheck",
    "exit0_hidden_failure",
    None,
    "static analysis step runs cppcheck without --error-exitcode; it reports errors and exits 0",
    "cppcheck --quiet src/",
    files={"src/buggy.c": BUGGY_C},
    confirm=r"error",
)
add(
    "cppcheck-error-exitcode",
    "cppcheck",
    "plain_failure",
    None,
    "cppcheck with --error-exitcode=1 finds an out-of-bounds write and a null dereference",
    "cppcheck --quiet --error-exitcode=1 src/",
    files={"src/buggy.c": BUGGY_C},
)
add(
    "cppcheck-clean-information",
    "cppcheck",
    "success_alarming_stderr",
    None,
    "cppcheck --enable=all on clean code finds no defects but prints information about missing system includes",
    "cppcheck --enable=all src/",
    files={
        "src/ok.c": '#include <stdio.h>\nint main(void) {\n    puts("hello");\n    return 0;\n}\n',
    },
    confirm=r"(?s)^(?=.*information)(?=.*Checking src/ok\.c)",
)

# --- tcc -----------------------------------------------------------------------------------------

add(
    "tcc-run-ok",
    "tcc",
    "plain_success",
    None,
    "tcc -run compiles and runs a small C program in memory",
    "tcc -run fib.c",
    files={
        "fib.c": '#include <stdio.h>\nint main(void) { long a = 0, b = 1; for (int i = 0; i < 30; i++) { long t = a + b; a = b; b = t; } printf("fib30=%ld\\n", a); return 0; }\n'
    },
    confirm=r"fib30=832040",
)
add(
    "tcc-compile-error",
    "tcc",
    "plain_failure",
    None,
    "tcc rejects a file that calls an undeclared struct member",
    "tcc -o app app.c",
    files={
        "app.c": "struct pt { int x; };\nint main(void) { struct pt p; p.y = 1; return p.x; }\n"
    },
)
add(
    "tcc-run-segv",
    "tcc",
    "killed_signalled",
    None,
    "a program run with tcc -run writes through a NULL pointer and the process dies with SIGSEGV",
    ["tcc", "-run", "crash.c"],
    files={
        "crash.c": '#include <string.h>\nint main(void) { char *p = 0; strcpy(p, "boom"); return 0; }\n'
    },
    expect="SIGSEGV",
)

# --- gfortran ------------------------------------------------------------------------------------

add(
    "gfortran-bounds-error",
    "gfortran",
    "plain_failure",
    None,
    "a Fortran loop runs one past the array end; -fcheck=bounds stops it with a runtime error",
    "gfortran -fcheck=bounds -g -o sum sum.f90 && ./sum",
    files={
        "sum.f90": dedent("""
            program sum
              implicit none
              integer :: a(10), i, s
              a = 1
              s = 0
              do i = 1, 11
                s = s + a(i)
              end do
              print *, 'sum =', s
            end program sum
        """),
    },
    confirm=r"Fortran runtime error",
)
add(
    "gfortran-nonconvergence-stop",
    "gfortran",
    "exit0_hidden_failure",
    None,
    "Newton solver prints that it did not converge and then ends with a plain STOP, exit 0",
    "gfortran -o newton newton.f90 && ./newton",
    files={
        "newton.f90": dedent("""
            program newton
              implicit none
              real(8) :: x, fx
              integer :: it
              x = 0.0d0
              do it = 1, 50
                fx = x**2 + 1.0d0
                if (abs(fx) < 1.0d-10) exit
                x = x - fx / (2.0d0 * x + 1.0d-3)
              end do
              if (abs(fx) >= 1.0d-10) then
                write(*, '(A,I0,A)') 'ERROR: Newton iteration did not converge after ', it - 1, ' steps'
                write(*, '(A)') 'root not written to roots.dat'
              end if
              stop
            end program newton
        """),
    },
    confirm=r"did not converge",
)
add(
    "gfortran-wall-warnings",
    "gfortran",
    "success_alarming_stderr",
    None,
    "gfortran -Wall warns about an unused variable and conversion; the program builds and prints its result",
    "gfortran -Wall -o mean mean.f90 && ./mean",
    files={
        "mean.f90": dedent("""
            program mean
              implicit none
              integer :: i, unused
              real :: s
              integer :: n
              s = 0.0
              do i = 1, 4
                s = s + i
              end do
              n = s / 4
              print '(A,F5.2,A,I0)', 'mean=', s / 4.0, ' floor=', n
            end program mean
        """),
    },
    confirm=r"(?s)^(?=.*Warning)(?=.*mean= 2\.50)",
)
add(
    "gfortran-fpe-trap-sigfpe",
    "gfortran",
    "killed_signalled",
    None,
    "a Fortran program built with -ffpe-trap=zero divides by zero and is ended by SIGFPE",
    ["./ratio"],
    files={
        "ratio.f90": dedent("""
            program ratio
              implicit none
              real :: a, b
              a = 1.0
              read(*, *, end=10) b
            10 continue
              b = 0.0
              print *, 'ratio =', a / b
            end program ratio
        """),
    },
    setup="gfortran -g -ffpe-trap=zero -o ratio ratio.f90",
    expect="SIGFPE",
)
add(
    "gfortran-latin1-output",
    "gfortran",
    "non_utf8",
    "success",
    "a legacy Fortran report prints a Latin-1 city name; the report is complete",
    "gfortran -o report report.f90 && ./report",
    files={
        "report.f90": dedent("""
            program report
              implicit none
              write(*, '(A)') 'station: Z' // achar(252) // 'rich  temp: 12.5'
              write(*, '(A)') 'station: Gen' // achar(232) // 've  temp: 14.0'
              write(*, '(A)') 'report complete'
            end program report
        """),
    },
    confirm=r"report complete",
)

# --- gcc, make -----------------------------------------------------------------------------------

add(
    "gcc-asan-recover-exit0",
    "gcc",
    "exit0_hidden_failure",
    None,
    "checksum tool built with recoverable ASan overflows a heap buffer; halt_on_error=0 lets it exit 0",
    "gcc -g -fsanitize=address -fsanitize-recover=address -o sum sum.c && ./sum",
    files={
        "sum.c": dedent("""
            #include <stdio.h>
            #include <stdlib.h>
            int main(void) {
                int *v = malloc(8 * sizeof(int));
                for (int i = 0; i < 8; i++) v[i] = i;
                long s = 0;
                for (int i = 0; i <= 8; i++) s += v[i];
                printf("checksum computed: %ld\\n", s);
                free(v);
                return 0;
            }
        """),
    },
    env={"ASAN_OPTIONS": "halt_on_error=0:detect_leaks=0"},
    confirm=r"heap-buffer-overflow",
)
add(
    "make-recipe-semicolon",
    "make",
    "exit0_hidden_failure",
    None,
    "the test recipe is './run_tests.sh; echo test run finished' so the failing test script does not fail make",
    "make test",
    files={
        "Makefile": "test:\n\t./run_tests.sh; echo 'test run finished'\n",
        "run_tests.sh": "#!/bin/bash\necho 'test_login ... ok'\necho 'test_logout ... FAIL: session cookie still set'\nexit 1\n",
    },
    confirm=r"FAIL: session cookie",
)
add(
    "make-override-recipe-warning",
    "make",
    "success_alarming_stderr",
    None,
    "a Makefile defines the build recipe twice; make warns about overriding it and builds",
    "make build && test -f out.txt",
    files={
        "Makefile": "build:\n\techo old > out.txt\n\nbuild:\n\techo new > out.txt\n",
    },
    confirm=r"(?s)^(?=.*warning)(?=.*overriding recipe)",
)

# --- cargo ---------------------------------------------------------------------------------------

CARGO_TOML = '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
add(
    "cargo-catch-unwind-recovered",
    "cargo",
    "success_alarming_stderr",
    None,
    "a plugin panics and the host catches it with catch_unwind, logs it and falls back to a default; output is correct",
    "cargo run -q",
    files={
        "Cargo.toml": CARGO_TOML,
        "src/main.rs": dedent("""
            use std::panic;

            fn thumbnail_plugin(name: &str) -> String {
                if name.ends_with(".tiff") {
                    panic!("plugin 'thumbnail' crashed: unsupported format for {name}");
                }
                format!("thumb-{name}")
            }

            fn main() {
                for f in ["a.png", "b.tiff"] {
                    let r = panic::catch_unwind(|| thumbnail_plugin(f));
                    match r {
                        Ok(t) => println!("{f}: {t}"),
                        Err(_) => {
                            eprintln!("error: thumbnail plugin failed for {f}, using placeholder");
                            println!("{f}: placeholder.png");
                        }
                    }
                }
                println!("thumbnails: 2/2 written");
            }
        """),
    },
    confirm=r"(?s)^(?=.*panicked)(?=.*2/2 written)",
    timeout=120,
)
add(
    "cargo-build-grep-v-warning",
    "cargo",
    "exit0_hidden_failure",
    None,
    "build output is filtered with grep -v warning; the crate has a type error and grep exits 0",
    "cargo build 2>&1 | grep -v '^warning'",
    files={
        "Cargo.toml": CARGO_TOML,
        "src/main.rs": 'fn port() -> u16 {\n    "8080"\n}\n\nfn main() {\n    let unused = 1;\n    println!("{}", port());\n}\n',
    },
    confirm=r"E0308",
    timeout=120,
)

# --- go ------------------------------------------------------------------------------------------

GOMOD = "module example.com/app\n\ngo 1.19\n"
add(
    "go-test-json-to-file",
    "go",
    "exit0_hidden_failure",
    None,
    "go test -json goes to a file and the step tails it; one test fails and tail exits 0",
    "go test -json ./... > results.json; tail -n 4 results.json",
    files={
        "go.mod": GOMOD,
        "parse.go": 'package app\n\nimport "strings"\n\nfunc Fields(s string) []string { return strings.Split(s, ",") }\n',
        "parse_test.go": dedent("""
            package app

            import "testing"

            func TestFields(t *testing.T) {
            \tif got := len(Fields("a,b,c")); got != 3 {
            \t\tt.Fatalf("got %d", got)
            \t}
            }

            func TestFieldsTrimsSpaces(t *testing.T) {
            \tif got := Fields("a, b"); got[1] != "b" {
            \t\tt.Fatalf("field 1 = %q, want %q", got[1], "b")
            \t}
            }
        """),
    },
    confirm=r'"Action":"fail"',
    timeout=120,
)
add(
    "go-retry-flaky-logs",
    "go",
    "success_alarming_stderr",
    None,
    "Go client logs each 503 with log.Printf and retries; the third request succeeds",
    "go run .",
    files={
        "go.mod": GOMOD,
        "main.go": dedent("""
            package main

            import (
            \t"fmt"
            \t"io"
            \t"log"
            \t"net/http"
            \t"os"
            \t"time"
            )

            func main() {
            \turl := os.Getenv("HTTP_APP") + "/flaky/fresh-go-retry/2"
            \tfor attempt := 1; attempt <= 5; attempt++ {
            \t\tresp, err := http.Get(url)
            \t\tif err == nil && resp.StatusCode == 200 {
            \t\t\tbody, _ := io.ReadAll(resp.Body)
            \t\t\tfmt.Printf("response: %s", body)
            \t\t\treturn
            \t\t}
            \t\tif err == nil {
            \t\t\terr = fmt.Errorf("unexpected status %s", resp.Status)
            \t\t\tresp.Body.Close()
            \t\t}
            \t\tlog.Printf("ERROR request failed (attempt %d): %v; retrying", attempt, err)
            \t\ttime.Sleep(100 * time.Millisecond)
            \t}
            \tlog.Fatal("giving up")
            }
        """),
    },
    confirm=r"(?s)^(?=.*ERROR request failed)(?=.*response: ok after 3)",
    timeout=120,
)
add(
    "go-recover-worker-panic",
    "go",
    "success_alarming_stderr",
    None,
    "a worker panics on its first try, recover() prints the panic and stack, the retry succeeds and all items are done",
    "go run .",
    files={
        "go.mod": GOMOD,
        "main.go": dedent("""
            package main

            import (
            \t"fmt"
            \t"os"
            \t"runtime/debug"
            )

            var tries = map[int]int{}

            func process(item int) (err error) {
            \tdefer func() {
            \t\tif r := recover(); r != nil {
            \t\t\tfmt.Fprintf(os.Stderr, "panic: %v\\n%s", r, debug.Stack())
            \t\t\terr = fmt.Errorf("item %d: %v", item, r)
            \t\t}
            \t}()
            \ttries[item]++
            \tif item == 2 && tries[item] == 1 {
            \t\tvar m map[string]int
            \t\tm["x"] = 1
            \t}
            \treturn nil
            }

            func main() {
            \tdone := 0
            \tfor item := 1; item <= 3; item++ {
            \t\tif err := process(item); err != nil {
            \t\t\tfmt.Fprintf(os.Stderr, "retrying after error: %v\\n", err)
            \t\t\tif err := process(item); err != nil {
            \t\t\t\tos.Exit(1)
            \t\t\t}
            \t\t}
            \t\tdone++
            \t}
            \tfmt.Printf("processed %d/3 items\\n", done)
            }
        """),
    },
    confirm=r"(?s)^(?=.*panic:)(?=.*processed 3/3)",
    timeout=120,
)
add(
    "go-timeout-kill",
    "go",
    "killed_signalled",
    None,
    "a Go poller never finishes; timeout -s KILL ends it (and itself) after 2 s",
    "go build -o poller . && timeout -s KILL 2 ./poller",
    files={
        "go.mod": GOMOD,
        "main.go": 'package main\n\nimport (\n\t"fmt"\n\t"time"\n)\n\nfunc main() {\n\tfor {\n\t\tfmt.Println("waiting for job queue...")\n\t\ttime.Sleep(500 * time.Millisecond)\n\t}\n}\n',
    },
    expect="SIGKILL",
    timeout=120,
)

# --- java ----------------------------------------------------------------------------------------

add(
    "java-jul-severe-exit0",
    "java",
    "exit0_hidden_failure",
    None,
    "report job logs SEVERE with the IOException when writing the report fails, then main returns normally",
    "java Report.java",
    files={
        "Report.java": dedent("""
            import java.io.*;
            import java.util.logging.*;

            public class Report {
                private static final Logger LOG = Logger.getLogger("report");
                public static void main(String[] args) {
                    try (Writer w = new FileWriter("/nonexistent-dir/report.csv")) {
                        w.write("id,total\\n");
                    } catch (IOException e) {
                        LOG.log(Level.SEVERE, "failed to write report", e);
                    }
                    System.out.println("report job finished");
                }
            }
        """),
    },
    confirm=r"FileNotFoundException",
)
add(
    "java-connect-fallback-cache",
    "java",
    "success_alarming_stderr",
    None,
    "config client cannot reach the config server (stack trace logged as WARNING) and loads the cached copy as designed",
    "java Config.java",
    files={
        "Config.java": dedent("""
            import java.net.*;
            import java.nio.file.*;
            import java.util.logging.*;

            public class Config {
                private static final Logger LOG = Logger.getLogger("config");
                public static void main(String[] args) throws Exception {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress("127.0.0.1", 1), 1000);
                    } catch (ConnectException e) {
                        LOG.log(Level.WARNING, "config server unreachable, falling back to cache", e);
                    }
                    var lines = Files.readAllLines(Path.of("config.cache"));
                    System.out.println("loaded " + lines.size() + " settings from cache");
                }
            }
        """),
        "config.cache": "db=postgres\nport=5432\npool=8\n",
    },
    confirm=r"(?s)^(?=.*ConnectException)(?=.*loaded 3 settings)",
)
add(
    "java-timeout-124",
    "java",
    "killed_signalled",
    None,
    "a Java job waits forever on a latch; timeout 4 ends it with exit 124",
    "timeout 4 java Wait.java",
    files={
        "Wait.java": 'import java.util.concurrent.*;\npublic class Wait {\n  public static void main(String[] a) throws Exception {\n    System.out.println("waiting for workers");\n    new CountDownLatch(1).await();\n  }\n}\n',
    },
    expect=124,
)
add(
    "java-log-flood-then-exception",
    "java",
    "failure_noisy_stderr",
    None,
    "an import job logs 300 INFO records, then hits an invalid row and dies with an exception",
    "java Import.java",
    files={
        "Import.java": dedent("""
            import java.util.logging.*;

            public class Import {
                private static final Logger LOG = Logger.getLogger("import");
                public static void main(String[] args) {
                    for (int i = 1; i <= 300; i++) {
                        LOG.info("imported row " + i + " into table customers");
                    }
                    String row = "301;ACME;not-a-number";
                    int credit = Integer.parseInt(row.split(";")[2]);
                    System.out.println(credit);
                }
            }
        """),
    },
    confirm=r"NumberFormatException",
)

# --- escript (Erlang) ----------------------------------------------------------------------------

add(
    "escript-badarg-crash",
    "erlang",
    "plain_failure",
    None,
    "an escript parses a port number that is not an integer and crashes",
    "escript port.escript",
    files={
        "port.escript": '#!/usr/bin/env escript\nmain(_) ->\n    Port = list_to_integer("80a"),\n    io:format("port ~p~n", [Port]).\n',
    },
    needs=("escript",),
)
add(
    "escript-spawned-crash-exit0",
    "erlang",
    "exit0_hidden_failure",
    None,
    "an escript spawns the batch worker, which crashes with badarith; main prints 'batch submitted' and exits 0",
    "escript batch.escript",
    files={
        "batch.escript": dedent("""
            #!/usr/bin/env escript
            main(_) ->
                spawn(fun() -> work([10, 5, 0]) end),
                timer:sleep(300),
                io:format("batch submitted~n").

            work(Xs) ->
                [io:format("ratio ~p~n", [100 div X]) || X <- Xs].
        """),
    },
    needs=("escript",),
    confirm=r"badarith",
)
add(
    "escript-retry-after-crash",
    "erlang",
    "success_alarming_stderr",
    None,
    "a monitored worker crashes on the first try (crash report printed), the retry succeeds and the result is printed",
    "escript retry.escript",
    files={
        "retry.escript": dedent("""
            #!/usr/bin/env escript
            main(_) ->
                R = run(1),
                io:format("result: ~p~n", [R]).

            run(Attempt) ->
                {Pid, Ref} = spawn_monitor(fun() -> exit({result, compute(Attempt)}) end),
                receive
                    {'DOWN', Ref, process, Pid, {result, V}} -> V;
                    {'DOWN', Ref, process, Pid, Reason} ->
                        io:format(standard_error, "worker crashed: ~p, retrying~n", [Reason]),
                        run(Attempt + 1)
                end.

            compute(1) -> erlang:error({badmatch, timeout});
            compute(_) -> 42.
        """),
    },
    needs=("escript",),
    confirm=r"(?s)^(?=.*worker crashed)(?=.*result: 42)",
)

# --- strace --------------------------------------------------------------------------------------

add(
    "strace-enoent-success",
    "strace",
    "success_alarming_stderr",
    None,
    "strace of a Python one-liner floods stderr with ENOENT lookups; the traced program succeeds",
    "strace -f -e trace=openat,stat,newfstatat python3 -c 'import json; print(json.dumps({\"ok\": True}))'",
    confirm=r'(?s)^(?=.*ENOENT)(?=.*"ok": true)',
)
add(
    "strace-traced-failure",
    "strace",
    "failure_noisy_stderr",
    None,
    "strace of a program that cannot open its config; the syscall trace buries the error and the exit is 1",
    "strace -f -e trace=file python3 -c 'open(\"/etc/corpus-app/app.conf\")'",
    expect=1,
    confirm=r"FileNotFoundError",
)
