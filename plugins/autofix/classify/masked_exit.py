"""Whether a command line hides its work's exit status, and the findings that then decide.

An exit code of 0 is the tool's own verdict: a linter that exits 0 found nothing above its fail
level. A command line can throw that verdict away: ``lint || true``, ``lint; echo done``,
``lint | tail -n 5`` (no ``pipefail``), a loop that keeps its last status, or a flag the tool
documents for exiting 0 whatever it finds (``--exit-zero``). Then 0 proves nothing, and a
finding the tool reported is the failure it would have exited on: a located or coded problem
(``src/app.py:5:12 E0602 undefined name``, ``docs/x.rst:5: missing space``, ``E3006 Resource
type ... does not exist``), an exception named with its module (``jinja2.exceptions.
TemplateNotFound: ...``, its traceback's head cut off by ``tail``), or a diff's hunk (a check
that shows what it would change).
Findings the tool itself tags warning, note or info stay harmless: they are below any fail
level. Only a run's last non-noise lines (``ClassifyReport.tail``) are read.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Sequence
from itertools import pairwise

from autofix.classify.normalize import strip_ansi

__all__ = ["MASKED_EXIT_ROLE", "MASKED_EXIT_RULE", "findings", "masked_exit"]

MASKED_EXIT_RULE = "masked-exit-finding"  # the evidence's rule id: no pattern rule decided it
MASKED_EXIT_ROLE = "finding under a masked exit status"  # the evidence's role

# Commands that always exit 0 (``exit`` only with 0: a bare ``exit`` keeps the failing status).
_ALWAYS_SUCCEED = frozenset({"true", ":", "echo", "printf"})
# Commands that only pass their input on: as a pipeline's last stage, theirs is the status.
_FILTERS = frozenset(
    {"tee", "tail", "head", "grep", "egrep", "fgrep", "sed", "awk", "gawk", "mawk", "sort"}
    | {"uniq", "wc", "cut", "tr", "cat", "jq", "column", "col", "nl", "fold", "less", "more"}
)
# Commands that only set up or report (cd, export, ...): never the work a status belongs to.
_NOT_WORK = _ALWAYS_SUCCEED | {"cd", "export", "set", "mkdir", "trap", "local", "exit", "sleep"}
_NOT_WORK |= {"ls", "pwd", "date", "which", "type"}  # listers: their status is not the work's
_SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh"})
_SEPARATORS = frozenset({";", "\n", "&&", "||", "&", ";;"})
_BRACKETS = frozenset({"(", ")"})
_KEYWORDS = frozenset({"{", "}", "do", "done", "then", "fi", "else", "elif", "!"})
_LOOPS = frozenset({"for", "while", "until"})
# Options tools document for exiting 0 whatever they find: flake8, pylint, ruff and bandit's
# --exit-zero; newman's --suppress-exit-code; checkov's --soft-fail; hadolint's --no-fail;
# make's --ignore-errors (and -i); with a value: lintian's --fail-on none, cfn-lint's
# --non-zero-exit-code none, trivy's and gitleaks' --exit-code 0, locust's
# --exit-code-on-error 0; maven's -Dmaven.test.failure.ignore=true.
_EXIT_ZERO_FLAGS = frozenset(
    {"--exit-zero", "--suppress-exit-code", "--soft-fail", "--no-fail", "--ignore-errors"}
)
_EXIT_ZERO_VALUES = {
    "--fail-on": "none",
    "--non-zero-exit-code": "none",
    "--exit-code": "0",
    "--exit-code-on-error": "0",
    "-Dmaven.test.failure.ignore": "true",
}


def masked_exit(command: str | Sequence[str] | None) -> str | None:
    """Why ``command``'s exit status is not its work's, or None (it is, or it cannot be told)."""
    if not command:
        return None
    if isinstance(command, str):
        return _masked_script(command)
    argv = list(command)
    if len(argv) >= 3 and _base(argv[0]) in _SHELLS and "-c" in argv[1:-1]:
        return _masked_script(argv[argv.index("-c") + 1])
    return _flag_reason([argv])


def _masked_script(script: str) -> str | None:
    commands = _commands(script)
    if not commands:
        return None
    for (separator, words), (_, after) in pairwise(commands):
        if separator == "||" and _always_succeeds(after) and _is_work(words):
            return f"`|| {after[0]}` turns the failure of `{_base(words[0])}` into exit 0"
    last = commands[-1][1]
    ends_in_success = len(commands) > 1 and commands[-2][0] in (";", "\n")
    if ends_in_success and _always_succeeds(last) and any(_is_work(w) for _, w in commands[:-1]):
        return f"the command ends with `; {last[0]}`, whose exit status is 0"
    if "pipefail" not in script:
        for (separator, words), (_, after) in pairwise(commands):
            if separator == "|" and _base(after[0]) in _FILTERS and _is_work(words):
                filtered = _base(words[0])
                return f"`| {_base(after[0])}` passes on its own exit status, not `{filtered}`'s"
    loop = next((words[0] for _, words in commands if words[0] in _LOOPS), None)
    if loop is not None:
        return f"a `{loop}` loop's exit status is only its last command's"
    return _flag_reason(words for _, words in commands)


def _commands(script: str) -> list[tuple[str, list[str]]]:
    """The simple commands of ``script``, each with the separator that follows it."""
    lexer = shlex.shlex(script, posix=True, punctuation_chars="();<>|&\n")
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        tokens = [piece for token in lexer for piece in _operators(token)]
    except ValueError:  # an unclosed quote: nothing can be told
        return []
    commands: list[tuple[str, list[str]]] = []
    words: list[str] = []
    for token in [*tokens, None]:  # None: the end closes the last command
        if token is None or token in _SEPARATORS or token == "|":
            named = _drop_assignments(words)
            if named:
                commands.append((token or "", named))
            words = []
        elif token not in _BRACKETS and (token not in _KEYWORDS or words):
            words.append(token)  # redirections too: kept as words
    return commands


_PUNCTUATION = frozenset("();<>|&\n")
_OPERATOR = re.compile(r"&&|\|\||;;|>>|<<|[<>]&|&>|[|;&()<>\n]")


def _operators(token: str) -> list[str]:
    """shlex joins a run of punctuation (``);``, ``)|``): split it into the shell's operators."""
    if len(token) < 2 or not set(token) <= _PUNCTUATION:
        return [token]
    return _OPERATOR.findall(token)


