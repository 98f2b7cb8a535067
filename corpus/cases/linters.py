"""Python and shell analysers and fixers: ruff, black, mypy, pylint, flake8, isort, yamllint,
bandit, autopep8, shellcheck."""

from __future__ import annotations

from casekit import Case, case, dedent

CASES: list[Case] = []
add = CASES.append

CLEAN = {"app.py": 'import os\n\n\ndef home() -> str:\n    return os.environ.get("HOME", "/")\n'}
UNUSED = {"app.py": "import os\nimport sys\n\n\ndef f(x):\n    return x\n"}
UGLY = {
    "app.py": "import sys,os\ndef f( x ):\n  return {'a':x ,'b':os.sep}\nprint(f(1),file=sys.stdout)\n"
}
TYPED_BAD = {
    "m.py": dedent("""
    def total(xs: list[int]) -> int:
        return sum(xs)

    n: int = total(["a", "b"])
    s: str = n
""")
}

# --- ruff -----------------------------------------------------------------------------------

add(
    case(
        "ruff-clean",
        "ruff",
        "success_alarming_stderr",
        None,
        "clean file; ruff says `All checks passed!`",
        "ruff check --no-cache app.py",
        files=CLEAN,
        confirm="All checks passed",
    )
)
add(
    case(
        "ruff-issues",
        "ruff",
        "plain_failure",
        None,
        "two unused imports found",
        "ruff check --no-cache app.py",
        files=UNUSED,
    )
)
add(
    case(
        "ruff-fix-all",
        "ruff",
        "success_alarming_stderr",
        None,
        "--fix removes both unused imports; ruff reports `Found 2 errors (2 fixed, 0 remaining)`",
        "ruff check --no-cache --fix app.py && cat app.py",
        files=UNUSED,
        confirm="2 fixed",
    )
)
add(
    case(
        "ruff-fix-partial",
        "ruff",
        "plain_failure",
        None,
        "--fix repairs what it can but an undefined name remains (exit 1)",
        "ruff check --no-cache --fix app.py",
        files={"app.py": "import os\n\n\ndef f():\n    return undefined_name\n"},
    )
)
add(
    case(
        "ruff-issues-or-true",
        "ruff",
        "exit0_hidden_failure",
        None,
        "lint violations in a step ending with `|| true`",
        "ruff check --no-cache app.py || true",
        files=UNUSED,
        group="ruff-issues",
        confirm="F401",
    )
)
add(
    case(
        "ruff-format-check-dirty",
        "ruff",
        "plain_failure",
        None,
        "`ruff format --check` finds a file that would be reformatted",
        "ruff format --no-cache --check app.py",
        files=UGLY,
    )
)
add(
    case(
        "ruff-format-write",
        "ruff",
        "plain_success",
        None,
        "`ruff format` reformats the file",
        "ruff format --no-cache app.py && cat app.py",
        files=UGLY,
        confirm="1 file reformatted",
    )
)
add(
    case(
        "ruff-issues-color",
        "ruff",
        "coloured_output",
        "failure",
        "FORCE_COLOR=1; lint violations",
        "ruff check --no-cache app.py",
        files=UNUSED,
        env={"FORCE_COLOR": "1"},
        group="ruff-issues",
    )
)
add(
    case(
        "ruff-clean-color",
        "ruff",
        "coloured_output",
        "success",
        "FORCE_COLOR=1; clean",
        "ruff check --no-cache app.py",
        files=CLEAN,
        env={"FORCE_COLOR": "1"},
        group="ruff-clean",
    )
)
add(
    case(
        "ruff-syntax-error",
        "ruff",
        "plain_failure",
        None,
        "ruff cannot parse the file",
        "ruff check --no-cache app.py",
        files={"app.py": "def f(:\n    pass\n"},
    )
)
add(
    case(
        "ruff-bad-config",
        "ruff",
        "plain_failure",
        None,
        "pyproject selects a rule code that does not exist (exit 2)",
        "ruff check --no-cache app.py",
        files={**CLEAN, "pyproject.toml": '[tool.ruff.lint]\nselect = ["XYZ999"]\n'},
        expect=2,
    )
)

