"""Rust (cargo, rustc), the JVM (javac, java, mvn) and Go."""

from __future__ import annotations

from casekit import Case, case, dedent

CASES: list[Case] = []
add = CASES.append

# --- cargo / rustc --------------------------------------------------------------------------


def crate(main: str, lib: str = "", deps: str = "") -> dict[str, str]:
    files = {
        "Cargo.toml": f'[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n{deps}'
    }
    if main:
        files["src/main.rs"] = main
    if lib:
        files["src/lib.rs"] = lib
    return files


R_OK = crate(
    'fn main() {\n    let v: Vec<u32> = (1..=4).collect();\n    println!("sum={}", v.iter().sum::<u32>());\n}\n'
)
R_WARN = crate('fn main() {\n    let unused = 5;\n    let mut x = 1;\n    println!("{}", 2);\n}\n')
R_ERR = crate('fn main() {\n    let x: i32 = "five";\n    println!("{}", x);\n}\n')
R_MANY = crate(
    "".join(f"fn helper{i}() {{ let unused{i} = {i}; }}\n" for i in range(15))
    + "fn main() {\n    let s: String = 5;\n}\n"
)
R_TEST_PASS = crate(
    "",
    "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(2, 2), 4); }\n    #[test]\n    fn adds_neg() { assert_eq!(super::add(-1, 1), 0); }\n}\n",
)
R_TEST_FAIL = crate(
    "",
    'pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(2, 2), 4); }\n    #[test]\n    fn overflow_wraps() { assert_eq!(super::add(2, 3), 6, "sum of 2 and 3"); }\n}\n',
)
R_SHOULD_PANIC = crate(
    "",
    dedent("""
    pub fn parse(s: &str) -> u8 {
        s.parse().expect("not a valid port byte")
    }
    #[cfg(test)]
    mod tests {
        #[test]
        #[should_panic(expected = "not a valid port byte")]
        fn rejects_text() { super::parse("abc"); }
        #[test]
        fn parses() { assert_eq!(super::parse("7"), 7); }
    }
"""),
)
R_PANIC = crate(
    'fn main() {\n    let args: Vec<String> = std::env::args().collect();\n    let cfg = std::fs::read_to_string("app.toml").unwrap();\n    println!("{} {}", args.len(), cfg);\n}\n'
)
R_THREAD = crate(
    dedent("""
    use std::thread;
    fn main() {
        let h = thread::spawn(|| {
            let v: Vec<u8> = Vec::new();
            println!("uploading {} bytes", v[10]);
        });
        let _ = h.join();
        println!("main: done");
    }
""")
)
CARGO = "cargo --offline"
add(
    case(
        "cargo-build-ok",
        "cargo",
        "progress_on_stderr",
        "success",
        "cargo builds a crate; Compiling/Finished go to stderr",
        f"{CARGO} build && ./target/debug/app",
        files=R_OK,
        confirm="sum=10",
    )
)
add(
    case(
        "cargo-build-warnings",
        "cargo",
        "success_alarming_stderr",
        None,
        "unused variable and unneeded mut warnings; the crate builds and runs",
        f"{CARGO} build && ./target/debug/app",
        files=R_WARN,
        confirm="warning",
    )
)
add(
    case(
        "cargo-build-error",
        "cargo",
        "plain_failure",
        None,
        "a type mismatch stops the build",
        f"{CARGO} build",
        files=R_ERR,
    )
)
add(
    case(
        "cargo-build-many-warnings-error",
        "cargo",
        "failure_noisy_stderr",
        None,
        "fifteen warnings and one type error",
        f"{CARGO} build",
        files=R_MANY,
    )
)
add(
    case(
        "cargo-test-pass",
        "cargo",
        "plain_success",
        None,
        "two passing tests",
        f"{CARGO} test",
        files=R_TEST_PASS,
        confirm="2 passed",
    )
)
add(
    case(
        "cargo-test-fail",
        "cargo",
        "plain_failure",
        None,
        "one failing assert_eq!",
        f"{CARGO} test",
        files=R_TEST_FAIL,
        expect=101,
    )
)
add(
    case(
        "cargo-test-fail-or-true",
        "cargo",
        "exit0_hidden_failure",
        None,
        "failing tests under `|| true`",
        f"{CARGO} test || true",
        files=R_TEST_FAIL,
        group="cargo-test-fail",
        confirm="1 failed",
    )
)
add(
    case(
        "cargo-test-should-panic-nocapture",
        "cargo",
        "success_alarming_stderr",
        None,
        "a #[should_panic] test prints its panic with --nocapture; all tests pass",
        f"{CARGO} test -- --nocapture",
        files=R_SHOULD_PANIC,
        confirm="2 passed",
    )
)
add(
    case(
        "cargo-run-panic",
        "cargo",
        "plain_failure",
        None,
        "the program unwraps a missing file and panics (exit 101)",
        f"{CARGO} run",
        files=R_PANIC,
        expect=101,
    )
)
add(
    case(
        "cargo-run-panic-backtrace",
        "cargo",
        "failure_noisy_stderr",
        None,
        "the same panic with RUST_BACKTRACE=full: a long backtrace",
        f"{CARGO} run",
        files=R_PANIC,
        expect=101,
        env={"RUST_BACKTRACE": "full"},
        group="cargo-run-panic",
    )
)
add(
    case(
        "cargo-thread-panic-ignored",
        "cargo",
        "exit0_hidden_failure",
        None,
        "the upload thread panics; main ignores the join error and exits 0",
        f"{CARGO} run",
        files=R_THREAD,
        confirm="panicked",
    )
)
add(
    case(
        "cargo-build-error-color",
        "cargo",
        "coloured_output",
        "failure",
        "--color always; type error",
        f"{CARGO} build --color always",
        files=R_ERR,
        group="cargo-build-error",
    )
)
add(
    case(
        "cargo-build-warnings-color",
        "cargo",
        "coloured_output",
        "success",
        "--color always; warnings only",
        f"{CARGO} build --color always",
        files=R_WARN,
        group="cargo-build-warnings",
    )
)
add(
    case(
        "cargo-missing-dep-offline",
        "cargo",
        "plain_failure",
        None,
        "a dependency that is not in the local registry cannot be resolved offline",
        f"{CARGO} build",
        files=crate("fn main() {}\n", deps='corpus-missing-crate = "1"\n'),
    )
)
add(
    case(
        "cargo-clippy-warnings",
        "cargo",
        "success_alarming_stderr",
        None,
        "clippy warns about needless code; exit 0",
        f"{CARGO} clippy",
        files=crate(
            'fn main() {\n    let v = vec![1, 2, 3];\n    if v.len() == 0 { return; }\n    println!("{}", v.len());\n}\n'
        ),
        confirm="warning",
    )
)
add(
    case(
        "cargo-clippy-deny",
        "cargo",
        "plain_failure",
        None,
        "clippy with -D warnings turns the same lint into an error",
        f"{CARGO} clippy -- -D warnings",
        files=crate(
            'fn main() {\n    let v = vec![1, 2, 3];\n    if v.len() == 0 { return; }\n    println!("{}", v.len());\n}\n'
        ),
    )
)
add(
    case(
        "cargo-fmt-check",
        "cargo",
        "plain_failure",
        None,
        "`cargo fmt --check` prints a diff of unformatted code",
        "cargo fmt --check",
        files=crate('fn main(){let x=1;println!("{}",x);}\n'),
    )
)
add(
    case(
        "rustc-ok",
        "rustc",
        "plain_success",
        None,
        "rustc compiles and runs a file",
        "rustc -o p p.rs && ./p",
        files={"p.rs": 'fn main() { println!("ok {}", 2 + 2); }\n'},
        confirm="ok 4",
    )
)
add(
    case(
        "rustc-error",
        "rustc",
        "plain_failure",
        None,
        "borrow-checker error",
        "rustc -o p p.rs",
        files={
            "p.rs": 'fn main() {\n    let s = String::from("a");\n    let t = s;\n    println!("{}", s);\n    drop(t);\n}\n'
        },
    )
)
add(
    case(
        "rustc-index-panic",
        "rustc",
        "plain_failure",
        None,
        "index out of bounds panic at run time (exit 101)",
        "rustc -o p p.rs 2>/dev/null && ./p",
        files={
            "p.rs": 'fn main() {\n    let v: Vec<i32> = std::env::args().skip(5).map(|_| 1).collect();\n    println!("{}", v[3]);\n}\n'
        },
        expect=101,
    )
)
add(
    case(
        "rustc-stack-overflow",
        "rustc",
        "killed_signalled",
        None,
        "unbounded recursion overflows the stack; the runtime aborts",
        "rustc -o p p.rs 2>/dev/null && exec ./p",
        files={
            "p.rs": 'fn depth(n: u64, v: &mut Vec<[u8; 1024]>) -> u64 { let a = [n as u8; 1024]; v.len() as u64 + depth(n + 1, v) + a[0] as u64 }\nfn main() { let mut v = Vec::new(); println!("{}", depth(0, &mut v)); }\n'
        },
        expect="SIGABRT",
        confirm="overflowed its stack",
    )
)
add(
    case(
        "rustc-process-abort",
        "rustc",
        "killed_signalled",
        None,
        "std::process::abort() after a failed invariant",
        "rustc -o p p.rs && exec ./p",
        files={
            "p.rs": 'fn main() { eprintln!("invariant violated: ledger unbalanced"); std::process::abort(); }\n'
        },
        expect="SIGABRT",
    )
)
add(
    case(
        "rustc-error-color",
        "rustc",
        "coloured_output",
        "failure",
        "--color always; type error",
        "rustc --color always -o p p.rs",
        files={"p.rs": "fn main() { let x: u8 = 300; }\n"},
    )
)
add(
    case(
        "rustc-eprintln-status",
        "rustc",
        "success_alarming_stderr",
        None,
        "the program logs `error count: 0` and a recovered failure to stderr, does its work",
        "rustc -o p p.rs 2>/dev/null && ./p",
        files={
            "p.rs": 'fn main() {\n    eprintln!("warn: first connection attempt failed: Connection refused (os error 111); retrying");\n    eprintln!("error count: 0");\n    println!("exported 12 rows");\n}\n'
        },
        confirm="exported 12",
    )
)
add(
    case(
        "rustc-latin1-output",
        "rustc",
        "non_utf8",
        "success",
        "writes latin-1 bytes to stdout on purpose",
        "rustc -o p p.rs && ./p",
        files={
            "p.rs": 'use std::io::Write;\nfn main() { std::io::stdout().write_all(b"Zo\\xeb;M\\xfcller\\n").unwrap(); }\n'
        },
    )
)

