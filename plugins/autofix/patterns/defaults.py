"""Built-in rules. Vetted regexes for the stdlib ``re``: no newline can match, each has a literal
the scanner can look for, and none backtracks badly (tests/test_patterns.py checks).

Order matters: the first rule that matches a line decides it. Retry notices come first ("attempt
1 failed, retrying" is not a test summary), then the lines that only look like summaries or
warnings ("job 7 failed", a passed test's name, a sanitizer's "WARNING: ThreadSanitizer"), then
tools' own summaries (a fixer's "2 fixed, 0 remaining" before the failure count it contains,
failure summaries before success summaries), then noise, each narrow enough never to hide a
real error, then the errors (default_errors.py, then default_tool_errors.py). Summaries and the
error shapes come from the tools' documented output formats (pytest, unittest, cargo, go test,
TAP, jest, vitest, mocha, rspec, minitest, PHPUnit, dotnet test, ctest, maven/gradle, tox, nox,
pre-commit, Ansible, valgrind, ruff, eslint, mypy, pylint, shellcheck, markdownlint, hadolint,
sqlfluff; Python, Node, Java, .NET, Go, Rust, Ruby, PHP and Elixir/Erlang error reports; the
default error pages of nginx, Apache, http.server, wsgiref, werkzeug and Django).
tests/test_classify_formats.py holds one case per shape.
"""

from __future__ import annotations

from autofix.patterns.default_errors import ERROR_RULES
from autofix.patterns.default_tool_errors import TOOL_ERROR_RULES
from autofix.patterns.model import Rule
from autofix.patterns.model import built_in_rule as rule

# What a job says it did, for "imported 0 of 4" / "0 of 4 records imported".
_DONE = (
    "(?:imported|processed|migrated|passed|succeeded|sent|uploaded|written|copied|synced|loaded"
    "|exported|installed|built|converted|completed|saved|delivered)"
)