# --- black ----------------------------------------------------------------------------------

add(
    case(
        "black-reformat",
        "black",
        "success_alarming_stderr",
        None,
        "black reformats one file and reports it on stderr",
        "black app.py && cat app.py",
        files=UGLY,
        confirm="1 file reformatted",
    )
)
add(
    case(
        "black-check-clean",
        "black",
        "success_alarming_stderr",
        None,
        "--check on a formatted file; the report goes to stderr",
        "black --check app.py",
        files=CLEAN,
        confirm="1 file would be left unchanged",
    )
)
add(
    case(
        "black-check-dirty",
        "black",
        "plain_failure",
        None,
        "--check finds a file black would reformat",
        "black --check app.py",
        files=UGLY,
    )
)
add(
    case(
        "black-diff-color",
        "black",
        "coloured_output",
        "success",
        "--diff --color shows the change without touching the file; exit 0",
        "black --diff --color app.py",
        files=UGLY,
    )
)
add(
    case(
        "black-syntax-error",
        "black",
        "plain_failure",
        None,
        "black cannot parse the file (exit 123)",
        "black app.py",
        files={"app.py": "def f(:\n  pass\n"},
        expect=123,
    )
)
add(
    case(
        "black-check-or-true",
        "black",
        "exit0_hidden_failure",
        None,
        "format check fails in a step ending with `|| true`",
        "black --check app.py || true",
        files=UGLY,
        group="black-check-dirty",
        confirm="would reformat",
    )
)

# --- mypy -----------------------------------------------------------------------------------

add(
    case(
        "mypy-clean",
        "mypy",
        "plain_success",
        None,
        "mypy finds no issues",
        "mypy --no-incremental app.py",
        files=CLEAN,
        confirm="Success",
    )
)
add(
    case(
        "mypy-errors",
        "mypy",
        "plain_failure",
        None,
        "two type errors",
        "mypy --no-incremental m.py",
        files=TYPED_BAD,
    )
)
add(
    case(
        "mypy-errors-color",
        "mypy",
        "coloured_output",
        "failure",
        "forced colour output with type errors",
        "mypy --no-incremental --color-output m.py",
        files=TYPED_BAD,
        env={"MYPY_FORCE_COLOR": "1", "TERM": "xterm-256color"},
        group="mypy-errors",
    )
)
add(
    case(
        "mypy-errors-or-true",
        "mypy",
        "exit0_hidden_failure",
        None,
        "type errors in a step ending with `|| true`",
        "mypy --no-incremental m.py || true",
        files=TYPED_BAD,
        group="mypy-errors",
        confirm="error:",
    )
)
add(
    case(
        "mypy-notes-only",
        "mypy",
        "success_alarming_stderr",
        None,
        "reveal_type notes print but there are no errors",
        "mypy --no-incremental n.py",
        files={"n.py": "x = [1, 2]\nreveal_type(x)\n"},
        confirm="note:",
    )
)
add(
    case(
        "mypy-missing-import",
        "mypy",
        "plain_failure",
        None,
        "a module imports a package without stubs or source",
        "mypy --no-incremental i.py",
        files={"i.py": "import corpus_not_there\n"},
    )
)
add(
    case(
        "mypy-strict-clean-color",
        "mypy",
        "coloured_output",
        "success",
        "forced colour, strict mode, no issues",
        "mypy --strict --no-incremental --color-output app.py",
        files=CLEAN,
        env={"MYPY_FORCE_COLOR": "1", "TERM": "xterm-256color"},
        group="mypy-clean",
    )
)

# --- pylint ---------------------------------------------------------------------------------

