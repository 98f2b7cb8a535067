"""Fifth fresh batch (ids ``fresh5-*``): tools new to the corpus (Ruby, Perl, Java, PHP, C and
protobuf tooling, doc tools, Python project tooling and JavaScript test runners and linters)."""

from __future__ import annotations

import json

from casekit import batch, dedent

CASES, add = batch("fresh5")


# --- rubocop -------------------------------------------------------------------------------------

RB = {
    "lib/order.rb": dedent("""
        class Order
          def initialize(items)
            @items=items
          end
          def total
            sum = 0
            @items.each { |i| sum = sum + i[:price] * i[:qty] }
            return sum
          end
        end
    """),
}
add(
    "rubocop-offenses",
    "rubocop",
    "plain_failure",
    None,
    "rubocop inspects a Ruby class with style offenses (missing frozen string comment, spacing, redundant return) and exits 1",
    "rubocop --cache false lib",
    files=RB,
    expect=1,
    confirm=r"offenses? detected",
)
add(
    "rubocop-autocorrect-all-fixed",
    "rubocop",
    "success_alarming_stderr",
    None,
    "rubocop -A corrects every offense it reports ([Corrected] on each) and exits 0; a plain re-run finds no offenses",
    "rubocop --cache false --except Style/Documentation -A lib; rubocop --cache false --except Style/Documentation lib",
    files=RB,
    confirm=r"(?s)(?=.*\[Corrected\])(?=.*no offenses detected)",
)
add(
    "rubocop-fail-level-fatal",
    "rubocop",
    "exit0_hidden_failure",
    None,
    "the lint step runs rubocop with --fail-level F so only fatal errors fail; a Lint/UselessAssignment warning and a syntax-adjacent offense are reported and it exits 0",
    "rubocop --cache false --fail-level F --only Lint lib",
    files={"lib/x.rb": "def price(q)\n  unused = q * 2\n  if q = 3\n    q\n  end\nend\n"},
    confirm=r"Lint/UselessAssignment",
)

# --- perlcritic / prove --------------------------------------------------------------------------

add(
    "perlcritic-ok-line",
    "perlcritic",
    "plain_success",
    None,
    "perlcritic at default severity finds nothing in a strict, warnings-clean script and prints 'source OK'",
    "perlcritic clean.pl",
    files={
        "clean.pl": 'use strict;\nuse warnings;\nmy $n = 0;\nfor my $i (1 .. 3) { $n += $i; }\nprint "$n\\n";\n'
    },
    confirm=r"source OK",
)
add(
    "prove-failing-test-or-true",
    "prove",
    "exit0_hidden_failure",
    None,
    "a Makefile-less CI line runs 'prove -l t || true'; one TAP assertion fails and the step exits 0",
    "prove -l t || true",
    files={
        "t/basic.t": "use strict; use warnings;\nuse Test::More tests => 3;\nok(1, 'loads');\nis(lc('ABC'), 'abc', 'lc');\nis(sprintf('%.2f', 2.675), '2.68', 'rounding');\n",
    },
    confirm=r"Result: FAIL",
)
add(
    "prove-diag-stderr-pass",
    "prove",
    "success_alarming_stderr",
    None,
    "prove -v runs tests that print diag() messages about expected errors ('# connection refused, using fallback'); all pass",
    "prove -v t",
    files={
        "t/fallback.t": "use strict; use warnings;\nuse Test::More;\ndiag('ERROR: cache connection refused, using in-memory fallback');\nok(1, 'fallback store works');\nis(2 + 2, 4, 'math');\ndone_testing;\n",
    },
    confirm=r"(?s)(?=.*connection refused)(?=.*Result: PASS)",
)

# --- protoc --------------------------------------------------------------------------------------

