"""bash and sh scripts and the everyday Unix tools: grep, sed, gawk, find, sort, tar, gzip, xz,
zstd, bzip2, zip/unzip, rsync, diff, patch, dd, jq, bc, openssl."""

from __future__ import annotations

from casekit import Case, case, dedent

CASES: list[Case] = []
add = CASES.append

LATIN1_DIR = "mkdir -p d && printf 'x\\n' > d/$'caf\\xe9.txt' && printf 'y\\n' > d/$'na\\xefve.txt' && printf 'z\\n' > d/plain.txt"

# --- bash / sh ------------------------------------------------------------------------------

DEPLOY = {
    "deploy.sh": dedent("""
    #!/bin/bash
    echo "building"
    mkdir -p out
    cp config/app.yaml out/
    echo "uploading out/ to staging"
    echo "deploy complete"
""")
}
add(
    case(
        "bash-script-ok",
        "bash",
        "plain_success",
        None,
        "a build script creates a directory, writes files and reports",
        "bash -c 'set -euo pipefail; mkdir -p out; for i in 1 2 3; do echo $i > out/$i.txt; done; ls out | wc -l'",
        confirm="3",
    )
)
add(
    case(
        "bash-command-not-found",
        "bash",
        "plain_failure",
        None,
        "the script calls a program that is not installed (exit 127)",
        "corpus-no-such-command --version",
        expect=127,
    )
)
add(
    case(
        "bash-permission-denied",
        "bash",
        "plain_failure",
        None,
        "the script tries to run a file without execute permission (exit 126)",
        "printf 'echo hi\\n' > s.sh && chmod -x s.sh && ./s.sh",
        expect=126,
    )
)
add(
    case(
        "bash-set-e-stops",
        "bash",
        "plain_failure",
        None,
        "set -e: the copy of a missing config fails and the script stops",
        "bash -e deploy.sh",
        files=DEPLOY,
    )
)
add(
    case(
        "bash-no-set-e-continues",
        "bash",
        "exit0_hidden_failure",
        None,
        "without set -e the failed copy is ignored and the script says `deploy complete`",
        "bash deploy.sh",
        files=DEPLOY,
        group="bash-set-e-stops",
        confirm="cannot stat",
    )
)
add(
    case(
        "bash-set-plus-e",
        "bash",
        "exit0_hidden_failure",
        None,
        "`set +e` CI script: the test command fails, the script ends with a successful echo",
        "set +e\npython3 -c 'import sys; sys.stderr.write(\"FAILED tests/test_api.py::test_login - AssertionError\\n\"); sys.exit(1)'\necho 'uploading coverage'\n",
        confirm="FAILED",
    )
)
add(
    case(
        "bash-pipe-tail-swallow",
        "bash",
        "exit0_hidden_failure",
        None,
        "a failing build piped to `tail` without pipefail; the pipeline exits 0",
        "gcc -o app nosuchfile.c 2>&1 | tail -n 5",
        confirm="No such file",
    )
)
add(
    case(
        "bash-pipefail-fails",
        "bash",
        "plain_failure",
        None,
        "the same failing build with pipefail",
        "set -o pipefail; gcc -o app nosuchfile.c 2>&1 | tail -n 5",
        group="bash-pipe-tail-swallow",
    )
)
add(
    case(
        "bash-xtrace-fail",
        "bash",
        "failure_noisy_stderr",
        None,
        "`bash -x` traces every command to stderr before the failing step",
        "bash -xe build.sh",
        files={
            "build.sh": "for i in $(seq 1 25); do\n  v=$((i * 2))\n  : step $i\ndone\ntest -f dist/app.tar.gz\necho packaged\n"
        },
    )
)
add(
    case(
        "bash-xtrace-ok",
        "bash",
        "success_alarming_stderr",
        None,
        "`bash -x` traces a successful script (stderr full of `+` lines)",
        "bash -xe build.sh",
        files={
            "build.sh": 'mkdir -p dist\nfor i in 1 2 3; do\n  echo "file $i" > dist/f$i.txt\ndone\ntar czf dist.tgz dist\necho packaged\n'
        },
        confirm="packaged",
    )
)
add(
    case(
        "bash-kill-self-9",
        "bash",
        "killed_signalled",
        None,
        "the script is killed with SIGKILL",
        ["bash", "-c", "echo working; kill -9 $$; echo never"],
        expect="SIGKILL",
    )
)
add(
    case(
        "bash-child-killed",
        "bash",
        "killed_signalled",
        None,
        "a child job is SIGKILLed; the script returns its 137",
        "sleep 5 & kill -9 $!; wait $!",
        expect=137,
    )
)
add(
    case(
        "bash-child-segv",
        "bash",
        "killed_signalled",
        None,
        "a child shell dies of SIGSEGV; the script returns 139",
        "bash -c 'kill -SEGV $$'; exit $?",
        expect=139,
    )
)
add(
    case(
        "bash-sigterm-self",
        "bash",
        "killed_signalled",
        None,
        "the script receives SIGTERM",
        ["bash", "-c", "echo 'syncing'; kill -TERM $$; sleep 2"],
        expect="SIGTERM",
    )
)
add(
    case(
        "bash-timeout-kill",
        "bash",
        "killed_signalled",
        None,
        "`timeout -s KILL 1` stops a hung step (timeout ends by SIGKILL too)",
        "timeout -s KILL 1 bash -c 'echo waiting for db; sleep 10'",
        expect="SIGKILL",
    )
)
add(
    case(
        "bash-timeout-124",
        "bash",
        "killed_signalled",
        None,
        "`timeout 1` stops a hung step (exit 124)",
        "timeout 1 bash -c 'echo waiting for lock; sleep 10'",
        expect=124,
    )
)
add(
    case(
        "bash-harness-timeout-sleep",
        "bash",
        "killed_signalled",
        None,
        "the task timeout (2 s) kills a step that never returns",
        ["bash", "-c", "echo 'waiting for upstream'; sleep 30"],
        expect="SIGKILL",
        timeout=2.0,
    )
)
add(
    case(
        "perl-ulimit-oom",
        "perl",
        "killed_signalled",
        None,
        "with a 100 MB memory limit, perl cannot build a 500 MB string (OOM-like)",
        "ulimit -v 100000; perl -e '$x = \"a\" x 500_000_000; print length $x'",
        confirm="Out of memory",
    )
)
add(
    case(
        "bash-exit-codes-ok",
        "bash",
        "plain_success",
        None,
        "script with a trap and a subshell that both succeed",
        "trap 'echo cleanup' EXIT; (cd /tmp && pwd); echo main done",
        confirm="cleanup",
    )
)
add(
    case(
        "bash-error-trap-logged",
        "bash",
        "exit0_hidden_failure",
        None,
        "an ERR trap logs the failed download but the script ends with `exit 0`",
        "trap 'echo \"ERROR: step failed at line $LINENO\" >&2' ERR\nls /nonexistent/artifacts\necho done\nexit 0\n",
        confirm="ERROR: step failed",
    )
)
add(
    case(
        "bash-stderr-warning-ok",
        "bash",
        "success_alarming_stderr",
        None,
        "the script warns on stderr that a deprecated flag was used, then succeeds",
        "echo 'warning: --legacy-mode is deprecated; errors will be fatal in v3' >&2; echo 'migrated 4 tables'",
    )
)
add(
    case(
        "bash-latin1-ls",
        "bash",
        "non_utf8",
        "success",
        "lists a directory whose file names are latin-1 bytes",
        "ls d",
        setup=LATIN1_DIR,
    )
)
add(
    case(
        "bash-latin1-missing-file",
        "bash",
        "non_utf8",
        "failure",
        "bash redirects from a latin-1 named file that does not exist",
        "cat < $'r\\xe9sum\\xe9.txt'",
    )
)
add(
    case(
        "bash-binary-garbage-stderr-fail",
        "bash",
        "non_utf8",
        "failure",
        "a tool crashes dumping binary garbage to stderr, exit 1",
        "head -c 64 /dev/zero | tr '\\0' '\\377' >&2; printf '\\x80\\x81 fatal\\n' >&2; exit 1",
    )
)
add(
    case(
        "bash-binary-garbage-stderr-ok",
        "bash",
        "non_utf8",
        "success",
        "a converter writes a binary header to stderr as debug output and succeeds",
        "printf '\\x89PNG\\r\\n\\x1a\\n\\xff\\xd8' >&2; echo 'converted 1 image'",
    )
)
add(
    case(
        "bash-colored-ls",
        "bash",
        "coloured_output",
        "success",
        "ls --color=always of a project directory",
        "mkdir -p src bin && touch src/a.c && printf '#!/bin/sh\\n' > bin/run && chmod +x bin/run && ls --color=always -R",
        env={"TERM": "xterm-256color"},
    )
)
add(
    case(
        "sh-not-found",
        "sh",
        "plain_failure",
        None,
        "dash cannot find the command",
        "sh -c 'corpus-missing-tool --run'",
        expect=127,
    )
)
add(
    case(
        "sh-script-ok",
        "sh",
        "plain_success",
        None,
        "a POSIX sh script loops and prints",
        "sh -c 'i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo step $i; done'",
        confirm="step 3",
    )
)
add(
    case(
        "sh-syntax-error",
        "sh",
        "plain_failure",
        None,
        "a POSIX sh script with a syntax error",
        "sh broken.sh",
        files={"broken.sh": "if [ -f x ]; then\n  echo x\n"},
        expect=2,
    )
)
add(
    case(
        "sh-or-true-chain",
        "sh",
        "exit0_hidden_failure",
        None,
        "the migration command fails; `|| true` keeps the job green",
        "sh -c 'ls /nonexistent/migrations >/dev/null || true; echo migrations applied'",
        confirm="No such file",
    )
)