# Lines decided before the summaries and the noise: "job 7 failed" names job 7 (an error, not
# a count of failures); a passed test's name may say "reports 404 errors"; and some reports of
# real errors start with the word "WARNING" or end in "Warning", which the noise rules take.
_BEFORE_SUMMARIES = [
    rule(
        "numbered-item-failed",
        "error",
        "regex",
        r"\b(?:[Jj]ob|[Tt]ask|[Ss]tep|[Rr]equest|[Ww]orker|[Bb]atch|[Cc]hunk"
        r"|[Ss]hard|[Rr]ow|[Ii]tem|[Rr]ecord|[Mm]essage|[Pp]age|[Ii]teration|[Rr]ound|[Ee]poch"
        r"|[Pp]hase|[Ss]tage|[Cc]all|[Tt]hread|[Pp]rocess|[Hh]ost|[Nn]ode|[Rr]eplica) #?[1-9]\d*"
        r" (?:failed|failures?|errors?)\b",
        "a numbered thing that failed (job 7 failed, batch 2 failed): an error, not a summary",
        both_streams=True,
    ),
    rule(
        "error-named-warning",
        "error",
        "regex",
        r"^(?:==\d+==)?WARNING: (?:ThreadSanitizer|MemorySanitizer): "
        r"|^(?:\(node:\d+\) )?UnhandledPromiseRejectionWarning: ",
        "sanitizer reports (data race, uninitialised read) and Node's unhandled-rejection report, "
        "which look like warnings",
    ),
    rule(
        "nothing-ran",
        "error",
        "regex",
        r"\[no tests to run\]|^No tests? (?:files )?found, exiting with code 0|^(?:=+ )?no tests ran\b"
        r"|^(?:=+ )?\d+ (?:deselected|skipped)(?:, \d+ (?:deselected|skipped))?(?:, \d+ warnings?)? in [\d.]+s\b"
        r"|^  0 passing \(|^1\.\.0\b|^Result: NOTESTS\b"
        r"|\b0 (?:examples|tests|specs), 0 failures\b|\b0 runs, 0 assertions\b|^No tests executed!"
        r"|^No tests were found!|\bno tests to run\b|^0 features passed, 0 failed|\bno \.gcda files found\b"
        r"|^test result: ok\. 0 passed; 0 failed; 0 ignored; 0 measured; [1-9]\d* filtered out"
        r"|^(?:=+ )?\d+ tests? collected in [\d.]+s\b",
        "a test run that ran no test (a filter that matched nothing, --passWithNoTests, every test "
        "deselected, skipped or filtered out, pytest --collect-only; lcov finding no coverage "
        "data): it decides unless a success summary shows other tests ran",
        both_streams=True,
        weight="vacuous",
    ),
    rule(
        "ignored-failure",
        "error",
        "regex",
        r"\b[Ii]gnoring (?:a |the )?(?:non-?zero|failed|failing|unsuccessful) (?:exit|return|status"
        r"|command|step|test)|\bexit (?:code|status) [1-9]\d* ignored\b",
        "a runner saying it ignored a failure (hyperfine -i's `Warning: Ignoring non-zero exit "
        "code`): an error, though the line starts as a warning",
        both_streams=True,
    ),
    rule(
        "none-of-n-done",
        "error",
        "regex",
        rf"\b{_DONE} 0 (?:of|/) ?[1-9]\d*\b|\b0 (?:of|/) ?[1-9]\d* (?:[a-z]+ )?{_DONE}\b",
        "a job saying it did none of its work (`imported 0 of 4 records`): its errors were caught",
        both_streams=True,
    ),
    rule(
        "checker-finding",
        "error",
        "regex",
        r"\[-Wclang-format-violations\]|\[clang-analyzer-[\w.\-]+\]|^possible bashism in [^\n]+ line \d+"
        r"|^(?:Unused|Unlisted|Unresolved|Duplicate) [a-zA-Z]+(?: [a-z]+)? \([1-9]\d*\)",
        "a check's finding that reads like a compiler warning: clang-format --dry-run's "
        "violations, clang-tidy's static-analyser bugs (use after free, null dereference), "
        "checkbashisms; knip's sections of findings (`Unused files (1)`)",
        both_streams=True,
    ),
    rule(
        "signal-received",
        "error",
        "regex",
        r"\b(?:[Rr]eceived|[Gg]ot|[Cc]aught) (?:signal )?SIG(?:TERM|INT|HUP|QUIT)\b",
        "a process saying it was told to stop (a timeout or shutdown ended it before its work was "
        "done), though its handler exits 0",
        both_streams=True,
    ),
    rule(
        "strace-exit",
        "error",
        "regex",
        r"^\+\+\+ (?:exited with [1-9]|killed by SIG)",
        "strace's report of a traced process that failed",
        both_streams=True,
    ),
    rule(
        "shell-trace",
        "noise",
        "regex",
        # Spelled out: the fallback's keys are then "+ ", "++ ", ... (a one-byte key would make
        # it try every rule on every line), and Vectorscan 5.4.12 loses some `^\++ ` hits.
        r"^(?:\+|\+\+|\+\+\+|\+\+\+\+) ",
        "`set -x` trace lines (`+ cmd`, `++ cmd`): the commands, not their output",
    ),
    rule(
        "go-optimization-note",
        "noise",
        "regex",
        r"^[\w./\-]+\.go:\d+:\d+: (?:can inline |cannot inline |inlining call to |leaking param"
        r"|moved to heap: |[^\n]*(?:escapes to heap|does not escape)\b)",
        "go build -gcflags=-m's inlining and escape-analysis notes (shaped like build errors)",
    ),
    rule(
        "strace-call",
        "noise",
        "regex",
        r"^(?:\[pid +\d+\] )?[a-z_][a-z_0-9]*\([^\n]*\) += -?\d+",
        "strace's syscall lines (a failed lookup is how the dynamic loader searches)",
    ),
    rule(
        "passed-test-item",
        "noise",
        "regex",
        # The marks as text (the engine reads UTF-8 bytes). Not `^[ \t]*`: beside
        # python-traceback's `^[ \t]*`, Vectorscan 5.4.12 misses such hits after a long line
        # (tests/test_engine.py's engine-equals-fallback check caught it).
        "(?:^|[ \t])(?:✓ |✔ |√ )",  # keys "✓ ", ...: not a bare space
        "a passed test's line in jest, vitest, mocha and node --test (its name is not a summary)",
    ),
]