add(
    "protoc-undefined-type",
    "protoc",
    "plain_failure",
    None,
    "protoc compiles an API definition that references an undefined message type; it errors and exits 1",
    "protoc --python_out=gen api.proto",
    files={
        "api.proto": 'syntax = "proto3";\npackage shop;\nmessage Order { int64 id = 1; Customer customer = 2; }\n'
    },
    setup="mkdir gen",
    expect=1,
    confirm=r"\"Customer\" is not defined",
)
add(
    "protoc-generate-unused-import-warn",
    "protoc",
    "success_alarming_stderr",
    None,
    "protoc generates Python code from a proto that imports a file it does not use; it warns 'Import common.proto is unused' and writes the module, exit 0",
    "protoc --python_out=gen order.proto && ls gen",
    files={
        "common.proto": 'syntax = "proto3";\npackage shop;\nmessage Money { int64 cents = 1; }\n',
        "order.proto": 'syntax = "proto3";\npackage shop;\nimport "common.proto";\nmessage Order { int64 id = 1; }\n',
    },
    setup="mkdir gen",
    confirm=r"(?s)(?=.*unused)(?=.*order_pb2\.py)",
)
add(
    "protoc-loop-last-ok",
    "protoc",
    "exit0_hidden_failure",
    None,
    "a codegen script loops over proto files and runs protoc on each; the first has a duplicate field number and fails, the last compiles and the loop exits 0",
    'for p in protos/*.proto; do protoc -Iprotos --python_out=gen "$p"; done; ls gen',
    files={
        "protos/a_user.proto": 'syntax = "proto3";\nmessage User { string name = 1; string email = 1; }\n',
        "protos/b_item.proto": 'syntax = "proto3";\nmessage Item { string sku = 1; }\n',
    },
    setup="mkdir gen",
    confirm=r"has already been used",
)

# --- xsltproc / jsonnet --------------------------------------------------------------------------

add(
    "xsltproc-transform-ok",
    "xsltproc",
    "plain_success",
    None,
    "xsltproc turns a JUnit XML report into a plain-text summary with an XSLT stylesheet; exits 0",
    "xsltproc summary.xsl junit.xml",
    files={
        "junit.xml": '<testsuite name="api" tests="2" failures="0"><testcase name="get"/><testcase name="post"/></testsuite>\n',
        "summary.xsl": '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:output method="text"/><xsl:template match="/testsuite">suite <xsl:value-of select="@name"/>: <xsl:value-of select="@tests"/> tests, <xsl:value-of select="@failures"/> failures\n</xsl:template></xsl:stylesheet>\n',
    },
    confirm=r"suite api: 2 tests, 0 failures",
)
add(
    "xsltproc-missing-file-or-echo",
    "xsltproc",
    "exit0_hidden_failure",
    None,
    "a docs build runs 'xsltproc -o site/index.html site.xsl content.xml || echo ...'; the content file was not generated, xsltproc fails and the step exits 0",
    "xsltproc -o index.html site.xsl content.xml || echo 'docs: xslt step had problems'",
    files={
        "site.xsl": '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/">x</xsl:template></xsl:stylesheet>\n'
    },
    confirm=r"failed to load external entity",
)
add(
    "jsonnet-render-ok",
    "jsonnet",
    "plain_success",
    None,
    "jsonnet renders a deployment config with a function and an override; prints JSON and exits 0",
    "jsonnet deploy.jsonnet",
    files={
        "deploy.jsonnet": "local svc(name, port) = { name: name, port: port, replicas: 2 };\n{ api: svc('api', 8080) { replicas: 3 }, web: svc('web', 80) }\n"
    },
    confirm=r'"replicas": 3',
)
add(
    "jsonnet-error-stack",
    "jsonnet",
    "plain_failure",
    None,
    "jsonnet evaluates a config whose assert fails for a missing image tag; it prints RUNTIME ERROR with a stack and exits 1",
    "jsonnet deploy.jsonnet",
    files={
        "deploy.jsonnet": "local img(tag) = assert tag != '' : 'image tag must not be empty'; 'registry.local/api:' + tag;\n{ image: img(std.extVar('TAG')) }\n".replace(
            "std.extVar('TAG')", "''"
        )
    },
    expect=1,
    confirm=r"RUNTIME ERROR: image tag must not be empty",
)
add(
    "jsonnet-redirect-empty-file",
    "jsonnet",
    "exit0_hidden_failure",
    None,
    "a render script runs 'jsonnet x.jsonnet > out.json; kubectl-like validate with jq empty'; jsonnet fails, out.json is empty and 'jq empty' accepts empty input, so the script exits 0",
    "jsonnet app.jsonnet > out.json; jq empty out.json && echo 'manifest valid'",
    files={"app.jsonnet": "{ replicas: std.parseInt('three') }\n"},
    confirm=r"(?s)(?=.*RUNTIME ERROR)(?=.*manifest valid)",
)