PYL_CLEAN = {
    "mod.py": '"""Module."""\n\n\ndef add(a: int, b: int) -> int:\n    """Add."""\n    return a + b\n'
}
add(
    case(
        "pylint-clean",
        "pylint",
        "success_alarming_stderr",
        None,
        "pylint rates the module 10.00/10",
        "pylint mod.py",
        files=PYL_CLEAN,
        confirm="10.00/10",
    )
)
add(
    case(
        "pylint-issues",
        "pylint",
        "plain_failure",
        None,
        "pylint finds an undefined variable and missing docstrings",
        "pylint app.py",
        files={"app.py": "def f():\n    return undefined_thing\n"},
    )
)
add(
    case(
        "pylint-issues-color",
        "pylint",
        "coloured_output",
        "failure",
        "colorized output with issues",
        "pylint --output-format=colorized app.py",
        files={"app.py": "def f():\n    return undefined_thing\n"},
        group="pylint-issues",
    )
)
add(
    case(
        "pylint-exit-zero",
        "pylint",
        "exit0_hidden_failure",
        None,
        "pylint with --exit-zero reports an error-class message (E0602) and exits 0",
        "pylint --exit-zero app.py",
        files={"app.py": '"""M."""\n\n\ndef f():\n    """F."""\n    return undefined_thing\n'},
        confirm="E0602",
    )
)
add(
    case(
        "pylint-disable-all-but-ok",
        "pylint",
        "plain_success",
        None,
        "pylint restricted to errors only on a correct module",
        "pylint -E mod.py",
        files=PYL_CLEAN,
    )
)

# --- flake8 ---------------------------------------------------------------------------------

add(
    case(
        "flake8-clean",
        "flake8",
        "plain_success",
        None,
        "flake8 finds nothing",
        "flake8 app.py",
        files=CLEAN,
    )
)
add(
    case(
        "flake8-issues",
        "flake8",
        "plain_failure",
        None,
        "flake8 reports style and unused-import errors",
        "flake8 app.py",
        files=UGLY,
    )
)
add(
    case(
        "flake8-issues-color",
        "flake8",
        "coloured_output",
        "failure",
        "--color=always with issues",
        "flake8 --color=always app.py",
        files=UGLY,
        group="flake8-issues",
    )
)
add(
    case(
        "flake8-exit-zero",
        "flake8",
        "exit0_hidden_failure",
        None,
        "flake8 --exit-zero reports an undefined name (F821) and exits 0",
        "flake8 --exit-zero app.py",
        files={"app.py": "def f():\n    return undefined_thing\n"},
        confirm="F821",
    )
)
add(
    case(
        "flake8-count-zero",
        "flake8",
        "success_alarming_stderr",
        None,
        "--count on a clean file prints the count of errors: 0",
        "flake8 --count app.py",
        files=CLEAN,
        confirm="^0",
    )
)

# --- isort ----------------------------------------------------------------------------------

add(
    case(
        "isort-fix",
        "isort",
        "success_alarming_stderr",
        None,
        "isort reorders imports and reports `Fixing` the file",
        "isort app.py && cat app.py",
        files={"app.py": "import sys\nimport os\n\nprint(os, sys)\n"},
        confirm="Fixing",
    )
)
add(
    case(
        "isort-check-dirty",
        "isort",
        "plain_failure",
        None,
        "--check-only finds unsorted imports (ERROR line on stderr)",
        "isort --check-only app.py",
        files={"app.py": "import sys\nimport os\n\nprint(os, sys)\n"},
    )
)
add(
    case(
        "isort-check-clean",
        "isort",
        "plain_success",
        None,
        "--check-only on sorted imports",
        "isort --check-only app.py",
        files=CLEAN,
    )
)

# --- yamllint -------------------------------------------------------------------------------

add(
    case(
        "yamllint-clean",
        "yamllint",
        "plain_success",
        None,
        "a valid YAML file",
        "yamllint -d relaxed ok.yaml",
        files={"ok.yaml": "name: app\nreplicas: 3\nports:\n  - 80\n  - 443\n"},
    )
)
add(
    case(
        "yamllint-errors",
        "yamllint",
        "plain_failure",
        None,
        "duplicate keys and a syntax error",
        "yamllint bad.yaml",
        files={"bad.yaml": "name: app\nname: other\nports: [80, 443\n"},
    )
)
add(
    case(
        "yamllint-warnings-only",
        "yamllint",
        "success_alarming_stderr",
        None,
        "only warnings (document start, truthy); exit 0",
        "yamllint w.yaml",
        files={"w.yaml": "enabled: yes\nname: app\n"},
        confirm="warning",
    )
)
add(
    case(
        "yamllint-colored-errors",
        "yamllint",
        "coloured_output",
        "failure",
        "colored format with errors",
        "yamllint -f colored bad.yaml",
        files={"bad.yaml": "key: value\nkey: again\n"},
    )
)