# A fixer's or checker's line that holds a failure-looking count but reports success; checked
# before the failure summaries so the count in it does not decide.
_SUCCESS_FIRST = [
    rule(
        "fixed-all",
        "success_summary",
        "regex",
        r"\b(?:Found|found) \d+ (?:errors?|problems?|issues?) \(\d+ fixed, 0 remaining\)",
        "ruff --fix: everything it found was fixed",
    ),
    rule(
        "fixed-count",
        "success_summary",
        "regex",
        r"^Fixed \d+ (?:errors?|issues?|problems?)\b",
        "a fixer reporting what it fixed (ruff --show-fixes); what remains is reported after it",
    ),
    rule(
        "zero-error-summary",
        "success_summary",
        "regex",
        r"\bERROR SUMMARY: 0 errors\b|\(0 errors?, \d+ warnings?\)|^Success: no issues found"
        r"|\bfiles? inspected, \d+ offenses? detected, \d+ offenses? corrected\b",
        "valgrind, eslint and mypy summaries with no errors, rubocop -a's when it corrected what "
        "it found (what it could not correct makes it exit 1)",
    ),
]

# A tool's own summary that reports failures: decisive at exit 0, never outweighed.
_FAILURE_SUMMARIES = [
    rule(
        "failure-summary",
        "failure_summary",
        "regex",
        r"\b[1-9]\d* (?:failed|failing|failures?|errors?|offenses?|violations?|problems?)(?:[,;.:)]|[ \t]*$|[ \t]+(?:in|from|occurred|found|generated|detected)\b|[ \t]+[(|])",
        "a test or check summary with failures (1 failed, 2 errors in 1 file, 1 failing, "
        "2 examples, 1 failure, vitest's `1 failed | 2 passed`, rubocop's `3 offenses "
        "detected`, `2 violations found`); "
        "the count must end the phrase, so `1 failed attempt` is not a summary",
    ),
    rule(
        "unittest-failed-summary",
        "failure_summary",
        "regex",
        r"^FAILED \((?:failures|errors|unexpected successes)=\d|^Ran 0 tests in |^NO TESTS RAN\b",
        "unittest's closing line with failures, or its count of no test at all (before 3.12 an "
        "`OK` follows it)",
    ),
    rule(
        "junit-failure-counts",
        "failure_summary",
        "regex",
        r"\bTests run: \d+, Failures: (?:[1-9]|\d+, Errors: [1-9])|\bThere are test failures\b",
        "maven surefire / JUnit counts with failures or errors",
    ),
    rule(
        "build-failure",
        "failure_summary",
        "regex",
        r"^FAILURE: |\bBUILD FAILURE\b|\bBUILD FAILED\b|Configuring incomplete, errors occurred",
        "Gradle, Maven, Ant or CMake build failure",
    ),
    rule(
        "tap-failure",
        "failure_summary",
        "regex",
        r"^(?:not ok \d+|# fail [1-9]|# tests 0\b)",
        "a TAP test failure (node --test, prove), or node --test's total of no test",
    ),
    rule(
        "go-test-failure",
        "failure_summary",
        "regex",
        r"^(?:--- FAIL: |FAIL\t|FAIL$)",
        "go test failure",
    ),
    rule(
        "formatter-check-failed",
        "failure_summary",
        "regex",
        r"^Oh no! |\bCode style issues found\b",
        "black --check / prettier --check failed (`would reformat` alone is also --diff's, at exit 0)",
    ),
    rule(
        "runner-failure-summary",
        "failure_summary",
        "regex",
        r"\.{4}(?:\([^()\n]*\))?Failed\b|^[ \t]+evaluation failed :\(|^[ \t]*[\w.\-]+: FAIL code [1-9]"
        r"|^nox > Session \S+ failed\.|^Failed! +- Failed: +[1-9]"
        r"|\btests passed, [1-9]\d* tests? failed out of\b"
        r"|\bok=\d+ +changed=\d+ +unreachable=(?:[1-9]|\d+ +failed=[1-9])"
        r"|\bcommand failed but is marked ignore outcome\b|^nox > Session \S+ skipped: Python interpreter"
        r"|^Result: FAIL\b|^Failed \d+/\d+ test programs|^(?:Fail|Timeout|Unexpected Pass): +[1-9]"
        r"|\"Action\":\"fail\"|\bFOUND [1-9]\d* ERRORS?\b|^Aborted with \d+ warnings? in strict mode"
        r"|\(with warnings treated as errors\)|^ ?FAIL  \S|\bFailed with errors\b|^ +[1-9]\d* Error\(s\)"
        r"|\bFAIL Required test coverage of [\d.]+% not reached\b|\bThere (?:were|are) test failures\b"
        r"|\bcoverage threshold for \w+ \([\d.]+%\) not met\b",
        "the closing lines of pre-commit (a hook Failed), tox (FAIL code, evaluation failed, an "
        "ignored command that failed), nox (a failed or skipped session), dotnet test, ctest, "
        "prove, meson test, go test -json, phpcs (`FOUND 8 ERRORS`), mkdocs --strict and "
        "sphinx -W, jest's and vitest's `FAIL  file`, yarn's `Failed with errors`, MSBuild's "
        "`1 Error(s)`, pytest-cov's fail-under, jest's coverage threshold, and an Ansible PLAY "
        "RECAP with failed or unreachable hosts",
    ),
    rule(
        "failure-count",
        "failure_summary",
        "regex",
        r"\b(?:[Tt]otal )?(?:[Ff]ail(?:ures|ed|ing)?|FAIL(?:URES|ED)?|[Ee]rrors|ERRORS|[Ii]ssues"
        r"|[Pp]roblems|[Vv]iolations|[Cc]rashe[sd])(?: (?:found|checks|tests|specs|jobs|steps|tasks"
        r"|files|hooks|cases|scenarios|detected|reported))?(?:: | = )[1-9]\d*\b"
        r"|\b[1-9]\d* failed (?:tests?|specs?|checks?|jobs?|files?)\b"
        r"|\b[1-9]\d* (?:tests?|specs?|checks?|jobs?|files?|steps?|tasks?|suites?|examples?|scenarios?"
        r"|assertions?|hooks?) (?:failed|failing)\b",
        "a count of failures after a label (`failures: 1`, `Failed checks: 3`, cpplint's `Total "
        "errors found: 9`, doc8's `errors = 3`) or beside its noun (`2 failed tests`, `3 tests "
        "failed`)",
    ),
    rule(
        "cargo-test-failed",
        "failure_summary",
        "regex",
        r"^test result: FAILED\.",
        "cargo test's closing line with failures",
    ),
]

