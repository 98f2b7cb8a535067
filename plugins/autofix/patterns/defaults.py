"""Built-in rules. Vetted regexes for the stdlib ``re``: no newline can match, each has a literal
the scanner can look for, and none backtracks badly (tests/test_patterns_defaults.py checks).

Order matters: the first rule that matches a line decides it, so noise comes first and each
noise rule is narrow enough never to hide a real error.
"""

from __future__ import annotations

from autofix.patterns.model import Rule, Stream

_STDERR: list[Stream] = ["stderr"]


def _rule(
    id: str,
    kind: str,
    type: str,
    pattern: str,
    reason: str,
    case_sensitive: bool = True,
    both_streams: bool = False,
) -> Rule:
    # Noise applies to both streams; built-in errors only to stderr unless marked, because a
    # plain command's stdout is its output, where words like "Error:" are ordinary text.
    streams = None if kind == "noise" or both_streams else _STDERR
    return Rule.model_validate(
        {
            "id": id,
            "kind": kind,
            "type": type,
            "pattern": pattern,
            "reason": reason,
            "case_sensitive": case_sensitive,
            "streams": streams,
        }
    )


_NOISE = [
    _rule(
        "log-level-info",
        "noise",
        "regex",
        r"^[^\n]{0,48}?\b(?:INFO|DEBUG|TRACE|NOTICE)\b[\]:|]?(?:[ \t]|$)",
        "a log line at INFO/DEBUG level: its author judged it harmless, whatever it mentions",
    ),
    _rule(
        "log-level-info-logfmt",
        "noise",
        "regex",
        r"\blevel=(?:info|debug|trace)\b",
        "a logfmt line at info/debug level",
    ),
    _rule(
        "node-warning",
        "noise",
        "regex",
        r"^\(node:\d+\) (?:\[[A-Z]+\d+\] )?(?:DeprecationWarning|ExperimentalWarning|MaxListenersExceededWarning"
        r"|TimeoutOverflowWarning|TimeoutNegativeWarning|Warning):",
        "Node.js runtime warning (e.g. DEP0040 punycode, ExperimentalWarning)",
    ),
    _rule(
        "node-trace-hint",
        "noise",
        "regex",
        r"^\(Use `node --trace-",
        "Node.js hint printed after a warning",
    ),
    _rule(
        "npm-warn",
        "noise",
        "regex",
        r"^npm (?:warn|WARN|notice|info|http|timing|verb)\b",
        "npm warnings and notices, e.g. `npm warn deprecated`",
    ),
    _rule(
        "pip-root-user",
        "noise",
        "substring",
        "Running pip as the 'root' user",
        "pip's root-user warning",
        case_sensitive=False,
    ),
    _rule("pip-notice", "noise", "regex", r"^\[notice\] ", "pip's new-release notice"),
    _rule("pip-deprecation", "noise", "regex", r"^DEPRECATION: ", "pip deprecation notice"),
    _rule(
        "python-warning",
        "noise",
        "regex",
        r"\.py:\d+: [A-Za-z]*Warning: ",
        "Python warnings module output (file.py:12: DeprecationWarning: ...)",
    ),
    _rule(
        "python-warning-bare",
        "noise",
        "regex",
        r"^[A-Z][A-Za-z]*Warning: ",
        "a Python or Node warning class at line start",
    ),
    _rule(
        "compiler-warning",
        "noise",
        "regex",
        r":\d+(?::\d+)?: (?:warning|note|remark)(?:\[[\w\-]+\])?:",
        "compiler or checker warning/note at file:line (gcc, clang, mypy notes)",
        case_sensitive=False,
    ),
    _rule(
        "warning-prefix",
        "noise",
        "regex",
        r"^[ \t]*(?:[\w.\-]+: )?\[?(?:warning|Warning|WARNING|WARN|warn)\]?(?:\[[\w\-]+\])?[:!]?(?:[ \t]|$)",
        "a line that introduces itself as a warning (cargo, pip, yarn, perl, ssh, maven)",
    ),
    _rule(
        "note-prefix", "noise", "regex", r"^(?:Note|note|hint): ", "notes and hints (git, javac)"
    ),
    _rule("git-clone", "noise", "regex", r"^Cloning into ", "git clone progress"),
    _rule(
        "git-progress",
        "noise",
        "regex",
        r"^(?:remote: )?(?:Enumerating|Counting|Compressing|Receiving|Resolving|Writing|Unpacking) (?:objects|deltas)\b",
        "git transfer progress",
    ),
    _rule(
        "cargo-progress",
        "noise",
        "regex",
        r"^[ \t]+(?:Compiling|Downloaded|Downloading|Finished|Fresh|Checking|Running|Updating|Locking|Adding|Blocking) \S",
        "cargo progress lines (Compiling, Downloaded, Finished, ...)",
    ),
    _rule(
        "go-download",
        "noise",
        "regex",
        r"^go: (?:downloading|finding|extracting) ",
        "go module download progress",
    ),
    _rule(
        "terminal-noise",
        "noise",
        "regex",
        r"No value for \$TERM|Inappropriate ioctl for device|no job control in this shell|cannot set terminal process group",
        "shell or terminal setup chatter in non-interactive runs",
    ),
    _rule(
        "locale-noise",
        "noise",
        "regex",
        r"(?:Cannot set LC_|setlocale: LC_|^debconf: )",
        "locale and debconf chatter",
    ),
]

