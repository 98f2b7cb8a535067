"""Runs whose stderr is mostly noise (verbose logs, traces, progress) and whose bytes are not
UTF-8, across many tools; plus more progress-on-stderr runs."""

from __future__ import annotations

from casekit import Case, case, dedent

CASES: list[Case] = []
add = CASES.append

# --- failures buried in noise ---------------------------------------------------------------

add(
    case(
        "pip-verbose-missing",
        "pip",
        "failure_noisy_stderr",
        None,
        "-vv install of a package no index provides: long resolver log, then the error",
        "pip install -vv corpus-no-such-dist-xyz",
    )
)
add(
    case(
        "npm-verbose-not-cached",
        "npm",
        "failure_noisy_stderr",
        None,
        "--loglevel=silly offline install of an uncached package: the ENOTCACHED is buried",
        "npm install --loglevel=silly --no-audit --no-fund corpus-not-cached-pkg-xyz",
        files={"package.json": '{"name": "app", "version": "1.0.0", "private": true}\n'},
    )
)
add(
    case(
        "python3-debug-log-then-fatal",
        "python3",
        "failure_noisy_stderr",
        None,
        "a job logs 300 DEBUG/INFO lines to stderr and then fails on one fatal error",
        "python3 job.py",
        files={
            "job.py": dedent("""
             import logging, sys
             logging.basicConfig(level=logging.DEBUG, format="%(asctime)s %(levelname)-5s %(name)s %(message)s")
             log = logging.getLogger("etl")
             for i in range(150):
                 log.debug("fetched page %d (retries=0, errors=0)", i)
                 log.info("transformed %d rows from page %d", 50, i)
             log.critical("cannot write to warehouse: permission denied for schema analytics")
             sys.exit(1)
         """)
        },
    )
)
add(
    case(
        "python3-importtime-missing",
        "python3",
        "failure_noisy_stderr",
        None,
        "-X importtime prints hundreds of import timings, then ModuleNotFoundError",
        "python3 -X importtime -c 'import json, email.mime.text, http.client, corpus_missing_mod'",
    )
)
add(
    case(
        "node-many-warnings-then-throw",
        "node",
        "failure_noisy_stderr",
        None,
        "twenty process warnings and then an uncaught error",
        "node -e \"for (let i = 0; i < 20; i++) process.emitWarning('option legacy' + i + ' is deprecated', 'DeprecationWarning', 'DEP0' + (100 + i)); setTimeout(() => { throw new Error('build failed: entry point src/main.ts not found'); }, 10)\"",
    )
)
add(
    case(
        "cargo-vv-build-error",
        "cargo",
        "failure_noisy_stderr",
        None,
        "cargo -vv prints every rustc invocation and env before the type error",
        "cargo --offline build -vv",
        files={
            "Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n',
            "build.rs": 'fn main() { for i in 0..30 { println!("cargo:warning=generated binding {i} uses a deprecated type"); } }\n',
            "src/main.rs": 'fn main() { let x: u32 = "seven"; }\n',
        },
    )
)
add(
    case(
        "gcc-verbose-error",
        "gcc",
        "failure_noisy_stderr",
        None,
        "gcc -v prints its whole driver configuration and search paths, then one error",
        "gcc -v -c main.c",
        files={"main.c": "int main(void) { return missing_symbol; }\n"},
    )
)
add(
    case(
        "make-debug-fail",
        "make",
        "failure_noisy_stderr",
        None,
        "make --debug=v traces its decisions before the recipe fails",
        "make --debug=v",
        files={
            "Makefile": "all: a.o b.o c.o\n\tgcc -o app $^\n%.o: %.c\n\tgcc -c $<\n",
            "a.c": "int a(void) { return 1; }\n",
            "b.c": "int b(void) { return 2; }\n",
            "c.c": "int c(void) { return undefined_c; }\n",
        },
        expect=2,
    )
)
add(
    case(
        "cmake-warnings-then-fatal",
        "cmake",
        "failure_noisy_stderr",
        None,
        "a configure step prints a dozen CMake warnings before its FATAL_ERROR",
        "cmake -S . -B build",
        files={
            "CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(x NONE)\n"
            + "".join(f'message(WARNING "option OPT_{i} is deprecated")\n' for i in range(12))
            + 'message(FATAL_ERROR "compiler does not support C++20")\n'
        },
    )
)
add(
    case(
        "javac-xlint-many-then-error",
        "javac",
        "failure_noisy_stderr",
        None,
        "-Xlint:all warnings on raw types in several classes and one real compile error",
        "javac -Xlint:all *.java",
        files={
            **{
                f"W{i}.java": f"import java.util.*;\nclass W{i} {{ List l = new ArrayList(); void f() {{ l.add({i}); }} }}\n"
                for i in range(8)
            },
            "Main.java": "class Main { int f() { return missing; } }\n",
        },
    )
)
add(
    case(
        "go-build-x-error",
        "go",
        "failure_noisy_stderr",
        None,
        "go build -x echoes every tool invocation to stderr before the compile error",
        "go build -x ./...",
        files={
            "go.mod": "module example.com/app\n\ngo 1.19\n",
            "main.go": 'package main\n\nfunc main() {\n\tvar n int = "x"\n}\n',
        },
    )
)
add(
    case(
        "git-trace-clone-missing",
        "git",
        "plain_failure",
        None,
        "GIT_TRACE=1 clone of a missing repository: trace lines, then the fatal error",
        "git clone /nonexistent/repo.git dst",
        env={"GIT_TRACE": "1"},
        expect=128,
    )
)
add(
    case(
        "curl-verbose-f-404",
        "curl",
        "failure_noisy_stderr",
        None,
        "-v headers and connection chatter, then -f fails on the 404",
        'curl -v -f -o out.html "$HTTP_FILES/missing/page.html"',
        expect=22,
    )
)
add(
    case(
        "wget-debug-500",
        "wget",
        "failure_noisy_stderr",
        None,
        "wget -d prints its debug log, then the 500 error",
        'wget -d "$HTTP_APP/status/500"',
        expect=8,
    )
)
add(
    case(
        "ruby-debug-exception",
        "ruby",
        "failure_noisy_stderr",
        None,
        "ruby -d reports every internally rescued exception before the real one",
        'ruby -d -e \'require "json"; require "set"; raise ArgumentError, "invalid region: mars-1"\'',
    )
)
add(
    case(
        "perl-warnings-then-die",
        "perl",
        "failure_noisy_stderr",
        None,
        "dozens of uninitialised-value warnings, then die on a missing column",
        'perl -we \'my @r = (undef) x 25; for my $v (@r) { my $x = "v=" . $v; } die "column customer_id not found in header\\n"\'',
        expect=255,
    )
)
add(
    case(
        "bash-x-long-then-missing",
        "bash",
        "failure_noisy_stderr",
        None,
        "xtrace of a long loop, then a command that is not installed",
        "bash -x -c 'for i in $(seq 1 60); do n=$((i*i)); done; corpus-deploy-tool --prod'",
        expect=127,
    )
)
add(
    case(
        "mvn-debug-compile-error",
        "mvn",
        "failure_noisy_stderr",
        None,
        "mvn -X debug output (very long), then a compile error",
        "mvn -o -B -X compile",
        timeout=120,
        files={
            "pom.xml": dedent("""
             <project xmlns="http://maven.apache.org/POM/4.0.0">
               <modelVersion>4.0.0</modelVersion>
               <groupId>corpus</groupId><artifactId>dbg</artifactId><version>1.0</version>
               <properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
               <build><plugins>
                 <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
                 <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
               </plugins></build>
             </project>
         """),
            "src/main/java/x/A.java": "package x;\npublic class A { int f() { return nope; } }\n",
        },
    )
)
add(
    case(
        "valgrind-verbose-invalid-free",
        "valgrind",
        "failure_noisy_stderr",
        None,
        "valgrind -v with --error-exitcode: a double free among verbose startup output",
        "gcc -g -o df df.c && valgrind -v --error-exitcode=3 ./df",
        files={
            "df.c": "#include <stdlib.h>\nint main(void) { char *p = malloc(8); free(p); free(p); return 0; }\n"
        },
        expect=3,
    )
)
add(
    case(
        "rsync-vvv-missing",
        "rsync",
        "failure_noisy_stderr",
        None,
        "rsync -vvv of a partially missing source list",
        "rsync -avvv a.txt nope.txt dst/",
        files={"a.txt": "a\n"},
        expect=23,
    )
)
add(
    case(
        "pytest-fail-rootdir-noise",
        "pytest",
        "failure_noisy_stderr",
        None,
        "pytest -W default with warnings from many modules on stderr via -s, one failure",
        "pytest -p no:cacheprovider -s -W default -q",
        files={
            **{
                f"test_m{i}.py": f"import sys, warnings\ndef test_{i}():\n    warnings.warn('legacy api {i}', DeprecationWarning)\n    print('debug: module {i} loaded ok', file=sys.stderr)\n    assert {i} != 4\n"
                for i in range(8)
            }
        },
    )
)

