"""Seventh fresh batch (ids ``fresh7-*``): C/C++ (gcc, g++, clang, make, cmake/ctest, gcov, ar,
size), Rust (cargo, clippy), Go, Java (javac, java, jar, jshell, keytool), Erlang (erlc), Elixir's
mix, OCaml's dune, and gawk under a file-size limit."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh7")

# --- C / C++ -------------------------------------------------------------------------------------

add(
    "gcc-mmap-truncated-index-sigbus",
    "gcc",
    "killed_signalled",
    None,
    "a C index reader mmaps two pages of an index file that was truncated to one page; touching the second page raises SIGBUS",
    "gcc -O0 -o reader reader.c && head -c 4096 /dev/zero > index.bin && exec ./reader index.bin",
    files={
        "reader.c": dedent("""
            #include <fcntl.h>
            #include <stdio.h>
            #include <sys/mman.h>
            #include <unistd.h>
            int main(int argc, char **argv) {
                int fd = open(argv[1], O_RDONLY);
                if (fd < 0) { perror("open"); return 1; }
                size_t len = 2 * 4096;  /* the header promised two pages */
                unsigned char *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
                if (p == MAP_FAILED) { perror("mmap"); return 1; }
                printf("page 0 checksum byte: %d\\n", p[0]);
                fflush(stdout);
                printf("page 1 checksum byte: %d\\n", p[4096]);
                return 0;
            }
        """),
    },
    expect="SIGBUS",
    confirm=r"page 0 checksum",
)
add(
    "gpp-map-key-template-error",
    "g++",
    "failure_noisy_stderr",
    None,
    "g++ compiles a std::map keyed by a struct with no operator<; the instantiation error runs to dozens of lines of template notes and the build fails",
    "g++ -std=c++17 -c registry.cpp",
    files={
        "registry.cpp": dedent("""
            #include <map>
            #include <string>
            struct Key { std::string ns; int id; };
            int main() {
                std::map<Key, std::string> reg;
                reg[{"core", 1}] = "logger";
                return reg.size() == 1 ? 0 : 1;
            }
        """),
    },
    confirm=r"no match for .{1,3}operator<",
)
add(
    "gpp-undeclared-colour",
    "g++",
    "coloured_output",
    "failure",
    "g++ with -fdiagnostics-color=always hits an undeclared identifier after a rename; the coloured error fails the build",
    "g++ -fdiagnostics-color=always -std=c++17 -c parser.cpp",
    files={
        "parser.cpp": "#include <string>\nint parse_port(const std::string& s) {\n    int value = std::stoi(s);\n    return vaule > 0 ? value : 8080;\n}\n",
    },
    confirm=r"vaule",
)
add(
    "gcc-latin1-source-error",
    "gcc",
    "non_utf8",
    "failure",
    "gcc compiles a legacy C file saved as ISO-8859-1; a misspelled variable on a line with a latin-1 string makes gcc quote the raw bytes and fail",
    "gcc -c messages.c",
    files={
        "messages.c": b'#include <stdio.h>\nvoid greet(const char *name) {\n    printf("Gr\xfc\xdfe aus K\xf6ln, %s!\\n", nmae);\n}\n',
    },
    confirm=r"undeclared",
)
add(
    "clang-analyze-null-deref-exit0",
    "clang",
    "exit0_hidden_failure",
    None,
    "the static-analysis step runs clang --analyze, which reports a null dereference as a warning and exits 0; the bug it was run to catch is there",
    "clang --analyze -Xanalyzer -analyzer-output=text config.c",
    files={
        "config.c": dedent("""
            #include <stdlib.h>
            #include <string.h>
            struct cfg { char *name; int port; };
            struct cfg *load(const char *s) {
                struct cfg *c = NULL;
                if (s && *s) {
                    c = malloc(sizeof *c);
                    c->name = strdup(s);
                }
                c->port = 8080;
                return c;
            }
        """),
    },
    confirm=r"dereference of a null pointer",
)
add(
    "ar-missing-object",
    "ar",
    "plain_failure",
    None,
    "a library build archives util.o, which the previous step never produced; ar cannot find it and exits 1",
    "gcc -c -o strbuf.o strbuf.c && ar rcs libcore.a strbuf.o util.o",
    files={"strbuf.c": "int strbuf_len(const char *s){int n=0;while(s[n])n++;return n;}\n"},
    needs=("ar", "gcc"),
    expect=1,
    confirm=r"util\.o",
)
add(
    "size-budget-awk-prints-over",
    "size",
    "exit0_hidden_failure",
    None,
    "a firmware size gate prints a message from awk when .text exceeds the 1 KiB budget but never exits non-zero; the binary is over budget and the gate exits 0",
    'gcc -Os -o fw fw.c -lm && size fw | awk \'NR==2 { if ($1 > 1024) print "text segment " $1 " bytes exceeds budget of 1024"; else print "size ok" }\'',
    files={
        "fw.c": '#include <stdio.h>\n#include <math.h>\nint main(int c, char **v){ printf("%f %s\\n", sqrt((double)c), v[0]); return 0; }\n',
    },
    needs=("size", "gcc"),
    confirm=r"exceeds budget",
)
add(
    "gcov-line-coverage-report",
    "gcov",
    "plain_success",
    None,
    "a coverage build runs its self-test and gcov reports line coverage for the source file",
    "gcc --coverage -O0 -o calc calc.c && ./calc && gcov -n calc.c",
    files={
        "calc.c": dedent("""
            #include <stdio.h>
            static int add(int a, int b) { return a + b; }
            static int sub(int a, int b) { return a - b; }
            int main(void) {
                if (add(2, 3) != 5) return 1;
                if (sub(5, 3) != 2) return 1;
                puts("self-test passed");
                return 0;
            }
        """),
    },
    needs=("gcov", "gcc"),
    confirm=r"Lines executed:",
)

# --- make / cmake / ctest ------------------------------------------------------------------------

add(
    "make-overriding-recipe-warning-ok",
    "make",
    "success_alarming_stderr",
    None,
    "a Makefile that includes a shared rules file redefines the clean recipe; make warns about overriding and ignoring recipes and the build succeeds",
    "make && ./app",
    files={
        "rules.mk": "clean:\n\trm -f *.o\n",
        "Makefile": "app: main.o\n\t$(CC) -o $@ $^\n\nmain.o: main.c\n\t$(CC) -c main.c\n\nclean:\n\trm -f *.o app\n\ninclude rules.mk\n",
        "main.c": '#include <stdio.h>\nint main(void){puts("app built");return 0;}\n',
    },
    needs=("make", "gcc"),
    confirm=r"(?s)(?=.*warning: overriding recipe)(?=.*app built)",
)
CTEST_PROJECT = {
    "CMakeLists.txt": dedent("""
        cmake_minimum_required(VERSION 3.16)
        project(ring C)
        enable_testing()
        add_executable(test_ring test_ring.c)
        add_test(NAME push_pop COMMAND test_ring push_pop)
        add_test(NAME wraparound COMMAND test_ring wraparound)
        add_test(NAME empty COMMAND test_ring empty)
    """),
    "test_ring.c": dedent("""
        #include <stdio.h>
        #include <string.h>
        #define CAP 4
        static int buf[CAP], head, tail, count;
        static void push(int v) { buf[tail] = v; tail = (tail + 1) % CAP; count++; }
        static int pop(void) { int v = buf[head]; head = (head + 1) % CAP; count--; return v; }
        int main(int argc, char **argv) {
            if (!strcmp(argv[1], "push_pop")) { push(1); return pop() == 1 ? 0 : 1; }
            if (!strcmp(argv[1], "wraparound")) {
                for (int i = 0; i < 6; i++) push(i);
                int first = pop();
                printf("expected oldest element 2, got %d\\n", first);
                return first == 2 ? 0 : 1;
            }
            return count == 0 ? 0 : 1;
        }
    """),
}
add(
    "ctest-wraparound-fails",
    "ctest",
    "plain_failure",
    None,
    "ctest runs a ring buffer's three tests; the wraparound test fails and ctest exits 8",
    "ctest --test-dir build --output-on-failure",
    files=CTEST_PROJECT,
    setup="cmake -S . -B build -DCMAKE_BUILD_TYPE=Debug >/dev/null && cmake --build build >/dev/null",
    expect=8,
    confirm=r"The following tests FAILED",
    group="fresh7-ctest-ring",
)
add(
    "ctest-piped-tail-exit0",
    "ctest",
    "exit0_hidden_failure",
    None,
    "the CI step pipes ctest into tail -n 6 to keep the log short; a test failed and the pipeline exits 0",
    "ctest --test-dir build | tail -n 6",
    files=CTEST_PROJECT,
    setup="cmake -S . -B build -DCMAKE_BUILD_TYPE=Debug >/dev/null && cmake --build build >/dev/null",
    confirm=r"tests passed, 1 tests failed",
    group="fresh7-ctest-ring",
)
add(
    "cmake-old-minimum-deprecation-ok",
    "cmake",
    "success_alarming_stderr",
    None,
    "cmake configures and builds a project that still declares cmake_minimum_required(VERSION 2.8); it prints a CMake Deprecation Warning and the build succeeds",
    "cmake -S . -B build && cmake --build build && ./build/hello",
    files={
        "CMakeLists.txt": "cmake_minimum_required(VERSION 2.8)\nproject(hello C)\nadd_executable(hello hello.c)\n",
        "hello.c": '#include <stdio.h>\nint main(void){puts("hello from cmake");return 0;}\n',
    },
    timeout=90,
    confirm=r"(?s)(?=.*Deprecation Warning)(?=.*hello from cmake)",
)

# --- Rust ----------------------------------------------------------------------------------------

CARGO_TOML = '[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
add(
    "cargo-should-panic-nocapture-ok",
    "cargo",
    "success_alarming_stderr",
    None,
    "cargo test -- --nocapture runs should_panic tests; the expected panic messages are printed and the test result is ok",
    "cargo test -q -- --nocapture",
    files={
        "Cargo.toml": CARGO_TOML.format(name="ratio"),
        "src/lib.rs": dedent("""
            pub fn ratio(a: u32, b: u32) -> u32 {
                if b == 0 {
                    panic!("divisor must be non-zero (got a={a}, b={b})");
                }
                a / b
            }

            #[cfg(test)]
            mod tests {
                use super::*;
                #[test]
                fn divides() { assert_eq!(ratio(10, 2), 5); }
                #[test]
                #[should_panic(expected = "divisor must be non-zero")]
                fn rejects_zero() { ratio(1, 0); }
            }
        """),
    },
    timeout=180,
    confirm=r"(?s)(?=.*panicked at)(?=.*test result: ok\. 2 passed)",
)
add(
    "cargo-build-unused-warnings-colour",
    "cargo",
    "coloured_output",
    "success",
    "cargo build --color=always compiles a crate with unused-variable and dead-code warnings; the coloured warnings print and the build finishes",
    "cargo build --color=always && ./target/debug/greeter",
    files={
        "Cargo.toml": CARGO_TOML.format(name="greeter"),
        "src/main.rs": 'fn legacy_banner() -> &\'static str { "v0" }\n\nfn main() {\n    let retries = 3;\n    println!("hello from greeter");\n}\n',
    },
    timeout=180,
    confirm=r"(?s)(?=.*warning)(?=.*hello from greeter)",
)

# --- Go ------------------------------------------------------------------------------------------

GO_MOD = "module example.com/{name}\n\ngo 1.19\n"
add(
    "go-test-logs-errors-pass",
    "go",
    "success_alarming_stderr",
    None,
    "go test -v runs a reconnecting client whose code logs 'ERROR dial tcp ... connection refused' before the simulated server comes up; every test passes",
    "go test -v -count=1 .",
    files={
        "go.mod": GO_MOD.format(name="reconnect"),
        "client.go": dedent("""
            package reconnect

            import (
                "errors"
                "log"
            )

            type Dialer func() error

            func Connect(d Dialer, attempts int) error {
                for i := 1; i <= attempts; i++ {
                    err := d()
                    if err == nil {
                        log.Printf("INFO connected after %d attempt(s)", i)
                        return nil
                    }
                    log.Printf("ERROR attempt %d: %v", i, err)
                }
                return errors.New("giving up")
            }
        """),
        "client_test.go": dedent("""
            package reconnect

            import (
                "errors"
                "testing"
            )

            func TestConnectRecovers(t *testing.T) {
                n := 0
                d := func() error {
                    n++
                    if n < 3 {
                        return errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")
                    }
                    return nil
                }
                if err := Connect(d, 5); err != nil {
                    t.Fatal(err)
                }
            }

            func TestConnectGivesUp(t *testing.T) {
                err := Connect(func() error { return errors.New("dial tcp: i/o timeout") }, 2)
                if err == nil {
                    t.Fatal("expected an error")
                }
            }
        """),
    },
    timeout=120,
    confirm=r"(?s)(?=.*ERROR attempt 1: dial tcp)(?=.*\nok\s)",
)
add(
    "go-run-deadlock",
    "go",
    "failure_noisy_stderr",
    None,
    "a Go worker pool never closes its results channel; the runtime reports 'all goroutines are asleep - deadlock!' with goroutine stacks and exits 2",
    "go run .",
    files={
        "go.mod": GO_MOD.format(name="pool"),
        "main.go": dedent("""
            package main

            import (
                "fmt"
                "sync"
            )

            func main() {
                jobs := make(chan int)
                results := make(chan int)
                var wg sync.WaitGroup
                for w := 0; w < 3; w++ {
                    wg.Add(1)
                    go func() {
                        defer wg.Done()
                        for j := range jobs {
                            results <- j * j
                        }
                    }()
                }
                go func() {
                    for i := 1; i <= 5; i++ {
                        jobs <- i
                    }
                    close(jobs)
                }()
                sum := 0
                for r := range results {
                    sum += r
                }
                wg.Wait()
                fmt.Println("sum of squares:", sum)
            }
        """),
    },
    timeout=120,
    expect=1,
    confirm=r"all goroutines are asleep - deadlock",
)

# --- Java ----------------------------------------------------------------------------------------

add(
    "keytool-jks-proprietary-warning",
    "keytool",
    "success_alarming_stderr",
    None,
    "keytool generates a dev keypair in a JKS keystore and warns that JKS is a proprietary format; the keystore is created",
    "keytool -genkeypair -alias dev -keyalg RSA -keysize 2048 -dname 'CN=localhost' -validity 30 -storetype JKS -keystore dev.jks -storepass changeit -keypass changeit && ls -l dev.jks | awk '{print $9}'",
    timeout=90,
    confirm=r"(?s)(?=.*Warning)(?=.*proprietary format)(?=.*dev\.jks)",
)
add(
    "jar-build-and-list",
    "jar",
    "plain_success",
    None,
    "javac compiles a CLI and jar packages it with a Main-Class entry; the jar lists its classes and runs",
    "mkdir -p out && javac -d out src/App.java && jar --create --file app.jar --main-class App -C out . && jar tf app.jar && java -jar app.jar",
    files={
        "src/App.java": 'public class App {\n  public static void main(String[] a) { System.out.println("app 1.0 ready"); }\n}\n'
    },
    needs=("jar", "javac", "java"),
    timeout=90,
    confirm=r"app 1\.0 ready",
)
add(
    "java-jar-no-main-manifest",
    "java",
    "plain_failure",
    None,
    "the packaged jar was built without a Main-Class; java -jar reports 'no main manifest attribute' and exits 1",
    "mkdir -p out && javac -d out src/App.java && jar --create --file app.jar -C out . && java -jar app.jar",
    files={
        "src/App.java": 'public class App {\n  public static void main(String[] a) { System.out.println("app 1.0 ready"); }\n}\n'
    },
    needs=("jar", "javac", "java"),
    timeout=90,
    expect=1,
    confirm=r"no main manifest attribute",
)
add(
    "jshell-script-errors-exit0",
    "jshell",
    "exit0_hidden_failure",
    None,
    "the agent checks a snippet with a jshell script; one statement does not compile and another throws, jshell reports both and exits 0",
    "jshell -q check.jsh",
    files={
        "check.jsh": dedent("""
            import java.time.*;
            var d = LocalDate.parse("2024-02-30");
            System.out.println("parsed " + d);
            int total = List.of(1, 2, 3).stream().mapToInt(i -> i).summ();
            System.out.println("total " + total);
            /exit
        """),
    },
    timeout=90,
    confirm=r"DateTimeParseException|cannot find symbol",
)
add(
    "javac-xlint-deprecation-warnings-ok",
    "javac",
    "success_alarming_stderr",
    None,
    "javac -Xlint:all compiles code using APIs marked for removal; it prints deprecation and removal warnings and produces the class files",
    "mkdir -p out && javac -Xlint:all -d out src/Legacy.java && java -cp out Legacy",
    files={
        "src/Legacy.java": dedent("""
            import java.util.*;
            public class Legacy {
                public static void main(String[] args) {
                    Integer boxed = new Integer(42);
                    List raw = new ArrayList();
                    raw.add(boxed);
                    System.out.println("legacy ok " + raw);
                }
            }
        """),
    },
    needs=("javac", "java"),
    timeout=90,
    confirm=r"(?s)(?=.*warning: \[removal\])(?=.*legacy ok \[42\])",
)

# --- Erlang / Elixir / OCaml ---------------------------------------------------------------------

add(
    "erlc-unused-warnings-ok",
    "erlc",
    "success_alarming_stderr",
    None,
    "erlc compiles a module with an unused variable and an unused function; it prints warnings and writes the .beam",
    "erlc shop.erl && ls shop.beam",
    files={
        "shop.erl": dedent("""
            -module(shop).
            -export([total/1]).

            total(Items) ->
                Tax = 0.2,
                lists:sum([P * Q || {P, Q} <- Items]).

            old_total(Items) -> length(Items).
        """),
    },
    timeout=60,
    confirm=r"(?s)(?=.*[Ww]arning: variable 'Tax' is unused)(?=.*shop\.beam)",
)
add(
    "erlc-syntax-error",
    "erlc",
    "plain_failure",
    None,
    "erlc compiles a module with a missing comma between clauses' expressions; it reports a syntax error and exits 1",
    "erlc shop.erl",
    files={
        "shop.erl": "-module(shop).\n-export([total/1]).\n\ntotal(Items) ->\n    Sum = lists:sum([P * Q || {P, Q} <- Items])\n    Sum * 1.2.\n",
    },
    timeout=60,
    expect=1,
    confirm=r"syntax error",
)
add(
    "mix-test-one-failure",
    "mix",
    "plain_failure",
    None,
    "mix test runs a new project's ExUnit suite; a string-formatting test fails and mix exits 2",
    "mix test",
    files={
        "mix.exs": dedent("""
            defmodule Fmt.MixProject do
              use Mix.Project
              def project, do: [app: :fmt, version: "0.1.0", elixir: "~> 1.14", deps: []]
            end
        """),
        "lib/fmt.ex": dedent("""
            defmodule Fmt do
              def money(cents), do: "$" <> Integer.to_string(div(cents, 100)) <> "." <> Integer.to_string(rem(cents, 100))
            end
        """),
        "test/test_helper.exs": "ExUnit.start()\n",
        "test/fmt_test.exs": dedent("""
            defmodule FmtTest do
              use ExUnit.Case
              test "whole dollars", do: assert Fmt.money(1250) == "$12.50"
              test "pads cents", do: assert Fmt.money(1205) == "$12.05"
            end
        """),
    },
    env={"MIX_ENV": "test"},
    timeout=180,
    expect="nonzero",
    confirm=r"2 tests, 1 failure",
)
add(
    "dune-build-type-error",
    "dune",
    "plain_failure",
    None,
    "dune build compiles an OCaml executable that adds an int to a float; the type error fails the build with exit 1",
    "dune build 2>&1",
    files={
        "dune-project": "(lang dune 2.9)\n",
        "bin/dune": "(executable (name main))\n",
        "bin/main.ml": 'let average xs = List.fold_left ( + ) 0 xs / List.length xs\nlet () = Printf.printf "%f\\n" (average [1; 2; 3] +. 0.5)\n',
    },
    timeout=120,
    expect=1,
    confirm=r"Error: This expression has type int",
)

# --- gawk under a file-size limit ----------------------------------------------------------------

add(
    "gawk-report-ulimit-fsize-sigxfsz",
    "gawk",
    "killed_signalled",
    None,
    "a report job expands a CSV with gawk under a 64 KiB file-size limit; the output passes the limit and the kernel kills gawk with SIGXFSZ",
    "seq 1 20000 | sed 's/$/,widget,19.99/' > sales.csv && ulimit -f 64 && exec gawk -F, '{ for (i = 0; i < 3; i++) printf \"%s,%s,%s,region-%d\\n\", $1, $2, $3, i }' sales.csv > report.csv",
    expect="SIGXFSZ",
)