# --- grep / sed / awk / find / sort ---------------------------------------------------------

LOG = {
    "app.log": "2024-01-01 INFO start\n2024-01-01 ERROR db timeout\n2024-01-01 INFO retry ok\n2024-01-01 WARN slow\n"
}
add(
    case(
        "grep-match",
        "grep",
        "plain_success",
        None,
        "finds the expected line in a config",
        "grep -n 'listen' nginx.conf",
        files={"nginx.conf": "server {\n  listen 80;\n}\n"},
    )
)
add(
    case(
        "grep-no-match",
        "grep",
        "plain_failure",
        None,
        "a check that the config enables TLS; the line is absent (exit 1)",
        "grep -q 'ssl on' nginx.conf",
        files={"nginx.conf": "server {\n  listen 80;\n}\n"},
        expect=1,
    )
)
add(
    case(
        "grep-missing-file",
        "grep",
        "plain_failure",
        None,
        "grep on a file that is not there",
        "grep foo nope.txt",
        expect=2,
    )
)
add(
    case(
        "grep-color-errors",
        "grep",
        "coloured_output",
        "success",
        "counts ERROR lines in a log with --color=always (the count is the job)",
        "grep --color=always ERROR app.log",
        files=LOG,
    )
)
add(
    case(
        "grep-latin1",
        "grep",
        "non_utf8",
        "success",
        "greps a latin-1 encoded file and prints the raw matching line",
        "grep -a 'caf' menu.txt",
        files={"menu.txt": "café crème 3€\nthé 2\n".encode("latin-1", "replace")},
    )
)
add(
    case(
        "grep-error-summary-ok",
        "grep",
        "success_alarming_stderr",
        None,
        "prints the `errors: 0` line of a build summary; found as expected",
        "grep -h 'errors' summary.txt",
        files={"summary.txt": "files: 12\nwarnings: 3\nerrors: 0\n"},
    )
)
add(
    case(
        "sed-inplace-ok",
        "sed",
        "plain_success",
        None,
        "sed -i bumps a version string",
        "sed -i 's/version = 1.2.0/version = 1.3.0/' setup.cfg && cat setup.cfg",
        files={"setup.cfg": "[metadata]\nversion = 1.2.0\n"},
        confirm="1.3.0",
    )
)
add(
    case(
        "sed-bad-expression",
        "sed",
        "plain_failure",
        None,
        "an unterminated s command",
        "sed -e 's/foo/bar' setup.cfg",
        files={"setup.cfg": "x\n"},
    )
)
add(
    case(
        "sed-latin1",
        "sed",
        "non_utf8",
        "success",
        "rewrites a latin-1 file; output keeps the latin-1 bytes",
        "LC_ALL=C sed 's/cr/CR/' menu.txt",
        files={"menu.txt": "café crème\n".encode("latin-1")},
    )
)
add(
    case(
        "gawk-report-ok",
        "gawk",
        "plain_success",
        None,
        "sums a column",
        "gawk -F, 'NR>1 {s += $2} END {print \"total\", s}' data.csv",
        files={"data.csv": "k,v\na,1\nb,2\n"},
        confirm="total 3",
    )
)
add(
    case(
        "gawk-syntax-error",
        "gawk",
        "plain_failure",
        None,
        "an awk program with a syntax error",
        "gawk '{ print $1 ' data.csv",
        files={"data.csv": "a\n"},
    )
)
add(
    case(
        "gawk-division-by-zero",
        "gawk",
        "plain_failure",
        None,
        "average of an empty column divides by zero",
        "gawk 'END { print s / n }' empty.txt",
        files={"empty.txt": ""},
    )
)
add(
    case(
        "gawk-lint-warnings-ok",
        "gawk",
        "success_alarming_stderr",
        None,
        "--lint warnings on stderr; the report is produced",
        "gawk --lint 'BEGIN { x = y } { print $1 }' data.csv",
        files={"data.csv": "row1\nrow2\n"},
        confirm="row2",
    )
)
add(
    case(
        "find-exec-swallows",
        "find",
        "exit0_hidden_failure",
        None,
        "find -exec ... \\; runs every script; one fails but find exits 0",
        "find scripts -name '*.py' -exec python3 {} \\;",
        files={
            "scripts/a_ok.py": "print('a ok')\n",
            "scripts/b_bad.py": "raise SystemExit('b failed: schema mismatch')\n",
        },
        confirm="schema mismatch",
    )
)
add(
    case(
        "find-exec-plus-reports",
        "find",
        "plain_failure",
        None,
        "find -exec ... + passes the failing exit status on",
        "find scripts -name '*.sh' -exec bash -c 'for f; do bash \"$f\" || exit 1; done' _ {} +",
        files={"scripts/a.sh": "echo a\n", "scripts/b.sh": "echo b; exit 3\n"},
    )
)
add(
    case(
        "find-permission-denied-partial",
        "find",
        "plain_failure",
        None,
        "find cannot read a directory (simulated with a missing start path) and exits 1",
        "find src missing-dir -name '*.c'",
        setup="mkdir -p src && touch src/a.c",
    )
)
add(
    case(
        "find-latin1-names",
        "find",
        "non_utf8",
        "success",
        "find lists latin-1 file names",
        "find d -type f | sort",
        setup=LATIN1_DIR,
    )
)
add(
    case(
        "sort-check-unsorted",
        "sort",
        "plain_failure",
        None,
        "`sort -c` finds the list out of order",
        "sort -c names.txt",
        files={"names.txt": "alpha\ncharlie\nbravo\n"},
    )
)
add(
    case(
        "sort-uniq-ok",
        "sort",
        "plain_success",
        None,
        "sorts and counts words",
        "sort words.txt | uniq -c",
        files={"words.txt": "b\na\nb\nc\n"},
    )
)
add(
    case(
        "xargs-fails-123",
        "xargs",
        "plain_failure",
        None,
        "xargs runs a command that fails for one input (exit 123)",
        "printf 'a.txt\\nmissing.txt\\n' | xargs cat",
        files={"a.txt": "A\n"},
        expect=123,
    )
)

