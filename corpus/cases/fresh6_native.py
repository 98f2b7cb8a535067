"""Sixth fresh batch (ids ``fresh6-*``): C, Rust, Go, Java, Fortran, make/cmake, binutils, lz4,
xxd, sha256sum, rustfmt, and shell/VCS/data scenarios (bash, git, curl, sqlite3, php, ruby, perl,
jq, envsubst, script)."""

from __future__ import annotations

from casekit import batch, dedent

CASES, add = batch("fresh6")


# --- C / binutils --------------------------------------------------------------------------------

add(
    "gcc-pragma-message-warning-ok",
    "gcc",
    "success_alarming_stderr",
    None,
    "a build with #warning and #pragma message reminders compiles and links; the binary runs",
    "gcc -o app app.c && ./app",
    files={
        "app.c": '#include <stdio.h>\n#warning "TODO: remove legacy CRC path before 2.0"\n#pragma message("building with legacy CRC fallback")\nint main(void){puts("crc ok");return 0;}\n'
    },
    confirm=r"(?s)(?=.*warning: #warning)(?=.*crc ok)",
)
add(
    "gcc-double-free-abort",
    "gcc",
    "killed_signalled",
    None,
    "a C cache eviction frees an entry twice; glibc detects the double free and the process aborts",
    "gcc -O0 -o cache cache.c && exec ./cache",
    files={
        "cache.c": dedent("""
        #include <stdlib.h>
        #include <stdio.h>
        int main(void) {
            char *a = malloc(32), *b = malloc(32);
            puts("evicting entries");
            free(a); free(b); free(a);
            puts("done");
            return 0;
        }
    """)
    },
    confirm=r"double free",
)
add(
    "gcc-readelf-execstack-check",
    "readelf",
    "plain_success",
    None,
    "a hardening check confirms with readelf that the built binary's GNU_STACK is not executable",
    "gcc -o app app.c && readelf -lW app | grep GNU_STACK | grep -v RWE && echo 'stack not executable'",
    files={"app.c": "int main(void){return 0;}\n"},
    needs=("gcc", "readelf"),
    confirm=r"stack not executable",
)
add(
    "nm-undefined-symbols-grep-echo",
    "nm",
    "exit0_hidden_failure",
    None,
    "an ABI check looks for the exported symbol with nm | grep -q and only echoes when it is missing; the library lacks it and the step exits 0",
    "gcc -c -fPIC -o codec.o codec.c && ar rcs libcodec.a codec.o && (nm libcodec.a | grep -q ' T codec_decode' || echo 'ABI check: codec_decode not exported')",
    files={
        "codec.c": "int codec_encode(int x){return x^0x5a;}\nstatic int codec_decode(int x){return x^0x5a;}\nint use(int x){return codec_decode(x);}\n"
    },
    needs=("gcc", "nm", "ar"),
    confirm=r"codec_decode not exported",
)
add(
    "objdump-disasm-ok",
    "objdump",
    "plain_success",
    None,
    "the agent disassembles a function with objdump to check it was compiled to a loop",
    "gcc -O1 -c sum.c && objdump -d --no-show-raw-insn sum.o | grep -A3 '<sum>:'",
    files={
        "sum.c": "int sum(const int *a, int n){int s=0;for(int i=0;i<n;i++)s+=a[i];return s;}\n"
    },
    needs=("gcc", "objdump"),
    confirm=r"<sum>:",
)
add(
    "gcc-ubsan-shift-continues",
    "gcc",
    "exit0_hidden_failure",
    None,
    "a hash function built with -fsanitize=undefined shifts past the width; UBSan reports the runtime error and the program continues to exit 0",
    "gcc -fsanitize=undefined -o hash hash.c && ./hash",
    files={
        "hash.c": '#include <stdio.h>\nunsigned hash(unsigned x, int s){return (x << s) | (x >> (32 - s));}\nint main(void){printf("h=%u\\n", hash(7u, 0));return 0;}\n'
    },
    confirm=r"runtime error: shift exponent 32",
)
add(
    "gfortran-nan-ieee-note",
    "gfortran",
    "exit0_hidden_failure",
    None,
    "a Fortran statistics job divides 0 by 0 on an empty group; it prints NaN as the mean, the runtime notes IEEE_INVALID_FLAG and the job exits 0",
    "gfortran -o stats stats.f90 && ./stats",
    files={
        "stats.f90": dedent("""
        program stats
          implicit none
          real :: total, n, mean
          total = 0.0
          n = 0.0
          mean = total / n
          print '(a, f8.3)', 'mean latency (ms): ', mean
        end program stats
    """)
    },
    confirm=r"NaN",
)