# A tool's own summary that reports success: outweighs logged errors on either stream.
_SUCCESS_SUMMARIES = [
    rule(
        "tests-passed",
        "success_summary",
        "regex",
        r"\b[1-9]\d* (?:[a-z]+ )?(?:passed|passing)\b|^test result: ok\. [1-9]|^# fail 0$",
        "a test runner's summary with passes and no failures (pytest, jest, mocha, cargo, TAP, "
        "behave's `3 steps passed, 0 failed`)",
    ),
    rule(
        "tests-ok",
        "success_summary",
        "regex",
        r"^OK(?: \([a-z =,\d]+\))?$|^ok  \t|^PASS$|\bTests run: \d+, Failures: 0, Errors: 0\b",
        "unittest OK, go test ok/PASS, JUnit with no failures",
    ),
    rule(
        "checks-passed",
        "success_summary",
        "regex",
        r"^All checks passed!|^All matched files use Prettier|^No issues identified\.|^All done! |\bBUILD SUCCESS(?:FUL)?\b",
        "linters, formatters and builds that report a clean result",
    ),
    rule(
        "runner-success-summary",
        "success_summary",
        "regex",
        r"^[ \t]+congratulations :\)|^[ \t]*[\w.\-]+: OK \(\d|^nox > Session \S+ was successful\b"
        r"|^Passed! +- Failed: +0,|^100% tests passed, 0 tests failed out of\b"
        r"|\b\d+ (?:examples?|tests?|specs?), 0 failures\b|\b\d+ runs, \d+ assertions, 0 failures, 0 errors\b"
        r"|\bok=\d+ +changed=\d+ +unreachable=0 +failed=0\b|^All tests successful\.|^Result: PASS\b"
        r"|\b\d+ successes? / 0 failures? / 0 errors?\b|\.{4}(?:\([^()\n]*\))?Passed\b"
        r"|^== \[[^\]\n]+\] FIXED\b",
        "the clean closing lines of tox, nox, dotnet test, ctest, rspec, minitest, prove, busted, "
        "pre-commit hooks, sqlfluff fix and an Ansible PLAY RECAP",
    ),
    rule(
        "recovered-after-retries",
        "success_summary",
        "regex",
        r"\b(?:ok|OK|succeeded|successful|recovered|connected|reconnected|fetched|done|completed"
        r"|committed|saved|written|sent|published|delivered|uploaded|downloaded|acquired|applied"
        r"|loaded|received|obtained|worked|ready) (?:after|on) (?:attempt #?\d+|\d+ (?:attempts"
        r"|retries|tries))\b",
        "the operation that was retried says it succeeded (`fetched: ok after 3 attempts`): it "
        "outweighs the failed attempts' errors logged before it or on the other stream",
    ),
    rule(
        "git-bisect-found",
        "success_summary",
        "regex",
        r"\bis the first bad commit$|^bisect found first bad commit",
        "git bisect run found the commit it was looking for",
    ),
]