def _drop_assignments(words: list[str]) -> list[str]:
    at = 0
    while at < len(words) and re.fullmatch(r"[A-Za-z_]\w*=.*", words[at], re.DOTALL):
        at += 1
    if at < len(words) and words[at] in ("time", "command", "exec", "env", "nice", "nohup"):
        at += 1
    return words[at:]


def _base(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def _always_succeeds(words: list[str]) -> bool:
    name = _base(words[0])
    return name in _ALWAYS_SUCCEED or (name == "exit" and words[1:2] == ["0"])


def _is_work(words: list[str]) -> bool:
    return _base(words[0]) not in _NOT_WORK


def _flag_reason(commands: Iterable[list[str]]) -> str | None:
    for words in commands:
        for at, word in enumerate(words[1:], start=1):
            name, equals, value = word.partition("=")
            if word in _EXIT_ZERO_FLAGS or (word == "-i" and _base(words[0]) == "make"):
                return f"`{word}` makes `{_base(words[0])}` exit 0 whatever it finds"
            wanted = _EXIT_ZERO_VALUES.get(name)
            given = value if equals else (words[at + 1] if at + 1 < len(words) else "")
            if wanted is not None and given.lower() == wanted:
                shown = word if equals else f"{word} {given}"
                return f"`{shown}` makes `{_base(words[0])}` exit 0 whatever it finds"
    return None


# A path with a file extension (or a dotfile), then :line[:col]: the GNU diagnostic format.
# An optional severity word may lead (`ERROR docs/x.rst:4 ...`); a function may sit before the
# line (darglint's `calc.py:add:4: DAR101: ...`).
_PATH = r"(?:[\w.@~+-]*/){0,32}[\w@~+-]*\.[A-Za-z][\w-]{0,15}"
_LOCATION = (
    rf"(?:[A-Z]{{3,8}}:?\s{{1,8}})?{_PATH}(?::[A-Za-z_][\w.<>-]{{0,60}})?(?::\d{{1,7}}){{1,2}}"
)
_CODE = r"[A-Z][A-Za-z]{0,5}-?\d{2,5}"
_FINDING = re.compile(
    rf"^\s{{0,8}}\[?{_LOCATION}\]?(?::\s*|\s+-\s+|\s+)"
    rf"(?P<located>(?:\d{{1,5}}\s+)?[^\s\d].*)$"  # src/app.py:5:12 E0602 undefined name
    rf"|^\s{{0,8}}(?:\d{{1,7}}:\s*)?{_CODE}:?\s+\S"  # E3006 Resource type ..., 1: DOC103: ...
    r"|^(?:[a-z_]\w{0,40}\.){1,8}[A-Z]\w{0,60}(?:Error|Exception|NotFound|Failure)\w{0,20}: \S"
    r"|^@@ -\d{1,9}(?:,\d{1,9})? \+\d{1,9}(?:,\d{1,9})? @@"  # a check's diff: files would change
    # the location in words: `"very" is a weasel word on line 2 at column 15`, `line 1 column 5`
    r"|^.{0,300}?\b(?:(?:on|at) line #?\d{1,7}|line \d{1,7},? col(?:umn)? \d{1,7})\b"
    rf"|^.{{0,300}}? at {_PATH}(?::\d{{1,7}}| line \d{{1,7}})\b"  # `re at pkg/io.py:2`, Perl's die
)
# The tool's own severity below error: harmless whatever the finding says.
_BELOW_ERROR = re.compile(
    rf"^\W{{0,3}}(?:{_CODE}:?\s+)?\W{{0,3}}"  # hadolint's `DL3008 warning: ...`
    r"(?:warning|warn|note|info|information|hint|notice|debug|style|[A-Z]\w{0,40}Warning)\b"
    r"|[\[(](?:warning|note|info|style|performance|portability)\b"  # [warning], [Warning/semi]
    r"|^.{0,80}?\b(?:warning|note|info|hint)\s?:",  # tidy's `line 1 column 1 - Warning: ...`
    re.IGNORECASE,
)
_LINE_CAP = 1000  # findings are short; a long line is read only this far (bounded work)


def findings(lines: Iterable[str]) -> list[str]:
    """The lines that report a finding (a located or coded problem) not tagged below error."""
    found = []
    for line in lines:
        text = strip_ansi(line[:_LINE_CAP])
        match = _FINDING.match(text)
        if match is None:
            continue
        stripped, located = text.strip(), match.group("located")
        if not _BELOW_ERROR.search(stripped) and not (located and _BELOW_ERROR.search(located)):
            found.append(stripped)
    return found