# --- Rust ----------------------------------------------------------------------------------------

CRATE = {
    "Cargo.toml": '[package]\nname = "units"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
}
add(
    "cargo-doctest-fails",
    "cargo",
    "plain_failure",
    None,
    "cargo test --doc runs a documentation example whose expected output is wrong; the doctest fails and cargo exits 101",
    "cargo test --doc -q",
    files={
        **CRATE,
        "src/lib.rs": dedent("""
            /// Converts kilometres to miles.
            ///
            /// ```
            /// assert_eq!(units::km_to_miles(10.0), 6.2);
            /// ```
            pub fn km_to_miles(km: f64) -> f64 {
                km * 0.621371
            }
        """),
    },
    timeout=120,
    expect=101,
    confirm=r"FAILED",
)
add(
    "cargo-test-grep-result-lines",
    "cargo",
    "exit0_hidden_failure",
    None,
    "the step keeps only cargo test's 'test result' lines with grep; a unit test failed but grep found matches and exits 0",
    "cargo test -q 2>&1 | grep -E '^test result'",
    files={
        **CRATE,
        "src/lib.rs": dedent("""
            pub fn parse_duration(s: &str) -> Option<u64> {
                let (n, unit) = s.split_at(s.len() - 1);
                let n: u64 = n.parse().ok()?;
                match unit { "s" => Some(n), "m" => Some(n * 60), "h" => Some(n * 3600), _ => None }
            }
            #[cfg(test)]
            mod tests {
                use super::*;
                #[test] fn minutes() { assert_eq!(parse_duration("5m"), Some(300)); }
                #[test] fn millis() { assert_eq!(parse_duration("250ms"), Some(0)); }
            }
        """),
    },
    timeout=120,
    confirm=r"test result: FAILED",
)
add(
    "cargo-run-abort",
    "cargo",
    "killed_signalled",
    None,
    "a Rust tool calls std::process::abort() on a corrupt index; the process dies of SIGABRT",
    "cargo build -q && exec ./target/debug/units",
    files={
        **CRATE,
        "src/main.rs": 'fn main() {\n    eprintln!("index checksum mismatch, aborting");\n    std::process::abort();\n}\n',
    },
    timeout=120,
    expect="SIGABRT",
)
add(
    "rustfmt-write-ok",
    "rustfmt",
    "plain_success",
    None,
    "rustfmt rewrites a file in place and a second --check is clean",
    "rustfmt --edition 2021 main.rs && rustfmt --check --edition 2021 main.rs && echo formatted",
    files={"main.rs": 'fn main(){let v=vec![1,2,3];for x in v{println!("{}",x)}}\n'},
    confirm=r"formatted",
)

# --- Go ------------------------------------------------------------------------------------------