# --- composer ------------------------------------------------------------------------------------

add(
    "composer-dump-autoload-ok",
    "composer",
    "plain_success",
    None,
    "composer dump-autoload generates the PSR-4 autoloader for a project without dependencies, and a PHP script loads a class through it; exit 0",
    "composer dump-autoload --no-interaction 2>&1 && php -r 'require \"vendor/autoload.php\"; echo (new Acme\\Cart())->total(), PHP_EOL;'",
    files={
        "composer.json": json.dumps(
            {"name": "acme/shop", "autoload": {"psr-4": {"Acme\\": "src/"}}}
        ),
        "src/Cart.php": "<?php\nnamespace Acme;\nclass Cart { public function total(): int { return 42; } }\n",
    },
    env={"COMPOSER_HOME": "/tmp/fresh5-composer", "COMPOSER_ALLOW_SUPERUSER": "1"},
    confirm=r"(?s)(?=.*[Gg]enerat)(?=.*42)",
)

# --- checkstyle ----------------------------------------------------------------------------------

CS_CFG = dedent("""
    <?xml version="1.0"?>
    <!DOCTYPE module PUBLIC "-//Checkstyle//DTD Checkstyle Configuration 1.3//EN" "https://checkstyle.org/dtds/configuration_1_3.dtd">
    <module name="Checker">
      <module name="TreeWalker">
        <module name="UnusedImports"/>
        <module name="MagicNumber"/>
        <module name="NeedBraces"/>
      </module>
    </module>
""")
CS_SRC = "import java.util.List;\npublic class Price {\n  int tax(int n) {\n    if (n > 0) return n * 21 / 100;\n    return 0;\n  }\n}\n"
add(
    "checkstyle-violations",
    "checkstyle",
    "plain_failure",
    None,
    "checkstyle with UnusedImports, MagicNumber and NeedBraces finds violations in a Java class and exits with their count",
    "checkstyle -c cs.xml Price.java",
    files={"cs.xml": CS_CFG, "Price.java": CS_SRC},
    expect="nonzero",
    confirm=r"\[ERROR\].*(UnusedImports|MagicNumber|NeedBraces)",
    group="fresh5-checkstyle-price",
)
add(
    "checkstyle-warning-severity-exit0",
    "checkstyle",
    "exit0_hidden_failure",
    None,
    "the config sets severity=warning for every check so checkstyle exits 0; it still reports the unused import and the magic number as [WARN]",
    "checkstyle -c cs.xml Price.java",
    files={
        "cs.xml": CS_CFG.replace(
            '<module name="Checker">',
            '<module name="Checker">\n  <property name="severity" value="warning"/>',
        ),
        "Price.java": CS_SRC,
    },
    confirm=r"\[WARN\].*UnusedImports",
    group="fresh5-checkstyle-price",
)

# --- ccache / indent -----------------------------------------------------------------------------

add(
    "ccache-stats-hits-ok",
    "ccache",
    "plain_success",
    None,
    "ccache gcc compiles the same file twice (a miss, then a hit) and prints its statistics; exit 0",
    "ccache -z >/dev/null && ccache gcc -c ok.c && rm ok.o && ccache gcc -c ok.c && ccache -s",
    files={"ok.c": "int ok(void){return 7;}\n"},
    setup="rm -rf /tmp/fresh5-ccache-hits",
    env={"CCACHE_DIR": "/tmp/fresh5-ccache-hits"},
    confirm=r"(?i)hits",
)
add(
    "indent-format-error-or-true",
    "indent",
    "exit0_hidden_failure",
    None,
    "a C formatting step runs 'indent -kr src/*.c || true'; indent cannot parse an unbalanced brace, reports an error and the step exits 0",
    "indent -kr -o out.c src/bad.c || true",
    files={"src/bad.c": "int main(void) {\n  if (1) {\n    return 0;\n\n"},
    confirm=r"(?i)error",
)

# --- asciidoctor / mandoc ------------------------------------------------------------------------