# --- javac / java / mvn ---------------------------------------------------------------------

J_OK = {
    "Main.java": 'public class Main {\n  public static void main(String[] a) {\n    int s = 0;\n    for (int i = 1; i <= 4; i++) s += i;\n    System.out.println("sum=" + s);\n  }\n}\n'
}
J_ERR = {
    "Main.java": 'public class Main {\n  public static void main(String[] a) {\n    int x = "five";\n    System.out.println(x)\n  }\n}\n'
}
J_NPE = {
    "Main.java": dedent("""
    import java.util.*;
    public class Main {
      static Map<String, String> cfg = new HashMap<>();
      static int port() { return Integer.parseInt(cfg.get("port").trim()); }
      public static void main(String[] a) { System.out.println(port()); }
    }
""")
}
J_THREAD = {
    "Main.java": dedent("""
    public class Main {
      public static void main(String[] a) throws Exception {
        Thread t = new Thread(() -> { throw new IllegalStateException("export failed: disk quota exceeded"); });
        t.start();
        t.join();
        System.out.println("main finished");
      }
    }
""")
}
J_DEPR = {
    "Main.java": "import java.util.Date;\npublic class Main {\n  public static void main(String[] a) {\n    Date d = new Date(2024, 1, 1);\n    System.out.println(d.getYear());\n  }\n}\n"
}
J_UNCHECKED = {
    "Main.java": 'import java.util.*;\npublic class Main {\n  public static void main(String[] a) {\n    List raw = new ArrayList();\n    raw.add("x");\n    List<String> s = raw;\n    System.out.println(s.get(0));\n  }\n}\n'
}
J_PRINT_TRACE = {
    "Main.java": dedent("""
    import java.nio.file.*;
    public class Main {
      public static void main(String[] a) {
        try {
          String s = Files.readString(Path.of("input.csv"));
          System.out.println(s.length());
        } catch (Exception e) {
          e.printStackTrace();
        }
        System.out.println("report written");
      }
    }
""")
}
J_LOG_SEVERE = {
    "Main.java": dedent("""
    import java.util.logging.*;
    public class Main {
      public static void main(String[] a) {
        Logger log = Logger.getLogger("sync");
        int ok = 0;
        for (int i = 0; i < 3; i++) {
          if (i == 0) log.log(Level.SEVERE, "attempt 1 failed, retrying", new java.io.IOException("connection reset"));
          else ok++;
        }
        System.out.println("synced after retry, batches=" + ok);
      }
    }
""")
}
add(
    case(
        "javac-ok",
        "javac",
        "plain_success",
        None,
        "compiles and runs a small class",
        "javac Main.java && java Main",
        files=J_OK,
        confirm="sum=10",
    )
)
add(
    case(
        "javac-error",
        "javac",
        "plain_failure",
        None,
        "type error and a missing semicolon",
        "javac Main.java",
        files=J_ERR,
    )
)
add(
    case(
        "javac-deprecation-note",
        "javac",
        "success_alarming_stderr",
        None,
        "javac notes a deprecated API; the class compiles and runs",
        "javac Main.java && java Main",
        files=J_DEPR,
        confirm="deprecat",
    )
)
add(
    case(
        "javac-unchecked-xlint",
        "javac",
        "success_alarming_stderr",
        None,
        "-Xlint:all warnings about raw types; compiles and runs",
        "javac -Xlint:all Main.java && java Main",
        files=J_UNCHECKED,
        confirm="warning",
    )
)
add(
    case(
        "javac-error-or-true",
        "javac",
        "exit0_hidden_failure",
        None,
        "compile errors in a step ending with `|| true`",
        "javac Main.java || true",
        files=J_ERR,
        group="javac-error",
        confirm="error",
    )
)
add(
    case(
        "java-npe",
        "java",
        "plain_failure",
        None,
        "a missing config key causes a NullPointerException",
        "javac Main.java && java Main",
        files=J_NPE,
    )
)
add(
    case(
        "java-thread-exception-exit0",
        "java",
        "exit0_hidden_failure",
        None,
        "the export thread dies with an exception; the JVM exits 0 when main returns",
        "javac Main.java && java Main",
        files=J_THREAD,
        confirm="Exception in thread",
    )
)
add(
    case(
        "java-print-stack-trace",
        "java",
        "exit0_hidden_failure",
        None,
        "the report needs input.csv (absent); printStackTrace then `report written`, exit 0",
        "javac Main.java && java Main",
        files=J_PRINT_TRACE,
        confirm="NoSuchFileException",
    )
)
add(
    case(
        "java-log-severe-recovers",
        "java",
        "success_alarming_stderr",
        None,
        "java.util.logging SEVERE with a stack trace for a retried attempt; the sync completes",
        "javac Main.java && java Main",
        files=J_LOG_SEVERE,
        confirm="synced after retry",
    )
)
add(
    case(
        "java-system-exit-3",
        "java",
        "plain_failure",
        None,
        "the tool validates its arguments and exits 3",
        "javac Main.java && java Main",
        files={
            "Main.java": 'public class Main { public static void main(String[] a) { System.err.println("usage: Main <input> <output>"); System.exit(3); } }\n'
        },
        expect=3,
    )
)
add(
    case(
        "java-oom",
        "java",
        "killed_signalled",
        None,
        "with -Xmx16m the job runs out of heap (OutOfMemoryError)",
        "javac Main.java && java -Xmx16m Main",
        files={
            "Main.java": "import java.util.*;\npublic class Main { public static void main(String[] a) { List<long[]> l = new ArrayList<>(); while (true) l.add(new long[1 << 20]); } }\n"
        },
        confirm="OutOfMemoryError",
    )
)
add(
    case(
        "java-stack-overflow",
        "java",
        "failure_noisy_stderr",
        None,
        "infinite recursion: StackOverflowError with a 1024-frame trace",
        "javac Main.java && java Main",
        files={
            "Main.java": "public class Main { static int f(int n) { return f(n + 1) + 1; } public static void main(String[] a) { System.out.println(f(0)); } }\n"
        },
    )
)
add(
    case(
        "java-class-not-found",
        "java",
        "plain_failure",
        None,
        "java asked to run a class that does not exist",
        "java com.example.Missing",
    )
)
add(
    case(
        "java-latin1-output",
        "java",
        "non_utf8",
        "success",
        "prints names with -Dstdout.encoding=ISO-8859-1 for a latin-1 consumer",
        "javac -encoding UTF-8 Main.java && java -Dfile.encoding=ISO-8859-1 -Dsun.stdout.encoding=ISO-8859-1 Main",
        files={
            "Main.java": 'public class Main { public static void main(String[] a) { System.out.println("Zoë Müller"); } }\n'
        },
    )
)
add(
    case(
        "java-sigkill",
        "java",
        "killed_signalled",
        None,
        "the JVM is killed by SIGKILL mid-run",
        "javac Main.java && exec java Main",
        files={
            "Main.java": 'public class Main { public static void main(String[] a) throws Exception { System.out.println("started"); System.out.flush(); long pid = ProcessHandle.current().pid(); new ProcessBuilder("kill", "-9", String.valueOf(pid)).start().waitFor(); Thread.sleep(5000); } }\n'
        },
        expect="SIGKILL",
    )
)

