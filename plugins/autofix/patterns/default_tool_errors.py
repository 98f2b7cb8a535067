"""The built-in error rules checked after default_errors.py's (defaults.py says why order
matters): mostly tools' and services' reports (network and libcurl errors, program, usage and
shell errors, status fields, git conflicts, HTTP error pages and JSON error bodies, lint codes,
maven), and the remaining runtime shapes (Perl, Ruby, PHP, Lua, glibc, BEAM). Each comes from a
documented error format."""

from __future__ import annotations

from autofix.patterns.model import built_in_rule as rule

TOOL_ERROR_RULES = [
    rule(
        "connection-refused",
        "error",
        "substring",
        "Connection refused",
        "a network peer refused (C's ECONNREFUSED text, Go's lower-case one)",
        case_sensitive=False,
    ),
    rule(
        "node-system-error",
        "error",
        "regex",
        r"\b(?:spawn(?:Sync)? \S+|connect|getaddrinfo|read|write|listen|bind|open|mkdir|rmdir"
        r"|scandir|unlink|rename|stat|lstat|access|copyfile|symlink|readlink|chmod|kill) E(?:NOENT"
        r"|ACCES|PERM|CONNREFUSED|CONNRESET|ADDRINUSE|ADDRNOTAVAIL|NOTFOUND|AI_AGAIN|TIMEDOUT|PIPE"
        r"|HOSTUNREACH|NETUNREACH|EXIST|ISDIR|NOTDIR|NOTEMPTY|MFILE|NOSPC|ROFS|BUSY)\b"
        r"|\bE(?:ACCES|PERM|EXIST|ISDIR|NOTDIR|NOTEMPTY|MFILE|NOSPC|ROFS|BUSY|ADDRINUSE): [a-z][a-z ]+, "
        r"[a-z]+\b",
        "Node's system errors, `syscall CODE` (`spawn protoc ENOENT`, `connect ECONNREFUSED ...`) "
        "and `CODE: description, syscall` (`EACCES: permission denied, open '...'`)",
    ),
    rule(
        "libcurl-error",
        "error",
        "regex",
        r"\bHTTP response code said error\b|\bCouldn't resolve host name\b|\bCouldn't connect "
        r"to server\b|\bThe requested URL returned error: [45]\d\d\b|\bSSL peer certificate or "
        r"SSH remote key was not OK\b|\bFailure when receiving data from the peer\b",
        "libcurl's error texts, which tools that download through it print (CMake's "
        "file(DOWNLOAD) status, git, PHP)",
        both_streams=True,
    ),
    rule(
        "miette-error",
        "error",
        "regex",
        r"^[ \t]*× [A-Za-z]",
        "the `×` error mark of Rust CLIs (uv, oxlint, turbo) and of vitest's failed tests",
        both_streams=True,
    ),
    rule(
        "status-failed",
        "error",
        "regex",
        r"\b(?:[Ss]tatus|[Ss]tate|[Rr]esult|[Oo]utcome|[Cc]onclusion)\"?[ \t]*[:=][ \t]*\"?(?:failed"
        r"|failure|FAILED|FAILURE|FAIL|Failed|Failure|errored|unhealthy)\b",
        'a status field that says failed (`status: failed`, `"conclusion": "failure"`)',
        both_streams=True,
    ),
    rule(
        "usage-error",
        "error",
        "regex",
        r"(?:^|: )(?:[Uu]nknown|[Uu]nrecognized|[Ii]nvalid|[Ii]llegal) (?:option|argument|command"
        r"|flag|subcommand)s?\b",
        "a command line the program refused (`unknown option: --foo`, `invalid option -- 'z'`)",
        both_streams=True,
    ),
    rule(
        "integrity-failure",
        "error",
        "regex",
        r"\b(?:[Cc]hecksum|[Hh]ash|[Dd]igest|SHA-?\d+|sha\d+|MD5|md5|[Ii]ntegrity|[Ss]ignature)"
        r"(?: check| verification)? (?:mismatch|failed|FAILED)\b|^\d+ validation errors? for [\w.]+",
        "a checksum or signature that did not match; pydantic's `1 validation error for Model`",
        both_streams=True,
    ),
    rule(
        "step-failed",
        "error",
        "regex",
        r"^[A-Za-z][a-z]+ (?:[a-z]+ )?failed(?:[.!,:;)][^\n]*| [^\n]*)?$",
        "a line that opens with a failed step (`Compilation failed`): often a script's `|| echo`",
        both_streams=True,
    ),
    rule(
        "program-error",
        "error",
        "regex",
        r"^[\w.\-]+:(?: [^:\n]{1,80}:)? ?[ \t](?:error\b|cannot |can't |could not |couldn't "
        r"|unable to |failed to )",
        "GNU-style `program: [where:] error/cannot/unable to ...` (jq, unzip, tar, sed, cp), on "
        "stdout too (a script's `2>&1`)",
        case_sensitive=False,
        both_streams=True,
    ),
    rule(
        "shell-error",
        "error",
        "regex",
        r": unbound variable$|: bad substitution$|\bsyntax error near unexpected token\b"
        r"|: ambiguous redirect$|: integer expression expected$",
        "bash's own diagnostics",
        both_streams=True,
    ),
    rule(
        "tool-error-code",
        "error",
        "regex",
        r"^curl: \(\d+\) |:error:[0-9A-Fa-f]{8}:",
        "curl's `curl: (N) ...` and OpenSSL's `...:error:0480006C:...` error lines",
        both_streams=True,
    ),
    rule(
        "script-error",
        "error",
        "regex",
        r"^[^ \t:\n]+\.lua:\d+: |^lua[\d.]*: |^    while executing$",
        "Lua runtime errors and Tcl's error trace",
        both_streams=True,
    ),
    rule(
        "go-build-error",
        "error",
        "regex",
        r"^[\w./\-]+\.go:\d+:\d+: ",
        "go build and go vet report each problem as file.go:line:col: message",
    ),
    rule(
        "git-conflict",
        "error",
        "regex",
        r"^CONFLICT \([\w/ \-]+\): |^Automatic merge failed\b",
        "git merge/rebase/cherry-pick stopped on a conflict (git prints it on stdout)",
        both_streams=True,
    ),
    rule(
        "perl-fatal",
        "error",
        "regex",
        r"^(?:Can't locate [^\n]* in @INC|Died at [^\n]* line \d+|Undefined subroutine &[^\n]* called at "
        r"|Can't call method \"[^\"\n]*\" on )",
        "Perl's fatal errors (perldiag): a die or a missing module, sub or object",
    ),
    rule(
        "failure-label",
        "error",
        "regex",
        r"\b(?:[Ff]ailed|[Ff]ailure):(?:[ \t]+[^0 \t\n]|[ \t]*$)",
        "`<step> failed: <reason>` / `Coverage failure: ...` (not `failed: 0`)",
        both_streams=True,
    ),
    rule(
        "node-uncaught-trailer",
        "error",
        "regex",
        r"(?:^|[ \t\]|])Node\.js v\d+\.\d+\.\d+$",
        "Node prints its version after an uncaught exception's report (also behind a prefix)",
        both_streams=True,
    ),
    rule(
        "ruby-exception",
        "error",
        "regex",
        r"^[^ \t:\n]+:\d+:in [`'][^'\n]*': [^\n]* \([A-Z][\w:]*\)$",
        "Ruby's uncaught exception line (file:line:in `meth': message (Class))",
    ),
    rule(
        "php-error",
        "error",
        "regex",
        r"<b>(?:Fatal error|Parse error|Recoverable fatal error)</b>:"
        r"|^(?:PHP )?(?:Fatal|Parse|Recoverable fatal) error: ",
        "PHP fatal and parse errors (display_errors output in a page, or the CLI's log line)",
        both_streams=True,
    ),
    rule(
        "http-error-page",
        "error",
        "regex",
        r"<title>(?:[45]\d\d\b|Error\b)|<h1>(?:[45]\d\d\b|Error response|Internal Server Error"
        r"|Bad Request|Not Found|Forbidden|Service Unavailable|Bad Gateway)|^A server error occurred\."
        r"|^Error code: [45]\d\d|\bServer Error \(5\d\d\)|<pre>Cannot (?:GET|POST|PUT|PATCH|DELETE) /"
        r"|^HTTP/[\d.]+ [45]\d\d\b|^404 page not found|^Internal Server Error"
        r"|<title>[A-Z]\w*(?:Error|Exception)\b|<h1>[A-Z]\w*(?:Error|Exception) at /"
        r"|\bHTTP Error [45]\d\d\b|^[45]\d\d (?:Bad Request|Unauthorized|Forbidden|Not Found|Method "
        r"Not Allowed|Conflict|Unprocessable Entity|Too Many Requests|Internal Server Error|Bad "
        r"Gateway|Service Unavailable|Gateway Timeout)\b",
        "an HTTP error page or status line (nginx, Apache, http.server, wsgiref, werkzeug, Django "
        "and its debug page, Express, Go's net/http plain-text errors)",
        both_streams=True,
    ),
    rule(
        "json-error-body",
        "error",
        "regex",
        r"^[ \t]*\{[^\n]*\"(?:error|errors|err)\"[ \t]*:[ \t]*(?:\{|\[[ \t]*[{\"]|\"[^\"\n])"
        r"|\"(?:ok|success)\"[ \t]*:[ \t]*false\b|\"status\"[ \t]*:[ \t]*\"(?:error|fail)\"",
        "a JSON API answer that reports an error (non-empty error field, ok/success false, status "
        "error; a failed status is status-failed's, checked before)",
        both_streams=True,
    ),
    rule(
        "lint-error-code",
        "error",
        "regex",
        r"^[^ \t:\n]+:\d+:\d+: (?:[EF]\d{4}: |[A-Z]{1,3}\d{3}\b)|^[ \t]+\d+:\d+[ \t]+error[ \t]"
        r"|\bSC\d{4} \((?:error|warning|info|style)\):|^>> Issue: \[B\d{3}"
        r"|^[^ \t:\n]+:\d+:\d+: \[error\] |^[^ \t:\n]+:\d+(?::\d+)? MD\d{3}/"
        r"|^[^ \t:\n]+:\d+(?::\d+)? error MD\d{3}/"
        r"|^[^ \t:\n]+:\d+ DL\d{4} |^L: +\d+ \| P: +\d+ \| [A-Z]+\d+ \| |^== \[[^\]\n]+\] FAIL\b",
        "linter findings that fail a check: pylint E/F messages, flake8/ruff codes, eslint and "
        "yamllint `error` rows (and its parsable `[error]`), any shellcheck finding (it exits 1 "
        "on each it prints), any bandit issue, markdownlint, hadolint and sqlfluff findings",
        both_streams=True,
    ),
    rule(
        "maven-error",
        "error",
        "regex",
        r"(?:^|[ \t])\[(?:ERROR|FATAL|CRITICAL|error|fatal|critical)\] ",
        "maven's [ERROR] lines (maven logs on stdout), prettier's [error], and loggers' "
        "`12:00:01.5 [error] ...` (Elixir's Logger)",
        both_streams=True,
    ),
    rule(
        "system-error",
        "error",
        "regex",
        r"[:\-] (?:Operation not permitted|Is a directory|Not a directory|Read-only file system|Directory "
        r"not empty|File exists|Invalid argument|Input/output error|Too many open files|Network is "
        r"unreachable|No route to host|Connection timed out|Connection reset by peer|No such process"
        r"|Address already in use|Bad file descriptor|Device or resource busy|Argument list too long"
        r"|Text file busy|File name too long|Disk quota exceeded|Stale file handle)\b"
        r"|\bcontext deadline exceeded\b|\bCERTIFICATE_VERIFY_FAILED\b|\bcertificate verify failed\b"
        r"|: (?:not in gzip format|File format not recognized|[Uu]nexpected end of (?:file|input)"
        r"|Compressed data is corrupt|invalid compressed data)\b",
        "an operating-system error text after `program: object:` (strerror), a TLS verification "
        "failure, a Go deadline, a corrupt archive",
    ),
    rule(
        "memory-corruption",
        "error",
        "regex",
        r"\*\*\* stack smashing detected \*\*\*|^(?:free|malloc|realloc|munmap_chunk|malloc_consolidate)"
        r"\b[^\n]*(?:invalid|corrupt|detected|unaligned)|^double free or corruption\b"
        r"|^corrupted (?:size|double-linked list)\b|^memory allocation of \d+ bytes failed",
        "glibc's heap and stack-protector aborts, Rust's allocation failure",
        weight="fatal",
    ),
    rule(
        "bare-signal-report",
        "error",
        "regex",
        r"^(?:Killed|Terminated|Hangup|Alarm clock|CPU time limit exceeded|File size limit exceeded)"
        r"(?: \(core dumped\))?$",
        "the shell's bare report of a job a signal ended",
        weight="fatal",
    ),
    rule(
        "tool-diagnostic",
        "error",
        "regex",
        r"^ ! \[(?:remote )?rejected\] |\bBAD signature\b|^Load key \"[^\"\n]*\": "
        r"|\bSchemas validity error : | fails to validate\b|: parser error : "
        r"|^line \d+ column \d+ - Error: |: line \d+, col \d+, [Ee]rror - "
        r"|^[^ \t:\n]+:\d+: \S+ ==> \S|: unused (?:import|function|variable|class|method|attribute"
        r"|property) '[^'\n]+' \(\d+% confidence\)|(?:^|[ \t])[^ \t:\n]+\.[A-Za-z]{1,5}:\d+:\d+: [^\n]"
        r"| \.\.\. (?:FAIL|ERROR)\b|^Expecting [^\n]{1,60}: line \d+ column \d+ \(char \d+\)"
        r"|\[(?:[A-Z]\w*)?Error(?: \[\w+\])?: [^\n]*\] \{|\[Errno \d+\] "
        r"|^[^ \t\n]+\.(?:json|ya?ml|toml|xml) invalid\b",
        "tools' own error shapes, on either stream: git's rejected push, gpg's BAD signature, ssh "
        "key errors, xmllint, HTML Tidy, the compact lint format (stylelint, eslint), codespell, "
        "vulture, `file.ext:line:col: message` diagnostics, also indented (pyflakes, luacheck; "
        "warnings and notes are noise first), unittest's verbose `... FAIL`, Python's JSON decode "
        "message and printed OSErrors (`[Errno 111] ...`), Node's printed error objects, ajv's "
        "`file.json invalid`",
        both_streams=True,
    ),
    rule(
        "check-report-error",
        "error",
        "regex",
        r", which is not installed\.|\bhas requirement [^\n]+, but you have "
        r"|\"output_type\":[ \t]*\"error\""
        r"|\b(?:[Vv]alidation|[Ss]chema|[Ss]yntax|[Pp]arse|[Pp]arsing|[Tt]ype|[Cc]onfig) errors? (?:were|was)"
        r" (?:encountered|found|detected|reported)\b"
        r"|\bRemote file does not exist -- broken link\b|: Unused imports/variables detected\b"
        r"|(?:^|[ \t])✖ |^while (?:constructing|parsing|scanning) an? [a-z]|^found duplicate key\b"
        r"|\bmapping values are not allowed here\b|\bcould not find expected ':'",
        "checks that report a problem and may still exit 0, on either stream: `pip check`'s broken "
        "requirements, a notebook's error output (nbconvert --allow-errors), `Schema validation "
        "errors were encountered`, wget --spider's broken link, autoflake --check, YAML parser "
        "errors (PyYAML, ruamel), and the `✖ ` error mark of Node CLIs (log-symbols)",
        both_streams=True,
    ),
    rule(
        "client-error-reply",
        "error",
        "regex",
        r"\bERR_PNPM_[A-Z_]+\b|^\(error\) [A-Z]|^ERR [a-zA-Z]|^WRONGTYPE [A-Z]|^NOAUTH [A-Z]|^NOPERM "
        r"|^EXECABORT [A-Z]|^NOSCRIPT [A-Z]|\bORA-\d{5}: |^##\[error\]|^::error(?: [^:\n]*)?::",
        "pnpm's ERR_PNPM_ codes, redis-cli's `(error)` and bare `ERR ...` replies (on stdout), "
        "Oracle errors, and GitHub Actions error annotations (on stdout)",
        both_streams=True,
    ),
    rule(
        "beam-error",
        "error",
        "regex",
        r"^\*\* \([A-Z][\w.]*\) |^escript: exception (?:error|throw|exit)\b"
        r"|\binit terminating in do_boot\b|^Crash dump is being written to",
        "an uncaught Elixir exception (`** (RuntimeError) ...`) or an Erlang VM crash (Elixir's "
        "Logger writes to stdout)",
        both_streams=True,
        weight="fatal",
    ),
    rule(
        "beam-process-crash",
        "error",
        "regex",
        r"^=(?:ERROR|CRASH) REPORT==== |^Error in process <[\d.]+> ",
        "an Erlang process that crashed (the VM's error logger prints it, on stdout too)",
        both_streams=True,
    ),
    rule(
        "tool-usage-error",
        "error",
        "regex",
        r"cannot find module providing package|^go: (?:cannot find main module|updates to go\.mod "
        r"needed|go\.mod file not found|errors parsing go\.mod)|^sed: -e expression #\d+, char \d+: "
        r"|^g?awk: (?:cmd\. line|[^ :\n]+):\d+: |^timeout: sending signal [A-Z]+ to command |^patch: \*{4} "
        r"|^Try '[^'\n]+ --help'|^[\w.\-]+: (?:invalid|unrecognized|unknown"
        r"|illegal) (?:[a-z]+ )?(?:option|argument|number|value|input|format|character|field)\b|: option requires an argument\b"
        r"|: missing (?:file )?operand\b|\bis not a git command\b|\bsyntax error\b"
        r"|\bunexpected EOF while looking for matching\b",
        "usage errors (GNU's `Try 'x --help'`, invalid options, missing operands), syntax errors of "
        "shells and scripts, the go command's module errors, sed, awk and patch errors (awk's "
        "warnings are noise), and `timeout -v` killing its command",
    ),
]