add(
    "asciidoctor-missing-include-warn",
    "asciidoctor",
    "exit0_hidden_failure",
    None,
    "asciidoctor builds the manual; an include file is missing, asciidoctor logs an ERROR and still writes the HTML, exit 0 (no --failure-level)",
    "asciidoctor -o manual.html manual.adoc && ls manual.html",
    files={
        "manual.adoc": "= Manual\n\n== Install\n\ninclude::install-steps.adoc[]\n\n== Use\n\nRun it.\n"
    },
    confirm=r"include file not found",
)
add(
    "asciidoctor-clean-ok",
    "asciidoctor",
    "plain_success",
    None,
    "asciidoctor converts a small document to HTML without warnings and the file has its title; exit 0",
    "asciidoctor -o out.html doc.adoc && grep -o '<h1>Release notes</h1>' out.html",
    files={"doc.adoc": "= Release notes\n\n== 1.2.0\n\n* Fixed the import of empty files.\n"},
    confirm=r"<h1>Release notes</h1>",
)
add(
    "mandoc-render-pipe-head",
    "mandoc",
    "exit0_hidden_failure",
    None,
    "a docs step renders a man page with 'mandoc -T lint tool.1 | head'; mandoc reports an ERROR and head exits 0",
    "mandoc -W error -T lint tool.1 | head -5",
    files={
        "tool.1": ".Dd $Mdocdate$\n.Dt TOOL 1\n.Os\n.Sh NAME\n.Nm tool\n.Sh DESCRIPTION\n.Bl -tag\n.It foo\n"
    },
    confirm=r"ERROR",
)

# --- detect-secrets / typos / lizard -------------------------------------------------------------

add(
    "detect-secrets-scan-json-exit0",
    "detect-secrets",
    "exit0_hidden_failure",
    None,
    "the secret-scan step runs 'detect-secrets scan' (which always exits 0) and stores the baseline; the JSON lists a private key found in the repo",
    "git init -q . && git add -A && detect-secrets scan . > .secrets.baseline; jq '.results | to_entries[] | {file: .key, type: .value[0].type}' .secrets.baseline",
    files={
        "deploy/id_rsa": "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7fake0key0material0for0the0corpus0only0000000\n-----END RSA PRIVATE KEY-----\n",
        "app.py": "print('hi')\n",
    },
    confirm=r"Private Key",
)
add(
    "typos-write-changes-ok",
    "typos",
    "plain_success",
    None,
    "typos --write-changes fixes the misspellings in place and a second check is clean; exit 0",
    "typos --write-changes . ; typos . && cat README.md",
    files={"README.md": "Call recieve() to get messages.\n"},
    confirm=r"receive\(\)",
)
add(
    "lizard-ccn-warnings-exit0",
    "lizard",
    "exit0_hidden_failure",
    None,
    "a complexity gate runs 'lizard -C 5 src' and ignores its warning count by piping to tail; a function exceeds CCN 5 and the pipeline exits 0",
    "lizard -C 5 src | tail -8",
    files={
        "src/route.py": "def route(m, p, a, b):\n    if m == 'GET':\n        if p == '/':\n            return 1\n        elif p == '/a':\n            return 2\n    elif m == 'POST':\n        if a and b:\n            return 3\n        elif a or b:\n            return 4\n    return 0\n",
    },
    confirm=r"(?i)warning",
)
add(
    "lizard-clean-ok",
    "lizard",
    "plain_success",
    None,
    "lizard analyses small functions under the default thresholds and reports no warnings; exit 0",
    "lizard src",
    files={"src/m.py": "def add(a, b):\n    return a + b\n\ndef neg(a):\n    return -a\n"},
    confirm=r"No thresholds exceeded",
)

# --- pipdeptree / cookiecutter / towncrier / bump-my-version -------------------------------------