GOMOD = {"go.mod": "module example.com/svc\n\ngo 1.19\n"}
add(
    "go-test-race-detected",
    "go",
    "failure_noisy_stderr",
    None,
    "go test -race finds two goroutines incrementing a shared counter; the race detector prints both stacks and the test fails",
    "go test -race -count=1 .",
    files={
        **GOMOD,
        "counter.go": 'package svc\n\nimport "sync"\n\nfunc Count(n int) int {\n\tc := 0\n\tvar wg sync.WaitGroup\n\tfor i := 0; i < n; i++ {\n\t\twg.Add(1)\n\t\tgo func() { defer wg.Done(); c++ }()\n\t}\n\twg.Wait()\n\treturn c\n}\n',
        "counter_test.go": 'package svc\n\nimport "testing"\n\nfunc TestCount(t *testing.T) {\n\tif Count(50) < 1 {\n\t\tt.Fatal("no count")\n\t}\n}\n',
    },
    timeout=120,
    expect=1,
    confirm=r"DATA RACE",
)
add(
    "go-test-json-summary-jq",
    "go",
    "exit0_hidden_failure",
    None,
    "a report step pipes go test -json into jq to count passes and failures; a test failed and jq exits 0",
    'go test -json -count=1 . | jq -rs \'[.[] | select(.Test and (.Action=="pass" or .Action=="fail"))] | group_by(.Action) | map("\\(.[0].Action): \\(length)") | .[]\'',
    files={
        **GOMOD,
        "slug.go": 'package svc\n\nimport "strings"\n\nfunc Slug(s string) string { return strings.ReplaceAll(strings.ToLower(s), " ", "-") }\n',
        "slug_test.go": 'package svc\n\nimport "testing"\n\nfunc TestSlug(t *testing.T) {\n\tif Slug("A B") != "a-b" { t.Fatal("x") }\n}\n\nfunc TestSlugTrim(t *testing.T) {\n\tif got := Slug(" A "); got != "a" { t.Fatalf("Slug(\' A \') = %q, want %q", got, "a") }\n}\n',
    },
    needs=("go", "jq"),
    timeout=120,
    confirm=r"fail: 1",
)
add(
    "go-fuzz-finds-crash",
    "go",
    "failure_noisy_stderr",
    None,
    "go test -fuzz finds an input that panics a parser within seconds and writes it to testdata; the run fails",
    "go test -run=NONE -fuzz=FuzzParse -fuzztime=20s .",
    files={
        **GOMOD,
        "parse.go": "package svc\n\nfunc Parse(b []byte) int {\n\tif len(b) > 0 && b[0] == '{' {\n\t\treturn int(b[1])\n\t}\n\treturn 0\n}\n",
        "parse_test.go": 'package svc\n\nimport "testing"\n\nfunc FuzzParse(f *testing.F) {\n\tf.Add([]byte("x"))\n\tf.Fuzz(func(t *testing.T, b []byte) { Parse(b) })\n}\n',
    },
    timeout=120,
    expect=1,
    confirm=r"index out of range",
)
add(
    "go-context-deadline-logged",
    "go",
    "exit0_hidden_failure",
    None,
    "a Go sync job logs 'context deadline exceeded' for its upstream call and returns from main normally; nothing was synced and it exits 0",
    "go run .",
    files={
        **GOMOD,
        "main.go": dedent("""
            package main

            import (
            \t"context"
            \t"log"
            \t"time"
            )

            func fetch(ctx context.Context) error {
            \tselect {
            \tcase <-time.After(2 * time.Second):
            \t\treturn nil
            \tcase <-ctx.Done():
            \t\treturn ctx.Err()
            \t}
            }

            func main() {
            \tctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
            \tdefer cancel()
            \tif err := fetch(ctx); err != nil {
            \t\tlog.Printf("sync: fetch inventory: %v", err)
            \t\treturn
            \t}
            \tlog.Print("sync: done")
            }
        """),
    },
    timeout=120,
    confirm=r"context deadline exceeded",
)
add(
    "go-build-gcflags-escape-ok",
    "go",
    "success_alarming_stderr",
    None,
    "go build -gcflags=-m prints the compiler's escape-analysis notes on stderr while the agent checks an allocation; the build succeeds",
    "go build -gcflags=-m -o app . && ./app",
    files={
        **GOMOD,
        "main.go": 'package main\n\nimport "fmt"\n\ntype buf struct{ b [64]byte }\n\nfunc newBuf() *buf { return &buf{} }\n\nfunc main() { fmt.Println(len(newBuf().b)) }\n',
    },
    timeout=120,
    confirm=r"(?s)(?=.*escapes to heap)(?=.*64)",
)

# --- Java ----------------------------------------------------------------------------------------