# --- archives and compression ---------------------------------------------------------------

SRC = {
    "proj/README.md": "# proj\n",
    "proj/src/main.c": "int main(void) { return 0; }\n",
    "proj/data/values.csv": "a,b\n1,2\n",
}
add(
    case(
        "tar-create-verbose",
        "tar",
        "plain_success",
        None,
        "creates a gzip tarball verbosely",
        "tar czvf proj.tgz proj",
        files=SRC,
        confirm="main.c",
    )
)
add(
    case(
        "tar-extract-missing",
        "tar",
        "plain_failure",
        None,
        "extracts an archive that is not there",
        "tar xzf release.tgz",
        expect=2,
    )
)
add(
    case(
        "tar-corrupt",
        "tar",
        "plain_failure",
        None,
        "extracts a truncated gzip archive",
        "tar czf p.tgz proj && head -c 60 p.tgz > bad.tgz && tar xzf bad.tgz",
        files=SRC,
        expect=2,
    )
)
add(
    case(
        "tar-file-changed-warning",
        "tar",
        "plain_failure",
        None,
        "tar warns a member is missing from the list it was asked to pack and exits 2",
        "tar cf out.tar proj/README.md proj/absent.txt",
        files=SRC,
        expect=2,
    )
)
add(
    case(
        "tar-latin1-names",
        "tar",
        "non_utf8",
        "success",
        "lists an archive whose member names are latin-1",
        "tar cf d.tar d && tar --quoting-style=literal -tvf d.tar",
        setup=LATIN1_DIR,
    )
)
add(
    case(
        "tar-or-true-missing",
        "tar",
        "exit0_hidden_failure",
        None,
        "the backup step tars a directory that does not exist, `|| true`",
        "tar czf backup.tgz /nonexistent/data || true; echo backup uploaded",
        confirm="Cannot stat",
    )
)
add(
    case(
        "gzip-verbose",
        "gzip",
        "progress_on_stderr",
        "success",
        "gzip -v reports the compression ratio on stderr",
        "seq 1 20000 > nums.txt && gzip -v nums.txt",
        confirm="%",
    )
)
add(
    case(
        "gzip-corrupt",
        "gzip",
        "plain_failure",
        None,
        "decompresses a file that is not gzip",
        "printf 'not gzip data' > x.gz && gzip -d x.gz",
    )
)
add(
    case(
        "gzip-test-ok",
        "gzip",
        "plain_success",
        None,
        "gzip -t verifies a good archive",
        "seq 1 100 | gzip > n.gz && gzip -tv n.gz",
        confirm="OK",
    )
)
add(
    case(
        "xz-verbose-progress",
        "xz",
        "progress_on_stderr",
        "success",
        "xz -v prints progress and a summary to stderr",
        "seq 1 200000 > big.txt && xz -v -T1 big.txt && ls big.txt.xz",
    )
)
add(
    case(
        "xz-corrupt",
        "xz",
        "plain_failure",
        None,
        "xz -d on garbage",
        "printf 'garbage' > g.xz && xz -d g.xz",
    )
)
add(
    case(
        "zstd-verbose",
        "zstd",
        "progress_on_stderr",
        "success",
        "zstd -v compresses and reports on stderr",
        "seq 1 100000 > n.txt && zstd -v n.txt",
    )
)
add(
    case(
        "zstd-missing-input",
        "zstd",
        "plain_failure",
        None,
        "zstd on a missing file",
        "zstd nope.txt",
    )
)
add(
    case(
        "bzip2-verbose",
        "bzip2",
        "progress_on_stderr",
        "success",
        "bzip2 -v prints the ratio on stderr",
        "seq 1 50000 > n.txt && bzip2 -v n.txt",
    )
)
add(
    case(
        "bzip2-test-corrupt",
        "bzip2",
        "plain_failure",
        None,
        "bzip2 -t finds a damaged archive",
        "seq 1 50000 | bzip2 > n.bz2 && head -c 2000 n.bz2 > bad.bz2 && bzip2 -t bad.bz2",
    )
)
add(
    case(
        "zip-ok",
        "zip",
        "plain_success",
        None,
        "zips a project directory",
        "zip -r proj.zip proj",
        files=SRC,
        confirm="adding",
    )
)
add(
    case(
        "zip-missing-warning",
        "zip",
        "plain_failure",
        None,
        "zip is asked for a file that is not there (exit 12, nothing to do)",
        "zip out.zip missing.txt",
        expect=12,
    )
)
add(
    case(
        "unzip-ok",
        "unzip",
        "plain_success",
        None,
        "unzips an archive",
        "zip -qr proj.zip proj && rm -rf proj && unzip proj.zip",
        files=SRC,
        confirm="extracting|inflating",
    )
)
add(
    case(
        "unzip-corrupt",
        "unzip",
        "plain_failure",
        None,
        "unzip on a truncated archive",
        "zip -qr p.zip proj && head -c 100 p.zip > bad.zip && unzip bad.zip",
        files=SRC,
        expect=9,
    )
)
add(
    case(
        "unzip-latin1-names",
        "unzip",
        "non_utf8",
        "success",
        "lists a zip whose member names are raw latin-1 bytes",
        "zip -qr d.zip d && unzip -l d.zip",
        setup=LATIN1_DIR,
    )
)
add(
    case(
        "rsync-progress",
        "rsync",
        "plain_success",
        None,
        "rsync --progress copies a directory (progress on stdout, summary)",
        "rsync -a --progress proj/ copy/ && ls copy",
        files=SRC,
        confirm="README",
    )
)
add(
    case(
        "rsync-missing-source",
        "rsync",
        "plain_failure",
        None,
        "rsync from a missing directory",
        "rsync -a nope/ copy/",
        expect=23,
    )
)
add(
    case(
        "rsync-partial-or-true",
        "rsync",
        "exit0_hidden_failure",
        None,
        "a backup rsync fails on a missing source; the wrapper ignores its status",
        "rsync -a proj/ nope/ backup/ || true; echo 'backup finished'",
        files=SRC,
        confirm="No such file",
    )
)
add(
    case(
        "rsync-latin1-names",
        "rsync",
        "non_utf8",
        "success",
        "rsync -v copies latin-1 named files and lists them",
        "rsync -av8 d/ copy/",
        setup=LATIN1_DIR,
    )
)
add(
    case(
        "dd-status-progress",
        "dd",
        "progress_on_stderr",
        "success",
        "dd writes its transfer statistics to stderr",
        "dd if=/dev/zero of=disk.img bs=1M count=8",
    )
)
add(
    case(
        "dd-missing-input",
        "dd",
        "progress_on_stderr",
        "failure",
        "dd from a missing input file",
        "dd if=missing.img of=out.img bs=1M",
    )
)