# --- bandit ---------------------------------------------------------------------------------

add(
    case(
        "bandit-clean",
        "bandit",
        "success_alarming_stderr",
        None,
        "bandit finds no issues; its INFO log lines go to stderr",
        "bandit -r src",
        files={"src/ok.py": "def add(a, b):\n    return a + b\n"},
        confirm="No issues identified",
    )
)
add(
    case(
        "bandit-issues",
        "bandit",
        "plain_failure",
        None,
        "bandit flags shell=True and a hardcoded password",
        "bandit -r src",
        files={
            "src/bad.py": 'import subprocess\npassword = "hunter2"\nsubprocess.call("ls " + input(), shell=True)\n'
        },
    )
)
add(
    case(
        "bandit-issues-exit-zero",
        "bandit",
        "exit0_hidden_failure",
        None,
        "bandit --exit-zero still finds a high-severity issue",
        "bandit --exit-zero -r src",
        files={"src/bad.py": 'import subprocess\nsubprocess.call("ls " + input(), shell=True)\n'},
        confirm="B602",
    )
)

# --- autopep8 -------------------------------------------------------------------------------

add(
    case(
        "autopep8-inplace",
        "autopep8",
        "plain_success",
        None,
        "autopep8 fixes the file in place",
        "autopep8 -i app.py && cat app.py",
        files=UGLY,
        confirm="def f\\(x\\)",
    )
)
add(
    case(
        "autopep8-verbose",
        "autopep8",
        "success_alarming_stderr",
        None,
        "-v reports each issue it fixed on stderr",
        "autopep8 -v -i app.py",
        files=UGLY,
        confirm="issue",
    )
)
add(
    case(
        "autopep8-missing-file",
        "autopep8",
        "plain_failure",
        None,
        "autopep8 on a file that does not exist",
        "autopep8 -i nope.py",
    )
)

# --- shellcheck -----------------------------------------------------------------------------

SH_BAD = {"deploy.sh": "#!/bin/bash\nfor f in $(ls *.txt); do\n  cp $f /backup/\ndone\ncd $DIR\n"}
SH_OK = {
    "ok.sh": '#!/bin/bash\nset -euo pipefail\nfor f in ./*.txt; do\n  cp -- "$f" /tmp/\ndone\n'
}
add(
    case(
        "shellcheck-clean",
        "shellcheck",
        "plain_success",
        None,
        "shellcheck finds nothing in a careful script",
        "shellcheck ok.sh",
        files=SH_OK,
    )
)
add(
    case(
        "shellcheck-issues",
        "shellcheck",
        "plain_failure",
        None,
        "unquoted variables and ls parsing are flagged",
        "shellcheck deploy.sh",
        files=SH_BAD,
    )
)
add(
    case(
        "shellcheck-issues-color",
        "shellcheck",
        "coloured_output",
        "failure",
        "--color=always with issues",
        "shellcheck --color=always deploy.sh",
        files=SH_BAD,
        group="shellcheck-issues",
    )
)
add(
    case(
        "shellcheck-or-true",
        "shellcheck",
        "exit0_hidden_failure",
        None,
        "shellcheck issues in a CI step ending with `|| true`",
        "shellcheck deploy.sh || true",
        files=SH_BAD,
        group="shellcheck-issues",
        confirm="SC2",
    )
)
add(
    case(
        "shellcheck-gcc-format",
        "shellcheck",
        "plain_failure",
        None,
        "gcc-style output of the same issues",
        "shellcheck -f gcc deploy.sh",
        files=SH_BAD,
        group="shellcheck-issues",
    )
)