# --- not UTF-8 ------------------------------------------------------------------------------

add(
    case(
        "gcc-latin1-header-missing",
        "gcc",
        "non_utf8",
        "failure",
        "an #include of a latin-1 named header that does not exist",
        "gcc -c main.c",
        files={"main.c": b'#include "caf\xe9.h"\nint main(void) { return 0; }\n'},
    )
)
add(
    case(
        "perl-die-latin1",
        "perl",
        "non_utf8",
        "failure",
        "the script dies with a latin-1 encoded message",
        "perl -e 'die \"fichier introuvable: caf\\xe9.txt\\n\"'",
        expect=255,
    )
)
add(
    case(
        "sort-check-latin1",
        "sort",
        "non_utf8",
        "failure",
        "`sort -c` reports the unsorted latin-1 line raw",
        "LC_ALL=C sort -c names.txt",
        files={"names.txt": "zz\ncaf\xe9\n".encode("latin-1")},
    )
)
add(
    case(
        "diff-latin1",
        "diff",
        "non_utf8",
        "failure",
        "golden-file check on latin-1 files: they differ",
        "diff old.txt new.txt",
        files={"old.txt": "caf\xe9\n".encode("latin-1"), "new.txt": "caf\xe8\n".encode("latin-1")},
        expect=1,
    )
)
add(
    case(
        "ruby-raise-binary",
        "ruby",
        "non_utf8",
        "failure",
        "raises with a message holding an invalid byte from the input",
        "ruby -e 'raise ArgumentError, \"bad byte \\xFF in record 7\".b'",
    )
)
add(
    case(
        "sqlite3-latin1-table-error",
        "sqlite3",
        "non_utf8",
        "failure",
        "queries a latin-1 named table that does not exist",
        "sqlite3 :memory: \"$(printf 'select * from caf\\xe9;')\"",
    )
)
add(
    case(
        "tar-latin1-missing",
        "tar",
        "non_utf8",
        "failure",
        "tars a latin-1 named file that is not there",
        "tar --quoting-style=literal -cf out.tar $'r\\xe9sum\\xe9.pdf'",
        expect=2,
    )
)
add(
    case(
        "lua-error-latin1",
        "lua",
        "non_utf8",
        "failure",
        "a lua error whose message holds latin-1 bytes",
        "lua5.4 -e 'error(\"fichier introuvable: caf\\233.txt\")'",
    )
)
add(
    case(
        "php-stderr-latin1",
        "php",
        "non_utf8",
        "failure",
        "writes a latin-1 error message and exits 1",
        "php -r 'fwrite(STDERR, \"Erreur: caf\\xe9 introuvable\\n\"); exit(1);'",
    )
)
add(
    case(
        "python3-latin1-traceback-source",
        "python3",
        "plain_failure",
        None,
        "a latin-1 source file (coding cookie) raises; the traceback re-encodes it as UTF-8",
        "python3 l1.py",
        files={
            "l1.py": "# -*- coding: latin-1 -*-\nraise ValueError('caf\xe9 invalide')  # caf\xe9\n".encode(
                "latin-1"
            )
        },
    )
)
add(
    case(
        "cat-latin1-ok",
        "bash",
        "non_utf8",
        "success",
        "prints a latin-1 menu file",
        "cat menu.txt",
        files={"menu.txt": "caf\xe9 1,20\nth\xe9 0,90\n".encode("latin-1")},
    )
)
add(
    case(
        "iconv-latin1-to-utf8",
        "iconv",
        "non_utf8",
        "success",
        "shows the raw latin-1 input, then converts it to UTF-8 successfully",
        "cat in.txt && iconv -f latin1 -t utf-8 in.txt",
        files={"in.txt": "Zo\xeb\n".encode("latin-1")},
    )
)
add(
    case(
        "iconv-invalid-input",
        "iconv",
        "non_utf8",
        "failure",
        "iconv treats latin-1 input as UTF-8 and stops at the invalid byte",
        "iconv -f utf-8 -t utf-16 in.txt > out.txt; rc=$?; cat in.txt >&2; exit $rc",
        files={"in.txt": "Zo\xeb M\xfcller\n".encode("latin-1")},
    )
)