add(
    "pipdeptree-warn-conflicts",
    "pipdeptree",
    "success_alarming_stderr",
    None,
    "pipdeptree prints the dependency tree of a venv with a conflicting pin; it warns 'Possibly conflicting dependencies found' on stderr and exits 0 (--warn silence is not set, default warn)",
    "pipdeptree --python v/bin/python -p plugin",
    setup=dedent("""
        mkdir -p pkgs/corelib/corelib pkgs/plugin/plugin wh
        printf 'from setuptools import setup\\nsetup(name="corelib", version="2.0", packages=["corelib"])\\n' > pkgs/corelib/setup.py
        : > pkgs/corelib/corelib/__init__.py
        printf 'from setuptools import setup\\nsetup(name="plugin", version="1.0", packages=["plugin"], install_requires=["corelib<2"])\\n' > pkgs/plugin/setup.py
        : > pkgs/plugin/plugin/__init__.py
        pip wheel -q --no-build-isolation --no-deps -w wh ./pkgs/corelib ./pkgs/plugin
        python3 -m venv v
        v/bin/pip install -q --no-index --no-deps wh/*.whl
    """),
    confirm=r"(?s)(?=.*conflicting)(?=.*plugin==1\.0)",
)
COOKIE = {
    "tmpl/cookiecutter.json": json.dumps({"project_slug": "demo", "author": "corpus"}),
    "tmpl/{{cookiecutter.project_slug}}/README.md": "# {{ cookiecutter.project_slug }} by {{ cookiecutter.author }}\n",
}
add(
    "cookiecutter-render-ok",
    "cookiecutter",
    "plain_success",
    None,
    "cookiecutter renders a local template non-interactively with an override; the project directory is created",
    "cookiecutter --no-input tmpl project_slug=billing && cat billing/README.md",
    files=COOKIE,
    env={"COOKIECUTTER_CONFIG": "/dev/null"},
    confirm=r"# billing by corpus",
)
add(
    "cookiecutter-hook-fails-or-true",
    "cookiecutter",
    "exit0_hidden_failure",
    None,
    "a scaffolding script runs 'cookiecutter ... || true'; the template's post_gen_project hook fails on a git command and cookiecutter removes the project, yet the script exits 0",
    "cookiecutter --no-input tmpl || true; ls -d demo 2>&1 || echo 'no project generated'",
    files={
        **COOKIE,
        "tmpl/hooks/post_gen_project.py": "import sys\nprint('ERROR: could not initialise git repository: not a git repository', file=sys.stderr)\nsys.exit(1)\n",
    },
    env={"COOKIECUTTER_CONFIG": "/dev/null"},
    confirm=r"(?i)hook script failed",
)
TOWN = {
    "pyproject.toml": '[tool.towncrier]\npackage = "app"\npackage_dir = "."\nfilename = "CHANGES.md"\ndirectory = "changes"\n',
    "app/__init__.py": '__version__ = "1.4.0"\n',
    "CHANGES.md": "# Changes\n\n<!-- towncrier release notes start -->\n",
}
add(
    "towncrier-build-ok",
    "towncrier",
    "plain_success",
    None,
    "towncrier build --yes assembles two news fragments into CHANGES.md for version 1.4.0; exit 0",
    "git init -q . && git add -A && towncrier build --yes --version 1.4.0 && grep 'Fix' CHANGES.md",
    files={
        **TOWN,
        "changes/12.bugfix": "Fix crash on empty import file.\n",
        "changes/15.feature": "Add CSV export.\n",
    },
    confirm=r"Fix crash",
)
add(
    "bump-my-version-bump-ok",
    "bump-my-version",
    "plain_success",
    None,
    "bump-my-version bumps the minor version in the config and the module on a clean tree, commits and tags; exit 0",
    "bump-my-version bump minor && git log --oneline -1 && git tag && cat app.py",
    files={
        ".bumpversion.toml": '[tool.bumpversion]\ncurrent_version = "1.4.0"\ncommit = true\ntag = true\n\n[[tool.bumpversion.files]]\nfilename = "app.py"\n',
        "app.py": '__version__ = "1.4.0"\n',
    },
    setup="git init -q . && git add -A && git commit -qm init",
    confirm=r'__version__ = "1\.5\.0"',
)

# --- doit / yoyo / pyinstrument / green / cython / pre-commit-hooks -----------------------------