# Lines saying the error before them (or the block they head) is being retried, after the
# lines saying the retries ran out.
_RETRY = [
    rule(
        "retries-exhausted",
        "error",
        "regex",
        r"\bgiving up\b|\bretries exhausted\b|\bno more retries\b|\b(?:max(?:imum)? retries|retry limit)"
        r" (?:exceeded|reached)\b|\ball \d+ attempts failed\b|\bfailed after \d+ (?:attempts|retries|tries)\b",
        "the retries ran out: the error is final, whatever retry words the line also holds",
        case_sensitive=False,
        both_streams=True,
    ),
    rule(
        "retry-notice",
        "retry",
        "regex",
        r"\b(?:retrying\b|will retry\b|retries left\b|retry(?:ing)? in \d|trying (?:next|again|another)\b"
        r"|falling back\b|fall back to\b|reconnecting\b|backing off\b|retry #?[1-9]\d*(?:/\d+| of \d+)\b)",
        "a client retrying (or falling back) after an error: the error it follows or heads is not "
        "the final word",
        case_sensitive=False,
    ),
    rule(
        "attempt-failed",
        "retry",
        "regex",
        r"\b(?:[Aa]ttempt|[Tt]ry|[Rr]etry) #?[1-9]\d*(?:/\d+| of \d+)? (?:failed|errored)\b",
        "`attempt 2 failed`: numbered attempts mean another one follows (a final one says so: "
        "retries-exhausted)",
    ),
]