_ERRORS = [
    _rule(
        "python-traceback",
        "error",
        "regex",
        r"^[ \t]*(?:[+|][ \t]*)?(?:Exception Group )?Traceback \(most recent call last\):",
        "Python traceback",
        both_streams=True,
    ),
    _rule(
        "python-source-location",
        "error",
        "regex",
        r"^  File \"[^\"\n]+\", line \d+",
        "Python error location (e.g. a SyntaxError report)",
    ),
    _rule(
        "python-exception",
        "error",
        "regex",
        r"^[A-Za-z_][\w.]*(?:Error|Exception|Interrupt)(?:: |:?[ \t]*$)",
        "a Python exception line (ValueError: ..., ModuleNotFoundError: ...)",
    ),
    _rule(
        "java-exception",
        "error",
        "regex",
        r"^(?:Exception in thread \"|Caused by: [\w.$]+)",
        "uncaught JVM exception",
    ),
    _rule("npm-error", "error", "regex", r"^npm (?:error|ERR!)", "npm error", both_streams=True),
    _rule(
        "typescript-error",
        "error",
        "regex",
        r"\berror TS\d+:",
        "TypeScript compiler error",
        both_streams=True,
    ),
    _rule(
        "located-error",
        "error",
        "regex",
        r":\d+(?::\d+)?:? (?:fatal )?error\b",
        "compiler or checker error at file:line (gcc, mypy, javac)",
        case_sensitive=False,
        both_streams=True,
    ),
    _rule(
        "error-label",
        "error",
        "regex",
        r"(?:^|(?<=[ \t:\]\)>|]))(?:error|ERROR|Error)(?: ?\[[\w\-]+\])?:(?!\d)",
        "an `error:` / `Error:` / `error[E0308]:` label",
    ),
    _rule(
        "fatal",
        "error",
        "regex",
        r"(?:^|(?<=[ \t:]))(?:fatal|FATAL|Fatal)(?: error)?:",
        "fatal error (git fatal:, gcc fatal error:)",
        both_streams=True,
    ),
    _rule(
        "log-level-error",
        "error",
        "regex",
        r"^[^\n]{0,48}?\b(?:ERROR|CRITICAL|FATAL|SEVERE)\b[\]:|]?(?:[ \t]|$)",
        "a log line at ERROR level or above",
    ),
    _rule(
        "error-line-start",
        "error",
        "regex",
        r"^(?:ERROR|error) \S",
        "pytest `ERROR tests/...`, yarn `error Command failed`",
        both_streams=True,
    ),
    _rule(
        "panic",
        "error",
        "regex",
        r"^panic: |\bpanicked at\b",
        "Go or Rust panic",
        both_streams=True,
    ),
    _rule(
        "crash-signal",
        "error",
        "regex",
        r"\b(?:Segmentation fault|core dumped|Bus error|Illegal instruction|Floating point exception|Abort trap)\b",
        "the process crashed on a signal",
        both_streams=True,
    ),
    _rule(
        "killed-by-shell",
        "error",
        "regex",
        r"\b\d+ (?:Killed|Aborted|Terminated)\b",
        "the shell reports a killed job",
    ),
    _rule(
        "command-not-found",
        "error",
        "regex",
        r"command not found|: not found$",
        "a command is missing",
    ),
    _rule("permission-denied", "error", "substring", "Permission denied", "permission denied"),
    _rule(
        "no-such-file", "error", "substring", "No such file or directory", "a path does not exist"
    ),
    _rule("no-space", "error", "substring", "No space left on device", "the disk is full"),
    _rule(
        "out-of-memory",
        "error",
        "regex",
        r"\b(?:Out of memory|Cannot allocate memory|OOM[- ]?[Kk]illed)\b",
        "out of memory",
    ),
    _rule(
        "make-error",
        "error",
        "regex",
        r"^[\w./\-]*make(?:\[\d+\])?: \*\*\* ",
        "make reports a failed target",
        both_streams=True,
    ),
    _rule("linker-error", "error", "substring", "undefined reference to", "linker error"),
    _rule("cmake-error", "error", "substring", "CMake Error", "CMake error"),
    _rule(
        "failed-word",
        "error",
        "regex",
        r"(?<![\w\-])FAILED\b",
        "FAILED (pytest, unittest, builds)",
        both_streams=True,
    ),
    _rule(
        "failed-to",
        "error",
        "regex",
        r"(?:^|(?<=[ \t:]))Failed to [a-z]",
        "Failed to ... (build, fetch, load)",
    ),
    _rule(
        "failure-summary",
        "error",
        "regex",
        r"\b[1-9]\d* (?:failed|failing|errors?)\b",
        "a test or check summary with failures (1 failed, 2 errors, 1 failing)",
        both_streams=True,
    ),
    _rule(
        "unittest-failure",
        "error",
        "regex",
        r"^(?:FAIL|ERROR): \w",
        "a unittest FAIL:/ERROR: block",
        both_streams=True,
    ),
    _rule(
        "go-test-failure",
        "error",
        "regex",
        r"^(?:--- FAIL: |FAIL\t|FAIL$)",
        "go test failure",
        both_streams=True,
    ),
    _rule(
        "tap-failure",
        "error",
        "regex",
        r"^(?:not ok \d+|# fail [1-9])",
        "a TAP test failure (node --test, prove)",
        both_streams=True,
    ),
    _rule(
        "build-failure",
        "error",
        "regex",
        r"^FAILURE: |\bBUILD FAILURE\b",
        "Gradle or Maven build failure",
        both_streams=True,
    ),
    _rule(
        "uncaught",
        "error",
        "regex",
        r"\bUn(?:caught|handled) (?:exception|error|rejection|promise)",
        "uncaught exception",
        case_sensitive=False,
    ),
    _rule(
        "assertion-failed",
        "error",
        "regex",
        r"\bAssertion [^\n]{0,300}? failed",
        "C assert() failure",
    ),
    _rule(
        "exit-status",
        "error",
        "regex",
        r"^exit status [1-9]",
        "a child process exited non-zero (go run)",
    ),
    _rule(
        "connection-refused", "error", "substring", "Connection refused", "a network peer refused"
    ),
]

DEFAULT_RULES: tuple[Rule, ...] = tuple(_NOISE + _ERRORS)
