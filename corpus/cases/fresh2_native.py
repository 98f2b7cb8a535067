"""Second fresh batch (split ``fresh``, ids ``fresh2-*``): more runs of go, cargo, rustc, java,
javac, gcc, g++, gfortran, valgrind, make, cmake, ruby, perl, php, lua, tcl, erlang, bash, tar,
git, gpg, curl, wget, sqlite3 and diff, weighted toward hidden failures and alarming successes."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh2")


GOMOD = "module example.com/app\n\ngo 1.19\n"
CARGO_TOML = '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'

# --- go ------------------------------------------------------------------------------------------

GO_PARSE = {
    "go.mod": GOMOD,
    "parse.go": dedent("""
        package app

        import (
            "fmt"
            "log"
            "strconv"
        )

        func ParsePort(s string) (int, error) {
            n, err := strconv.Atoi(s)
            if err != nil {
                log.Printf("ERROR invalid port %q: %v", s, err)
                return 0, fmt.Errorf("invalid port %q", s)
            }
            return n, nil
        }
    """),
    "parse_test.go": dedent("""
        package app

        import "testing"

        func TestParsePort(t *testing.T) {
            if n, _ := ParsePort("8080"); n != 8080 {
                t.Fatalf("got %d", n)
            }
        }

        func TestParsePortRejects(t *testing.T) {
            if _, err := ParsePort("80a"); err == nil {
                t.Fatal("accepted 80a")
            }
        }
    """),
}
add(
    "go-test-logged-error-pass",
    "go",
    "success_alarming_stderr",
    None,
    "go test -v passes; the parser under test logs 'ERROR invalid port' for the rejected input",
    "go test -v ./...",
    files=GO_PARSE,
    timeout=120,
    confirm=r"(?s)^(?=.*ERROR invalid port)(?=.*\nok\s)",
)
GO_FAIL = {
    **GO_PARSE,
    "parse_test.go": GO_PARSE["parse_test.go"].replace(
        'ParsePort("8080"); n != 8080', 'ParsePort("08080"); n != 80'
    ),
}
add(
    "go-test-json-jq",
    "go",
    "exit0_hidden_failure",
    None,
    "CI pipes 'go test -json' into jq to list failed tests; one test fails and jq exits 0",
    'go test -json ./... | jq -r \'select(.Action == "fail" and .Test != null) | "FAILED: \\(.Test)"\'',
    files=GO_FAIL,
    needs=("go", "jq"),
    timeout=120,
    confirm=r"FAILED: TestParsePort",
)
add(
    "go-test-v-many-one-fail",
    "go",
    "failure_noisy_stderr",
    None,
    "go test -v runs 60 passing subtests and one failing one and exits 1",
    "go test -v ./...",
    files={
        "go.mod": GOMOD,
        "sq_test.go": dedent("""
            package app

            import ("fmt"; "testing")

            func sq(x int) int { if x == 42 { return 0 }; return x * x }

            func TestSquares(t *testing.T) {
                for i := 0; i < 61; i++ {
                    i := i
                    t.Run(fmt.Sprintf("n=%d", i), func(t *testing.T) {
                        t.Logf("checking %d", i)
                        if sq(i) != i*i { t.Errorf("sq(%d) = %d, want %d", i, sq(i), i*i) }
                    })
                }
            }
        """),
    },
    timeout=120,
    confirm=r"sq\(42\) = 0",
)
add(
    "go-worker-error-logged",
    "go",
    "exit0_hidden_failure",
    None,
    "a go sync tool runs workers that log their errors; every worker fails, main ignores it and prints 'sync complete'",
    "go run .",
    files={
        "go.mod": GOMOD,
        "main.go": dedent("""
            package main

            import ("errors"; "fmt"; "log"; "sync")

            func syncShard(n int) error { return errors.New(fmt.Sprintf("shard %d: dial tcp 127.0.0.1:9042: connect: connection refused", n)) }

            func main() {
                var wg sync.WaitGroup
                for i := 0; i < 3; i++ {
                    wg.Add(1)
                    go func(n int) {
                        defer wg.Done()
                        if err := syncShard(n); err != nil { log.Printf("worker %d: %v", n, err) }
                    }(i)
                }
                wg.Wait()
                fmt.Println("sync complete")
            }
        """),
    },
    timeout=120,
    confirm=r"connection refused",
)
add(
    "go-deadlock",
    "go",
    "plain_failure",
    None,
    "a go program blocks on a channel nobody writes to; the runtime reports a deadlock and exits 2",
    "go run .",
    files={
        "go.mod": GOMOD,
        "main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tch := make(chan int)\n\tfmt.Println("waiting for result")\n\tfmt.Println(<-ch)\n}\n',
    },
    timeout=120,
    confirm=r"deadlock",
)
add(
    "go-build-v-progress",
    "go",
    "progress_on_stderr",
    "success",
    "go build -v lists each package it compiles on stderr and builds the binary",
    "go build -v -o app . && ./app",
    files={
        "go.mod": GOMOD,
        "main.go": 'package main\n\nimport (\n\t"encoding/json"\n\t"fmt"\n)\n\nfunc main() {\n\tb, _ := json.Marshal(map[string]int{"ok": 1})\n\tfmt.Println(string(b))\n}\n',
    },
    timeout=180,
    confirm=r'\{"ok":1\}',
)

# --- cargo / rustc -------------------------------------------------------------------------------

add(
    "cargo-test-nocapture-eprintln-pass",
    "cargo",
    "success_alarming_stderr",
    None,
    "cargo test -- --nocapture passes; the code under test prints 'error:' lines and there is an unused-variable warning",
    "cargo test -q -- --nocapture",
    files={
        "Cargo.toml": CARGO_TOML,
        "src/lib.rs": dedent("""
            pub fn parse_level(s: &str) -> u8 {
                let unused = 0;
                match s.parse::<u8>() {
                    Ok(n) if n <= 5 => n,
                    other => {
                        eprintln!("error: invalid level {s:?} ({other:?}), defaulting to 1");
                        1
                    }
                }
            }

            #[cfg(test)]
            mod tests {
                use super::*;
                #[test]
                fn valid() { assert_eq!(parse_level("3"), 3); }
                #[test]
                fn invalid_defaults() { assert_eq!(parse_level("9"), 1); assert_eq!(parse_level("x"), 1); }
            }
        """),
    },
    timeout=180,
    confirm=r"(?s)^(?=.*error: invalid level)(?=.*test result: ok\. 2 passed)",
)
add(
    "cargo-build-or-annotation",
    "cargo",
    "exit0_hidden_failure",
    None,
    "a CI step runs 'cargo build || echo ::warning::...' so a type error only becomes an annotation and the step exits 0",
    "cargo build --color never || echo '::warning title=build::cargo build failed, continuing'",
    files={
        "Cargo.toml": CARGO_TOML,
        "src/main.rs": 'fn main() {\n    let port: u16 = "8080";\n    println!("{port}");\n}\n',
    },
    timeout=180,
    confirm=r"error\[E0308\]",
)
add(
    "cargo-build-vv-fail",
    "cargo",
    "failure_noisy_stderr",
    None,
    "cargo build -vv prints the full rustc command lines and environment before a borrow error and exits 101",
    "cargo build -vv --color never",
    files={
        "Cargo.toml": CARGO_TOML,
        "src/main.rs": 'fn main() {\n    let v = vec![1, 2, 3];\n    let first = &v[0];\n    let mut v = v;\n    v.push(4);\n    drop(v);\n    println!("{first}");\n}\n',
    },
    timeout=180,
    confirm=r"error\[E0505\]",
)
add(
    "rust-thread-panic-ignored",
    "rustc",
    "exit0_hidden_failure",
    None,
    "a rust indexer spawns a worker thread and discards its join result; the worker panics and main exits 0",
    "rustc -O -o indexer main.rs 2>/dev/null && ./indexer",
    files={
        "main.rs": dedent("""
            use std::thread;
            fn main() {
                let h = thread::spawn(|| {
                    let docs: Vec<&str> = vec![];
                    println!("indexing {} documents", docs.len());
                    let first = docs[0];
                    println!("first: {first}");
                });
                let _ = h.join();
                println!("indexer finished");
            }
        """),
    },
    timeout=120,
    confirm=r"panicked at",
)
add(
    "rust-stack-overflow",
    "rustc",
    "killed_signalled",
    None,
    "a recursive rust program overflows its stack and is aborted with SIGABRT",
    ["./deep"],
    files={
        "main.rs": 'fn depth(n: u64, pad: [u8; 1024]) -> u64 { if n == 0 { pad[0] as u64 } else { 1 + depth(n - 1, pad) } }\nfn main() { println!("{}", depth(std::hint::black_box(10_000_000), [0; 1024])); }\n',
    },
    setup="rustc -C opt-level=0 -o deep main.rs 2>/dev/null",
    expect="SIGABRT",
    timeout=60,
    confirm=r"overflowed its stack",
)
add(
    "rustc-deprecated-warning-ok",
    "rustc",
    "success_alarming_stderr",
    None,
    "rustc compiles a program calling a #[deprecated] function with a warning and the program prints the right result",
    "rustc -o app main.rs && ./app",
    files={
        "main.rs": '#[deprecated(since = "0.3.0", note = "use checksum_v2")]\nfn checksum(d: &[u8]) -> u32 { d.iter().map(|b| *b as u32).sum() }\nfn main() { println!("checksum={}", checksum(b"abc")); }\n',
    },
    timeout=120,
    confirm=r"(?s)^(?=.*warning: use of deprecated)(?=.*checksum=294)",
)

# --- java ----------------------------------------------------------------------------------------

add(
    "java-completablefuture-logged",
    "java",
    "exit0_hidden_failure",
    None,
    "a java report job runs its export in a CompletableFuture whose exceptionally() only logs the stack trace; main exits 0",
    "java Report.java",
    files={
        "Report.java": dedent("""
            import java.util.concurrent.CompletableFuture;
            import java.util.logging.Level;
            import java.util.logging.Logger;

            public class Report {
                static final Logger LOG = Logger.getLogger("report");
                static String export() {
                    throw new IllegalStateException("export template 'monthly.ftl' not found");
                }
                public static void main(String[] args) {
                    CompletableFuture.supplyAsync(Report::export)
                        .exceptionally(e -> { LOG.log(Level.SEVERE, "export failed", e); return null; })
                        .join();
                    System.out.println("report job finished");
                }
            }
        """),
    },
    timeout=120,
    confirm=r"IllegalStateException",
)
add(
    "java-severe-retry-ok",
    "java",
    "success_alarming_stderr",
    None,
    "a java client logs SEVERE with a stack trace for two failed attempts, then succeeds and prints the result",
    "java Client.java",
    files={
        "Client.java": dedent("""
            import java.util.logging.Level;
            import java.util.logging.Logger;

            public class Client {
                static final Logger LOG = Logger.getLogger("client");
                static int calls = 0;
                static String fetch() throws java.io.IOException {
                    if (++calls < 3) throw new java.net.ConnectException("Connection refused");
                    return "{\\"balance\\": 42}";
                }
                public static void main(String[] args) throws Exception {
                    for (int i = 1; i <= 5; i++) {
                        try { System.out.println("got " + fetch()); return; }
                        catch (java.io.IOException e) { LOG.log(Level.SEVERE, "attempt " + i + " failed, retrying", e); }
                    }
                    System.exit(1);
                }
            }
        """),
    },
    timeout=120,
    confirm=r'(?s)^(?=.*SEVERE)(?=.*got \{"balance": 42\})',
)
add(
    "javac-xlint-ok",
    "javac",
    "success_alarming_stderr",
    None,
    "javac -Xlint:all warns about a deprecated constructor and raw types; the classes compile and run",
    "javac -Xlint:all Main.java && java Main",
    files={
        "Main.java": 'import java.util.*;\npublic class Main {\n  public static void main(String[] a) {\n    List xs = new ArrayList();\n    xs.add(new Integer(5));\n    System.out.println("items=" + xs.size());\n  }\n}\n',
    },
    timeout=120,
    confirm=r"(?s)^(?=.*warning)(?=.*items=1)",
)

# --- gcc, g++, gfortran, valgrind, make, cmake ---------------------------------------------------

add(
    "cpp-thread-exception-abort",
    "g++",
    "killed_signalled",
    None,
    "a C++ worker thread throws; std::terminate aborts the process with SIGABRT",
    ["./worker"],
    files={
        "worker.cpp": '#include <thread>\n#include <stdexcept>\n#include <cstdio>\nint main() {\n  std::puts("starting worker");\n  std::thread t([] { throw std::runtime_error("queue closed unexpectedly"); });\n  t.join();\n}\n',
    },
    setup="g++ -O0 -pthread -o worker worker.cpp",
    expect="SIGABRT",
    confirm=r"queue closed unexpectedly",
)
add(
    "gcc-system-ignored",
    "gcc",
    "exit0_hidden_failure",
    None,
    "a C installer calls system() for its migration helper and ignores the status; the helper fails and the installer exits 0",
    "gcc -o installer installer.c && ./installer",
    files={
        "installer.c": '#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  puts("copying files");\n  system("./migrate.sh");\n  puts("installation complete");\n  return 0;\n}\n',
        "migrate.sh": "#!/bin/bash\necho 'migrate: fatal: schema version 12 is newer than this release (11)' >&2\nexit 3\n",
    },
    confirm=r"migrate: fatal",
)
add(
    "gcc-latin1-source-error",
    "gcc",
    "non_utf8",
    "failure",
    "gcc rejects a Latin-1 encoded source with an undeclared identifier, echoing the raw source line, and exits 1",
    "gcc -c -fno-diagnostics-color legacy.c",
    files={
        "legacy.c": b'#include <stdio.h>\nvoid greet(void) { printf("Gr\xfc\xdfe aus M\xfcnchen\\n"); int n = undefined_count; (void)n; puts("\xe9t\xe9"); }\n'
    },
    expect="nonzero",
    confirm=r"undefined_count",
)
add(
    "gpp-colour-warnings-ok",
    "g++",
    "coloured_output",
    "success",
    "g++ -fdiagnostics-color=always warns about a sign comparison and an unused parameter; the program runs",
    "g++ -Wall -Wextra -fdiagnostics-color=always -o app app.cpp && ./app",
    files={
        "app.cpp": '#include <vector>\n#include <cstdio>\nint count(std::vector<int> v, int unused) { int n = 0; for (int i = 0; i < v.size(); i++) n++; return n; }\nint main() { std::printf("count=%d\\n", count({1, 2, 3}, 0)); }\n',
    },
    confirm=r"count=3",
)
add(
    "gfortran-warnings-ok",
    "gfortran",
    "success_alarming_stderr",
    None,
    "gfortran -Wall warns about an unused variable and a conversion; the program prints the right mean",
    "gfortran -Wall -o mean mean.f90 && ./mean",
    files={
        "mean.f90": "program mean\n  implicit none\n  real :: xs(4) = [1.0, 2.0, 3.0, 6.0]\n  integer :: unused, n\n  n = sum(xs)\n  print '(A,F5.2)', 'mean=', sum(xs) / size(xs)\nend program mean\n",
    },
    confirm=r"(?s)^(?=.*Warning)(?=.*mean= 3\.00)",
)
add(
    "valgrind-clean-summary",
    "valgrind",
    "success_alarming_stderr",
    None,
    "valgrind memcheck runs a correct program and prints 'ERROR SUMMARY: 0 errors from 0 contexts'",
    "gcc -g -o ok ok.c && valgrind --leak-check=full ./ok",
    files={
        "ok.c": '#include <stdlib.h>\n#include <stdio.h>\nint main(void) { int *p = malloc(16 * sizeof *p); for (int i = 0; i < 16; i++) p[i] = i; printf("sum=%d\\n", p[15]); free(p); return 0; }\n'
    },
    needs=("valgrind", "gcc"),
    timeout=120,
    confirm=r"(?s)^(?=.*ERROR SUMMARY: 0 errors)(?=.*sum=15)",
)
add(
    "make-ignore-special-target",
    "make",
    "exit0_hidden_failure",
    None,
    "a Makefile declares .IGNORE, so the failing compile of one object is ignored and make reports success",
    "make all",
    files={
        "Makefile": ".IGNORE:\nall: a.o b.o\n\t@echo 'build finished'\n%.o: %.c\n\tgcc -c $< -o $@\n",
        "a.c": "int a(void) { return 1; }\n",
        "b.c": "int b(void) { return missing_symbol + 1; }\n",
    },
    confirm=r"(?s)^(?=.*missing_symbol)(?=.*build finished)",
)
add(
    "make-v1-fail",
    "make",
    "failure_noisy_stderr",
    None,
    "a verbose make build echoes long compiler command lines for 30 objects, then one fails and make exits 2",
    "make -j1 V=1 all",
    files={
        "Makefile": 'OBJS := $(patsubst %.c,%.o,$(sort $(wildcard src/*.c)))\nCFLAGS := -O2 -Wall -Wextra -DVERSION=\\"1.4.2\\" -DBUILD_ID=corpus -Iinclude -fPIC\nall: $(OBJS)\n%.o: %.c\n\tgcc $(CFLAGS) -c $< -o $@\n',
    },
    setup="mkdir -p src include; for i in $(seq -w 1 30); do echo \"int f$i(void) { return 1$i; }\" > src/m$i.c; done; echo 'int f31(void) { return nope; }' > src/z31.c",
    confirm=r"nope",
)
add(
    "cmake-dev-warning-ok",
    "cmake",
    "success_alarming_stderr",
    None,
    "cmake configures an old-style project with a CMake Deprecation Warning, then builds and runs the program",
    "cmake -S . -B build >/dev/null && cmake --build build && ./build/hello",
    files={
        "CMakeLists.txt": "cmake_minimum_required(VERSION 2.8)\nproject(hello C)\nadd_executable(hello hello.c)\n",
        "hello.c": '#include <stdio.h>\nint main(void) { puts("hello from cmake"); return 0; }\n',
    },
    timeout=120,
    confirm=r"(?s)^(?=.*Deprecation Warning)(?=.*hello from cmake)",
)

# --- ruby, perl, php, lua, tcl, erlang -----------------------------------------------------------

add(
    "ruby-thread-report-on-exception",
    "ruby",
    "exit0_hidden_failure",
    None,
    "a ruby mailer sends in a background thread; the thread dies with an exception (reported on stderr) and the script exits 0",
    "ruby mailer.rb",
    files={
        "mailer.rb": dedent("""
            queue = ["a@example.invalid", "b@example.invalid"]
            t = Thread.new do
              queue.each { |to| raise Errno::ECONNREFUSED, "smtp 127.0.0.1:25 (#{to})" }
            end
            sleep 0.2
            puts "mailer: queued #{queue.size} messages"
        """),
    },
    confirm=r"terminated with exception",
)
add(
    "ruby-minitest-stderr-pass",
    "ruby",
    "success_alarming_stderr",
    None,
    "a minitest suite passes; the importer under test warns 'ERROR skipping row' with a backtrace line for a bad row",
    "ruby -Ilib test_importer.rb",
    files={
        "test_importer.rb": dedent("""
            require "minitest/autorun"
            def import(rows)
              rows.filter_map do |r|
                Integer(r)
              rescue ArgumentError => e
                warn "ERROR skipping row #{r.inspect}: #{e.message}"
                warn e.backtrace.first
                nil
              end
            end
            class ImporterTest < Minitest::Test
              def test_skips_bad = assert_equal([1, 3], import(%w[1 x 3]))
            end
        """),
    },
    confirm=r"(?s)^(?=.*ERROR skipping row)(?=.*0 failures, 0 errors)",
)
add(
    "perl-eval-warn-continue",
    "perl",
    "exit0_hidden_failure",
    None,
    "a perl nightly job wraps the load step in eval and only warns on error; the input is missing and it exits 0",
    "perl nightly.pl",
    files={
        "nightly.pl": dedent("""
            use strict; use warnings;
            my $loaded = 0;
            eval {
                open(my $fh, '<', 'export/orders.csv') or die "cannot open export/orders.csv: $!\\n";
                $loaded++ while <$fh>;
                1;
            } or warn "load failed: $@";
            print "nightly: loaded $loaded rows\\n";
        """),
    },
    confirm=r"load failed",
)
add(
    "perl-prove-diag-pass",
    "perl",
    "success_alarming_stderr",
    None,
    "prove runs a test file that prints diag messages about an expected error; all tests pass",
    "prove -v t/",
    files={
        "t/parse.t": dedent("""
            use strict; use warnings;
            use Test::More tests => 2;
            sub parse { my $s = shift; return $s =~ /^\\d+$/ ? $s : do { diag("ERROR: cannot parse '$s'"); undef } }
            is(parse("12"), 12, "number");
            ok(!defined parse("1x"), "garbage rejected");
        """),
    },
    needs=("prove",),
    confirm=r"(?s)^(?=.*ERROR: cannot parse)(?=.*Result: PASS)",
)
add(
    "php-caught-exception-echo",
    "php",
    "exit0_hidden_failure",
    None,
    "a php cron script catches every Throwable and echoes it; the PDO driver is missing so nothing is synced, exit 0",
    "php sync.php",
    files={
        "sync.php": dedent("""
            <?php
            try {
                $db = new PDO('mysql:host=127.0.0.1;dbname=shop', 'app', 'secret');
                echo "synced\\n";
            } catch (Throwable $e) {
                echo "sync error: " . $e . "\\n";
            }
            echo "cron done\\n";
        """),
    },
    confirm=r"sync error: PDOException",
)
add(
    "php-deprecated-ok",
    "php",
    "success_alarming_stderr",
    None,
    "a php script using a deprecated dynamic property prints a 'Deprecated' notice and the right invoice total",
    "php -d display_errors=stderr -d error_reporting=-1 invoice.php",
    files={
        "invoice.php": "<?php\nclass Invoice { public array $lines = []; }\n$i = new Invoice();\n$i->currency = 'EUR';\n$i->lines = [10.5, 4.5];\nprintf(\"total=%.2f %s\\n\", array_sum($i->lines), $i->currency);\n",
    },
    confirm=r"(?s)^(?=.*Deprecated)(?=.*total=15\.00 EUR)",
)
add(
    "php-latin1-fatal",
    "php",
    "non_utf8",
    "failure",
    "a php script throws an uncaught exception whose message holds Latin-1 bytes; php exits 255",
    "php -d display_errors=stderr import.php",
    files={
        "import.php": b'<?php\n$name = "M\xfcller";\nthrow new RuntimeException("Kunde $name nicht gefunden");\n'
    },
    expect="nonzero",
    confirm=r"RuntimeException",
)
add(
    "lua-coroutine-error-ignored",
    "lua",
    "exit0_hidden_failure",
    None,
    "a lua scheduler resumes a job coroutine that errors; the error is only printed and the script exits 0",
    "lua5.4 sched.lua",
    files={
        "sched.lua": dedent("""
            local job = coroutine.create(function()
              local cfg = nil
              print("job: starting")
              return cfg.interval * 2
            end)
            local ok, err = coroutine.resume(job)
            if not ok then io.stderr:write("scheduler: job failed: ", err, "\\n") end
            print("scheduler: all jobs dispatched")
        """),
    },
    confirm=r"job failed",
)
add(
    "tcl-catch-errorinfo",
    "tcl",
    "exit0_hidden_failure",
    None,
    "a tcl deploy script catches the copy error, prints errorInfo, and still reports the deploy as done",
    "tclsh deploy.tcl",
    files={
        "deploy.tcl": 'if {[catch {file copy -force build/app.tar /srv/releases/} err]} {\n    puts stderr "deploy error: $::errorInfo"\n}\nputs "deploy done"\n',
    },
    confirm=r"deploy error",
)
add(
    "escript-logger-error-ok",
    "erlang",
    "success_alarming_stderr",
    None,
    "an escript logs an error report for a dropped connection, reconnects and prints the result",
    "escript client.erl",
    needs=("escript",),
    files={
        "client.erl": dedent("""
            #!/usr/bin/env escript
            main(_) ->
                logger:error("connection to ~s lost: ~p, reconnecting", ["db1", econnreset]),
                Result = lists:sum([1, 2, 3]),
                io:format("reconnected, sum=~p~n", [Result]).
        """),
    },
    confirm=r"(?s)^(?=.*econnreset)(?=.*sum=6)",
)

# --- bash, tar, git, gpg, curl, wget, sqlite3, diff ---------------------------------------------

add(
    "bash-local-masks-exit",
    "bash",
    "exit0_hidden_failure",
    None,
    "a 'set -e' release script captures the build output with 'local out=$(...)', which masks the build's failure",
    "bash release.sh",
    files={
        "release.sh": dedent("""
            #!/bin/bash
            set -euo pipefail
            build() {
              local out=$(gcc -o app main.c 2>&1)
              echo "$out"
            }
            build
            echo "release 2.3.0 built"
        """),
        "main.c": "int main(void) { return undefined_fn(); }\n",
    },
    confirm=r"(?s)^(?=.*undefined_fn)(?=.*release 2\.3\.0 built)",
)
add(
    "bash-xtrace-ok",
    "bash",
    "success_alarming_stderr",
    None,
    "a set -x deploy script traces every command on stderr, including a grep for 'error' that finds none, and finishes",
    "bash -x deploy.sh",
    files={
        "deploy.sh": "#!/bin/bash\nset -e\nmkdir -p out\necho 'build ok' > out/build.log\nif grep -qi error out/build.log; then echo 'errors in build'; exit 1; fi\ncp out/build.log out/deployed.log\necho 'deploy finished'\n",
    },
    confirm=r"(?s)^(?=.*\+ grep -qi error)(?=.*deploy finished)",
)
add(
    "bash-ci-annotations-continue",
    "bash",
    "exit0_hidden_failure",
    None,
    "a CI script emits ::error annotations for failing checks but exits 0 as if continue-on-error were set",
    "bash ci.sh",
    files={
        "ci.sh": dedent("""
            #!/bin/bash
            status=0
            for f in config/*.json; do
              if ! python3 -m json.tool "$f" > /dev/null 2>err.txt; then
                echo "::error file=$f::$(cat err.txt)"
                status=1
              fi
            done
            echo "checks finished with status $status"
        """),
        "config/a.json": '{"a": 1}',
        "config/b.json": '{"b": 2,}',
    },
    confirm=r"::error file=config/b\.json",
)
add(
    "bash-ulimit-cpu",
    "bash",
    "killed_signalled",
    None,
    "a runaway loop under 'ulimit -t 1' is killed at the CPU limit and bash reports exit 137",
    "ulimit -t 1; python3 -c 'while True: pass'; exit $?",
    expect=137,
    timeout=30,
)
add(
    "task-timeout-hung-test",
    "bash",
    "killed_signalled",
    None,
    "an integration test script hangs waiting for a port that never opens; the task timeout kills it",
    "./wait-for-db.sh",
    files={
        "wait-for-db.sh": "#!/bin/bash\necho 'waiting for postgres on 127.0.0.1:1 ...'\nuntil (exec 3<>/dev/tcp/127.0.0.1/1) 2>/dev/null; do sleep 0.5; done\necho connected\n",
    },
    timeout=4,
    expect="SIGKILL",
    confirm=r"waiting for postgres",
)
add(
    "tar-leading-slash-ok",
    "tar",
    "success_alarming_stderr",
    None,
    "tar archives a directory by absolute path, warns 'Removing leading /', and the archive lists the files",
    "tar czf backup.tgz \"$PWD/data\" && tar tzf backup.tgz | grep -c 'data/'",
    files={"data/a.txt": "a\n", "data/b.txt": "b\n"},
    confirm=r"(?s)^(?=.*Removing leading)(?=.*\b3\b)",
)
add(
    "tar-latin1-list",
    "tar",
    "non_utf8",
    "success",
    "tar lists an archive of files with Latin-1 names, printing the raw bytes",
    "tar --quoting-style=literal -tvf legacy.tar",
    setup="mkdir d && printf x > \"d/$(printf 'r\\xe9sum\\xe9.txt')\" && printf y > \"d/$(printf 'M\\xfcller.csv')\" && tar cf legacy.tar d",
)
add(
    "git-hook-warning-commit-ok",
    "git",
    "success_alarming_stderr",
    None,
    "a pre-commit hook prints a WARNING about a large file and an 'error: 0' lint summary; the commit is made",
    "git add -A && git commit -q -m 'add data' && git log --oneline | wc -l",
    setup='git init -q . && printf \'#!/bin/bash\\necho "WARNING: data/big.bin is 300 KB (limit 500 KB)" >&2\\necho "lint: 0 error(s), 0 warning(s)" >&2\\n\' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && mkdir data && head -c 300000 /dev/zero > data/big.bin',
    confirm=r"(?ms)^(?=.*WARNING: data/big\.bin)(?=.*^1$)",
)
add(
    "git-latin1-log",
    "git",
    "non_utf8",
    "success",
    "git log with i18n.logOutputEncoding=ISO-8859-1 prints a commit subject with umlauts in Latin-1",
    "git -c i18n.logOutputEncoding=ISO-8859-1 log --format='%h %s' -n 1",
    setup="git init -q . && git commit -q --allow-empty -F msg.txt",
    files={"msg.txt": "Stra\xdfenverzeichnis f\xfcr M\xfcnchen aktualisiert\n".encode("latin-1")},
)
add(
    "git-colour-diff-check",
    "git",
    "coloured_output",
    "failure",
    "git diff --check in colour finds trailing whitespace in a staged change and exits 2",
    "git -c color.ui=always diff --cached --check",
    setup="git init -q . && echo 'a' > f.txt && git add f.txt && git commit -q -m init && printf 'a  \\nb\\t\\n' > f.txt && git add f.txt",
    expect="nonzero",
    confirm=r"trailing whitespace",
)
add(
    "gpg-verify-untrusted-good",
    "gpg",
    "success_alarming_stderr",
    None,
    "gpg verifies a release signature: 'Good signature' with a WARNING that the key is not certified",
    "GNUPGHOME=$PWD/verifier gpg --batch --verify release.tar.asc release.tar",
    setup=(
        "export GNUPGHOME=$PWD/signer; mkdir -m 700 signer;"
        " gpg --batch --passphrase '' --quick-gen-key 'Release Bot <rel@example.invalid>' ed25519 sign never 2>/dev/null;"
        " echo payload > release.tar; gpg --batch --armor --detach-sign -o release.tar.asc release.tar;"
        " gpg --batch --armor --export > key.asc;"
        " export GNUPGHOME=$PWD/verifier; mkdir -m 700 verifier; gpg --batch --import key.asc 2>/dev/null"
    ),
    timeout=60,
    confirm=r"(?s)^(?=.*Good signature)(?=.*WARNING)",
)
add(
    "curl-api-error-200-jq",
    "curl",
    "exit0_hidden_failure",
    None,
    "a quota check fetches the API with curl -f and extracts .error with jq; the API answers 200 with ok=false",
    'curl -sSf "$HTTP_APP/api-error-200" | jq -r \'if .ok then "quota ok" else "error: " + .error end\'',
    needs=("curl", "jq"),
    confirm=r"quota exceeded",
)
add(
    "curl-hash-progress",
    "curl",
    "progress_on_stderr",
    "success",
    "curl -# downloads a 1 MiB file, drawing a hash progress bar on stderr",
    'curl -# -o big.bin "$HTTP_APP/big/1024/0.5" && stat -c %s big.bin',
    confirm=r"1048576",
)
add(
    "wget-bar-force-404",
    "wget",
    "progress_on_stderr",
    "failure",
    "wget --progress=bar:force tries a download that is 404 and exits 8",
    'wget --progress=bar:force -O out.bin "$HTTP_APP/downloads/v9.tar.gz"',
    expect=8,
    confirm=r"404",
)
add(
    "wget-bar-force-ok",
    "wget",
    "progress_on_stderr",
    "success",
    "wget --progress=bar:force downloads 512 KiB slowly, drawing the bar on stderr",
    'wget --progress=bar:force -O out.bin "$HTTP_APP/big/512/1" && stat -c %s out.bin',
    confirm=r"524288",
)
add(
    "sqlite3-blob-dump",
    "sqlite3",
    "non_utf8",
    "success",
    "sqlite3 writes a stored binary thumbnail blob to stdout with readfile/writefile round trip",
    'sqlite3 app.db "select data from thumbs where id = 1"',
    setup="printf '\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR\\xff\\xfe' > t.png && sqlite3 app.db \"create table thumbs(id integer, data blob); insert into thumbs values (1, readfile('t.png'));\"",
)
add(
    "diff-colour-fail",
    "diff",
    "coloured_output",
    "failure",
    "a golden-file check runs diff --color=always; the output differs from the expected file and diff exits 1",
    "diff --color=always -u expected.txt actual.txt",
    files={"expected.txt": "total: 10\nitems: 3\n", "actual.txt": "total: 12\nitems: 3\n"},
    expect=1,
)