_NOISE = [
    rule(
        "zero-count",
        "noise",
        "regex",
        r"^(?:[\w.\- \t]{0,40}[ \t])?(?:[Ee]rrors?|ERRORS?|[Ff]ailures?|FAILURES?|[Ff]ailed|FAILED"
        r"|[Ff]atal|[Pp]roblems|[Ii]ssues|[Vv]iolations|[Ee]rror count)[ \t]*[:=][ \t]*(?:0|false|False"
        r"|none|None|null|nil|\[\]|\{\})[ \t]*[,;]?$",
        "a count or a field that says there was nothing wrong (`Error count: 0`, `error: false`, "
        "`Unit tests failed: 0`)",
    ),
    rule(
        "log-level-info",
        "noise",
        "regex",
        r"^[^\n]{0,48}?\b(?:INFO|DEBUG|TRACE|NOTICE)\b[\]:|]?(?:[ \t]|$)",
        "a log line at INFO/DEBUG level: its author judged it harmless, whatever it mentions",
    ),
    rule(
        "log-level-info-logfmt",
        "noise",
        "regex",
        r"\blevel=(?:info|debug|trace)\b",
        "a logfmt line at info/debug level",
    ),
    rule(
        "node-warning",
        "noise",
        "regex",
        r"^\(node:\d+\) (?:\[[A-Z]+\d+\] )?(?:DeprecationWarning|ExperimentalWarning|MaxListenersExceededWarning"
        r"|TimeoutOverflowWarning|TimeoutNegativeWarning|Warning):",
        "Node.js runtime warning (e.g. DEP0040 punycode, ExperimentalWarning)",
    ),
    rule(
        "node-trace-hint",
        "noise",
        "regex",
        r"^\(Use `node --trace-",
        "Node.js hint printed after a warning",
    ),
    rule(
        "npm-warn",
        "noise",
        "regex",
        r"^npm (?:warn|WARN|notice|info|http|timing|verb)\b",
        "npm warnings and notices, e.g. `npm warn deprecated`",
    ),
    rule(
        "pip-root-user",
        "noise",
        "substring",
        "Running pip as the 'root' user",
        "pip's root-user warning",
        case_sensitive=False,
    ),
    rule("pip-notice", "noise", "regex", r"^\[notice\] ", "pip's new-release notice"),
    rule("pip-deprecation", "noise", "regex", r"^DEPRECATION: ", "pip deprecation notice"),
    rule(
        "python-warning",
        "noise",
        "regex",
        r"\.py:\d+: [A-Za-z]*Warning: ",
        "Python warnings module output (file.py:12: DeprecationWarning: ...)",
    ),
    rule(
        "python-warning-bare",
        "noise",
        "regex",
        r"^[A-Z][A-Za-z]*Warning: ",
        "a Python or Node warning class at line start",
    ),
    rule(
        "compiler-warning",
        "noise",
        "regex",
        r":\d+(?::\d+)?: (?:warning|note|remark)(?:\[[\w\-]+\])?:",
        "compiler or checker warning/note at file:line (gcc, clang, mypy notes)",
        case_sensitive=False,
    ),
    rule(
        "warning-prefix",
        "noise",
        "regex",
        r"^[ \t]*(?:[\w.\-]+: )?\[?(?:warning|Warning|WARNING|WARN|warn)\]?(?:\[[\w\-]+\])?[:!]?(?:[ \t]|$)",
        "a line that introduces itself as a warning (cargo, pip, yarn, perl, ssh, maven)",
    ),
    rule(
        "pylint-non-error",
        "noise",
        "regex",
        r"^[^ \t:\n]+:\d+:\d+: [CRWI]\d{4}: ",
        "pylint's convention, refactor, warning and info messages: warnings, as a compiler's are "
        "(its E and F messages are errors; --fail-under decides the exit code)",
    ),
    rule(
        "fixed-or-non-blocking",
        "noise",
        "regex",
        r"^[^ \t:\n]+:\d+:\d+: [A-Z]: \[Corrected\] |\((?:non-blocking|non-fatal|nonfatal|not fatal)\)"
        r"|^ERROR: pip's dependency resolver does not currently take into account",
        "lines that say they do not count: rubocop's offenses it corrected, messages marked "
        "non-blocking, pip's note about conflicts in packages it did not install",
    ),
    rule(
        "awk-warning",
        "noise",
        "regex",
        r"^g?awk: [^\n]*:\d+: warning: ",
        "gawk's lint and regexp warnings (its syntax errors have the same head without `warning:`)",
    ),
    rule("note-prefix", "noise", "regex", r"^(?:Note|note|hint): ", "notes and hints (git, javac)"),
    rule("git-clone", "noise", "regex", r"^Cloning into ", "git clone progress"),
    rule(
        "git-progress",
        "noise",
        "regex",
        r"^(?:remote: )?(?:Enumerating|Counting|Compressing|Receiving|Resolving|Writing|Unpacking) (?:objects|deltas)\b",
        "git transfer progress",
    ),
    rule(
        "cargo-progress",
        "noise",
        "regex",
        r"^[ \t]+(?:Compiling|Downloaded|Downloading|Finished|Fresh|Checking|Running|Updating|Locking|Adding|Blocking) \S",
        "cargo progress lines (Compiling, Downloaded, Finished, ...)",
    ),
    rule(
        "go-download",
        "noise",
        "regex",
        r"^go: (?:downloading|finding|extracting) ",
        "go module download progress",
    ),
    rule(
        "terminal-noise",
        "noise",
        "regex",
        r"No value for \$TERM|Inappropriate ioctl for device|no job control in this shell|cannot set terminal process group"
        r"|(?:cannot|can't) open '?/dev/tty\b",
        "shell or terminal setup chatter in non-interactive runs (no terminal to open)",
    ),
    rule(
        "locale-noise",
        "noise",
        "regex",
        r"(?:Cannot set LC_|setlocale: LC_|^debconf: )",
        "locale and debconf chatter",
    ),
]