# --- diff / patch ---------------------------------------------------------------------------

add(
    case(
        "diff-identical",
        "diff",
        "plain_success",
        None,
        "two identical files",
        "diff -u a.txt b.txt",
        files={"a.txt": "x\n", "b.txt": "x\n"},
    )
)
add(
    case(
        "diff-differs",
        "diff",
        "plain_failure",
        None,
        "a golden-file check: the output differs from the expected file (exit 1)",
        "diff -u expected.txt actual.txt",
        files={"expected.txt": "total: 10\n", "actual.txt": "total: 11\n"},
        expect=1,
    )
)
add(
    case(
        "diff-color",
        "diff",
        "coloured_output",
        "failure",
        "the same golden-file mismatch with --color=always",
        "diff -u --color=always expected.txt actual.txt",
        files={"expected.txt": "total: 10\n", "actual.txt": "total: 11\n"},
        expect=1,
        group="diff-differs",
    )
)
add(
    case(
        "diff-binary",
        "diff",
        "plain_failure",
        None,
        "two binary artefacts differ",
        "diff a.bin b.bin",
        files={"a.bin": bytes(range(10)), "b.bin": bytes(range(1, 11))},
        expect=1,
    )
)
add(
    case(
        "patch-apply-ok",
        "patch",
        "plain_success",
        None,
        "applies a clean patch",
        "patch -p0 < fix.patch && cat hello.txt",
        files={
            "hello.txt": "hello\nworld\n",
            "fix.patch": "--- hello.txt\n+++ hello.txt\n@@ -1,2 +1,2 @@\n hello\n-world\n+there\n",
        },
        confirm="there",
    )
)
add(
    case(
        "patch-reject",
        "patch",
        "plain_failure",
        None,
        "the patch does not apply; hunk rejected",
        "patch -p0 --batch < fix.patch",
        files={
            "hello.txt": "goodbye\nmoon\n",
            "fix.patch": "--- hello.txt\n+++ hello.txt\n@@ -1,2 +1,2 @@\n hello\n-world\n+there\n",
        },
    )
)
add(
    case(
        "patch-fuzz-ok",
        "patch",
        "success_alarming_stderr",
        None,
        "the patch applies with an offset (`Hunk #1 succeeded at 4 (offset 3 lines)`)",
        "patch -p0 < fix.patch && cat hello.txt",
        files={
            "hello.txt": "a\nb\nc\nhello\nworld\n",
            "fix.patch": "--- hello.txt\n+++ hello.txt\n@@ -1,2 +1,2 @@\n hello\n-world\n+there\n",
        },
        confirm="offset",
    )
)