POM = dedent("""
    <project xmlns="http://maven.apache.org/POM/4.0.0">
      <modelVersion>4.0.0</modelVersion>
      <groupId>corpus</groupId><artifactId>demo</artifactId><version>1.0</version>
      <properties>
        <maven.compiler.release>17</maven.compiler.release>
        <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
      </properties>
      <dependencies>
        <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.10.2</version><scope>test</scope></dependency>
      </dependencies>
      <build><plugins>
        <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
        <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
        <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>
        <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-jar-plugin</artifactId><version>3.4.1</version></plugin>
      </plugins></build>
    </project>
""")
MVN_SRC = {
    "pom.xml": POM,
    "src/main/java/corpus/Calc.java": "package corpus;\npublic class Calc { public static int add(int a, int b) { return a + b; } }\n",
}


def mvn_test(body: str) -> dict[str, str]:
    return {
        **MVN_SRC,
        "src/test/java/corpus/CalcTest.java": "package corpus;\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n"
        f"public class CalcTest {{\n{body}}}\n",
    }


MVN_PASS = mvn_test("  @Test void adds() { assertEquals(4, Calc.add(2, 2)); }\n")
MVN_FAIL = mvn_test(
    "  @Test void adds() { assertEquals(4, Calc.add(2, 2)); }\n  @Test void addsNeg() { assertEquals(-2, Calc.add(-1, 2)); }\n"
)
MVN = "mvn -o -B"
add(
    case(
        "mvn-package-ok",
        "mvn",
        "plain_success",
        None,
        "offline maven build: compile, test, jar",
        f"{MVN} package",
        files=MVN_PASS,
        confirm="BUILD SUCCESS",
        timeout=120,
    )
)
add(
    case(
        "mvn-test-fail",
        "mvn",
        "failure_noisy_stderr",
        None,
        "one unit test fails; maven prints the surefire report and BUILD FAILURE",
        f"{MVN} test",
        files=MVN_FAIL,
        timeout=120,
    )
)
add(
    case(
        "mvn-test-failure-ignore",
        "mvn",
        "exit0_hidden_failure",
        None,
        "-Dmaven.test.failure.ignore=true: a test fails yet maven says BUILD SUCCESS",
        f"{MVN} test -Dmaven.test.failure.ignore=true",
        files=MVN_FAIL,
        group="mvn-test-fail",
        confirm="Tests run: 2, Failures: 1",
        timeout=120,
    )
)
add(
    case(
        "mvn-compile-error",
        "mvn",
        "plain_failure",
        None,
        "a compile error in main sources",
        f"{MVN} compile",
        timeout=120,
        files={
            **MVN_SRC,
            "src/main/java/corpus/Calc.java": "package corpus;\npublic class Calc { public static int add(int a, int b) { return a + c; } }\n",
        },
    )
)
add(
    case(
        "mvn-test-fail-color",
        "mvn",
        "coloured_output",
        "failure",
        "-Dstyle.color=always; a test fails",
        f"{MVN} -Dstyle.color=always test",
        files=MVN_FAIL,
        group="mvn-test-fail",
        timeout=120,
    )
)
add(
    case(
        "mvn-missing-dependency",
        "mvn",
        "plain_failure",
        None,
        "a dependency that is not in the local repository cannot be fetched offline",
        f"{MVN} compile",
        timeout=120,
        files={
            **MVN_SRC,
            "pom.xml": POM.replace(
                "<dependencies>",
                "<dependencies><dependency><groupId>corpus.missing</groupId><artifactId>nothing</artifactId><version>9.9</version></dependency>",
            ),
        },
    )
)
add(
    case(
        "mvn-quiet-ok",
        "mvn",
        "plain_success",
        None,
        "-q build prints only the test report",
        f"{MVN} -q package",
        files=MVN_PASS,
        group="mvn-package-ok",
        timeout=120,
    )
)