add(
    "doit-python-action-returns-false-continue",
    "doit",
    "exit0_hidden_failure",
    None,
    "a wrapper runs 'doit --continue ... ; doit list' and keeps the last status; the data task's Python action returns False (a failure) and the wrapper exits 0",
    "doit --continue; doit list",
    files={
        "dodo.py": "def load():\n    print('load: 0 rows read from warehouse (connection refused)')\n    return False\n\ndef task_data():\n    return {'actions': [load], 'verbosity': 2}\n\ndef task_report():\n    return {'actions': ['echo report'], 'verbosity': 2}\n"
    },
    confirm=r"TaskFailed",
)
YOYO = {
    "migrations/0001_init.sql": "create table users (id integer primary key, email text not null);\n",
    "migrations/0002_seed.sql": "insert into users (email) values ('a@x.io');\n",
}
add(
    "yoyo-apply-ok",
    "yoyo",
    "plain_success",
    None,
    "yoyo apply runs two SQL migrations against a new sqlite database in batch mode; sqlite then shows the seeded row",
    "yoyo apply --batch --database sqlite:///app.db migrations && sqlite3 app.db 'select email from users'",
    files=YOYO,
    confirm=r"a@x\.io",
)
add(
    "yoyo-migration-sql-error",
    "yoyo",
    "failure_noisy_stderr",
    None,
    "yoyo apply runs a migration that inserts into a missing column; the sqlite error surfaces with a long Python traceback and yoyo exits 1",
    "yoyo apply --batch --database sqlite:///app.db migrations",
    files={
        **YOYO,
        "migrations/0003_bad.sql": "insert into users (email, name) values ('b@x.io', 'b');\n",
    },
    expect="nonzero",
    confirm=r"(?i)no column named name|has no column",
)
add(
    "pyinstrument-profile-ok",
    "pyinstrument",
    "plain_success",
    None,
    "pyinstrument profiles a short script and prints the call tree; exit 0",
    "pyinstrument --show-all job.py",
    files={
        "job.py": "import time\n\ndef slow():\n    time.sleep(0.2)\n\nslow()\nprint('job done')\n"
    },
    confirm=r"job done",
)
add(
    "green-tee-exit0",
    "green",
    "exit0_hidden_failure",
    None,
    "the test step pipes green through 'tee green.log'; a test errors with a ZeroDivisionError and tee's status is the step's",
    "green -vv test_avg 2>&1 | tee green.log",
    files={
        "test_avg.py": "import unittest\ndef avg(xs):\n    return sum(xs) / len(xs)\nclass T(unittest.TestCase):\n    def test_avg(self):\n        self.assertEqual(avg([2, 4]), 3)\n    def test_empty(self):\n        self.assertEqual(avg([]), 0)\n"
    },
    confirm=r"ZeroDivisionError",
)
add(
    "check-yaml-loop-last-wins",
    "check-yaml",
    "exit0_hidden_failure",
    None,
    "a validation loop runs check-yaml on each config file and echoes 'checked'; the first file has a duplicate key error and the loop exits 0",
    'for f in config/*.yaml; do check-yaml "$f"; echo "checked $f"; done',
    files={"config/a.yaml": "db:\n  host: x\n  host: y\n", "config/b.yaml": "ok: true\n"},
    confirm=r"(?i)duplicate",
)
add(
    "check-wheel-contents-problems",
    "check-wheel-contents",
    "plain_failure",
    None,
    "check-wheel-contents inspects a built wheel that ships a tests/ package at top level; it reports W-codes and exits 1",
    "check-wheel-contents wh/*.whl",
    setup=dedent("""
        mkdir -p src/app tests wh
        : > src/app/__init__.py; : > tests/__init__.py; echo 'def test(): pass' > tests/test_a.py
        cp -r src/app app
        printf 'from setuptools import setup\\nsetup(name="app", version="1.0", packages=["app", "tests"])\\n' > setup.py
        pip wheel -q --no-build-isolation --no-deps -w wh .
    """),
    expect=1,
    confirm=r"W0",
)

# --- JavaScript: cspell / remark / tape / uvu / standard / taplo / sort-package-json -----------