# --- jq / bc / openssl ----------------------------------------------------------------------

add(
    case(
        "jq-ok",
        "jq",
        "plain_success",
        None,
        "extracts a field",
        "jq -r .name pkg.json",
        files={"pkg.json": '{"name": "app", "version": "1.0"}\n'},
        confirm="app",
    )
)
add(
    case(
        "jq-parse-error",
        "jq",
        "plain_failure",
        None,
        "the input is not valid JSON",
        "jq . bad.json",
        files={"bad.json": '{"a": 1,}\n'},
    )
)
add(
    case(
        "jq-exit-status-null",
        "jq",
        "plain_failure",
        None,
        "`jq -e` checks a field that is null (exit 1)",
        "jq -e .deployed status.json",
        files={"status.json": '{"deployed": null}\n'},
        expect=1,
    )
)
add(
    case(
        "jq-color",
        "jq",
        "coloured_output",
        "success",
        "jq -C colours the output",
        "jq -C . pkg.json",
        files={"pkg.json": '{"name": "app", "ok": true, "n": null}\n'},
    )
)
add(
    case(
        "jq-error-field-ok",
        "jq",
        "success_alarming_stderr",
        None,
        "prints a status object whose `errors` list is empty: validation passed",
        "jq -c . result.json",
        files={"result.json": '{"valid": true, "errors": [], "error_count": 0}\n'},
    )
)
add(
    case(
        "jq-or-true",
        "jq",
        "exit0_hidden_failure",
        None,
        "a script reads the version from a broken JSON file with `|| true`",
        'v=$(jq -r .version bad.json || true); echo "version=$v"',
        files={"bad.json": "{version: 1}\n"},
        confirm="parse error",
    )
)
add(
    case(
        "bc-ok",
        "bc",
        "plain_success",
        None,
        "computes a value",
        "echo 'scale=3; 10/4' | bc",
        confirm="2.500",
    )
)
add(
    case(
        "bc-divide-by-zero",
        "bc",
        "exit0_hidden_failure",
        None,
        "bc prints a runtime error for a divide by zero and exits 0",
        "echo '10/0' | bc",
        confirm="Divide by zero",
    )
)
add(
    case(
        "openssl-hash-ok",
        "openssl",
        "plain_success",
        None,
        "computes a SHA-256 digest",
        "printf 'data' > f && openssl dgst -sha256 f",
        confirm="SHA2-256|SHA256",
    )
)
add(
    case(
        "openssl-bad-cert",
        "openssl",
        "plain_failure",
        None,
        "parses a certificate file that is not a certificate",
        "printf 'not a cert\\n' > c.pem && openssl x509 -in c.pem -noout -text",
    )
)
add(
    case(
        "openssl-genkey-progress",
        "openssl",
        "plain_success",
        None,
        "generates an EC key and prints its public part",
        "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out k.pem && openssl pkey -in k.pem -pubout",
        confirm="PUBLIC KEY",
    )
)
add(
    case(
        "openssl-verify-fail",
        "openssl",
        "plain_failure",
        None,
        "verifies a self-signed cert against an empty CA store",
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout k.pem -out c.pem -subj /CN=corpus -days 1 2>/dev/null && openssl verify -CAfile /dev/null c.pem",
    )
)