# --- go -------------------------------------------------------------------------------------

GOMOD = "module example.com/app\n\ngo 1.19\n"


def gomod(**files: str) -> dict[str, str]:
    return {
        "go.mod": GOMOD,
        **{k.replace("__", "/").replace("_go", ".go"): v for k, v in files.items()},
    }


G_OK = gomod(
    main_go='package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("sum =", 1+2+3)\n}\n'
)
G_ERR = gomod(
    main_go='package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n\tx := 5\n\tfmt.Println("hi" + 1)\n}\n'
)
G_TEST_PASS = gomod(
    calc_go="package app\n\nfunc Add(a, b int) int { return a + b }\n",
    calc_test_go='package app\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal("bad")\n\t}\n}\n',
)
G_TEST_FAIL = gomod(
    calc_go="package app\n\nfunc Add(a, b int) int { return a + b }\n",
    calc_test_go='package app\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 6 {\n\t\tt.Errorf("Add(2, 3) = %d, want 6", got)\n\t}\n}\n',
)
add(
    case(
        "go-build-run-ok",
        "go",
        "plain_success",
        None,
        "builds and runs a Go program",
        "go build -o app . && ./app",
        files=G_OK,
        confirm="sum = 6",
    )
)
add(
    case(
        "go-build-error",
        "go",
        "plain_failure",
        None,
        "unused variable, unused import and a type mismatch",
        "go build ./...",
        files=G_ERR,
    )
)
add(
    case(
        "go-test-pass",
        "go",
        "plain_success",
        None,
        "passing go test",
        "go test ./...",
        files=G_TEST_PASS,
    )
)
add(
    case(
        "go-test-fail",
        "go",
        "plain_failure",
        None,
        "failing go test",
        "go test ./...",
        files=G_TEST_FAIL,
    )
)
add(
    case(
        "go-test-v-pass",
        "go",
        "plain_success",
        None,
        "verbose passing go test",
        "go test -v ./...",
        files=G_TEST_PASS,
        group="go-test-pass",
    )
)
add(
    case(
        "go-test-fail-or-true",
        "go",
        "exit0_hidden_failure",
        None,
        "failing go test under `|| true`",
        "go test ./... || true",
        files=G_TEST_FAIL,
        group="go-test-fail",
        confirm="FAIL",
    )
)
add(
    case(
        "go-vet-issue",
        "go",
        "plain_failure",
        None,
        "go vet flags a bad Printf verb",
        "go vet ./...",
        files=gomod(
            main_go='package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Printf("%d\\n", "text")\n}\n'
        ),
    )
)
add(
    case(
        "go-vet-clean",
        "go",
        "plain_success",
        None,
        "go vet on clean code",
        "go vet ./...",
        files=G_OK,
        group="go-build-run-ok",
    )
)
add(
    case(
        "go-index-panic",
        "go",
        "plain_failure",
        None,
        "index out of range panic (go run exits 1)",
        "go run .",
        expect=1,
        files=gomod(
            main_go='package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n\tfmt.Println(os.Args[3])\n}\n'
        ),
    )
)
add(
    case(
        "go-nil-deref",
        "go",
        "killed_signalled",
        None,
        "nil pointer dereference: the runtime turns SIGSEGV into a panic (go run exits 1)",
        "go run .",
        expect=1,
        confirm="SIGSEGV",
        files=gomod(
            main_go="package main\n\ntype cfg struct{ port int }\n\nfunc load() *cfg { return nil }\n\nfunc main() {\n\tprintln(load().port)\n}\n"
        ),
    )
)
add(
    case(
        "go-deadlock",
        "go",
        "plain_failure",
        None,
        "all goroutines are asleep: the runtime reports a deadlock",
        "go run .",
        expect=1,
        files=gomod(
            main_go="package main\n\nfunc main() {\n\tch := make(chan int)\n\tch <- 1\n}\n"
        ),
    )
)
add(
    case(
        "go-log-fatal",
        "go",
        "plain_failure",
        None,
        "log.Fatalf on a missing input file",
        "go run .",
        files=gomod(
            main_go='package main\n\nimport (\n\t"log"\n\t"os"\n)\n\nfunc main() {\n\tif _, err := os.ReadFile("in.json"); err != nil {\n\t\tlog.Fatalf("read input: %v", err)\n\t}\n}\n'
        ),
    )
)
add(
    case(
        "go-goroutine-error-logged",
        "go",
        "exit0_hidden_failure",
        None,
        "the worker goroutine's write fails and is only logged; main exits 0",
        "go run .",
        confirm="permission denied|no such file",
        files=gomod(
            main_go='package main\n\nimport (\n\t"log"\n\t"os"\n\t"sync"\n)\n\nfunc main() {\n\tvar wg sync.WaitGroup\n\twg.Add(1)\n\tgo func() {\n\t\tdefer wg.Done()\n\t\tif err := os.WriteFile("/nonexistent/out.csv", []byte("a,b\\n"), 0o644); err != nil {\n\t\t\tlog.Printf("worker: write results: %v", err)\n\t\t}\n\t}()\n\twg.Wait()\n}\n'
        ),
    )
)
add(
    case(
        "go-test-log-errors-pass",
        "go",
        "success_alarming_stderr",
        None,
        "tests log expected error values with t.Log under -v; all pass",
        "go test -v ./...",
        confirm="PASS",
        files=gomod(
            p_go='package app\n\nimport "errors"\n\nfunc Parse(s string) (int, error) {\n\tif s == "" {\n\t\treturn 0, errors.New("error: empty input")\n\t}\n\treturn len(s), nil\n}\n',
            p_test_go='package app\n\nimport "testing"\n\nfunc TestEmpty(t *testing.T) {\n\t_, err := Parse("")\n\tif err == nil {\n\t\tt.Fatal("want error")\n\t}\n\tt.Logf("got expected error: %v", err)\n}\n',
        ),
    )
)
add(
    case(
        "go-mod-missing-offline",
        "go",
        "plain_failure",
        None,
        "imports a module that is not in the module cache; GOPROXY=off",
        "go build ./...",
        files=gomod(
            main_go='package main\n\nimport "github.com/corpus/missing/pkg"\n\nfunc main() { pkg.Run() }\n'
        ),
    )
)
add(
    case(
        "go-exit0-after-error",
        "go",
        "exit0_hidden_failure",
        None,
        "the health check cannot connect, prints an error and exits 0",
        "go run .",
        confirm="connection refused",
        files=gomod(
            main_go='package main\n\nimport (\n\t"fmt"\n\t"net"\n\t"os"\n)\n\nfunc main() {\n\tif _, err := net.Dial("tcp", "127.0.0.1:9"); err != nil {\n\t\tfmt.Fprintln(os.Stderr, "health check failed:", err)\n\t\tos.Exit(0)\n\t}\n}\n'
        ),
    )
)