add(
    "java-executor-task-exception-lost",
    "java",
    "exit0_hidden_failure",
    None,
    "a Java export submits work to an ExecutorService and never calls Future.get; the task throws, the exception is swallowed and main prints 'export finished'",
    "java Export.java && ls out.csv 2>&1 || true",
    files={
        "Export.java": dedent("""
        import java.util.concurrent.*;
        import java.nio.file.*;

        public class Export {
            public static void main(String[] args) throws Exception {
                ExecutorService ex = Executors.newFixedThreadPool(2);
                Future<?> f = ex.submit(() -> {
                    String region = System.getenv("EXPORT_REGION");
                    Files.writeString(Path.of("out.csv"), region.toUpperCase() + "\\n");
                    return null;
                });
                ex.shutdown();
                ex.awaitTermination(5, TimeUnit.SECONDS);
                System.out.println("export finished");
            }
        }
    """)
    },
    timeout=60,
    confirm=r"No such file",
)
add(
    "java-completablefuture-exceptionally",
    "java",
    "exit0_hidden_failure",
    None,
    "a Java price sync recovers every failed CompletableFuture with exceptionally(-> null) after printing the error; all lookups failed and it exits 0",
    "java Sync.java",
    files={
        "Sync.java": dedent("""
        import java.util.*;
        import java.util.concurrent.*;

        public class Sync {
            static int price(String sku) {
                throw new IllegalStateException("pricing service returned 503 for " + sku);
            }
            public static void main(String[] a) {
                List<CompletableFuture<Integer>> fs = new ArrayList<>();
                for (String s : List.of("A1", "B2")) {
                    fs.add(CompletableFuture.supplyAsync(() -> price(s)).exceptionally(e -> {
                        System.err.println("WARN price lookup failed: " + e);
                        return null;
                    }));
                }
                fs.forEach(CompletableFuture::join);
                System.out.println("sync complete");
            }
        }
    """)
    },
    timeout=60,
    confirm=r"returned 503",
)
add(
    "java-logger-warning-retry-ok",
    "java",
    "success_alarming_stderr",
    None,
    "a Java client logs a SEVERE connect failure through java.util.logging, retries and then succeeds",
    "java Client.java",
    files={
        "Client.java": dedent("""
        import java.util.logging.*;
        public class Client {
            static int tries = 0;
            static String connect() throws java.io.IOException {
                if (++tries < 2) throw new java.net.ConnectException("Connection refused");
                return "connected";
            }
            public static void main(String[] a) throws Exception {
                Logger log = Logger.getLogger("client");
                for (int i = 0; i < 3; i++) {
                    try { System.out.println(connect() + " after " + tries + " tries"); return; }
                    catch (java.io.IOException e) { log.log(Level.SEVERE, "connect failed, retrying", e); }
                }
                System.exit(1);
            }
        }
    """)
    },
    timeout=60,
    confirm=r"(?s)(?=.*SEVERE)(?=.*connected after 2 tries)",
)

# --- make / cmake --------------------------------------------------------------------------------