DEFAULT_RULES: tuple[Rule, ...] = tuple(
    _RETRY
    + _BEFORE_SUMMARIES
    + _SUCCESS_FIRST
    + _FAILURE_SUMMARIES
    + _SUCCESS_SUMMARIES
    + _NOISE
    + ERROR_RULES
    + TOOL_ERROR_RULES
)

# Engine forms (patterns/engine.py) of the built-ins whose stdlib form has a lookbehind or an end
# anchor inside an alternation: the same verdict per line, with every match running to the end
# of its line. tests/test_engine.py checks each against its rule on real and generated lines.
ENGINE_FORMS: dict[str, str] = {
    "failure-summary": r"\b[1-9]\d* (?:failed|failing|failures?|errors?|offenses?|violations?|problems?)(?:(?:[,;.:)]|[ \t]+(?:in|from"
    r"|occurred|found|generated|detected)\b|[ \t]+[(|])[^\n]*|[ \t]*)$",
    "go-test-failure": r"^(?:--- FAIL: [^\n]*|FAIL\t[^\n]*|FAIL)$",
    "tests-ok": r"(?:^OK(?: \([a-z =,\d]+\))?|^PASS|(?:^ok  \t|\bTests run: \d+, Failures: 0, "
    r"Errors: 0\b)[^\n]*)$",
    "tests-passed": r"(?:(?:\b[1-9]\d* (?:[a-z]+ )?(?:passed|passing)\b|^test result: ok\. [1-9])[^\n]*|^# fail 0)$",
    "script-error": r"(?:(?:^[^ \t:\n]+\.lua:\d+: |^lua[\d.]*: )[^\n]*|^    while executing)$",
    "git-bisect-found": r"(?:\bis the first bad commit|^bisect found first bad commit[^\n]*)$",
    "log-level-info": r"^[^\n]{0,48}?\b(?:INFO|DEBUG|TRACE|NOTICE)\b[\]:|]?(?:[ \t][^\n]*)?$",
    "warning-prefix": r"^[ \t]*(?:[\w.\-]+: )?\[?(?:warning|Warning|WARNING|WARN|warn)\]?"
    r"(?:\[[\w\-]+\])?[:!]?(?:[ \t][^\n]*)?$",
    "python-exception": r"^[A-Za-z_][\w.$]*(?:Error|Exception|Interrupt)(?: \[[A-Z_\d]+\])?"
    r"(?:: [^\n]*|:?[ \t]*)$",
    "error-label": r"(?:^|[ \t:\]\)>|])(?:error|ERROR|Error)(?: ?\[[\w\-]+\])?:(?:[^\d\n][^\n]*)?$",
    "fatal": r"(?:^|[ \t:])(?:fatal|FATAL|Fatal)(?: error)?:[^\n]*$",
    "log-level-error": r"^[^\n]{0,48}?\b(?:ERROR|CRITICAL|FATAL|SEVERE)(?:/[\w\-]+)?\b[\]:|]?(?:[ \t][^\n]*)?$",
    "command-not-found": r"(?:command not found[^\n]*|: not found)$",
    "shell-error": r"(?:: (?:unbound variable|bad substitution|ambiguous redirect|integer expression"
    r" expected)|\bsyntax error near unexpected token\b[^\n]*)$",
    "failed-word": r"(?:^|[^\w\-\n])FAILED\b[^\n]*$",
    "failed-to": r"(?:^|[ \t:])Failed to [a-z][^\n]*$",
    "failure-label": r"\b(?:[Ff]ailed|[Ff]ailure):(?:[ \t]+[^0 \t\n][^\n]*|[ \t]*)$",
}