add(
    "cspell-unknown-words",
    "cspell",
    "plain_failure",
    None,
    "cspell lints docs and code, finds unknown words and exits 1",
    "cspell --no-progress --no-cache 'docs/**/*.md'",
    files={"docs/guide.md": "# Guide\n\nThe servce retrys failed requets three times.\n"},
    expect=1,
    confirm=r"Unknown word",
)
add(
    "cspell-no-exit-code-flag",
    "cspell",
    "exit0_hidden_failure",
    None,
    "the spelling step passes --no-exit-code so cspell never fails the build; it reports unknown words and exits 0",
    "cspell --no-progress --no-cache --no-exit-code 'docs/**/*.md'",
    files={"docs/guide.md": "# Guide\n\nConfigure the databse conection string.\n"},
    confirm=r"Unknown word",
)
add(
    "tape-pipe-to-summary",
    "tape",
    "exit0_hidden_failure",
    None,
    "the test step pipes tape's TAP into a node summariser that prints pass/fail counts; a test fails and the summariser exits 0",
    'tape test.js | node -e \'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const ok=(s.match(/^ok /mg)||[]).length, nok=(s.match(/^not ok /mg)||[]).length; console.log(s); console.log(`summary: ${ok} ok, ${nok} not ok`)})\'',
    files={
        "test.js": "const test = require('tape');\ntest('slug', (t) => { t.equal('A B'.toLowerCase().replace(' ', '-'), 'a-b'); t.equal('A  B'.toLowerCase().replace(' ', '-'), 'a-b'); t.end(); });\n"
    },
    setup='ln -s "$(dirname "$(command -v tsc)")/.." node_modules',
    confirm=r"summary: 1 ok, 1 not ok",
)
add(
    "uvu-pass-with-console-error",
    "uvu",
    "success_alarming_stderr",
    None,
    "uvu runs tests for a validator that console.error()s each rejected payload; all assertions pass, exit 0",
    "uvu tests",
    files={
        "tests/validate.js": "const { test } = require('uvu');\nconst assert = require('uvu/assert');\nfunction valid(p) { if (!p.email) { console.error('ValidationError: \"email\" is required'); return false; } return true; }\ntest('rejects missing email', () => { assert.is(valid({}), false); });\ntest('accepts email', () => { assert.is(valid({email: 'a@x'}), true); });\ntest.run();\n",
    },
    setup='ln -s "$(dirname "$(command -v tsc)")/.." node_modules',
    confirm=r"(?s)(?=.*ValidationError)(?=.*Passed:\s+2)",
)
add(
    "standard-fix-ok",
    "standard",
    "plain_success",
    None,
    "standard --fix rewrites a file to the style (quotes, semicolons) and a re-check is clean; exit 0",
    "standard --fix src/ && standard src/ && cat src/a.js",
    files={"src/a.js": 'console.log("hi");\n'},
    confirm=r"console\.log\('hi'\)",
)
add(
    "taplo-format-ok-info-logs",
    "taplo",
    "success_alarming_stderr",
    None,
    "taplo fmt formats a TOML file; its log lines on stderr mention the file and there are no errors; the formatted file is checked with --check afterwards, exit 0",
    "taplo fmt Cargo.toml && taplo fmt --check Cargo.toml && cat Cargo.toml",
    files={"Cargo.toml": '[package]\nname="x"\nversion =   "0.1.0"\n'},
    confirm=r'(?s)(?=.*INFO)(?=.*name = "x")',
)
add(
    "sort-package-json-check",
    "sort-package-json",
    "plain_failure",
    None,
    "sort-package-json --check finds an unsorted package.json and exits 1",
    "sort-package-json --check",
    files={
        "package.json": json.dumps(
            {"version": "1.0.0", "scripts": {"test": "x"}, "name": "app"}, indent=2
        )
        + "\n"
    },
    expect=1,
    confirm=r"(?i)not sorted",
)
add(
    "license-checker-fail-on-gpl",
    "license-checker",
    "plain_failure",
    None,
    "license-checker --failOn GPL-3.0 scans a project whose dependency declares GPL-3.0; it reports the forbidden licence and exits 1",
    "license-checker --failOn 'GPL-3.0' --summary",
    files={
        "package.json": json.dumps(
            {
                "name": "app",
                "version": "1.0.0",
                "license": "MIT",
                "dependencies": {"gpl-dep": "1.0.0"},
            }
        )
        + "\n",
        "node_modules/gpl-dep/package.json": json.dumps(
            {"name": "gpl-dep", "version": "1.0.0", "license": "GPL-3.0"}
        )
        + "\n",
    },
    expect=1,
    confirm=r"GPL-3\.0",
)
add(
    "js-yaml-check-loop-or-true",
    "js-yaml",
    "exit0_hidden_failure",
    None,
    "a CI step validates every YAML file with 'js-yaml $f > /dev/null || true'; one file has duplicated mapping keys and the step exits 0",
    "for f in k8s/*.yaml; do js-yaml \"$f\" > /dev/null || true; done; echo 'yaml validated'",
    files={
        "k8s/deploy.yaml": "metadata:\n  name: api\n  name: api2\n",
        "k8s/svc.yaml": "kind: Service\n",
    },
    confirm=r"duplicated mapping key",
)
