"""The built-in error rules: the last of the built-ins (defaults.py says the order), each
from a tool's or runtime's documented error format. These come first: stack-trace heads and
exception lines, error labels and log levels, crashes and signals, build and test-runner
errors; default_tool_errors.py holds the rest, checked after them."""

from __future__ import annotations

from autofix.patterns.model import built_in_rule as rule

ERROR_RULES = [
    rule(
        "python-traceback",
        "error",
        "regex",
        r"Traceback \(most recent call last\):",
        "Python traceback, also behind a prefix (`[worker] `, a timestamp, `parallel --tag`'s name)",
        both_streams=True,
    ),
    rule(
        "python-source-location",
        "error",
        "regex",
        r"^  File \"[^\"\n]+\", line \d+",
        "Python error location (e.g. a SyntaxError report)",
    ),
    rule(
        "python-exception",
        "error",
        "regex",
        r"^[A-Za-z_][\w.$]*(?:Error|Exception|Interrupt)(?: \[[A-Z_\d]+\])?(?:: |:?[ \t]*$)",
        "an exception line (Python ValueError: ..., Java a.b.IOException: ..., Node TypeError [ERR_X]: ...)",
    ),
    rule(
        "prefixed-exception",
        "error",
        "regex",
        r"(?:^|[ \t:\]\)>|])(?:[a-z][\w$.]*\.)?[A-Z][A-Za-z\d]*(?:Error|Exception): \S",
        "a named exception's `Name: message` anywhere on a line, on either stream: behind a "
        "log prefix, a timestamp or a caught-and-printed message (`sync error: PDOException: "
        "...`); a bare `Error:` on stdout stays program output",
        both_streams=True,
    ),
    rule(
        "java-exception",
        "error",
        "regex",
        r"^(?:Exception in thread \"|Caused by: [\w.$]+)",
        "uncaught JVM exception",
        both_streams=True,
    ),
    rule(
        "java-frame",
        "error",
        "regex",
        r"^\tat [\w$./<>\-]+\([^()\n]*\)$",
        "a JVM stack frame (`\tat a.b.C.m(C.java:12)`), on stdout, where a logger printed it "
        "(on stderr a trace follows its error line)",
        streams=("stdout",),
    ),
    rule(
        "node-frame",
        "error",
        "regex",
        r"^    at [^\n]*[\w/\\)]\.[cm]?[jt]sx?:\d+:\d+\)?$",
        "a Node.js stack frame (`    at f (/app/a.js:3:9)`) on stdout (console.trace prints to stderr)",
        streams=("stdout",),
    ),
    rule(
        "dotnet-frame",
        "error",
        "regex",
        r"^   at [\w.`<>\[\],+|]+\([^\n]*\) in [^\n]*:line \d+$",
        "a .NET stack frame with its source line, on stdout",
        streams=("stdout",),
    ),
    rule("npm-error", "error", "regex", r"^npm (?:error|ERR!)", "npm error", both_streams=True),
    rule(
        "typescript-error",
        "error",
        "regex",
        r"\berror TS\d+:",
        "TypeScript compiler error",
        both_streams=True,
    ),
    rule(
        "located-error",
        "error",
        "regex",
        r":\d+(?::\d+)?:? (?:fatal )?error\b|\(\d+,\d+(?:,\d+,\d+)?\): (?:fatal )?error [A-Z]+\d+:"
        r"|^e: file://[^\s:]+\.kts?\b|^e: [^\s:]+\.kts?\b",
        "an error at file:line (gcc, mypy, javac, MSBuild's `File.cs(3,5): error`, Kotlin's `e:`)",
        case_sensitive=False,
        both_streams=True,
    ),
    rule(
        "error-label",
        "error",
        "regex",
        r"(?:^|(?<=[ \t:\]\)>|]))(?:error|ERROR|Error)(?: ?\[[\w\-]+\])?:(?!\d)",
        "an `error:` / `Error:` / `error[E0308]:` label, on stdout too (`job error: ...` printed "
        "by a handler that caught it)",
        both_streams=True,
    ),
    rule(
        "fatal",
        "error",
        "regex",
        r"(?:^|(?<=[ \t:]))(?:fatal|FATAL|Fatal)(?: error)?:",
        "fatal error (git fatal:, gcc fatal error:)",
        both_streams=True,
    ),
    rule(
        "log-level-error",
        "error",
        "regex",
        r"^[^\n]{0,48}?\b(?:ERROR|CRITICAL|FATAL|SEVERE)(?:/[\w\-]+)?\b[\]:|]?(?:[ \t]|$)",
        "a log line at ERROR level or above (Celery's `ERROR/ForkPoolWorker-1]` too)",
    ),
    rule(
        "logged-error-record",
        "error",
        "regex",
        r"^(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\d\d:\d\d:\d\d)[^\n]{0,40}?[ \t\[|](?:ERROR|CRITICAL|FATAL)[\]:|]?[ \t]"
        r"|^(?:ERROR|CRITICAL):[\w.]+:| - (?:ERROR|CRITICAL) - "
        r"|\"(?:level|severity|levelname)\"[ \t]*:[ \t]*\"(?:error|ERROR|fatal|FATAL|critical|CRITICAL)\""
        r"|\"level\":(?:50|60)\b|\blevel=(?:error|fatal|crit(?:ical)?)\b",
        "a log record at ERROR level in the shapes loggers write, on stdout too (where services "
        "and containers log): behind a timestamp, Python logging's default formats, JSON "
        '(`"level":"error"`, pino\'s 50) and logfmt (`level=error`); a bare `ERROR count: '
        "0` on stdout stays output",
        both_streams=True,
    ),
    rule(
        "error-line-start",
        "error",
        "regex",
        r"(?:^|[ \t])(?:ERROR|FATAL): |^error(?:\[E\d+\])?: |^ERROR [\w./\-]+\.py\b|^ERROR in [\w./\-]"
        r"|^Failed to compile\b|^(?:│|\|) Error: ",
        "diagnostics that begin the line (`error: ...` of git, rustc and clang, `error[E0308]:`, "
        "`ERROR: ...`, pytest's `ERROR tests/...`, webpack's `ERROR in ./src/a.js` and "
        "`Failed to compile.` on stdout, terraform's boxed `│ Error: `), on either stream: "
        "`2>&1 | tee` puts them on stdout",
        both_streams=True,
    ),
    rule(
        "error-word-start",
        "error",
        "regex",
        r"^(?:ERROR|Error|error) \S|^[A-Z][a-z]+ error\b|^(?:[Uu]nable to|[Cc]ould not|[Cc]ouldn't) [a-z]",
        "yarn `error Command failed`, bc/sqlite `Runtime error ...`; on stdout a line such as "
        "`ERROR lines: 0` is output",
    ),
    rule(
        "panic",
        "error",
        "regex",
        r"^panic: |\bpanicked at\b",
        "Go or Rust panic",
        both_streams=True,
    ),
    rule(
        "crash-signal",
        "error",
        "regex",
        r"\b(?:Segmentation fault|core dumped|Bus error|Illegal instruction|Floating point exception|Abort trap)\b"
        r"|\b(?:terminated|killed) by signal \d+\b",
        "the process crashed on a signal (or xargs, make, a supervisor says a child did)",
        both_streams=True,
        weight="fatal",
    ),
    rule(
        "killed-by-shell",
        "error",
        "regex",
        r"\b\d+ (?:Killed|Aborted|Terminated)\b",
        "the shell reports a killed job",
        weight="fatal",
    ),
    rule(
        "command-not-found",
        "error",
        "regex",
        r"command not found|: not found$",
        "a command is missing",
    ),
    rule("permission-denied", "error", "substring", "Permission denied", "permission denied"),
    rule(
        "no-such-file",
        "error",
        "substring",
        "No such file or directory",
        "a path does not exist (Node's ENOENT says it in lower case)",
        case_sensitive=False,
    ),
    rule("no-space", "error", "substring", "No space left on device", "the disk is full"),
    rule(
        "out-of-memory",
        "error",
        "regex",
        r"\b(?:Out of memory|Cannot allocate memory|OOM[- ]?[Kk]illed)\b",
        "out of memory",
        weight="fatal",
    ),
    rule(
        "make-error",
        "error",
        "regex",
        r"^[\w./\-]*make(?:\[\d+\])?: (?:\*\*\* |\[[^\]\n]+\] Error \d+ \(ignored\))",
        "make reports a failed target (also one it ignored under -i or a `-` recipe)",
        both_streams=True,
    ),
    rule(
        "linker-error",
        "error",
        "substring",
        "undefined reference to",
        "linker error",
        both_streams=True,
    ),
    rule("cmake-error", "error", "substring", "CMake Error", "CMake error", both_streams=True),
    rule(
        "failed-word",
        "error",
        "regex",
        r"(?<![\w\-])FAILED\b",
        "FAILED (pytest, unittest, builds)",
        both_streams=True,
    ),
    rule(
        "failed-to",
        "error",
        "regex",
        r"(?:^|(?<=[ \t:]))Failed to [a-z]",
        "Failed to ... (build, fetch, load)",
    ),
    rule(
        "unittest-failure",
        "error",
        "regex",
        r"^(?:FAIL|ERROR): \w",
        "a unittest FAIL:/ERROR: block",
        both_streams=True,
    ),
    rule(
        "uncaught",
        "error",
        "regex",
        r"\bUn(?:caught|handled) (?:exception|error|rejection|promise)|^terminate called after throwing",
        "uncaught exception (also C++'s std::terminate report)",
        case_sensitive=False,
        both_streams=True,
    ),
    rule(
        "assertion-failed",
        "error",
        "regex",
        r"\bAssertion [^\n]{0,300}? failed",
        "C assert() failure",
    ),
    rule(
        "exit-status",
        "error",
        "regex",
        r"^exit status [1-9]|\b(?:exited with|returned (?:non-zero )?exit) (?:status|code) [1-9]"
        r"|\breturned [1-9]\d* exit status\b|\bExiting with failure status\b"
        r"|\bfailed with exit (?:code|status) [1-9]|\breturned a non-zero code: [1-9]",
        "a child process exited non-zero (go run, subprocess, collect2, tar, nox, docker build, "
        "concurrently's and supervisors' reports on stdout)",
        both_streams=True,
    ),
]