# --- progress on stderr ---------------------------------------------------------------------

add(
    case(
        "pv-copy",
        "pv",
        "progress_on_stderr",
        "success",
        "pv -f shows a progress line on stderr while copying 4 MB",
        "head -c 4194304 /dev/zero | pv -f -s 4194304 > out.bin && ls -l out.bin",
    )
)
add(
    case(
        "pv-missing",
        "pv",
        "progress_on_stderr",
        "failure",
        "pv asked to read a file that does not exist",
        "pv -f nope.bin > out.bin",
    )
)
add(
    case(
        "cargo-test-progress",
        "cargo",
        "progress_on_stderr",
        "success",
        "cargo test: Compiling/Running lines on stderr, results on stdout",
        "cargo --offline test",
        files={
            "Cargo.toml": '[package]\nname = "t"\nversion = "0.1.0"\nedition = "2021"\n',
            "src/lib.rs": "#[test]\nfn one() { assert!(true); }\n",
        },
        confirm="1 passed",
    )
)
add(
    case(
        "go-build-v",
        "go",
        "progress_on_stderr",
        "success",
        "go build -v lists each package it builds on stderr",
        "go build -v ./...",
        files={
            "go.mod": "module example.com/app\n\ngo 1.19\n",
            "main.go": 'package main\n\nimport "example.com/app/util"\n\nfunc main() { util.Hi() }\n',
            "util/u.go": 'package util\n\nimport "fmt"\n\nfunc Hi() { fmt.Println("hi") }\n',
        },
    )
)
add(
    case(
        "wget-mirror",
        "wget",
        "progress_on_stderr",
        "success",
        "wget -r mirrors the small file server (log and progress on stderr)",
        'wget -r -np -nH -l1 "$HTTP_FILES/" && ls',
        confirm="index.html",
    )
)
add(
    case(
        "git-clone-mirror-progress",
        "git",
        "progress_on_stderr",
        "success",
        "git clone --mirror --progress of a local repository",
        "git clone --mirror --progress file://$PWD/src mirror.git",
        setup="git init -q -b main src && cd src && for i in $(seq 1 30); do echo $i > f$i; done && git add . && git commit -qm a",
    )
)
add(
    case(
        "git-fetch-gone-remote",
        "git",
        "progress_on_stderr",
        "failure",
        "git fetch --progress from a remote whose repository was deleted",
        "cd dst && git fetch --progress origin",
        setup="git init -q -b main src && cd src && echo a > a && git add a && git commit -qm a && cd .. && git clone -q src dst && rm -rf src",
        expect=128,
    )
)
add(
    case(
        "xz-truncated-verbose",
        "xz",
        "progress_on_stderr",
        "failure",
        "xz -dv on a truncated archive: progress, then `Unexpected end of input`",
        "seq 1 100000 | xz -T1 > n.xz && head -c 3000 n.xz > bad.xz && xz -dv bad.xz",
    )
)
add(
    case(
        "rsync-info-progress2",
        "rsync",
        "plain_success",
        None,
        "rsync --info=progress2 copies a 2 MB file",
        "head -c 2097152 /dev/zero > big.bin && rsync --info=progress2 big.bin copy.bin && ls copy.bin",
    )
)
add(
    case(
        "curl-upload-progress",
        "curl",
        "progress_on_stderr",
        "success",
        "curl -T uploads a file with progress shown; the server accepts it",
        'head -c 1048576 /dev/zero > up.bin && curl -sS -o /dev/null -w "%{http_code}\\n" -T up.bin "$HTTP_APP/ok" && curl -# -T up.bin -o /dev/null "$HTTP_APP/ok"',
        confirm="200",
    )
)

# --- streams over the 256 KiB storage limit (kept as head + tail) ---------------------------

add(
    case(
        "python3-huge-log-then-traceback",
        "python3",
        "failure_noisy_stderr",
        None,
        "a job writes ~600 KB of INFO log to stderr, then dies with a traceback at the very end",
        "python3 big.py",
        files={
            "big.py": dedent("""
             import logging
             logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
             log = logging.getLogger("loader")
             for i in range(8000):
                 log.info("loaded shard %05d of 8000 (0 errors so far, retries=0, lag=12ms)", i)
             raise KeyError("shard_8000: missing from manifest")
         """)
        },
    )
)
add(
    case(
        "gawk-huge-report",
        "gawk",
        "plain_success",
        None,
        "prints a 60000-row report (about 2 MB on stdout)",
        "gawk 'BEGIN { for (i = 0; i < 60000; i++) printf \"row %06d status ok value %d\\n\", i, i * 7 }'",
    )
)