add(
    "make-ignore-special-target",
    "make",
    "exit0_hidden_failure",
    None,
    "a Makefile declares .IGNORE so make ignores every recipe error; the test recipe fails and make exits 0",
    "make check",
    files={
        "Makefile": ".IGNORE:\ncheck: lint test\n\t@echo 'check: complete'\nlint:\n\t@echo 'lint ok'\ntest:\n\t@python3 -c \"import sys; print('test_parse FAILED: expected 3, got 2'); sys.exit(1)\"\n"
    },
    confirm=r"test_parse FAILED",
)
add(
    "make-warning-function-ok",
    "make",
    "success_alarming_stderr",
    None,
    "a Makefile prints a $(warning) that the legacy target is deprecated and builds the target anyway",
    "make legacy-bundle && cat bundle.txt",
    files={
        "Makefile": "legacy-bundle:\n\t$(warning legacy-bundle is deprecated and will be removed; use make bundle)\n\t@printf 'a\\nb\\n' > bundle.txt\n\t@echo bundle written\n"
    },
    confirm=r"(?s)(?=.*deprecated)(?=.*bundle written)",
)
add(
    "cmake-ctest-repeat-until-pass",
    "cmake",
    "success_alarming_stderr",
    None,
    "ctest --repeat until-pass:3 reruns a flaky test that fails on its first attempt; it passes on the second and ctest exits 0",
    "cmake -S . -B build -G Ninja >/dev/null && ctest --test-dir build --output-on-failure --repeat until-pass:3",
    files={
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(flaky NONE)\nenable_testing()\nadd_test(NAME net_roundtrip COMMAND sh ${CMAKE_SOURCE_DIR}/flaky.sh ${CMAKE_BINARY_DIR}/marker)\n",
        "flaky.sh": "if [ -f \"$1\" ]; then echo 'roundtrip ok'; exit 0; fi\ntouch \"$1\"\necho 'ERROR: socket timeout talking to 127.0.0.1:7000' >&2\nexit 1\n",
    },
    needs=("cmake", "ctest", "ninja"),
    timeout=60,
    confirm=r"100% tests passed",
)
add(
    "cmake-file-download-status-unchecked",
    "cmake",
    "exit0_hidden_failure",
    None,
    "a CMake configure downloads a dataset with file(DOWNLOAD ... STATUS) but never checks the status; the server returns 404 and configure succeeds",
    'cmake -P fetch.cmake && echo "dataset bytes: $(wc -c < data.csv)"',
    files={
        "fetch.cmake": 'file(DOWNLOAD "$ENV{HTTP_FILES}/datasets/iris.csv" "${CMAKE_CURRENT_LIST_DIR}/data.csv" STATUS st)\nlist(GET st 1 msg)\nmessage(STATUS "download: ${msg}")\nmessage(STATUS "dataset ready")\n'
    },
    confirm=r"HTTP response code said error",
)

# --- lz4 / xxd / sha256sum -----------------------------------------------------------------------

add(
    "lz4-verbose-compress-progress",
    "lz4",
    "progress_on_stderr",
    "success",
    "lz4 -v compresses a 4 MB build artefact and reports the ratio on stderr",
    "head -c 4000000 /dev/zero | tr '\\0' 'a' > artefact.bin && lz4 -v -f artefact.bin artefact.bin.lz4 && ls artefact.bin.lz4",
    confirm=r"artefact\.bin\.lz4",
)
add(
    "xxd-reverse-binary-stdout",
    "xxd",
    "non_utf8",
    "success",
    "xxd -r -p turns a hex fixture back into the binary firmware header on stdout",
    "xxd -r -p header.hex",
    files={"header.hex": "7f454c46020101000000000000000000fffe80c3a9\n"},
)
SUMS = {"a.tar": "alpha\n", "b.tar": "beta\n"}
SUMS_SETUP = "sha256sum a.tar b.tar > SHA256SUMS && echo tampered >> b.tar"
add(
    "sha256sum-check-mismatch",
    "sha256sum",
    "plain_failure",
    None,
    "sha256sum -c finds that one release artefact no longer matches its checksum and exits 1",
    "sha256sum -c SHA256SUMS",
    files=SUMS,
    setup=SUMS_SETUP,
    expect=1,
    confirm=r"FAILED",
    group="fresh6-sha256-release",
)
add(
    "sha256sum-check-tee-log",
    "sha256sum",
    "exit0_hidden_failure",
    None,
    "the release job verifies checksums piped into tee for the log; one artefact fails verification and tee exits 0",
    "sha256sum -c SHA256SUMS 2>&1 | tee verify.log",
    files=SUMS,
    setup=SUMS_SETUP,
    confirm=r"did NOT match",
    group="fresh6-sha256-release",
)
add(
    "sha256sum-ignore-missing-warning-ok",
    "sha256sum",
    "success_alarming_stderr",
    None,
    "sha256sum -c --ignore-missing verifies the downloaded artefact; it warns about an improperly formatted line in the sums file and exits 0",
    "sha256sum -c --ignore-missing SHA256SUMS",
    files={"a.tar": "alpha\n"},
    setup="sha256sum a.tar > SHA256SUMS && echo 'not a checksum line' >> SHA256SUMS && echo \"$(printf %064d 0)  c.tar\" >> SHA256SUMS",
    confirm=r"(?s)(?=.*improperly formatted)(?=.*a.tar: OK)",
)
