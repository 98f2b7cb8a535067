"""Built-in rules. Vetted regexes for the stdlib ``re``: no newline can match, each has a literal
the scanner can look for, and none backtracks badly (tests/test_patterns_defaults.py checks).

Order matters: the first rule that matches a line decides it. Retry notices come first ("attempt
1 failed, retrying" is not a test summary), then tools' own summaries (a fixer's "2 fixed, 0
remaining" before the failure count it contains, failure summaries before success summaries),
then noise, each narrow enough never to hide a
real error, then the errors. Summaries and the error shapes come from the tools' documented
output formats (pytest, unittest, cargo, go test, TAP, maven/gradle, valgrind, ruff, eslint,
mypy, pylint, shellcheck; Python, Node, Java, Go, Rust, Ruby and PHP error reports; the default
error pages of nginx, Apache, http.server, wsgiref, werkzeug and Django).
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
    weight: str = "error",
) -> Rule:
    # Built-in errors apply only to stderr unless marked, because a plain command's stdout is
    # its output, where words like "Error:" are ordinary text; every other kind, to both.
    streams = None if kind != "error" or both_streams else _STDERR
    return Rule.model_validate(
        {
            "id": id,
            "kind": kind,
            "type": type,
            "pattern": pattern,
            "reason": reason,
            "case_sensitive": case_sensitive,
            "streams": streams,
            "weight": weight,
        }
    )


# A fixer's or checker's line that holds a failure-looking count but reports success; checked
# before the failure summaries so the count in it does not decide.
_SUCCESS_FIRST = [
    _rule(
        "fixed-all",
        "success_summary",
        "regex",
        r"\b(?:Found|found) \d+ (?:errors?|problems?|issues?) \(\d+ fixed, 0 remaining\)",
        "ruff --fix: everything it found was fixed",
    ),
    _rule(
        "fixed-count",
        "success_summary",
        "regex",
        r"^Fixed \d+ (?:errors?|issues?|problems?)\b",
        "a fixer reporting what it fixed (ruff --show-fixes); what remains is reported after it",
    ),
    _rule(
        "zero-error-summary",
        "success_summary",
        "regex",
        r"\bERROR SUMMARY: 0 errors\b|\(0 errors?, \d+ warnings?\)|^Success: no issues found",
        "valgrind, eslint and mypy summaries with no errors",
    ),
]

# A tool's own summary that reports failures: decisive at exit 0, never outweighed.
_FAILURE_SUMMARIES = [
    _rule(
        "failure-summary",
        "failure_summary",
        "regex",
        r"\b[1-9]\d* (?:failed|failing|errors?)(?:[,;.:)]|[ \t]*$|[ \t]+(?:in|from|occurred|found|generated|detected)\b|[ \t]+\()",
        "a test or check summary with failures (1 failed, 2 errors in 1 file, 1 failing); "
        "the count must end the phrase, so `1 failed attempt` is not a summary",
    ),
    _rule(
        "unittest-failed-summary",
        "failure_summary",
        "regex",
        r"^FAILED \((?:failures|errors|unexpected successes)=\d",
        "unittest's closing line with failures",
    ),
    _rule(
        "junit-failure-counts",
        "failure_summary",
        "regex",
        r"\bTests run: \d+, Failures: (?:[1-9]|\d+, Errors: [1-9])|\bThere are test failures\b",
        "maven surefire / JUnit counts with failures or errors",
    ),
    _rule(
        "build-failure",
        "failure_summary",
        "regex",
        r"^FAILURE: |\bBUILD FAILURE\b|\bBUILD FAILED\b|Configuring incomplete, errors occurred",
        "Gradle, Maven, Ant or CMake build failure",
    ),
    _rule(
        "tap-failure",
        "failure_summary",
        "regex",
        r"^(?:not ok \d+|# fail [1-9])",
        "a TAP test failure (node --test, prove)",
    ),
    _rule(
        "go-test-failure",
        "failure_summary",
        "regex",
        r"^(?:--- FAIL: |FAIL\t|FAIL$)",
        "go test failure",
    ),
    _rule(
        "formatter-check-failed",
        "failure_summary",
        "regex",
        r"^Oh no! |\bCode style issues found\b",
        "black --check / prettier --check failed (`would reformat` alone is also --diff's, at exit 0)",
    ),
    _rule(
        "cargo-test-failed",
        "failure_summary",
        "regex",
        r"^test result: FAILED\.",
        "cargo test's closing line with failures",
    ),
]

# A tool's own summary that reports success: outweighs logged errors on either stream.
_SUCCESS_SUMMARIES = [
    _rule(
        "tests-passed",
        "success_summary",
        "regex",
        r"\b[1-9]\d* (?:passed|passing)\b|^test result: ok\. |^# fail 0$",
        "a test runner's summary with passes and no failures (pytest, jest, mocha, cargo, TAP)",
    ),
    _rule(
        "tests-ok",
        "success_summary",
        "regex",
        r"^OK(?: \([a-z =,\d]+\))?$|^ok  \t|^PASS$|\bTests run: \d+, Failures: 0, Errors: 0\b",
        "unittest OK, go test ok/PASS, JUnit with no failures",
    ),
    _rule(
        "checks-passed",
        "success_summary",
        "regex",
        r"^All checks passed!|^All matched files use Prettier|^No issues identified\.|^All done! |\bBUILD SUCCESS(?:FUL)?\b",
        "linters, formatters and builds that report a clean result",
    ),
    _rule(
        "git-bisect-found",
        "success_summary",
        "regex",
        r"\bis the first bad commit$|^bisect found first bad commit",
        "git bisect run found the commit it was looking for",
    ),
]

# Lines saying the error before them (or the block they head) is being retried.
_RETRY = [
    _rule(
        "retry-notice",
        "retry",
        "regex",
        r"\b(?:retrying\b|will retry\b|retries left\b|retry(?:ing)? in \d)",
        "a client retrying after an error: the error it follows is not the final word",
        case_sensitive=False,
    ),
]


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
        r"^[A-Za-z_][\w.$]*(?:Error|Exception|Interrupt)(?: \[[A-Z_\d]+\])?(?:: |:?[ \t]*$)",
        "an exception line (Python ValueError: ..., Java a.b.IOException: ..., Node TypeError [ERR_X]: ...)",
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
        r"^(?:ERROR|Error|error) \S|^(?:ERROR|FATAL): |^[A-Z][a-z]+ error\b",
        "pytest `ERROR tests/...`, yarn `error Command failed`, bc/sqlite `Runtime error ...`",
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
        weight="fatal",
    ),
    _rule(
        "killed-by-shell",
        "error",
        "regex",
        r"\b\d+ (?:Killed|Aborted|Terminated)\b",
        "the shell reports a killed job",
        weight="fatal",
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
        weight="fatal",
    ),
    _rule(
        "make-error",
        "error",
        "regex",
        r"^[\w./\-]*make(?:\[\d+\])?: (?:\*\*\* |\[[^\]\n]+\] Error \d+ \(ignored\))",
        "make reports a failed target (also one it ignored under -i or a `-` recipe)",
        both_streams=True,
    ),
    _rule("linker-error", "error", "substring", "undefined reference to", "linker error"),
    _rule("cmake-error", "error", "substring", "CMake Error", "CMake error", both_streams=True),
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
        "unittest-failure",
        "error",
        "regex",
        r"^(?:FAIL|ERROR): \w",
        "a unittest FAIL:/ERROR: block",
        both_streams=True,
    ),
    _rule(
        "uncaught",
        "error",
        "regex",
        r"\bUn(?:caught|handled) (?:exception|error|rejection|promise)|^terminate called after throwing",
        "uncaught exception (also C++'s std::terminate report)",
        case_sensitive=False,
        both_streams=True,
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
        r"^exit status [1-9]|\b(?:exited with|returned (?:non-zero )?exit) (?:status|code) [1-9]"
        r"|\breturned [1-9]\d* exit status\b|\bExiting with failure status\b",
        "a child process exited non-zero (go run, subprocess, collect2, tar)",
    ),
    _rule(
        "connection-refused",
        "error",
        "substring",
        "Connection refused",
        "a network peer refused (C's ECONNREFUSED text, Go's lower-case one)",
        case_sensitive=False,
    ),
    _rule(
        "program-error",
        "error",
        "regex",
        r"^[\w.\-]+:(?: [^:\n]{1,80}:)? ?[ \t](?:error\b|cannot |can't |could not |couldn't "
        r"|unable to |failed to )",
        "GNU-style `program: [where:] error/cannot/unable to ...` (jq, unzip, tar, sed, cp)",
        case_sensitive=False,
    ),
    _rule(
        "shell-error",
        "error",
        "regex",
        r": unbound variable$|: bad substitution$|\bsyntax error near unexpected token\b"
        r"|: ambiguous redirect$|: integer expression expected$",
        "bash's own diagnostics",
    ),
    _rule(
        "tool-error-code",
        "error",
        "regex",
        r"^curl: \(\d+\) |:error:[0-9A-Fa-f]{8}:",
        "curl's `curl: (N) ...` and OpenSSL's `...:error:0480006C:...` error lines",
    ),
    _rule(
        "script-error",
        "error",
        "regex",
        r"^[^ \t:\n]+\.lua:\d+: |^lua[\d.]*: |^    while executing$",
        "Lua runtime errors and Tcl's error trace",
        both_streams=True,
    ),
    _rule(
        "go-build-error",
        "error",
        "regex",
        r"^[\w./\-]+\.go:\d+:\d+: ",
        "go build and go vet report each problem as file.go:line:col: message",
    ),
    _rule(
        "git-conflict",
        "error",
        "regex",
        r"^CONFLICT \([\w/ \-]+\): |^Automatic merge failed\b",
        "git merge/rebase/cherry-pick stopped on a conflict (git prints it on stdout)",
        both_streams=True,
    ),
    _rule(
        "perl-fatal",
        "error",
        "regex",
        r"^(?:Can't locate [^\n]* in @INC|Died at [^\n]* line \d+|Undefined subroutine &[^\n]* called at "
        r"|Can't call method \"[^\"\n]*\" on )",
        "Perl's fatal errors (perldiag): a die or a missing module, sub or object",
    ),
    _rule(
        "failure-label",
        "error",
        "regex",
        r"\b(?:failed|failure):(?:[ \t]+[^0 \t\n]|[ \t]*$)",
        "`<step> failed: <reason>` / `Coverage failure: ...` (not `failed: 0`)",
        both_streams=True,
    ),
    _rule(
        "node-uncaught-trailer",
        "error",
        "regex",
        r"^Node\.js v\d+\.\d+\.\d+$",
        "Node prints its version after an uncaught exception's report",
    ),
    _rule(
        "ruby-exception",
        "error",
        "regex",
        r"^[^ \t:\n]+:\d+:in [`'][^'\n]*': [^\n]* \([A-Z][\w:]*\)$",
        "Ruby's uncaught exception line (file:line:in `meth': message (Class))",
    ),
    _rule(
        "php-error",
        "error",
        "regex",
        r"<b>(?:Fatal error|Parse error|Recoverable fatal error)</b>:"
        r"|^(?:PHP )?(?:Fatal|Parse|Recoverable fatal) error: ",
        "PHP fatal and parse errors (display_errors output in a page, or the CLI's log line)",
        both_streams=True,
    ),
    _rule(
        "http-error-page",
        "error",
        "regex",
        r"<title>(?:[45]\d\d\b|Error\b)|<h1>(?:[45]\d\d\b|Error response|Internal Server Error"
        r"|Bad Request|Not Found|Forbidden|Service Unavailable|Bad Gateway)|^A server error occurred\."
        r"|^Error code: [45]\d\d|\bServer Error \(5\d\d\)|<pre>Cannot (?:GET|POST|PUT|PATCH|DELETE) /"
        r"|^HTTP/[\d.]+ [45]\d\d\b|^404 page not found|^Internal Server Error",
        "an HTTP error page or status line (nginx, Apache, http.server, wsgiref, werkzeug, Django, "
        "Express, Go's net/http plain-text errors)",
        both_streams=True,
    ),
    _rule(
        "json-error-body",
        "error",
        "regex",
        r"^[ \t]*\{[^\n]*\"(?:error|errors|err)\"[ \t]*:[ \t]*(?:\{|\[[ \t]*[{\"]|\"[^\"\n])"
        r"|\"(?:ok|success)\"[ \t]*:[ \t]*false\b|\"status\"[ \t]*:[ \t]*\"(?:error|fail|failed|failure)\"",
        "a JSON API answer that reports an error (non-empty error field, ok/success false)",
        both_streams=True,
    ),
    _rule(
        "lint-error-code",
        "error",
        "regex",
        r"^[^ \t:\n]+:\d+:\d+: (?:[EF]\d{4}: |[A-Z]{1,3}\d{3}\b)|^[ \t]+\d+:\d+[ \t]+error[ \t]"
        r"|\bSC\d{4} \(error\):|^>> Issue: \[B\d{3}|^[^ \t:\n]+:\d+:\d+: \[error\] ",
        "linter findings that fail a check: pylint E/F messages, flake8/ruff codes, eslint and "
        "yamllint `error` rows (and its parsable `[error]`), shellcheck (error), any bandit issue",
        both_streams=True,
    ),
    _rule(
        "maven-error",
        "error",
        "regex",
        r"^\[(?:ERROR|FATAL|error)\] ",
        "maven's [ERROR] lines (maven logs on stdout), prettier's [error]",
        both_streams=True,
    ),
]

DEFAULT_RULES: tuple[Rule, ...] = tuple(
    _RETRY + _SUCCESS_FIRST + _FAILURE_SUMMARIES + _SUCCESS_SUMMARIES + _NOISE + _ERRORS
)

# Engine forms (patterns/engine.py) of the built-ins whose stdlib form has a lookbehind or an end
# anchor inside an alternation: the same verdict per line, with every match running to the end
# of its line. tests/test_engine.py checks each against its rule on real and generated lines.
ENGINE_FORMS: dict[str, str] = {
    "failure-summary": r"\b[1-9]\d* (?:failed|failing|errors?)(?:(?:[,;.:)]|[ \t]+(?:in|from"
    r"|occurred|found|generated|detected)\b|[ \t]+\()[^\n]*|[ \t]*)$",
    "go-test-failure": r"^(?:--- FAIL: [^\n]*|FAIL\t[^\n]*|FAIL)$",
    "tests-ok": r"(?:^OK(?: \([a-z =,\d]+\))?|^PASS|(?:^ok  \t|\bTests run: \d+, Failures: 0, "
    r"Errors: 0\b)[^\n]*)$",
    "tests-passed": r"(?:(?:\b[1-9]\d* (?:passed|passing)\b|^test result: ok\. )[^\n]*|^# fail 0)$",
    "script-error": r"(?:(?:^[^ \t:\n]+\.lua:\d+: |^lua[\d.]*: )[^\n]*|^    while executing)$",
    "git-bisect-found": r"(?:\bis the first bad commit|^bisect found first bad commit[^\n]*)$",
    "log-level-info": r"^[^\n]{0,48}?\b(?:INFO|DEBUG|TRACE|NOTICE)\b[\]:|]?(?:[ \t][^\n]*)?$",
    "warning-prefix": r"^[ \t]*(?:[\w.\-]+: )?\[?(?:warning|Warning|WARNING|WARN|warn)\]?"
    r"(?:\[[\w\-]+\])?[:!]?(?:[ \t][^\n]*)?$",
    "python-exception": r"^[A-Za-z_][\w.$]*(?:Error|Exception|Interrupt)(?: \[[A-Z_\d]+\])?"
    r"(?:: [^\n]*|:?[ \t]*)$",
    "error-label": r"(?:^|[ \t:\]\)>|])(?:error|ERROR|Error)(?: ?\[[\w\-]+\])?:(?:[^\d\n][^\n]*)?$",
    "fatal": r"(?:^|[ \t:])(?:fatal|FATAL|Fatal)(?: error)?:[^\n]*$",
    "log-level-error": r"^[^\n]{0,48}?\b(?:ERROR|CRITICAL|FATAL|SEVERE)\b[\]:|]?(?:[ \t][^\n]*)?$",
    "command-not-found": r"(?:command not found[^\n]*|: not found)$",
    "shell-error": r"(?:: (?:unbound variable|bad substitution|ambiguous redirect|integer expression"
    r" expected)|\bsyntax error near unexpected token\b[^\n]*)$",
    "failed-word": r"(?:^|[^\w\-\n])FAILED\b[^\n]*$",
    "failed-to": r"(?:^|[ \t:])Failed to [a-z][^\n]*$",
    "failure-label": r"\b(?:failed|failure):(?:[ \t]+[^0 \t\n][^\n]*|[ \t]*)$",
}
